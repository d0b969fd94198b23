"""The shipped copy of the published figures is the shared reference, byte for byte."""

import subprocess

import pytest

from conftest import ROOT

SHARED = ROOT.parent / "shared" / "reference"
PUBLISHED = ROOT / "published"


def test_every_published_file_is_shipped():
    names = {p.name for p in PUBLISHED.glob("*.csv")}
    assert {
        "morello_c18n_2024.csv",
        "morello_claims_2024.csv",
        "morello_trust_model_2024.csv",
        "pytilia_packet_2023.csv",
        "flask_ipc_1999.csv",
        "sgx_alloc_2023.csv",
    } <= names


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/reference is not beside this checkout")
def test_copy_matches_the_shared_reference():
    for src in SHARED.glob("*.csv"):
        assert (PUBLISHED / src.name).read_bytes() == src.read_bytes(), src.name
    assert (PUBLISHED / "TRANSCRIPTION.md").read_bytes() == (SHARED / "README.md").read_bytes()


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_results_holds_outputs_only():
    """Nothing under results/ is tracked: removing it to start clean loses no input."""
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "results"], capture_output=True, text=True, check=True
    ).stdout
    assert tracked == "", tracked
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "results/x.csv"])
    assert ignored.returncode == 0, "results/ is not ignored by .gitignore"
