"""Build and run on an SSH target (any POSIX host or a Morello board).

Sources are shipped with rsync and compiled on the target with the variant's flags. A run is
started detached on the remote side (nohup), so it survives the SSH link dropping: it writes
raw.csv.partial row by row, its progress lines to progress.log and, when it ends, its exit status
to exit_status. This side polls over short SSH connections, retries through a dropped link until
the run's timeout, and fetches the run directory when it finishes. Run again, it resumes: a run
that already finished is fetched, one still running is re-attached, only a missing or dead one is
started anew."""

from __future__ import annotations

import shlex
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from . import PROJECT_ROOT, exp, programs, provenance
from .commands import compile_command
from .fsutil import write_json_atomic
from .run import TERMINAL_EVERY_S
from .transport import SSH, LinkError

STATUS_SCRIPT = r"""
cd {dir} 2>/dev/null || {{ echo exit=absent; exit 0; }}
if [ -f exit_status ]; then echo "exit=$(cat exit_status)"; else echo exit=none; fi
if [ -f pid ] && kill -0 "$(cat pid)" 2>/dev/null; then echo alive=1; else echo alive=0; fi
if [ -f raw.csv ]; then echo raw=1; else echo raw=0; fi
echo "progress=$(grep '^progress:' progress.log 2>/dev/null | tail -n 1)"
echo "last=$(grep -v '^progress:' progress.log 2>/dev/null | tail -n 1)"
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
    t.put([str(PROJECT_ROOT / "src" / "benchmarks"), str(PROJECT_ROOT / "src" / "c18n_ae")], f"{t.workdir}/src")


def build_remote(target: dict, recipe: dict, program: programs.Program, bin_dir: Path) -> dict:
    t = SSH.from_target(target)
    ship_sources(t)
    rel_bin = f"results/{target['name']}/{recipe['name']}/bin"
    cmd = compile_command(recipe, program, "src/benchmarks", rel_bin)
    print(f"build on {t.destination}: {shlex.join(cmd)}", file=sys.stderr)
    t.run(f"cd {shlex.quote(t.workdir)} && mkdir -p {rel_bin} && {shlex.join(cmd)}", timeout=900)
    file_out = t.run(f"cd {shlex.quote(t.workdir)} && file -b {rel_bin}/{program.output}", check=False).stdout.strip()
    t.get([f"{t.workdir}/{rel_bin}/{program.output}"], bin_dir)
    return {"compile_command": cmd, "file": file_out, "remote": t.destination, "remote_workdir": t.workdir,
            "compiler_version": t.run(f"{shlex.quote(recipe['cc'])} --version 2>&1 | head -n 1", check=False).stdout.strip()}


def remote_command(target: dict, recipe: dict, experiment: str, params: dict, rel: str) -> list[str]:
    e = exp.get(experiment)
    bin_dir = Path(f"results/{target['name']}/{recipe['name']}/bin")
    cmd = e.command(params, bin_dir, recipe, Path(f"{rel}/raw.csv"), python=target.get("python", "python3"))
    return (["env", "PYTHONPATH=src"] + cmd) if e.driver else cmd


def start_script(workdir: str, rel: str, cmd: list[str]) -> str:
    """Starts cmd detached from the SSH session; its stderr is the progress log."""
    inner = f"{shlex.join(cmd)} 2> {rel}/progress.log; echo $? > {rel}/exit_status.tmp; mv {rel}/exit_status.tmp {rel}/exit_status"
    return (f"cd {shlex.quote(workdir)} && mkdir -p {rel} && rm -f {rel}/exit_status {rel}/raw.csv {rel}/raw.csv.partial && "
            f"if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; "
            f"$S nohup sh -c {shlex.quote(inner)} </dev/null >/dev/null 2>&1 & echo $! > {rel}/pid")


def status(t: SSH, rel: str) -> dict:
    out = t.run(STATUS_SCRIPT.format(dir=shlex.quote(f"{t.workdir}/{rel}")), timeout=60).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def run_remote(*, target: dict, recipe: dict, experiment: str, params: dict, out_dir: Path, log: Path,
               timeout_s: float | None, poll_s: float | None = None) -> dict:
    t = SSH.from_target(target)
    name, variant = target["name"], recipe["name"]
    rel = f"results/{name}/{variant}/{experiment}"
    poll = poll_s or target.get("poll_s", 5.0)
    deadline = time.monotonic() + (timeout_s or 86400)
    out_dir.mkdir(parents=True, exist_ok=True)
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
        print(f"[{name}/{variant}/{experiment}] {msg}", file=sys.stderr, flush=True)

    cmd = remote_command(target, recipe, experiment, params, rel)
    state = _retrying(lambda: status(t, rel), "checking the run", deadline, say)
    if state.get("exit") == "0" and state.get("raw") == "1":
        say("finished earlier on the target: fetching it")
    elif state.get("alive") == "1":
        say("still running on the target: re-attaching")
    else:
        say(f"starting on {t.destination}: {shlex.join(cmd)}")
        _retrying(lambda: t.run(start_script(t.workdir, rel, cmd), timeout=60), "starting the run", deadline, say)
    started = _now()
    last = ""
    while True:
        state = _retrying(lambda: status(t, rel), "polling the run", deadline, say)
        if state.get("progress") and state["progress"] != last:
            last = state["progress"]
            say(last, progress=True)
        if state.get("exit") not in (None, "none", "absent"):
            break
        if state.get("exit") == "absent" or (state.get("alive") == "0" and state.get("exit") == "none"):
            time.sleep(poll)  # the exit status is written just after the process ends
            state = _retrying(lambda: status(t, rel), "polling the run", deadline, say)
            if state.get("exit") in ("none", "absent"):
                state["exit"] = "lost (the process is gone and left no exit status: killed, or the target rebooted)"
                break
            continue
        if time.monotonic() > deadline:
            t.run(f"cd {shlex.quote(t.workdir)} && kill $(cat {rel}/pid) 2>/dev/null", check=False)
            state["exit"] = "timeout"
            break
        time.sleep(poll)
    _retrying(lambda: t.get([f"{t.workdir}/{rel}/"], out_dir), "fetching the results", deadline + 600, say)
    meta = {"target": name, "variant": variant, "experiment": experiment, "parameters": params,
            "trials_planned": exp.get(experiment).trials(params), "command": cmd, "remote": t.destination,
            "remote_workdir": t.workdir, "launcher": recipe.get("launcher", []), "compiler": recipe["cc"],
            "cflags": recipe["cflags"], "started_at": started, "finished_at": _now(),
            "exit_status": state["exit"], "last_progress": last or state.get("progress", "")}
    if state["exit"] != "0" or not (out_dir / "raw.csv").exists():
        meta["status"] = "failed"
        write_json_atomic(out_dir / "run-failed.json", meta)
        kept = " ; rows measured so far are in raw.csv.partial" if (out_dir / "raw.csv.partial").exists() else ""
        raise RemoteRunFailed(f"{name}/{variant}/{experiment} on {t.destination}: exit status {state['exit']}; "
                              f"last progress: {meta['last_progress'] or 'none'}; last message: {state.get('last', '')}{kept}")
    meta["status"] = "ok"
    meta["host"] = _retrying(lambda: provenance.describe(target), "describing the target", deadline + 600, say)
    meta["compiler_version"] = meta["host"]["compilers"].get(recipe["cc"], "")
    prog = f"results/{name}/{variant}/bin/{exp.get(experiment).programs[0]}"
    described = t.run(f"cd {shlex.quote(t.workdir)} && {shlex.join([*recipe.get('launcher', []), prog, '--describe'])}",
                      check=False).stdout
    try:
        import json
        meta["program"] = json.loads(described)
    except ValueError:
        meta["program"] = {"describe_error": described[:300]}
    from .hostinfo import git_revision
    meta["git_revision"] = git_revision()
    (out_dir / "run-failed.json").unlink(missing_ok=True)
    write_json_atomic(out_dir / "meta.json", meta)
    logf.close()
    return meta
