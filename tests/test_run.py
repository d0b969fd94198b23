"""The runner with a real benchmark: metadata, timeouts, interruption, no stray processes."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from c18n_ae import run as runner
from conftest import ROOT, compile_benchmark

RECIPE = {"name": "O2", "cc": "cc", "cflags": ["-O2"], "launcher": []}


def still_running(binary):
    out = subprocess.run(["pgrep", "-f", str(binary)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out if int(p) != os.getpid()]


@pytest.fixture
def binary(tmp_path, cc):
    # a directory name of its own, so pgrep finds only this test's processes
    return compile_benchmark(cc, "memory", tmp_path / "bin-under-test" / "memory")


def test_complete_run_writes_raw_and_meta(tmp_path, binary):
    out = tmp_path / "local" / "O2" / "memory"
    meta = runner.run(target="local", variant="O2", experiment="memory", recipe=RECIPE,
                      params={"block_sizes_mib": [1, 2], "trials": 3}, bin_dir=binary.parent,
                      out_dir=out, log=tmp_path / "run.log")
    on_disk = json.loads((out / "meta.json").read_text())
    assert on_disk == meta
    assert meta["status"] == "ok" and meta["exit_status"] == 0
    assert meta["cflags"] == ["-O2"] and meta["compiler_version"]
    assert meta["host"]["cpu_count"] >= 1 and meta["host"]["mem_total_bytes"] > 0
    assert meta["program"]["timer_resolution_ns"] >= 1
    assert meta["started_at"] <= meta["finished_at"]
    assert meta["trials_planned"] == 6 and "trial 6 of 6" in meta["last_progress"]
    assert len((out / "raw.csv").read_text().splitlines()) == 7
    assert "trial 6 of 6" in (tmp_path / "run.log").read_text()


def test_timeout_keeps_rows_and_leaves_no_process(tmp_path, binary):
    out = tmp_path / "out"
    with pytest.raises(runner.RunFailed, match=r"run timeout .*last progress: progress: memory trial \d+ of 100000"):
        runner.run(target="local", variant="O2", experiment="memory", recipe=RECIPE,
                   params={"block_sizes_mib": [8], "trials": 100000}, bin_dir=binary.parent,
                   out_dir=out, log=tmp_path / "run.log", timeout_s=1.5)
    assert not (out / "raw.csv").exists() and not (out / "meta.json").exists()
    rows = (out / "raw.csv.partial").read_text().splitlines()
    assert len(rows) > 2, "rows measured before the timeout must be kept"
    failed = json.loads((out / "run-failed.json").read_text())
    assert failed["status"] == "timeout"
    assert still_running(binary) == []


def test_interrupt_ends_the_benchmark(tmp_path, binary):
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "c18n_ae.run", "--target", json.dumps({"name": "local", "kind": "local"}), "--variant", "O2", "--experiment", "memory",
           "--recipe", json.dumps(RECIPE), "--params", json.dumps({"block_sizes_mib": [8], "trials": 100000}),
           "--bin-dir", str(binary.parent), "--out-dir", str(out), "--log", str(tmp_path / "run.log")]
    proc = subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                            stderr=subprocess.PIPE, text=True)
    partial = out / "raw.csv.partial"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (not partial.exists() or len(partial.read_text().splitlines()) < 3):
        time.sleep(0.05)
    assert still_running(binary), "the benchmark should be running by now"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert "run interrupted" in err
    assert json.loads((out / "run-failed.json").read_text())["status"] == "interrupted"
    assert still_running(binary) == []
