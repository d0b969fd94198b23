"""Separate boots per run (a target's boot_per_run): the run unit runs one run per boot and asks
for a reboot between runs, the driver reboots the target and starts the unit again, every segment
and meta.json record the boot ids, a reboot that did not happen stops the run with every row
kept, and a local target asking for it is refused. A fake target (the real run unit in process,
a fake benchmark and a fake boot id), a fake clock and a fake SSH transport: all in milliseconds.
No board has run it."""

import copy
import json
import subprocess

import pytest
import yaml

from c18n_ae import experiments as exp
from c18n_ae.common import config as cfg
from c18n_ae.experiments.plan import plan_for
from c18n_ae.running import driver, unit
from c18n_ae.running.run import run_unit
from c18n_ae.targets import remote
from c18n_ae.targets.base import Poll, TargetError
from c18n_ae.targets.local import LocalTarget
from c18n_ae.targets.transport import LinkError
from conftest import ROOT
from test_driver import PARAMS, RECIPE, FakeBenchmark, FakeClock

O0 = {**RECIPE, "name": "O0", "cflags": ["-O0"]}


def boot_plan(results, runs=3, boot_per_run=True):
    for name in ("O2", "O0"):
        binary = results / "fake" / name / "bin" / "memory"
        binary.parent.mkdir(parents=True, exist_ok=True)
        binary.write_bytes(b"build 1")
    plan = plan_for(
        "memory", [RECIPE, O0], PARAMS, results, "fake", {"runs": runs}, boot_per_run=boot_per_run
    )
    return {**plan, "chunk_units": 4}


class Machine:
    """A fake machine's boot id; a reboot that works moves it on."""

    def __init__(self, reboots_work=True):
        self.boot, self.n, self.reboots_work = "boot-1", 1, reboots_work

    def reboot(self):
        if self.reboots_work:
            self.n += 1
            self.boot = f"boot-{self.n}"


class BootTarget:
    """Runs the real run unit in process on start (its exit status as unit.main gives it), with a
    fake benchmark and the machine's boot id; reboot takes 120 s on the clock."""

    name = "fake"
    transport = None

    def __init__(self, clock, machine):
        self.clock, self.machine, self.calls, self.polls = clock, machine, [], []

    def start(self, plan):
        self.calls.append("start")
        self.plan, lines = plan, []
        try:
            unit.execute(
                plan,
                lambda m, progress=False: lines.append(m),
                FakeBenchmark(self.clock),
                self.clock.monotonic,
                lambda: self.machine.boot,
            )
            status = unit.EXIT["ok"]
        except unit.RebootNeeded as e:
            lines.append(f"reboot: {e}")
            status = unit.EXIT["reboot"]
        except unit.UnitFailed as e:
            lines.append(f"error: {e}")
            status = unit.EXIT["failed"]
        self.polls = [Poll(lines, True, status)]
        return "started on the fake target"

    def poll(self):
        return self.polls.pop(0) if self.polls else Poll()

    def fetch(self):
        self.calls.append("fetch")

    def stop(self):
        self.calls.append("stop")

    def reboot(self):
        self.calls.append("reboot")
        before = self.machine.boot
        self.clock.sleep(120)
        self.machine.reboot()
        return f"rebooted: {before} -> {self.machine.boot}"

    def describe(self):
        return {"host": {"os": "FakeOS"}, "compilers": {"cc": "cc 1.0"}, "programs": {}}


def drive_boots(tmp_path, machine):
    clock = FakeClock()
    target = BootTarget(clock, machine)
    results = tmp_path / "results"
    plan = boot_plan(results)
    log = tmp_path / "run.log"
    return target, lambda: driver.drive(target, plan, results=results, log=log, clock=clock)


def test_three_runs_in_three_boots(tmp_path):
    target, run = drive_boots(tmp_path, Machine())
    metas = run()
    assert target.calls.count("reboot") == 2
    assert [c for c in target.calls if c in ("start", "reboot")] == [
        "start",
        "reboot",
        "start",
        "reboot",
        "start",
    ]
    for name in ("O2", "O0"):
        meta = json.loads((tmp_path / f"results/fake/{name}/memory/meta.json").read_text())
        assert meta == metas[name] and meta["status"] == "ok"
        assert meta["boot_ids"] == {"1": ["boot-1"], "2": ["boot-2"], "3": ["boot-3"]}
        assert meta["boots"] == 3 and meta["run_unit"]["boot_per_run"] is True
        assert {s["boot"] for s in meta["segments"]} == {"boot-1", "boot-2", "boot-3"}
        raw = (tmp_path / f"results/fake/{name}/memory/raw.csv").read_text().splitlines()
        assert sorted(int(x.rsplit(",", 1)[1]) for x in raw[1:]) == [1] * 6 + [2] * 6 + [3] * 6
    log = (tmp_path / "run.log").read_text()
    assert "run 1 of 3 done, elapsed" in log and "run 2 of 3 done, elapsed" in log
    assert "rebooted in 120 s: starting run 3 of 3" in log and "rebooted: boot-2 -> boot-3" in log


