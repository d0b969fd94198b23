"""SSH targets against a real sshd on loopback: remote build, detached runs that survive the
link dropping and resume, failures reported with their last progress line, the whole quick
profile on an ssh target; Morello command lines as documented; a dry run that connects nowhere."""

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from c18n_ae import experiments as exp_registry
from c18n_ae.common import config as cfg
from c18n_ae.experiments import commands, programs
from c18n_ae.running import unit
from c18n_ae.running.driver import RunFailed
from c18n_ae.running.run import run_unit
from conftest import ROOT, SNAKEMAKE

# The loopback target's name, this process's own: the tests below kill processes on it by their
# command lines (results/<name>/...), which must reach no other test's, in this session or another.
LOOP = f"loop{os.getpid()}"
O2 = {"name": "O2", "cc": "cc", "cflags": ["-O2"], "launcher": []}
ONE_RUN = {"runs": 1}


def build_on(target, variant, name, bin_dir):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "c18n_ae.running.build",
            "--target",
            json.dumps(target),
            "--recipe",
            json.dumps(variant),
            "--program",
            name,
            "--source-dir",
            str(ROOT / "src" / "benchmarks"),
            "--bin-dir",
            str(bin_dir),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    return json.loads((bin_dir / f"{programs.get(name).output}.build.json").read_text())


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_remote_build_compiles_on_the_target_and_records_file_output(tmp_path, sshd):
    target = sshd.target(LOOP, tmp_path / "remote", [O2])
    info = build_on(target, O2, "memory", tmp_path / "bin")
    assert (
        tmp_path / "remote" / "results" / LOOP / "O2" / "bin" / "memory"
    ).exists()  # built there
    assert (tmp_path / "bin" / "memory").exists()  # and fetched
    assert "ELF" in info["file"] and info["compile_command"][:2] == ["cc", "-Wall"]


def remote_rows(remote_root, experiment="memory", variant="O2"):
    return unit.rows_measured(remote_root / "results" / LOOP / variant / experiment)


