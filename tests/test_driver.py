"""The run driver and the run unit against a fake target, a fake benchmark launcher and a fake
clock: resume after a kill, the time limit, refusals by checks, interruption, a lost run, a
rebuild between runs; all in milliseconds. The real processes and sshd are in test_run.py and
test_ssh_targets.py. Also: no function of targets/ or running/ longer than 60 lines, and the run
unit (which runs on boards) imports the standard library only."""

import ast
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from c18n_ae import experiments as registry
from c18n_ae.experiments.plan import description as plan_description
from c18n_ae.experiments.plan import plan_for
from c18n_ae.running import driver, unit
from c18n_ae.targets.base import Poll
from conftest import ROOT

RECIPE = {"name": "O2", "cc": "cc", "cflags": ["-O2"], "launcher": []}
PARAMS = {"block_sizes_mib": [1, 2], "trials": 3}


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def monotonic(self):
        return self.t

    def sleep(self, seconds):
        self.t += seconds

    def now(self):
        return datetime.fromtimestamp(1.7e9 + self.t, timezone.utc).isoformat(timespec="seconds")


class FakeTarget:
    """Answers polls from a script; a poll script entry is a Poll or an exception to raise.
    fetch writes each variant's raw.csv when the script ended well."""

    name = "fake"
    transport = None

    def __init__(self, results, script, after_stop=None):
        self.results, self.script, self.after_stop = results, list(script), after_stop
        self.calls = []

    def start(self, plan):
        self.calls.append("start")
        self.plan = plan
        return "started on the fake target"

    def poll(self):
        self.calls.append("poll")
        step = self.script.pop(0) if self.script else Poll()
        if isinstance(step, BaseException):
            raise step
        return step

    def fetch(self):
        self.calls.append("fetch")
        for v in self.plan["variants"]:
            vdir = self.results / "fake" / v["name"] / self.plan["experiment"]
            vdir.mkdir(parents=True, exist_ok=True)
            (vdir / "raw.csv").write_text("started_unix_ns,run\n1,1\n")

    def stop(self):
        self.calls.append("stop")
        if self.after_stop:
            self.script = [self.after_stop]

    def describe(self):
        self.calls.append("describe")
        return {"host": {"os": "FakeOS"}, "compilers": {"cc": "cc 1.0"}, "programs": {}}


def a_plan(results, **options):
    return plan_for("memory", [RECIPE], PARAMS, results, "fake", {"runs": 2, **options})


def drive(tmp_path, target, **kw):
    results = tmp_path / "results"
    return driver.drive(
        target,
        target.plan_given,
        results=results,
        log=tmp_path / "run.log",
        clock=FakeClock(),
        **kw,
    )


def fake(tmp_path, script, **kw):
    t = FakeTarget(tmp_path / "results", script, **kw)
    t.plan_given = a_plan(tmp_path / "results")
    return t


def progress(i, n=12):
    return f"progress: memory unit {i} of {n} (variants and runs interleaved), elapsed {i} s"


def test_a_run_writes_meta_once_with_checks_and_the_target_facts(tmp_path, capsys):
    lines = [Poll([progress(i)]) for i in range(1, 12)]
    target = fake(tmp_path, [*lines, Poll([progress(12)], True, 0)])

    def compartments(target, plan):
        return {"seen": 2}

    metas = drive(tmp_path, target, before=[compartments], poll_s=0.5)
    meta = json.loads((tmp_path / "results/fake/O2/memory/meta.json").read_text())
    assert meta == metas["O2"] and meta["status"] == "ok" and meta["exit_status"] == 0
    assert meta["checks"] == {"compartments": {"seen": 2}}
    assert meta["host"] == {"os": "FakeOS"} and meta["compiler_version"] == "cc 1.0"
    assert meta["runs"] == 2 and meta["trials_per_run"] == [6, 6]
    assert meta["last_progress"] == progress(12)
    assert target.calls[0] == "start" and target.calls[-2:] == ["fetch", "describe"]
    log = (tmp_path / "run.log").read_text()
    assert all(progress(i) in log for i in range(1, 13)), "the log gets every line"
    shown = capsys.readouterr().err.count("progress: memory unit")
    assert 2 <= shown <= 4, "the terminal gets progress at most every 2 s (12 lines in 6 s)"


