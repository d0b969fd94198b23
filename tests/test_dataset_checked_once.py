"""A data set is checked once while its folder stays as it was (common.datasets.load keeps the
checked metadata beside the folder's state): the workflow loads each data set several times while
it parses, and every job too. Any change to a file the checks read is checked again, and each
caller gets a copy of its own. A job reads a data set that snakemake checked, and that is still as
it was, without checking it again (datasets.PASSED_ON)."""

import os
import shutil
import subprocess
import sys

import pytest

from c18n_ae.common import datasets
from c18n_ae.common.rawcsv import RawDataError
from conftest import ROOT


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "cheribsd-22.12"
    shutil.copytree(ROOT / "datasets" / "cheribsd-22.12", d)
    return d


def test_a_changed_binary_is_checked_again(folder, monkeypatch):
    checks = []
    real = datasets.call_sites.mistakes
    monkeypatch.setattr(datasets.call_sites, "mistakes", lambda *a: checks.append(1) or real(*a))
    first = datasets.load(str(folder))
    assert datasets.load(str(folder)) == first
    assert len(checks) == 1  # the binaries decoded once
    binary = folder / "binaries" / "cpu-out-experiment.hybrid-22.12"
    data = bytearray(binary.read_bytes())
    data[-1] ^= 0xFF  # same size, same inode
    binary.write_bytes(bytes(data))
    with pytest.raises(RawDataError, match="does not have the recorded SHA-256"):
        datasets.load(str(folder))
    data[-1] ^= 0xFF
    binary.write_bytes(bytes(data))
    assert datasets.load(str(folder)) == first
    assert len(checks) == 3  # before, broken, restored


def test_an_edit_of_dataset_yaml_within_one_clock_tick_is_seen(folder):
    yaml_file = folder / "dataset.yaml"
    first = datasets.load(str(folder))
    text = yaml_file.read_text()
    times = os.stat(yaml_file)
    # the same length and modification time, as a rewrite within one tick of the clock has
    yaml_file.write_text(text.replace("reference_variant: ", "reference_variant: x", 1)[:-1])
    os.utime(yaml_file, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert os.stat(yaml_file).st_size == times.st_size
    with pytest.raises(RawDataError, match="reference_variant"):
        datasets.load(str(folder))
    yaml_file.write_text(text)
    assert datasets.load(str(folder)) == first


def test_a_removed_or_added_file_is_checked_again(folder):
    datasets.load(str(folder))
    (folder / "binaries" / "cpu-out-experiment.hybrid-22.12").unlink()
    with pytest.raises(RawDataError, match="not found"):
        datasets.load(str(folder))


def test_each_caller_gets_its_own_copy(folder):
    mine = datasets.load(str(folder))
    mine["variants"].clear()
    assert datasets.load(str(folder))["variants"]


# A job: loads the data set named on its command line and prints how many times its binaries were
# decoded (the costliest check), or the error.
JOB = """
import sys
from c18n_ae.common import datasets
decoded, real = [], datasets.call_sites.mistakes
datasets.call_sites.mistakes = lambda *a: decoded.append(1) or real(*a)
try:
    meta = datasets.load(sys.argv[1])
    print(len(decoded), meta["directory"])
except datasets.RawDataError as e:
    print(e)
"""


def job(folder, passed_on: str) -> str:
    env = {**os.environ, datasets.PASSED_ON: passed_on}
    done = subprocess.run(
        [sys.executable, "-c", JOB, str(folder)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_job_reads_what_its_parent_checked_unless_it_changed(folder):
    assert job(folder, "") == f"1 {folder}"  # nothing passed on: checked
    datasets.load(str(folder))
    passed_on = datasets.passed_on()
    assert job(folder, passed_on) == f"0 {folder}"  # checked by this process, as it is
    binary = folder / "binaries" / "cpu-out-experiment.hybrid-22.12"
    data = bytearray(binary.read_bytes())
    data[-1] ^= 0xFF  # same size, same inode: changed after the parent's check
    binary.write_bytes(bytes(data))
    assert "does not have the recorded SHA-256" in job(folder, passed_on)