def wait_rows(remote_root, n, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if remote_rows(remote_root) > n:
            return
        time.sleep(0.05)
    raise AssertionError("the remote run made no progress")


def test_link_drop_and_client_kill_lose_no_row(tmp_path, sshd):
    target = sshd.target(LOOP, tmp_path / "remote", [O2])
    build_on(target, O2, "memory", tmp_path / "results" / LOOP / "O2" / "bin")
    params = {"block_sizes_mib": [4], "trials": 3000, "timeout_s": 300}
    out = tmp_path / "results" / LOOP / "O2" / "memory"
    runner = [
        sys.executable,
        "-m",
        "c18n_ae.running.run",
        "--target",
        json.dumps(target),
        "--experiment",
        "memory",
        "--recipes",
        json.dumps([O2]),
        "--params",
        json.dumps(params),
        "--results",
        str(tmp_path / "results"),
        "--log",
        str(tmp_path / "run.log"),
        "--options",
        json.dumps(ONE_RUN),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # 1. cut the link: kill the ssh clients under the runner; it must retry and carry on
    client = subprocess.Popen(runner, env=env, stderr=subprocess.PIPE, text=True)
    wait_rows(tmp_path / "remote", 50)
    subprocess.run(["pkill", "-KILL", "-f", f"ssh -p {sshd.port} "])
    # 2. kill the runner itself (the whole client side): the remote run must go on
    wait_rows(tmp_path / "remote", 300)
    client.kill()
    client.wait()
    assert not (
        tmp_path / "remote" / "results" / LOOP / "_units" / "memory" / "exit_status"
    ).exists(), "the remote run should still be running"
    # 3. run again: it re-attaches (or fetches, if it finished meanwhile) and completes
    done = subprocess.run(runner, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "re-attaching" in done.stderr or "finished earlier" in done.stderr
    got = rows(out / "raw.csv")
    assert [int(r["trial"]) for r in got] == list(range(1, 3001))
    assert all(r["status"] == "ok" for r in got)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["exit_status"] == 0 and meta["host"]["os"] and meta["remote"].endswith("@127.0.0.1")


def kill_benchmark(times, remote_root, pattern=f"^results/{LOOP}/O2/bin/memory"):
    """kill -9 the benchmark on the target `times` times, at random moments while it measures."""
    import random

    rng = random.Random(5)
    killed = 0
    deadline = time.monotonic() + 120
    while killed < times and time.monotonic() < deadline:
        time.sleep(rng.uniform(0.1, 0.5))
        if (
            remote_rows(remote_root) > 0
            and subprocess.run(["pkill", "-KILL", "-f", pattern]).returncode == 0
        ):
            killed += 1
    return killed


def test_benchmark_killed_three_times_on_the_target_every_trial_once(tmp_path, sshd):
    import threading

    target = sshd.target(LOOP, tmp_path / "remote", [O2])
    build_on(target, O2, "memory", tmp_path / "results" / LOOP / "O2" / "bin")
    result = {}
    killer = threading.Thread(
        target=lambda: result.update(killed=kill_benchmark(3, tmp_path / "remote"))
    )
    killer.start()
    run_unit(
        target=target,
        options=ONE_RUN,
        recipes=[O2],
        experiment="memory",
        params={"block_sizes_mib": [16, 32], "trials": 150},
        results=tmp_path / "results",
        log=tmp_path / "run.log",
        timeout_s=300,
        poll_s=0.5,
    )
    killer.join()
    assert result["killed"] == 3
    out = tmp_path / "results" / LOOP / "O2" / "memory"
    got = sorted((int(r["block_mib"]), int(r["trial"])) for r in rows(out / "raw.csv"))
    assert got == [(b, t) for b in (16, 32) for t in range(1, 151)]
    statuses = [s["exit_status"] for s in json.loads((out / "meta.json").read_text())["segments"]]
    assert statuses.count(-9) == 3 and statuses[-1] == 0


def test_runner_that_dies_on_the_target_is_reported_then_continued(tmp_path, sshd):
    """The whole run unit killed on the target (as by a reboot): reported with its last progress,
    every row so far fetched; the next run goes on from there and measures each trial once."""
    import threading

    target = sshd.target(LOOP, tmp_path / "remote", [O2])
    build_on(target, O2, "memory", tmp_path / "results" / LOOP / "O2" / "bin")
    params = {"block_sizes_mib": [16], "trials": 400}

    def kill_unit():
        wait_rows(tmp_path / "remote", 30, timeout=120)
        subprocess.run(["pkill", "-KILL", "-f", f"c18n_ae.running.unit --plan results/{LOOP}/"])
        subprocess.run(["pkill", "-KILL", "-f", f"^results/{LOOP}/O2/bin/memory"])

    killer = threading.Thread(target=kill_unit)
    killer.start()
    with pytest.raises(
        RunFailed,
        match=r"exit status lost .*last progress: progress: memory (trial|unit) \d+ of",
    ):
        run_unit(
            target=target,
            options=ONE_RUN,
            recipes=[O2],
            experiment="memory",
            params=params,
            results=tmp_path / "results",
            log=tmp_path / "run.log",
            timeout_s=120,
            poll_s=0.5,
        )
    killer.join()
    out = tmp_path / "results" / LOOP / "O2" / "memory"
    assert (out / "run-failed.json").exists() and unit.rows_measured(out) >= 30  # fetched
    run_unit(
        target=target,
        options=ONE_RUN,
        recipes=[O2],
        experiment="memory",
        params=params,
        results=tmp_path / "results",
        log=tmp_path / "run.log",
        timeout_s=300,
        poll_s=0.5,
    )
    assert sorted(int(r["trial"]) for r in rows(out / "raw.csv")) == list(range(1, 401))
    assert "continuing where it stopped" in (tmp_path / "run.log").read_text()
    assert (
        "units done earlier: continuing"
        in (
            tmp_path / "remote" / "results" / LOOP / "_units" / "memory" / "progress.log"
        ).read_text()
    )


MORELLO = exp_registry.load_config(
    ROOT / "config" / "config.yaml", ROOT / "config" / "morello.yaml"
)
DOCUMENTED = {
    "hybrid": (
        "clang-morello -Wall -Wextra -std=c11 -O2 -o results/morello/hybrid/bin/memory "
        "src/benchmarks/memory.c",
        "results/morello/hybrid/bin/memory --sizes-mib 100,200 --trials 100 --out raw.csv",
    ),
    "purecap": (
        "clang-morello -Wall -Wextra -std=c11 -O2 -march=morello+c64 -mabi=purecap "
        "-o results/morello/purecap/bin/memory src/benchmarks/memory.c",
        "results/morello/purecap/bin/memory --sizes-mib 100,200 --trials 100 --out raw.csv",
    ),
    "purecap-c18n": (
        "clang-morello -Wall -Wextra -std=c11 -O2 -march=morello+c64 -mabi=purecap "
        "-o results/morello/purecap-c18n/bin/memory src/benchmarks/memory.c",
        "proccontrol -m cheric18n -s enable results/morello/purecap-c18n/bin/memory "
        "--sizes-mib 100,200 --trials 100 --out raw.csv",
    ),
    "benchmark-c18n": (
        "clang-morello -Wall -Wextra -std=c11 -O2 -march=morello+c64 -mabi=purecap-benchmark "
        "-o results/morello/benchmark-c18n/bin/memory src/benchmarks/memory.c",
        "proccontrol -m cheric18n -s enable results/morello/benchmark-c18n/bin/memory "
        "--sizes-mib 100,200 --trials 100 --out raw.csv",
    ),
}


@pytest.mark.parametrize("variant", list(DOCUMENTED))
def test_morello_command_lines_are_the_documented_ones(variant):
    from c18n_ae.experiments import get

    recipe = cfg.variant(MORELLO, "morello", variant)
    build = commands.compile_command(
        recipe, programs.get("memory"), "src/benchmarks", f"results/morello/{variant}/bin"
    )
    run = get("memory").command(
        {"block_sizes_mib": [100, 200], "trials": 100},
        Path(f"results/morello/{variant}/bin"),
        recipe,
        Path("raw.csv"),
    )
    assert " ".join(build) == DOCUMENTED[variant][0]
    assert " ".join(run) == DOCUMENTED[variant][1]
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert DOCUMENTED[variant][0] in readme and DOCUMENTED[variant][1] in readme


def test_dry_run_with_a_morello_target_connects_nowhere(tmp_path, project_copy):
    for tool in ("ssh", "rsync", "scp"):  # stand-ins first on PATH that note any call
        (tmp_path / tool).write_text(f"#!/bin/sh\ntouch {tmp_path}/ssh-called\nexit 255\n")
        (tmp_path / tool).chmod(0o755)
    done = subprocess.run(
        [*SNAKEMAKE, "-n", "--cores", "2", "--configfile", "config/morello.yaml"],
        cwd=project_copy,  # as a clone: a working copy's quick run would refuse the full profile
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout + done.stderr
    assert "run_morello" in out and "build_morello" in out
    assert not (tmp_path / "ssh-called").exists()


def test_binaries_built_here_run_on_an_ssh_target(tmp_path, sshd):
    """build_on: host: compiled on this side (as with the CHERI SDK), shipped, run on the target."""
    here = {
        "name": "O2h",
        "cc": "cc",
        "cflags": ["-O2"],
        "launcher": [],
        "build_on": "host",
        "abi": "native",
    }
    target = sshd.target(LOOP, tmp_path / "remote", [here])
    bin_dir = tmp_path / "results" / LOOP / "O2h" / "bin"
    for name in ("packet_plugin", "packet"):
        info = build_on(target, here, name, bin_dir)
        out = programs.get(name).output
        assert info["built_on"] == "host" and info["abi"] == "native"
        assert info["compile_command"][-1].endswith("-Wl,-rpath,$ORIGIN") or name == "packet_plugin"
        assert str(bin_dir) in " ".join(info["compile_command"]), (
            "compiled here, into this side's bin folder"
        )
        remote = tmp_path / "remote" / "results" / LOOP / "O2h" / "bin" / out
        assert remote.read_bytes() == (bin_dir / out).read_bytes(), (
            "the target runs the very binary built here"
        )
    assert (tmp_path / "remote" / "results" / LOOP / "O2h" / "bin" / "libpacket_plugin.so").exists()
    run_unit(
        target=target,
        options=ONE_RUN,
        recipes=[here],
        experiment="packet",
        params={"counts": [200], "count_size": 64, "sizes": [64], "size_count": 200, "repeats": 1},
        results=tmp_path / "results",
        log=tmp_path / "run.log",
        timeout_s=120,
        poll_s=0.5,
    )
    got = rows(tmp_path / "results" / LOOP / "O2h" / "packet" / "raw.csv")
    assert len(got) == 6 and {r["mode"] for r in got} == {"none", "plugin", "ipc"}