def test_the_units_progress_reaches_the_terminal_between_a_benchmarks_many_lines(tmp_path, capsys):
    """A benchmark prints its trials many times a second; the unit's own progress (every variant
    and run, the estimate that counts) comes once a chunk. Each kind reaches the terminal at
    most every TERMINAL_EVERY_S on its own clock, so the benchmark's never hide the unit's."""
    clock = FakeClock()
    rep = driver.Reporter(tmp_path / "run.log", "local/memory", clock, driver.Outcome("now"))
    for second in range(3 * int(driver.TERMINAL_EVERY_S)):
        for trial in range(10):
            rep.line(f"[O2/run-1] progress: memory trial {trial} of 1000, elapsed {second} s")
            clock.t += 0.1
        rep.line(progress(second, 6000))
    shown = capsys.readouterr().err.splitlines()
    units = [x for x in shown if "of 6000" in x]
    assert len(units) >= 3, shown
    assert len(shown) <= 2 * 3 + 2, "progress is thinned on the terminal"
    assert len((tmp_path / "run.log").read_text().splitlines()) == 11 * 3 * int(
        driver.TERMINAL_EVERY_S
    ), "the log keeps every line"


def test_the_time_limit_stops_the_run_and_keeps_its_rows(tmp_path):
    target = fake(tmp_path, [], after_stop=Poll(["error: interrupted"], True, 5))
    with pytest.raises(driver.RunFailed, match="run timeout, exit status timeout"):
        drive(tmp_path, target, timeout_s=100, poll_s=5)
    assert "stop" in target.calls and "fetch" in target.calls, "stopped, and its rows fetched"
    out = tmp_path / "results/fake/O2/memory"
    assert not (out / "meta.json").exists()
    assert json.loads((out / "run-failed.json").read_text())["status"] == "timeout"
    assert "time limit reached" in (tmp_path / "run.log").read_text()


def test_a_check_refuses_the_run_before_it_starts(tmp_path):
    target = fake(tmp_path, [Poll([], True, 0)])

    def compartments(target, plan):
        raise driver.RunRefused("purecap-c18n ran in 1 compartment (launcher proccontrol)")

    with pytest.raises(driver.RunFailed, match=r"run refused.*1 compartment \(launcher"):
        drive(tmp_path, target, before=[compartments])
    assert "start" not in target.calls
    failed = json.loads((tmp_path / "results/fake/O2/memory/run-failed.json").read_text())
    assert failed["status"] == "refused" and "1 compartment" in failed["error"]


def test_a_check_after_the_run_refuses_its_rows(tmp_path):
    target = fake(tmp_path, [Poll([], True, 0)])

    def crossings(target, plan):
        raise driver.RunRefused("no crossing counted")

    with pytest.raises(driver.RunFailed, match="refused.*no crossing counted"):
        drive(tmp_path, target, after=[crossings])
    assert not (tmp_path / "results/fake/O2/memory/meta.json").exists()


def test_ctrl_c_stops_the_run_on_the_target(tmp_path):
    target = fake(tmp_path, [Poll(), KeyboardInterrupt()], after_stop=Poll([], True, 5))
    with pytest.raises(driver.RunFailed, match="run interrupted"):
        drive(tmp_path, target)
    assert target.calls.count("stop") == 1


def test_a_lost_run_is_reported_with_its_last_progress_and_message(tmp_path):
    lost = "lost (the process is gone and left no exit status)"
    target = fake(
        tmp_path, [Poll([progress(3), "[O2/run-1] something broke"]), Poll([], True, lost)]
    )
    with pytest.raises(driver.RunFailed, match=r"exit status lost .*something broke.*unit 3 of"):
        drive(tmp_path, target)


