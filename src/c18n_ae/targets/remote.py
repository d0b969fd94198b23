"""Build and run on an SSH target (any POSIX host or a Morello board).

Sources are shipped with rsync and compiled on the target with the variant's flags. A run unit
(every variant of one experiment, interleaved) is started detached on the remote side (nohup), so
it survives the SSH link dropping: it writes each variant's segments row by row, its progress
lines to progress.log and, when it ends, its exit status to exit_status. This side polls over
short SSH connections, retries through a dropped link until the run's timeout, and fetches the
run directory when it finishes. Run again, it resumes: a run
that already finished is fetched, one still running is re-attached, and a dead one starts again on
the target, where the run unit (c18n_ae.running.unit) goes on from the last row measured."""

from __future__ import annotations

import json
import shlex
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from c18n_ae import PROJECT_ROOT
from c18n_ae import experiments as exp
from c18n_ae.common import TERMINAL_EVERY_S
from c18n_ae.common.fsutil import write_json_atomic
from c18n_ae.experiments import programs
from c18n_ae.experiments.commands import compile_command
from c18n_ae.experiments.plan import description as plan_description
from c18n_ae.experiments.plan import plan_for
from c18n_ae.targets import abi, provenance
from c18n_ae.targets.transport import SSH, LinkError

STATUS_SCRIPT = r"""
cd {dir} 2>/dev/null || {{ echo exit=absent; exit 0; }}
if [ -f exit_status ]; then echo "exit=$(cat exit_status)"; else echo exit=none; fi
if [ -f pid ] && kill -0 "$(cat pid)" 2>/dev/null; then echo alive=1; else echo alive=0; fi
echo "progress=$(grep -E '^(\[[^]]*\] )?progress:' progress.log 2>/dev/null | tail -n 1 \
  | sed 's/^\[[^]]*\] //')"
echo "last=$(grep -vE '^(\[[^]]*\] )?progress:' progress.log 2>/dev/null | tail -n 1)"
"""


class RemoteRunFailed(RuntimeError):
    pass


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _retrying(call, what: str, deadline: float, log):
    """Calls through dropped links until the deadline (the run's timeout)."""
    delay = 1.0
    while True:
        try:
            return call()
        except LinkError as e:
            if time.monotonic() > deadline:
                raise RemoteRunFailed(f"{what}: SSH link still down at the timeout: {e}") from e
            log(f"link lost during {what} ({e}); retrying in {delay:.0f} s")
            time.sleep(delay)
            delay = min(delay * 2, 30.0)


def ship_sources(t: SSH) -> None:
    t.put(
        [str(PROJECT_ROOT / "src" / "benchmarks"), str(PROJECT_ROOT / "src" / "c18n_ae")],
        f"{t.workdir}/src",
    )


def ship_binary(target: dict, recipe: dict, program: programs.Program, bin_dir: Path) -> str:
    """A binary built here goes to the target's results/<target>/<variant>/bin/, beside the
    libraries it links (shipped when they were built), with the sources the drivers import."""
    t = SSH.from_target(target)
    ship_sources(t)
    rel_bin = f"results/{target['name']}/{recipe['name']}/bin"
    t.put([str(bin_dir / program.output)], f"{t.workdir}/{rel_bin}")
    return f"{t.destination}:{t.workdir}/{rel_bin}/{program.output}"


def build_remote(target: dict, recipe: dict, program: programs.Program, bin_dir: Path) -> dict:
    t = SSH.from_target(target)
    ship_sources(t)
    rel_bin = f"results/{target['name']}/{recipe['name']}/bin"
    cmd = compile_command(recipe, program, "src/benchmarks", rel_bin)
    print(f"build on {t.destination}: {shlex.join(cmd)}", file=sys.stderr)
    t.run(f"cd {shlex.quote(t.workdir)} && mkdir -p {rel_bin} && {shlex.join(cmd)}", timeout=900)
    file_out = t.run(
        f"cd {shlex.quote(t.workdir)} && file -b {rel_bin}/{program.output}", check=False
    ).stdout.strip()
    t.get([f"{t.workdir}/{rel_bin}/{program.output}"], bin_dir)
    return {
        "compile_command": cmd,
        "file": file_out,
        "remote": t.destination,
        "remote_workdir": t.workdir,
        "compiler_version": t.run(
            f"{shlex.quote(recipe['cc'])} --version 2>&1 | head -n 1", check=False
        ).stdout.strip(),
    }


