"""The runner with a real benchmark: metadata, timeouts, interruption, no stray processes, runs
that go on after being killed, and variants interleaved in time."""

import csv
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from c18n_ae.running import run as runner
from c18n_ae.running import unit
from conftest import ROOT, compile_benchmark

RECIPE = {"name": "O2", "cc": "cc", "cflags": ["-O2"], "launcher": []}
ONE_RUN = {"runs": 1}
# What artifact/install hashes into .venv/.requirements.sha256, in its order.
REQUIREMENTS = ("artifact/requirements.txt", "pyproject.toml")


def still_running(path_part):
    out = subprocess.run(
        ["pgrep", "-f", str(path_part)], capture_output=True, text=True
    ).stdout.split()
    return [int(p) for p in out if int(p) != os.getpid()]


@pytest.fixture
def results(tmp_path, cc):
    """results/local/{O2,O0}/bin/memory, as the workflow lays them out (a folder of this test's own,
    so pgrep finds only its processes)."""
    root = tmp_path / "results-under-test"
    for v in ("O2", "O0"):
        compile_benchmark(cc, "memory", root / "local" / v / "bin" / "memory")
    return root


def runner_command(results, tmp_path, params):
    """The runner as the workflow starts it, for one variant of E2 on this machine."""
    return [
        sys.executable,
        "-m",
        "c18n_ae.running.run",
        "--target",
        json.dumps({"name": "local", "kind": "local"}),
        "--experiment",
        "memory",
        "--recipes",
        json.dumps([RECIPE]),
        "--params",
        json.dumps(params),
        "--results",
        str(results),
        "--log",
        str(tmp_path / "run.log"),
        "--options",
        json.dumps(ONE_RUN),
    ]


def run_one(results, tmp_path, params, options=None, **kw):
    return runner.run(
        options={**ONE_RUN, **(options or {})},
        target="local",
        variant="O2",
        experiment="memory",
        recipe=RECIPE,
        params=params,
        bin_dir=results / "local" / "O2" / "bin",
        out_dir=results / "local" / "O2" / "memory",
        log=tmp_path / "run.log",
        **kw,
    )


def test_complete_run_writes_raw_and_meta(tmp_path, results):
    meta = run_one(results, tmp_path, {"block_sizes_mib": [1, 2], "trials": 3})
    out = results / "local" / "O2" / "memory"
    on_disk = json.loads((out / "meta.json").read_text())
    assert on_disk == meta
    assert meta["status"] == "ok" and meta["exit_status"] == 0
    assert meta["cflags"] == ["-O2"] and meta["compiler_version"]
    assert meta["host"]["cpu_count"] >= 1 and meta["host"]["mem_total_bytes"] > 0
    assert meta["program"]["timer_resolution_ns"] >= 1
    assert meta["started_at"] <= meta["finished_at"]
    assert meta["trials_planned"] == 6 and "unit 6 of 6" in meta["last_progress"]
    assert [s["units_measured"] for s in meta["segments"]] == [6]
    assert len((out / "raw.csv").read_text().splitlines()) == 7
    assert "trial 6 of 6" in (tmp_path / "run.log").read_text()


def test_timeout_keeps_rows_and_leaves_no_process(tmp_path, results):
    out = results / "local" / "O2" / "memory"
    with pytest.raises(
        runner.RunFailed, match=r"run timeout, .*last progress: progress: memory unit \d+ of 100000"
    ):
        run_one(results, tmp_path, {"block_sizes_mib": [8], "trials": 100000}, timeout_s=1.5)
    assert not (out / "raw.csv").exists() and not (out / "meta.json").exists()
    assert unit.rows_measured(out) > 2, "rows measured before the timeout must be kept"
    failed = json.loads((out / "run-failed.json").read_text())
    assert failed["status"] == "timeout"
    assert still_running(results) == []