# --- the run unit with a fake benchmark ----------------------------------------------------------


class FakeBenchmark:
    """Writes one row per unit of its window into --out; `deaths` processes die after `rows`
    rows (exit -9), as a kill would leave them. Each process takes `seconds` on the clock."""

    def __init__(self, clock, deaths=(), seconds=1.0):
        self.clock, self.deaths, self.seconds, self.calls = clock, list(deaths), seconds, []

    def __call__(self, cmd, cap_s, say, prefix):
        args = dict(zip(cmd[::1], cmd[1:]))
        skip, limit, out = int(args["--skip"]), int(args["--limit"]), Path(args["--out"])
        dies_after = self.deaths.pop(0) if self.deaths else None
        n = limit if dies_after is None else min(dies_after, limit)
        rows = [f"{skip + i},{skip + i}" for i in range(n)]
        out.write_text("\n".join(["started_unix_ns,unit", *rows]) + "\n")
        self.calls.append((skip, n))
        self.clock.sleep(self.seconds)
        return (0 if dies_after is None else -9), "progress: x"


def unit_plan(tmp_path, runs=2, **kw):
    binary = tmp_path / "results/fake/O2/bin/memory"
    binary.parent.mkdir(parents=True, exist_ok=True)
    if not binary.exists():
        binary.write_bytes(b"build 1")
    plan = plan_for("memory", [RECIPE], PARAMS, tmp_path / "results", "fake", {"runs": runs})
    return {**plan, "chunk_units": 4, **kw}


def raw_units(tmp_path):
    lines = (tmp_path / "results/fake/O2/memory/raw.csv").read_text().splitlines()
    assert lines[0] == "started_unix_ns,unit,run"
    return sorted((int(x.split(",")[2]), int(x.split(",")[1])) for x in lines[1:])


def test_killed_processes_resume_at_the_first_missing_row(tmp_path):
    clock = FakeClock()
    bench = FakeBenchmark(clock, deaths=[2, 0, 1])
    said = []
    unit.execute(
        unit_plan(tmp_path), lambda m, progress=False: said.append(m), bench, clock.monotonic
    )
    assert raw_units(tmp_path) == [(r, u) for r in (1, 2) for u in range(6)], "each unit once"
    assert sum(n for _, n in bench.calls) == 12
    assert any("ended with exit status -9 after 2 new units" in m for m in said)
    hist = unit.history(tmp_path / "results/fake/O2/memory")
    assert sorted({s["run"] for s in hist}) == [1, 2]
    assert all(
        s["build"]
        == {"memory": unit.build_of([str(tmp_path / "results/fake/O2/bin/memory")])["memory"]}
        for s in hist
    )


def test_a_killed_unit_continues_next_time_without_remeasuring(tmp_path):
    clock = FakeClock()
    plan = unit_plan(tmp_path)
    with pytest.raises(unit.UnitTimeout):  # the first attempt stops at its time limit
        unit.execute(
            {**plan, "timeout_s": 2.5},
            lambda m, progress=False: None,
            FakeBenchmark(clock),
            clock.monotonic,
        )
    vdir = tmp_path / "results/fake/O2/memory"
    before = unit.rows_measured(vdir)
    assert 0 < before < 12 and not (vdir / "raw.csv").exists()
    said = []
    bench = FakeBenchmark(clock)
    unit.execute(plan, lambda m, progress=False: said.append(m), bench, clock.monotonic)
    assert sum(n for _, n in bench.calls) == 12 - before, "only the missing rows are measured"
    assert any("units done earlier: continuing" in m for m in said)