def start_script(workdir: str, rel: str, cmd: list[str]) -> str:
    """Starts cmd detached from the SSH session; its stderr is the progress log."""
    status_file = f"{rel}/exit_status"
    inner = (
        f"{shlex.join(cmd)} 2>> {rel}/progress.log; echo $? > {status_file}.tmp; "
        f"mv {status_file}.tmp {status_file}"
    )
    return (
        f"cd {shlex.quote(workdir)} && mkdir -p {rel} && rm -f {rel}/exit_status && "
        f"if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; "
        f"$S nohup sh -c {shlex.quote(inner)} </dev/null >/dev/null 2>&1 & echo $! > {rel}/pid"
    )


def status(t: SSH, rel: str) -> dict:
    out = t.run(STATUS_SCRIPT.format(dir=shlex.quote(f"{t.workdir}/{rel}")), timeout=60).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def run_remote(
    *,
    target: dict,
    recipes: list[dict],
    experiment: str,
    params: dict,
    results: Path,
    log: Path,
    timeout_s: float | None,
    options: dict | None = None,
    poll_s: float | None = None,
) -> dict:
    """The run unit on the target (python3 -m c18n_ae.running.unit, detached), polled and fetched;
    each variant's raw.csv, segments and meta.json land in
    results/<target>/<variant>/<experiment>/."""
    t = SSH.from_target(target)
    name = target["name"]
    rel = f"results/{name}/_units/{experiment}"
    poll = poll_s or target.get("poll_s", 5.0)
    deadline = time.monotonic() + (timeout_s or 86400)
    log.parent.mkdir(parents=True, exist_ok=True)
    logf = open(log, "a")
    shown = [0.0]

    def say(msg: str, progress: bool = False) -> None:
        """Everything to the log; progress lines to the terminal at most every TERMINAL_EVERY_S."""
        logf.write(f"[{_now()}] {msg}\n")
        logf.flush()
        if progress and time.monotonic() - shown[0] < TERMINAL_EVERY_S:
            return
        shown[0] = time.monotonic()
        print(f"[{name}/{experiment}] {msg}", file=sys.stderr, flush=True)

    plan = plan_for(
        experiment,
        recipes,
        params,
        Path("results"),
        name,
        options or {},
        python=target.get("python", "python3"),
        resolve=False,
    )
    e = exp.get(experiment)
    if e.driver:  # drivers import the package shipped to src/ on the target
        for v in plan["variants"]:
            v["command"] = ["env", "PYTHONPATH=src", *v["command"]]
    cmd = [
        "env",
        "PYTHONPATH=src",
        target.get("python", "python3"),
        "-m",
        "c18n_ae.running.unit",
        "--plan",
        f"{rel}/plan.json",
    ]
    state = _retrying(lambda: status(t, rel), "checking the run", deadline, say)
    if state.get("exit") == "0":
        say("finished earlier on the target: fetching it")
    elif state.get("alive") == "1":
        say("still running on the target: re-attaching")
    else:
        if state.get("exit") not in (None, "absent"):
            how = (
                "left no exit status"
                if state["exit"] == "none"
                else f"ended with exit status {state['exit']}"
            )
            say(f"an earlier run {how}: continuing where it stopped")
        say(f"starting on {t.destination}: {shlex.join(cmd)}")
        put_plan = (
            f"cd {shlex.quote(t.workdir)} && mkdir -p {rel} && cat > {rel}/plan.json <<'PLAN'\n"
            f"{json.dumps(plan)}\nPLAN"
        )
        _retrying(lambda: t.run(put_plan, timeout=60), "sending the plan", deadline, say)
        _retrying(
            lambda: t.run(start_script(t.workdir, rel, cmd), timeout=60),
            "starting the run",
            deadline,
            say,
        )
    started = _now()
    last = ""
    while True:
        state = _retrying(lambda: status(t, rel), "polling the run", deadline, say)
        if state.get("progress") and state["progress"] != last:
            last = state["progress"]
            say(last, progress=True)
        if state.get("exit") not in (None, "none", "absent"):
            break
        if state.get("exit") == "absent" or (
            state.get("alive") == "0" and state.get("exit") == "none"
        ):
            time.sleep(poll)  # the exit status is written just after the process ends
            state = _retrying(lambda: status(t, rel), "polling the run", deadline, say)
            if state.get("exit") in ("none", "absent"):
                state["exit"] = (
                    "lost (the process is gone and left no exit status: killed, or the target "
                    "rebooted)"
                )
                break
            continue
        if time.monotonic() > deadline:
            t.run(f"cd {shlex.quote(t.workdir)} && kill $(cat {rel}/pid) 2>/dev/null", check=False)
            state["exit"] = "timeout"
            break
        time.sleep(poll)
    for recipe in recipes:  # every row measured so far comes home, finished or not
        vrel = f"results/{name}/{recipe['name']}/{experiment}"
        out_dir = results / name / recipe["name"] / experiment
        out_dir.mkdir(parents=True, exist_ok=True)
        _retrying(
            lambda: t.get([f"{t.workdir}/{vrel}/"], out_dir),
            "fetching the results",
            deadline + 600,
            say,
        )
    ok = state["exit"] == "0" and all(
        (results / name / r["name"] / experiment / "raw.csv").exists() for r in recipes
    )
    host = (
        _retrying(lambda: provenance.describe(target), "describing the target", deadline + 600, say)
        if ok
        else {}
    )
    from c18n_ae.targets.hostinfo import git_revision

    metas = {}
    for recipe in recipes:
        out_dir = results / name / recipe["name"] / experiment
        history = (
            json.loads((out_dir / "segments.json").read_text())
            if (out_dir / "segments.json").exists()
            else []
        )
        meta = {
            "target": name,
            "variant": recipe["name"],
            "experiment": experiment,
            "parameters": params,
            "trials_planned": e.trials(params),
            "command": next(v["command"] for v in plan["variants"] if v["name"] == recipe["name"]),
            "remote": t.destination,
            "remote_workdir": t.workdir,
            "launcher": recipe.get("launcher", []),
            "compiler": recipe["cc"],
            "cflags": recipe["cflags"],
            "started_at": started,
            "finished_at": _now(),
            "exit_status": state["exit"],
            "last_progress": last or state.get("progress", ""),
            "segments": history,
            "run_unit": plan_description(plan),
            "git_revision": git_revision(),
            "abi": abi.of_build(results / name / recipe["name"] / "bin" / e.programs[0].output),
        }
        if not ok:
            meta["status"] = "failed"
            write_json_atomic(out_dir / "run-failed.json", meta)
            continue
        meta.update(
            status="ok", host=host, compiler_version=host["compilers"].get(recipe["cc"], "")
        )
        prog = f"results/{name}/{recipe['name']}/bin/{e.programs[0].output}"
        described = t.run(
            f"cd {shlex.quote(t.workdir)} && "
            f"{shlex.join([*recipe.get('launcher', []), prog, '--describe'])}",
            check=False,
        ).stdout
        try:
            meta["program"] = json.loads(described)
        except ValueError:
            meta["program"] = {"describe_error": described[:300]}
        (out_dir / "run-failed.json").unlink(missing_ok=True)
        write_json_atomic(out_dir / "meta.json", meta)
        metas[recipe["name"]] = meta
    logf.close()
    if not ok:
        raise RemoteRunFailed(
            f"{name}/{experiment} on {t.destination}: exit status {state['exit']}; last progress: "
            f"{last or state.get('progress', '') or 'none'}; last message: "
            f"{state.get('last', '')}; "
            "rows measured so far were fetched into each variant's segments/, and the next run "
            "continues from them on the target"
        )
    return metas
