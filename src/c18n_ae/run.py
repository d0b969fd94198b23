"""Runs one experiment for one target and variant: raw.csv (from the benchmark) + meta.json.

The benchmark writes raw.csv.partial row by row and renames it when done; this
runner forwards its progress to the log and the terminal, enforces the timeout,
ends the benchmark's whole process group on Ctrl-C, SIGTERM or timeout, and
records what happened. A failed run leaves raw.csv.partial and run-failed.json."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from . import exp, hostinfo
from .commands import launch_command
from .fsutil import write_json_atomic

TERMINAL_EVERY_S = 2.0  # progress lines reach the terminal at most this often; the log gets all


class RunFailed(RuntimeError):
    pass


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _stop_group(proc: subprocess.Popen) -> None:
    """Ends the benchmark and anything it started; escalates to SIGKILL after 5 s."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def describe_program(binary: Path, recipe: dict) -> dict:
    out = subprocess.run(launch_command(recipe, str(binary), ["--describe"]), capture_output=True, text=True)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"describe_error": (out.stdout + out.stderr).strip()[:500]}


def run(*, target: str, variant: str, experiment: str, recipe: dict, params: dict,
        bin_dir: Path, out_dir: Path, log: Path, timeout_s: float | None = None) -> dict:
    e = exp.get(experiment)
    out_dir.mkdir(parents=True, exist_ok=True)
    log.parent.mkdir(parents=True, exist_ok=True)
    raw = out_dir / "raw.csv"
    failed_marker = out_dir / "run-failed.json"
    failed_marker.unlink(missing_ok=True)
    cmd = e.command(params, bin_dir.resolve(), recipe, raw.resolve())
    meta = {
        "target": target,
        "variant": variant,
        "experiment": experiment,
        "parameters": params,
        "trials_planned": e.trials(params),
        "command": cmd,
        "launcher": recipe.get("launcher", []),
        "compiler": recipe["cc"],
        "compiler_version": hostinfo.compiler_version(recipe["cc"]),
        "cflags": recipe["cflags"],
        "host": hostinfo.describe_local(),
        "program": describe_program(bin_dir / e.programs[0], recipe),
        "git_revision": hostinfo.git_revision(),
        "started_at": _now(),
    }
    last_progress = ""
    status = "ok"
    with open(log, "a") as logf:
        logf.write(f"[{_now()}] run: {shlex.join(cmd)}\n")
        logf.flush()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)

        def on_signal(signum, _frame):
            _stop_group(proc)
            raise KeyboardInterrupt(f"signal {signum}")

        old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        deadline = time.monotonic() + timeout_s if timeout_s else None
        shown = 0.0
        try:
            # A reader thread would be more elegant; select keeps the timeout exact.
            import selectors
            sel = selectors.DefaultSelector()
            sel.register(proc.stderr, selectors.EVENT_READ)
            while True:
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                if deadline is not None and wait == 0.0:
                    status = "timeout"
                    _stop_group(proc)
                    break
                if not sel.select(timeout=min(wait, 1.0) if wait is not None else 1.0):
                    if proc.poll() is not None:
                        break
                    continue
                line = proc.stderr.readline()
                if not line:
                    break
                logf.write(line)
                logf.flush()
                if line.startswith("progress:"):
                    last_progress = line.strip()
                    if time.monotonic() - shown >= TERMINAL_EVERY_S:
                        shown = time.monotonic()
                        print(f"[{target}/{variant}/{experiment}] {last_progress}", file=sys.stderr, flush=True)
                else:
                    print(f"[{target}/{variant}/{experiment}] {line.rstrip()}", file=sys.stderr, flush=True)
            proc.wait()
        except KeyboardInterrupt:
            status = "interrupted"
        finally:
            for s, h in old.items():
                signal.signal(s, h)
            if proc.poll() is None:
                _stop_group(proc)
        meta["finished_at"] = _now()
        meta["exit_status"] = proc.returncode
        meta["last_progress"] = last_progress
        if status == "ok" and (proc.returncode != 0 or not raw.exists()):
            status = "failed"
        meta["status"] = status
        logf.write(f"[{_now()}] {status}: exit status {proc.returncode}\n")
    if status != "ok":
        write_json_atomic(failed_marker, meta)
        partial = raw.with_name(raw.name + ".partial")
        kept = f"; rows measured so far are kept in {partial}" if partial.exists() else ""
        raise RunFailed(
            f"{target}/{variant}/{experiment}: run {status} (exit status {proc.returncode}); "
            f"last progress: {last_progress or 'none'}; details in {failed_marker} and {log}{kept}"
        )
    write_json_atomic(out_dir / "meta.json", meta)
    return meta


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--target", required=True, help="target configuration as JSON")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--experiment", required=True)
    ap.add_argument("--recipe", required=True, help="variant recipe as JSON")
    ap.add_argument("--params", required=True, help="experiment parameters as JSON")
    ap.add_argument("--bin-dir", required=True, type=Path)
    ap.add_argument("--out-dir", required=True, type=Path)
    ap.add_argument("--log", required=True, type=Path)
    a = ap.parse_args(argv)
    params = json.loads(a.params)
    target = json.loads(a.target)
    if target["kind"] != "local":
        from .remote import RemoteRunFailed, run_remote
        try:
            run_remote(target=target, recipe=json.loads(a.recipe), experiment=a.experiment, params=params,
                       out_dir=a.out_dir, log=a.log, timeout_s=params.get("timeout_s"))
        except RemoteRunFailed as e:
            raise SystemExit(f"error: {e}")
        return
    try:
        run(target=target["name"], variant=a.variant, experiment=a.experiment, recipe=json.loads(a.recipe),
            params=params, bin_dir=a.bin_dir, out_dir=a.out_dir, log=a.log, timeout_s=params.get("timeout_s"))
    except RunFailed as e:
        raise SystemExit(f"error: {e}")


if __name__ == "__main__":
    main()