def test_a_rebuild_moves_the_rows_of_the_old_build_aside(tmp_path):
    clock = FakeClock()
    plan = unit_plan(tmp_path)
    unit.execute(plan, lambda m, progress=False: None, FakeBenchmark(clock), clock.monotonic)
    (tmp_path / "results/fake/O2/bin/memory").write_bytes(b"build 2")
    said = []
    bench = FakeBenchmark(clock)
    unit.execute(plan, lambda m, progress=False: said.append(m), bench, clock.monotonic)
    assert sum(n for _, n in bench.calls) == 12, "everything measured again with the new build"
    assert not any("done earlier" in m for m in said)
    moved = [m for m in said if "the build changed (memory " in m]
    assert len(moved) == 2 and all("segments-superseded-1" in m for m in moved)
    for run in (1, 2):
        aside = tmp_path / f"results/fake/O2/memory/run-{run}/segments-superseded-1"
        assert sorted(p.name for p in aside.glob("*.csv")), "the old rows are kept"


def test_fewer_runs_than_before_move_the_extra_run_aside(tmp_path):
    clock = FakeClock()
    unit.execute(
        unit_plan(tmp_path, runs=2),
        lambda m, progress=False: None,
        FakeBenchmark(clock),
        clock.monotonic,
    )
    unit.execute(
        unit_plan(tmp_path, runs=1),
        lambda m, progress=False: None,
        FakeBenchmark(clock),
        clock.monotonic,
    )
    assert {r for r, _ in raw_units(tmp_path)} == {1}
    assert (tmp_path / "results/fake/O2/memory/runs-superseded-1/run-2").is_dir()


def test_split_trials_share_the_repetitions_between_runs(tmp_path):
    plan = plan_for(
        "memory",
        [RECIPE],
        {**PARAMS, "trials": 5},
        tmp_path,
        "t",
        {"runs": 2, "split_trials": True},
    )
    runs = plan["variants"][0]["runs"]
    assert [r["units"] for r in runs] == [6, 4]
    assert runs[0]["command"][-1] == "3" and runs[1]["command"][-1] == "2"
    whole = plan_for("memory", [RECIPE], {**PARAMS, "timeout_s": 10}, tmp_path, "t", {"runs": 3})
    assert [r["units"] for r in whole["variants"][0]["runs"]] == [6, 6, 6]
    assert whole["timeout_s"] == 30, "the time limit covers the trials of every run"


def test_a_series_without_repetitions_runs_once_when_split(tmp_path):
    """E1's instances cannot be shared out: split, it runs once (no longer than one run); else
    `runs` times, its time limit with it."""
    scale = {p.name: p.value("quick") for p in registry.get("scale").params}
    split = plan_for("scale", [RECIPE], scale, tmp_path, "t", {"runs": 2, "split_trials": True})
    assert len(split["variants"][0]["runs"]) == 1 and split["timeout_s"] == scale["timeout_s"]
    # it says why, and what it does instead (the plan, so each meta.json's run_unit)
    assert "scale has no repetition parameter" in split["undivided"]
    assert "runs once, whole" in plan_description(split)["undivided"]
    whole = plan_for("scale", [RECIPE], scale, tmp_path, "t", {"runs": 2})
    assert len(whole["variants"][0]["runs"]) == 2 and whole["timeout_s"] == 2 * scale["timeout_s"]
    assert "undivided" not in whole


# --- the code's shape ----------------------------------------------------------------------------


def test_no_function_of_the_driver_code_is_longer_than_60_lines():
    long = []
    for folder in ("targets", "running"):
        for path in sorted((ROOT / "src" / "c18n_ae" / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    n = node.end_lineno - node.lineno + 1
                    if n > 60:
                        long.append(f"{path.name}:{node.lineno} {node.name} ({n} lines)")
    assert long == []
    assert folder == "running" and path.name, "the check found the files"


def test_the_run_unit_imports_the_standard_library_only():
    tree = ast.parse((ROOT / "src" / "c18n_ae" / "running" / "unit.py").read_text())
    names = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    names |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert "json" in names and names - {"__future__"} <= set(sys.stdlib_module_names)