def test_interrupt_ends_the_benchmark(tmp_path, results):
    out = results / "local" / "O2" / "memory"
    cmd = runner_command(results, tmp_path, {"block_sizes_mib": [8], "trials": 100000})
    proc = subprocess.Popen(
        cmd,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        stderr=subprocess.PIPE,
        text=True,
        # as from a terminal: a test session started in the background (`pytest &`) ignores
        # SIGINT, and its children would inherit that and never see the Ctrl-C under test
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and unit.rows_measured(out) < 3:
        time.sleep(0.05)
    assert proc.poll() is None, f"the runner ended before the signal: {proc.communicate()[1]}"
    assert unit.rows_measured(out) >= 3, "no three rows in 20 s: the signal would test nothing"
    assert still_running(results), "the benchmark should be running by now"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert "run interrupted" in err
    assert json.loads((out / "run-failed.json").read_text())["status"] == "interrupted"
    assert still_running(results) == []


def trials_in(raw):
    with open(raw) as f:
        return [(r["block_mib"], r["trial"]) for r in csv.DictReader(f)]


def test_killed_three_times_every_trial_exactly_once(tmp_path, results):
    """kill -9 of the benchmark at three random moments: each time the next process goes on from
    the last row; the final raw.csv holds every trial once and meta.json lists the segments."""
    params = {"block_sizes_mib": [32, 64], "trials": 60}
    done = {}

    def killer():
        rng = random.Random(11)
        kills, rows_at_kill = 0, 0
        while kills < 3 and "meta" not in done:
            time.sleep(rng.uniform(0.05, 0.4))
            pids = still_running(results / "local" / "O2" / "bin")
            measured = unit.rows_measured(results / "local" / "O2" / "memory")
            if pids and measured > rows_at_kill:  # a process that has measured a row
                os.kill(pids[0], signal.SIGKILL)
                kills, rows_at_kill = kills + 1, measured
        done["kills"] = kills

    import threading

    th = threading.Thread(target=killer)
    th.start()
    meta = run_one(results, tmp_path, params, options={"chunk_units": 1000})
    done["meta"] = meta
    th.join()
    assert done["kills"] == 3, "the run ended before three kills; make it longer"
    trials = trials_in(results / "local" / "O2" / "memory" / "raw.csv")
    expected = [(str(b), str(t)) for b in (32, 64) for t in range(1, 61)]
    assert sorted(trials, key=lambda x: (int(x[0]), int(x[1]))) == sorted(
        expected, key=lambda x: (int(x[0]), int(x[1]))
    )
    statuses = [s["exit_status"] for s in meta["segments"]]
    assert statuses.count(-signal.SIGKILL) == 3 and statuses[-1] == 0
    firsts = [s["first_unit"] for s in meta["segments"]]
    assert firsts == sorted(firsts) and len(set(firsts)) == len(firsts), (
        "each process starts where the last stopped"
    )


def test_a_killed_workflow_run_continues_next_time(tmp_path, results):
    """The runner itself killed (the board rebooted): the next run measures only what is missing."""
    out = results / "local" / "O2" / "memory"
    cmd = runner_command(results, tmp_path, {"block_sizes_mib": [64], "trials": 80})
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and unit.rows_measured(out) < 10:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # runner and benchmark at once, no clean-up
    proc.wait()
    while still_running(results):  # SIGKILL lands a moment later in the benchmark
        time.sleep(0.01)
    before = unit.rows_measured(out)
    assert 10 <= before < 80
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    assert sorted(int(t) for _, t in trials_in(out / "raw.csv")) == list(range(1, 81))
    meta = json.loads((out / "meta.json").read_text())
    assert meta["segments"][-1]["first_unit"] == before
    assert "units done earlier: continuing" in (tmp_path / "run.log").read_text()


def test_variants_run_interleaved_in_time(tmp_path, results):
    """Two variants, 5 units per turn: each variant's trials start while the other's are under
    way."""
    recipes = [RECIPE, {**RECIPE, "name": "O0", "cflags": ["-O0"]}]
    runner.run_unit(
        target="local",
        experiment="memory",
        recipes=recipes,
        params={"block_sizes_mib": [2], "trials": 20},
        results=results,
        log=tmp_path / "run.log",
        options={"interleave": True, "chunk_units": 5, "seed": 3, **ONE_RUN},
    )
    starts = {}
    for v in ("O2", "O0"):
        with open(results / "local" / v / "memory" / "raw.csv") as f:
            starts[v] = [int(r["started_unix_ns"]) for r in csv.DictReader(f)]
        assert len(starts[v]) == 20
    a, b = starts["O2"], starts["O0"]
    assert min(a) < max(b) and min(b) < max(a), "the variants' trials overlap in time"
    # and they alternate: some O0 trial started between two O2 trials
    assert any(a[i] < x < a[i + 1] for i in range(len(a) - 1) for x in b)
    # the order comes from the seed: the same seed gives the same schedule
    plan_variants = [{"name": "O2", "units": 20}, {"name": "O0", "units": 20}]
    assert unit.schedule(plan_variants, {"O2": 0, "O0": 0}, 5, 3) == unit.schedule(
        plan_variants, {"O2": 0, "O0": 0}, 5, 3
    )


def test_a_process_past_the_cap_goes_on_in_a_new_one(tmp_path, results):
    meta = run_one(
        results,
        tmp_path,
        {"block_sizes_mib": [64], "trials": 40},
        options={"chunk_units": 1000, "max_unit_s": 0.3},
    )
    assert (
        "cap" in [s["exit_status"] for s in meta["segments"]]
        and meta["segments"][-1]["exit_status"] == 0
    )
    assert sorted(
        int(t) for _, t in trials_in(results / "local" / "O2" / "memory" / "raw.csv")
    ) == list(range(1, 41))


@pytest.mark.slow
def test_reproduce_goes_on_after_snakemake_was_killed(project_copy):
    """kill -9 of snakemake mid-run leaves a lock; artifact/reproduce removes it when no snakemake
    process holds it, and the run completes."""
    env = {**os.environ}
    # the shared .venv's programs, and the stamp that tells artifact/install its requirements are
    # in: the copy never installs (re-pointing the editable install at itself would break .venv)
    venv = project_copy / ".venv"
    venv.mkdir()
    (venv / "bin").symlink_to(ROOT / ".venv" / "bin")
    wanted = b"".join((project_copy / f).read_bytes() for f in REQUIREMENTS)
    (venv / ".requirements.sha256").write_text(hashlib.sha256(wanted).hexdigest() + "\n")
    cmd = [
        str(project_copy / "artifact" / "reproduce"),
        "results/local/O2/memory/raw.csv",
        "--configfile",
        "config/quick.yaml",
    ]
    proc = subprocess.Popen(
        [
            ROOT / ".venv" / "bin" / "snakemake",
            "--cores",
            "1",
            "results/local/O2/memory/raw.csv",
            "--configfile",
            "config/quick.yaml",
        ],
        cwd=project_copy,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    locks = project_copy / ".snakemake" / "locks"
    while time.monotonic() < deadline and not (locks.exists() and any(locks.iterdir())):
        time.sleep(0.1)
    assert any(locks.iterdir()), "snakemake should hold its lock by now"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    while still_running(project_copy):
        time.sleep(0.05)
    done = subprocess.run(
        cmd, cwd=project_copy, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "removing a stale snakemake lock" in done.stderr
    assert (project_copy / "results" / "local" / "O2" / "memory" / "raw.csv").exists()


def test_changed_parameters_start_over_and_keep_the_earlier_rows(tmp_path, results):
    """Rows measured with other parameters are never mixed in: they move aside, kept."""
    run_one(results, tmp_path, {"block_sizes_mib": [1], "trials": 3})
    meta = run_one(results, tmp_path, {"block_sizes_mib": [1], "trials": 5})
    out = results / "local" / "O2" / "memory"
    assert sorted(int(t) for _, t in trials_in(out / "raw.csv")) == [1, 2, 3, 4, 5]
    assert [s["first_unit"] for s in meta["segments"]] == [0], (
        "measured afresh, from the first trial"
    )
    kept = list((out / "run-1" / "segments-superseded-1").glob("*.csv"))
    assert kept and sum(len(p.read_text().splitlines()) - 1 for p in kept) == 3


def test_each_run_is_its_own_processes_and_rows_say_their_run(tmp_path, results):
    """runs: 2 with the trials split: every trial once per setting over both runs, each row with
    its run index, no process measuring rows of two runs."""
    meta = run_one(
        results,
        tmp_path,
        {"block_sizes_mib": [1, 2], "trials": 5},
        options={"runs": 2, "split_trials": True, "chunk_units": 2},
    )
    with open(results / "local" / "O2" / "memory" / "raw.csv") as f:
        got = list(csv.DictReader(f))
    per_run = {r: [row for row in got if row["run"] == r] for r in ("1", "2")}
    assert [len(per_run["1"]), len(per_run["2"])] == [6, 4], "5 trials shared out as 3 and 2"
    assert meta["runs"] == 2 and meta["trials_per_run"] == [6, 4] and meta["trials_planned"] == 10
    assert {s["run"] for s in meta["segments"]} == {1, 2}
    for s in meta["segments"]:
        assert f"/run-{s['run']}/segments/" in s["command"][-1], "a process writes into one run"


def test_a_rebuild_between_two_runs_moves_the_old_rows_aside(tmp_path, results, cc):
    """The program rebuilt from changed code: the rows of the old build are kept aside, named in
    the log, and raw.csv holds only rows measured with the new binary."""
    params = {"block_sizes_mib": [1], "trials": 4}
    old = run_one(results, tmp_path, params)
    binary = results / "local" / "O2" / "bin" / "memory"
    compile_benchmark(cc, "memory", binary, "-O1")
    new = run_one(results, tmp_path, params)
    assert old["build"]["memory"] != new["build"]["memory"]
    assert all(s["build"] == new["build"] for s in new["segments"])
    out = results / "local" / "O2" / "memory"
    aside = out / "run-1" / "segments-superseded-1"
    log = (tmp_path / "run.log").read_text()
    assert "the build changed (memory " in log and str(aside) in log
    assert "units done earlier" not in log
    kept = sorted(aside.glob("*.csv"))
    assert kept and sum(len(p.read_text().splitlines()) - 1 for p in kept) == 4
    started = {int(r["started_unix_ns"]) for r in csv.DictReader(open(out / "raw.csv"))}
    old_rows = {int(line.split(",")[0]) for p in kept for line in p.read_text().splitlines()[1:]}
    assert len(started) == 4 and not started & old_rows
