"""The one run driver: runs a plan (c18n_ae.experiments.plan) through a Target
(c18n_ae.targets.base) and writes each variant's meta.json once, built by meta_for.

    checks before -> start -> poll until ended or the time limit (stop) -> fetch -> describe
    -> checks after -> meta.json (or run-failed.json, rows kept)

Separate boots (the plan's boot_per_run): the run unit ends each run but the last with
unit.EXIT["reboot"]; the driver then fetches the rows, asks the target to reboot (target.reboot(),
which returns once the machine answers in a new boot) and starts the unit again, until it is done.
The time limit is for measuring: the time a reboot takes is added to it. meta.json records each
run's boot ids and the number of distinct boots.

Progress: every line the run unit prints goes to the log; progress lines reach the terminal at
most every TERMINAL_EVERY_S, other messages always. Ctrl-C or SIGTERM (KeyboardInterrupt, see
running.run) and the time limit stop the run unit, which ends its benchmark and keeps every row.

Checks (the place for board checks: compartments active, kernel configuration, revocation,
crossing counts): a check is a callable `check(target, plan) -> dict`. The driver calls the
`before` checks ahead of starting the run and the `after` checks once its rows are home; each
returns facts recorded in every variant's meta.json under `checks[<its name>]` (its `name`
attribute, else its function name), or raises RunRefused with a message naming what it saw: the
run then does not start (or its rows stay out of meta.json), run-failed.json records the message,
and the driver raises RunFailed with it. `target.transport.run(command)` runs a shell command on
the target; the plan names each variant's recipe (launcher, flags, c18n) and build files."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from c18n_ae.common import TERMINAL_EVERY_S
from c18n_ae.common.fsutil import write_json_atomic
from c18n_ae.experiments.plan import description as plan_description
from c18n_ae.running import unit
from c18n_ae.targets import abi, hostinfo
from c18n_ae.targets.base import Clock, Target, TargetError

STATUS_OF_EXIT = {unit.EXIT[s]: s for s in unit.EXIT}  # the run unit's exit status -> status
STOP_WAIT_S = 60.0  # how long a stopped run unit may take to end its benchmark and exit


class RunFailed(RuntimeError):
    pass


class RunRefused(RuntimeError):
    """A check refuses the run; its message says what was seen and why it matters."""


Check = Callable[[Target, dict], dict]


@dataclass
class Outcome:
    started_at: str
    status: str = "ok"
    exit_status: int | str | None = None
    error: str = ""
    last_progress: str = ""
    last_message: str = ""
    finished_at: str = ""
    checks: dict = field(default_factory=dict)


class Reporter:
    """The run's log (every line) and the terminal (progress at most every TERMINAL_EVERY_S, the
    whole unit's and a benchmark's each on their own clock: a benchmark's trial lines, many a
    second, would otherwise hide the unit's, the one that counts every variant and run)."""

    def __init__(self, log: Path, prefix: str, clock: Clock, outcome: Outcome):
        log.parent.mkdir(parents=True, exist_ok=True)
        self.logf, self.prefix, self.clock, self.outcome = open(log, "a"), prefix, clock, outcome
        self.shown: dict[str, float] = {}  # kind of progress line -> when last shown

    def say(self, msg: str, progress: bool = False) -> None:
        self.logf.write(f"[{self.clock.now()}] {msg}\n")
        self.logf.flush()
        if progress:
            kind = "lane" if msg.startswith("[") else "unit"
            last = self.shown.get(kind, -TERMINAL_EVERY_S)
            if self.clock.monotonic() - last < TERMINAL_EVERY_S:
                return
            self.shown[kind] = self.clock.monotonic()
        print(f"[{self.prefix}] {msg}", file=sys.stderr, flush=True)

    def line(self, line: str) -> None:
        """A line of the run unit's: progress ("[lane] progress: ..." or "progress: ...") or not."""
        bare = line.split("] ", 1)[-1] if line.startswith("[") else line
        progress = bare.startswith("progress:")
        if progress:
            self.outcome.last_progress = bare
        elif line.strip():
            self.outcome.last_message = line.strip()
        self.say(line, progress=progress)

    def close(self) -> None:
        self.logf.close()


def check_name(check: Check) -> str:
    return getattr(check, "name", None) or getattr(check, "__name__", type(check).__name__)


def run_checks(checks: Iterable[Check], target: Target, plan: dict, report: Reporter) -> dict:
    """Each check's facts by its name; a RunRefused propagates."""
    seen = {}
    for check in checks:
        seen[check_name(check)] = check(target, plan)
        for warning in seen[check_name(check)].get("warnings", []):  # e.g. a debug kernel
            report.say(warning)
        # a check that records a verdict without refusing (E10's known answer) says it
        report.say(f"check {check_name(check)}: {seen[check_name(check)].get('status', 'passed')}")
    return seen


def status_of(exit_status) -> str:
    if isinstance(exit_status, int):
        return STATUS_OF_EXIT.get(exit_status, "failed")
    return "timeout" if exit_status == "timeout" else "failed"


