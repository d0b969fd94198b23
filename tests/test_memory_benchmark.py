"""The real memory benchmark: correct rows, a checksum that catches skipped work, failures as
data."""

import csv
import resource
import subprocess

from conftest import compile_benchmark


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_rows_and_checksum(tmp_path, cc):
    exe = compile_benchmark(cc, "memory", tmp_path / "memory")
    out = tmp_path / "raw.csv"
    done = subprocess.run(
        [exe, "--out", out, "--sizes-mib", "1,3", "--trials", "2"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    rows = read_csv(out)
    assert [(r["block_mib"], r["trial"]) for r in rows] == [
        ("1", "1"),
        ("1", "2"),
        ("3", "1"),
        ("3", "2"),
    ]
    for r in rows:
        assert r["status"] == "ok"
        n = int(r["block_mib"]) * 2**20
        byte = 1 + (int(r["trial"]) * 7 + (0 if r["block_mib"] == "1" else 1)) % 255
        assert (
            int(r["checksum"]) == (n // 8) * byte * 0x0101010101010101 % 2**64
        )  # sum of 64-bit words
        assert all(int(r[c]) > 0 for c in ("write_ns", "read_ns"))
    assert "progress: memory trial 4 of 4" in done.stderr
    assert not (tmp_path / "raw.csv.partial").exists()


def test_checksum_catches_a_write_loop_that_touches_nothing(tmp_path, cc):
    exe = compile_benchmark(cc, "memory", tmp_path / "memory-broken", "-DBENCH_SKIP_WRITE")
    out = tmp_path / "raw.csv"
    done = subprocess.run(
        [exe, "--out", out, "--sizes-mib", "2", "--trials", "3"], capture_output=True, text=True
    )
    assert done.returncode == 3
    assert "checksum mismatch in 3 trials" in done.stderr
    assert not out.exists(), "a run with wrong data must not publish raw.csv"
    rows = read_csv(tmp_path / "raw.csv.partial")
    assert {r["status"] for r in rows} == {"checksum_mismatch"}


def test_failed_allocation_is_a_row_not_a_crash(tmp_path, cc):
    exe = compile_benchmark(cc, "memory", tmp_path / "memory")
    out = tmp_path / "raw.csv"

    def limit_address_space():
        resource.setrlimit(resource.RLIMIT_AS, (256 * 2**20, 256 * 2**20))

    done = subprocess.run(
        [exe, "--out", out, "--sizes-mib", "4,2048,4", "--trials", "1"],
        capture_output=True,
        text=True,
        preexec_fn=limit_address_space,
    )
    assert done.returncode == 0, done.stderr
    rows = read_csv(out)
    assert [r["status"] for r in rows] == ["ok", "alloc_failed", "ok"]
    assert rows[1]["write_ns"] == "" and rows[1]["malloc_ns"] == ""


def test_touch_first_keeps_the_checksum(tmp_path, cc):
    exe = compile_benchmark(cc, "memory", tmp_path / "memory")
    out = tmp_path / "raw.csv"
    done = subprocess.run(
        [exe, "--out", out, "--sizes-mib", "2", "--trials", "2", "--touch-first"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert [r["status"] for r in read_csv(out)] == ["ok", "ok"]


def test_bad_arguments_are_refused(tmp_path, cc):
    exe = compile_benchmark(cc, "memory", tmp_path / "memory")
    done = subprocess.run(
        [exe, "--out", tmp_path / "x.csv", "--sizes-mib", "-5", "--trials", "1"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 64
    assert "--sizes-mib expects an integer >= 1, got '-5'" in done.stderr


def test_describe_reports_timer_resolution(tmp_path, cc):
    import json

    exe = compile_benchmark(cc, "memory", tmp_path / "memory")
    info = json.loads(
        subprocess.run([exe, "--describe"], capture_output=True, text=True, check=True).stdout
    )
    assert info["clock"] == "CLOCK_MONOTONIC"
    assert info["timer_resolution_ns"] >= 1
    assert info["pointer_bytes"] in (8, 16)