def test_a_reboot_that_did_not_happen_stops_the_run_and_keeps_its_rows(tmp_path):
    target, run = drive_boots(tmp_path, Machine(reboots_work=False))
    with pytest.raises(driver.RunFailed, match="run 2 would run in boot boot-1.*did not happen"):
        run()
    assert target.calls.count("reboot") == 1 and target.calls.count("start") == 2
    for name in ("O2", "O0"):
        vdir = tmp_path / f"results/fake/{name}/memory"
        assert unit.rows_measured(vdir) == 6, "run 1's rows are kept, run 2 measured nothing"
        failed = json.loads((vdir / "run-failed.json").read_text())
        assert "the reboot did not happen" in failed["error"] and failed["boots"] == 1
        assert not (vdir / "meta.json").exists()


def test_the_unit_runs_one_run_per_boot(tmp_path):
    clock, machine, said = FakeClock(), Machine(), []
    plan = boot_plan(tmp_path / "results", runs=2)

    def execute(**kw):
        bench = FakeBenchmark(clock)
        say = lambda m, progress=False: said.append(m)  # noqa: E731
        unit.execute({**plan, **kw}, say, bench, clock.monotonic, lambda: machine.boot)
        return bench

    with pytest.raises(unit.RebootNeeded, match="run 1 of 2 done in boot boot-1"):
        execute()
    vdir = tmp_path / "results/fake/O2/memory"
    assert {s["run"] for s in unit.history(vdir)} == {1} and not (vdir / "raw.csv").exists()
    with pytest.raises(unit.UnitFailed, match="the reboot did not happen"):
        execute()
    machine.reboot()  # run 2 starts in boot 2, stops at its time limit; an unplanned reboot
    with pytest.raises(unit.UnitTimeout):
        execute(timeout_s=1.5)
    assert {s["boot"] for s in unit.history(vdir) if s["run"] == 2} == {"boot-2"}
    machine.reboot()
    bench = execute()
    assert any("rows of another boot" in m and "segments-superseded-1" in m for m in said)
    assert sum(n for _, n in bench.calls) == 12, "run 2 measured again, wholly in boot 3"
    assert {(s["run"], s["boot"]) for s in unit.history(vdir)} == {(1, "boot-1"), (2, "boot-3")}
    assert (vdir / "run-2/segments-superseded-1").is_dir(), "the rows of boot 2 are kept"


def test_without_boot_per_run_segments_record_the_boot_and_runs_interleave(tmp_path):
    clock = FakeClock()
    plan = boot_plan(tmp_path / "results", runs=2, boot_per_run=False)
    unit.execute(plan, lambda m, progress=False: None, FakeBenchmark(clock), clock.monotonic)
    hist = unit.history(tmp_path / "results/fake/O2/memory")
    assert {s["boot"] for s in hist} == {unit.boot_id()} and unit.boot_id()


ITEMS = [{"name": f"{v}/run-{r}", "run": r, "units": 5} for r in (1, 2) for v in ("A", "B")]


def test_the_schedule_goes_run_by_run_only_when_asked():
    done = {i["name"]: 0 for i in ITEMS}
    # the interleaving of the schedule before boot_per_run existed, for this seed
    assert unit.schedule(ITEMS, done, 2, 7) == [
        ("B/run-2", 0, 2),
        ("B/run-1", 0, 2),
        ("A/run-1", 0, 2),
        ("A/run-2", 0, 2),
        ("B/run-1", 2, 2),
        ("A/run-2", 2, 2),
        ("B/run-2", 2, 2),
        ("A/run-1", 2, 2),
        ("B/run-1", 4, 1),
        ("A/run-1", 4, 1),
        ("B/run-2", 4, 1),
        ("A/run-2", 4, 1),
    ]
    by_run = unit.schedule(ITEMS, done, 2, 7, by_run=True)
    runs = [int(name[-1]) for name, _, _ in by_run]
    assert runs == [1] * 6 + [2] * 6, "every chunk of run 1 before any of run 2"
    assert {name[0] for name, _, _ in by_run[:2]} == {"A", "B"}, "a run's variants interleave"
    assert sorted(by_run) == sorted(unit.schedule(ITEMS, done, 2, 7)), "the same chunks"