def drain(target: Target, report: Reporter, clock: Clock, poll_s: float):
    """Polls a stopped run until it ends (or STOP_WAIT_S pass); its exit status or None."""
    until = clock.monotonic() + STOP_WAIT_S
    while clock.monotonic() < until:
        p = target.poll()
        for line in p.lines:
            report.line(line)
        if p.ended:
            return p.exit_status
        clock.sleep(poll_s)
    return None


def wait(target: Target, report: Reporter, clock: Clock, deadline: float, poll_s: float):
    """Polls until the run unit ends; at the deadline stops it. Its exit status, or 'timeout'."""
    while True:
        p = target.poll()
        for line in p.lines:
            report.line(line)
        if p.ended:
            return p.exit_status
        if clock.monotonic() > deadline:
            report.say("time limit reached: stopping the run (its rows are kept)")
            target.stop()
            drain(target, report, clock, poll_s)
            return "timeout"
        clock.sleep(poll_s)


def run_through(target, plan, report, clock, deadline, poll_s, out: Outcome, results) -> None:
    """Starts the run and waits for it; Ctrl-C or SIGTERM stop it. With boot_per_run, each run
    but the last ends asking for a reboot: the target reboots and the unit starts again."""
    reboots, started = 0, clock.monotonic()
    while True:
        report.say(target.start(plan))
        try:
            out.exit_status = wait(target, report, clock, deadline, poll_s)
        except KeyboardInterrupt:
            report.say("interrupted: stopping the run (its rows are kept)")
            target.stop()
            drain(target, report, clock, poll_s)
            out.exit_status = out.status = "interrupted"
            return
        out.status = status_of(out.exit_status)
        if out.status != "reboot":
            return
        reboots += 1
        try:
            deadline += reboot(target, plan, report, clock, reboots, started, results)
        except KeyboardInterrupt:
            report.say("interrupted while the target rebooted (every row is kept)")
            out.exit_status = out.status = "interrupted"
            return


def reboot(target, plan, report, clock, reboots: int, started: float, results) -> float:
    """Reboots the target between two runs (its rows fetched first); the seconds it took."""
    runs = len(plan["variants"][0]["runs"]) if plan["variants"] else 0
    if not plan.get("boot_per_run") or reboots >= runs:
        raise RunFailed(
            f"the run unit asked for reboot number {reboots} of a plan with {runs} runs "
            f"(boot_per_run {bool(plan.get('boot_per_run'))})"
        )
    target.fetch()  # the rows measured so far come home before the machine goes down
    done, t0 = runs_done(plan, results), clock.monotonic()
    report.say(
        f"run {done} of {runs} done, elapsed {t0 - started:.0f} s: rebooting {target.name} "
        f"(boot_per_run, reboot {reboots} of {runs - 1})"
    )
    report.say(target.reboot())
    took = clock.monotonic() - t0
    report.say(f"rebooted in {took:.0f} s: starting run {done + 1} of {runs}")
    return took


def runs_done(plan: dict, results: Path) -> int:
    """Runs (in order) whose every lane has all its rows here."""
    done = 0
    for i in range(len(plan["variants"][0]["runs"]) if plan["variants"] else 0):
        lanes = [
            {
                "dir": str(variant_dir(plan, results, v) / f"run-{v['runs'][i]['run']}"),
                "units": v["runs"][i]["units"],
                "windowed": v.get("windowed", True),
            }
            for v in plan["variants"]
        ]
        if not all(unit.is_done(ln) for ln in lanes):
            break
        done += 1
    return done


def headline(plan: dict) -> str:
    runs = len(plan["variants"][0]["runs"]) if plan["variants"] else 0
    how = (
        f", interleaved {plan['chunk_units']} units at a time (seed {plan['seed']})"
        if plan["chunk_units"]
        else ""
    )
    names = ", ".join(v["name"] for v in plan["variants"])
    where = f"{plan['experiment']} on {plan['target']}"
    return f"run unit: {where}, variants {names}, {runs} runs each{how}"


def drive(
    target: Target,
    plan: dict,
    *,
    results: Path,
    log: Path,
    clock: Clock | None = None,
    poll_s: float = 0.5,
    timeout_s: float | None = None,
    before: Iterable[Check] = (),
    after: Iterable[Check] = (),
) -> dict[str, dict]:
    """Runs the plan on the target; writes and returns each variant's meta. Raises RunFailed,
    keeping every measured row."""
    clock = clock or Clock()
    out = Outcome(started_at=clock.now())
    report = Reporter(log, f"{plan['target']}/{plan['experiment']}", clock, out)
    deadline = clock.monotonic() + float(timeout_s or 86400) + 30  # the unit stops itself first
    report.say(headline(plan))
    if plan.get("undivided"):  # its trials are not shared between runs: why, and what instead
        report.say(plan["undivided"])
    facts: dict = {}
    try:
        out.checks = run_checks(before, target, plan, report)
        run_through(target, plan, report, clock, deadline, poll_s, out, results)
        target.fetch()
        if out.status == "ok":
            missing_rows(plan, results)
            facts = target.describe()
            out.checks.update(run_checks(after, target, plan, report))
    except RunRefused as e:
        out.status, out.error = "refused", str(e)
    except (RunFailed, TargetError) as e:
        out.status, out.error = "failed", str(e)
    out.finished_at = clock.now()
    out.error = out.error or ("" if out.status == "ok" else out.last_message)
    report.say(f"{out.status}{': ' + out.error if out.error else ''}")
    report.close()
    metas = write_metas(plan, results, facts, out)
    if out.status != "ok":
        raise RunFailed(failure_message(plan, out, log))
    return metas


