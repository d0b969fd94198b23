"""The claims file is checked against its schema once, by snakemake while it loads
(workflow/rules/wiring.smk): a job given the digest of the same document skips the check and
jsonschema's import; a document that differs from what the parent checked is checked again, so an
invalid one is still refused with its message."""

import os
import subprocess
import sys

import pytest

from c18n_ae.analysis import claim_type
from conftest import ROOT

CLAIMS = ROOT / "config" / "claims.yaml"
CHILD = """
import sys
from c18n_ae.analysis import claim_type
try:
    claims, least = claim_type.read(sys.argv[1])
    print("read", len(claims), least, "jsonschema" in sys.modules)
except claim_type.ClaimError as e:
    print("refused", str(e).splitlines()[0])
"""


def child(path, passed_on: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != claim_type.PASSED_ON}
    if passed_on is not None:
        env[claim_type.PASSED_ON] = passed_on
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture(scope="module")
def parent_digest():
    claim_type.read(CLAIMS)
    return claim_type.passed_on()


def test_a_job_reads_what_its_parent_checked_without_jsonschema(parent_digest):
    skipped, checked = child(CLAIMS, parent_digest), child(CLAIMS, None)
    assert skipped.startswith("read") and skipped.endswith("False"), skipped
    assert checked.startswith("read") and checked.endswith("True"), checked
    assert skipped.split()[:3] == checked.split()[:3]  # the same claims and min_trials


def test_a_document_the_parent_did_not_check_is_checked(parent_digest, tmp_path):
    bad = tmp_path / "claims.yaml"
    bad.write_text(CLAIMS.read_text().replace("\nmin_trials: 10\n", "\nmin_trials: -3\n"))
    assert "\nmin_trials: -3\n" in bad.read_text()
    said = child(bad, parent_digest)
    assert said.startswith("refused") and "min_trials" in said, said