# --- refused where the workflow cannot reboot ----------------------------------------------------


def test_a_local_target_with_boot_per_run_is_refused_with_the_key_named(tmp_path):
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config = copy.deepcopy(config)
    next(t for t in config["targets"] if t["kind"] == "local")["boot_per_run"] = True
    with pytest.raises(cfg.ConfigError, match=r"targets\[local\]\.boot_per_run"):
        exp.resolved_config(config)
    with pytest.raises(driver.RunFailed, match=r"targets\[here\]\.boot_per_run: a local target"):
        run_unit(
            target={"name": "here", "kind": "local", "boot_per_run": True},
            experiment="memory",
            recipes=[RECIPE],
            params=PARAMS,
            results=tmp_path / "results",
            log=tmp_path / "run.log",
        )
    with pytest.raises(TargetError, match=r"targets\[here\]\.boot_per_run"):
        LocalTarget({"name": "here", "kind": "local"}, tmp_path).reboot()


def test_the_board_config_accepts_boot_per_run():
    config = cfg.merged(ROOT / "config" / "config.yaml", ROOT / "config" / "morello.yaml")
    board = next(t for t in config["targets"] if t["kind"] == "morello")
    board.update(boot_per_run=True, reboot_command="sudo shutdown -r now", boot_wait_s=600)
    exp.resolved_config(config)


# --- the SSH target's reboot, with a fake transport ----------------------------------------------


class FakeSSH:
    """Answers the boot id script from a list (an exception entry is raised); records commands."""

    destination, workdir = "root@board", "c18n-ae"

    def __init__(self, boots, status="exit=none\nalive=0\nsize=0\n---\n"):
        self.boots, self.status, self.commands = list(boots), status, []

    def run(self, command, timeout=600, check=True):
        self.commands.append(command)
        out = ""
        if command == remote.BOOT_ID_SCRIPT:
            step = self.boots.pop(0) if len(self.boots) > 1 else self.boots[0]
            if isinstance(step, BaseException):
                raise step
            out = step
        elif "alive=" in command:
            out = self.status
        elif "reboot.log" in command and command.startswith("cat"):
            out = "shutdown: NOT super-user\n"
        return subprocess.CompletedProcess(command, 0, out, "")


def ssh_target(tmp_path, transport, **config):
    clock = FakeClock()
    board = {"name": "board", "kind": "morello", "host": "board", **config}
    target = remote.SSHTarget(board, tmp_path, clock)
    target.t = target.transport = transport
    target.rel = "results/board/_units/memory"
    return target, clock


def test_the_ssh_target_reboots_and_waits_for_a_new_boot(tmp_path):
    down = LinkError("ssh: connect to host board port 22: Connection refused")
    transport = FakeSSH(["{ sec = 100 }", "{ sec = 100 }", down, down, "{ sec = 400 }"])
    target, clock = ssh_target(tmp_path, transport, reboot_command="sudo reboot")
    said = target.reboot()
    assert "boot { sec = 100 } -> { sec = 400 }" in said and "2 polls unanswered" in said
    assert clock.t == 4 * remote.BOOT_POLL_S
    sent = [c for c in transport.commands if "sudo reboot" in c]
    assert len(sent) == 1 and "nohup sh -c" in sent[0] and "reboot.log" in sent[0]


def test_an_ssh_target_that_stays_in_its_boot_fails_after_boot_wait_s(tmp_path):
    target, clock = ssh_target(tmp_path, FakeSSH(["{ sec = 100 }"]), boot_wait_s=60)
    with pytest.raises(TargetError, match=r"within boot_wait_s 60 s.*NOT super-user"):
        target.reboot()
    assert clock.t == 60


def test_after_a_reboot_a_live_pid_with_an_exit_status_is_not_the_unit(tmp_path):
    """A finished unit's pid, reused by another process after the reboot, is neither re-attached
    nor killed."""
    transport = FakeSSH(["x"], status="exit=6\nalive=1\nsize=10\n---\n")
    target, _ = ssh_target(tmp_path, transport)
    said = target.start(boot_plan(tmp_path / "results", runs=2))
    assert remote.REBOOT_EXIT == str(unit.EXIT["reboot"])
    assert "asked for a reboot: going on with the next" in said and "started on" in said
    assert not any("kill -TERM" in c for c in transport.commands)