def missing_rows(plan: dict, results: Path) -> None:
    for v in plan["variants"]:
        if not (variant_dir(plan, results, v) / "raw.csv").exists():
            raise RunFailed(f"the run ended well but {v['name']} has no raw.csv")


def failure_message(plan: dict, out: Outcome, log: Path) -> str:
    t, e = plan["target"], plan["experiment"]
    return (
        f"{t}/{e}: run {out.status}, exit status {out.exit_status}"
        f"{': ' + out.error if out.error else ''}; last progress: "
        f"{out.last_progress or 'none'}; rows measured so far are kept in "
        f"results/{t}/<variant>/{e}/run-*/segments/ and the next run continues from them; "
        f"details in run-failed.json and {log}"
    )


def variant_dir(plan: dict, results: Path, v: dict) -> Path:
    return Path(results) / plan["target"] / v["name"] / plan["experiment"]


def boots(segments: list[dict]) -> dict:
    """Each run's boot ids (run index -> ids, in order) and the number of distinct boots."""
    ids: dict[str, list] = {}
    for s in segments:
        seen = ids.setdefault(str(s["run"]), [])
        if s.get("boot") and s["boot"] not in seen:
            seen.append(s["boot"])
    return {"boot_ids": ids, "boots": len({b for run in ids.values() for b in run})}


def meta_for(plan: dict, v: dict, facts: dict, out: Outcome, vdir: Path) -> dict:
    """The one place meta.json is built: what ran (recipe, parameters, runs, build hashes), where
    (host, compilers), when (and in which boots), how (segments, interleaving), what the checks
    saw, and how it ended."""
    recipe, segments = v["recipe"], unit.history(vdir)
    builds = [s["build"] for s in segments if "build" in s]
    binary = vdir.parent / "bin" / Path(v["build_files"][0]).name
    where = {k: facts[k] for k in ("remote", "remote_workdir") if k in facts}
    return {
        "target": plan["target"],
        "variant": v["name"],
        "experiment": plan["experiment"],
        "parameters": plan["parameters"],
        "runs": len(v["runs"]),
        "trials_planned": sum(r["units"] for r in v["runs"]),
        "trials_per_run": [r["units"] for r in v["runs"]],
        "command": v["runs"][0]["command"],
        "launcher": recipe.get("launcher", []),
        "compiler": recipe["cc"],
        "compiler_version": facts.get("compilers", {}).get(recipe["cc"], ""),
        "cflags": recipe["cflags"],
        "abi": abi.of_build(binary),
        "build": builds[-1] if builds else {},
        "host": facts.get("host", {}),
        "program": facts.get("programs", {}).get(v["name"], {}),
        **where,
        "git_revision": hostinfo.git_revision(),
        "started_at": out.started_at,
        "finished_at": out.finished_at,
        "run_unit": plan_description(plan),
        "stopped": stopped(plan, v, vdir),
        "segments": segments,
        **boots(segments),
        "checks": out.checks,
        "status": out.status,
        "exit_status": out.exit_status,
        "last_progress": out.last_progress,
        **({"error": out.error} if out.error else {}),
    }


def stopped(plan: dict, v: dict, vdir: Path) -> dict:
    """Why the variant's runs stopped, with the units each run measured: the run unit's stop.json
    (a precision or budget_s, c18n_ae.experiments.stopping), else the count the plan gave."""
    record = vdir / unit.STOP_FILE
    if plan.get("stopping") and record.exists():
        got = json.loads(record.read_text())
        keep = ("reason", "why", "precision_reached", "seconds_spent", "runs", "units_per_run")
        return {k: got[k] for k in keep}
    per_run = [len(unit.rows_done(vdir / f"run-{r['run']}")[1]) for r in v["runs"]]
    why = "the study's count" if plan.get("split_trials") else "every run made the study's count"
    return {"reason": "count", "why": why, "runs": len(v["runs"]), "units_per_run": per_run}


def write_metas(plan: dict, results: Path, facts: dict, out: Outcome) -> dict[str, dict]:
    """meta.json per variant when the run is ok, else run-failed.json (and no meta.json)."""
    metas = {}
    for v in plan["variants"]:
        vdir = variant_dir(plan, results, v)
        vdir.mkdir(parents=True, exist_ok=True)
        metas[v["name"]] = meta = meta_for(plan, v, facts, out, vdir)
        ok = out.status == "ok"
        (vdir / ("run-failed.json" if ok else "meta.json")).unlink(missing_ok=True)
        write_json_atomic(vdir / ("meta.json" if ok else "run-failed.json"), meta)
    return metas
