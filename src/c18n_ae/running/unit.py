"""A run unit: the variants of one experiment on one machine, run in a seeded, interleaved order,
a few benchmark units at a time, and resumed where they stopped. Python's standard library only:
this module also runs on a board (`python3 -m c18n_ae.running.unit --plan plan.json`).

A benchmark unit is one raw row. Each process runs a window of units (--skip K --limit M) and
writes them to segments/NNNN.csv in its variant's folder, row by row. Rows are never moved or
copied until the end: the units done are the complete rows of all segment files, so a process
killed at any moment (by the board after an hour, a reboot, the cap below, Ctrl-C) loses nothing,
and the next process, now or at the next workflow run, starts at the first unit not yet done. When
every unit of a variant is done, raw.csv is the header and every segment's rows, each unit once.

Plan (JSON): {"experiment", "seed", "chunk_units", "max_unit_s", "timeout_s",
              "variants": [{"name", "dir", "command", "units", "windowed"}]}
`command` ends with the program's own options; the runner adds --skip/--limit (windowed programs)
and --out. A driver (not windowed) runs whole, and starts over if it dies."""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

GIVE_UP_AFTER = 3  # processes in a row that measured nothing: a real failure, not a kill
USAGE_ERROR = 64


class UnitFailed(RuntimeError):
    pass


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _complete_lines(path: Path) -> list[str]:
    """Lines ending in a newline: a process killed mid-write leaves at most one partial line."""
    text = path.read_text(errors="replace")
    lines = text.split("\n")
    return lines[:-1]  # the part after the last newline is incomplete (or empty)


def segment_files(vdir: Path) -> list[Path]:
    """This variant's segments in order (NNNN.csv, or NNNN.csv.partial when the process died)."""
    return sorted((vdir / "segments").glob("[0-9]*.csv*"))


def next_segment(vdir: Path) -> Path:
    """A name no earlier process used, counted from the files themselves (a runner killed before
    it recorded a segment still left the file)."""
    used = [int(p.name.split(".")[0].split("-")[-1]) for p in (vdir / "segments").glob("*.csv*")]
    return vdir / "segments" / f"{max(used, default=0) + 1:04d}.csv"


def is_done(v: dict) -> bool:
    """A windowed program is done when every unit has its row; a driver when a run of it ended
    well."""
    vdir = Path(v["dir"])
    if v.get("windowed", True):
        return len(rows_done(vdir)[1]) >= v["units"]
    return any(s["exit_status"] == 0 for s in _history(vdir)) and bool(segment_files(vdir))


def rows_done(vdir: Path) -> tuple[str | None, list[str]]:
    """(header, data rows) of every segment, in order; headers must agree."""
    header, rows = None, []
    for seg in segment_files(vdir):
        lines = _complete_lines(seg)
        if not lines:
            continue
        if header is None:
            header = lines[0]
        elif lines[0] != header:
            raise UnitFailed(
                f"{seg}: header differs from the earlier segments' ({lines[0]!r} vs {header!r})"
            )
        rows += [line for line in lines[1:] if line.strip()]
    return header, rows


def _history(vdir: Path) -> list[dict]:
    p = vdir / "segments.json"
    return json.loads(p.read_text()) if p.exists() else []


def _record(vdir: Path, segment: dict) -> None:
    hist = _history(vdir) + [segment]
    tmp = vdir / "segments.json.tmp"
    tmp.write_text(json.dumps(hist, indent=1))
    os.replace(tmp, vdir / "segments.json")


def schedule(
    variants: list[dict], done: dict[str, int], chunk: int, seed: int
) -> list[tuple[str, int, int]]:
    """(variant, first unit, units) in a seeded random interleaving: round by round, every variant
    with units left runs its next chunk, the variants in a freshly shuffled order each round."""
    rng = random.Random(seed)
    nxt = dict(done)
    out = []
    while True:
        left = [v for v in variants if nxt[v["name"]] < v["units"]]
        if not left:
            return out
        rng.shuffle(left)
        for v in left:
            size = (
                v["units"] - nxt[v["name"]]
                if not v.get("windowed", True)
                else min(chunk, v["units"] - nxt[v["name"]])
            )
            out.append((v["name"], nxt[v["name"]], size))
            nxt[v["name"]] += size


def _stop(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue


def _run_process(cmd: list[str], cap_s: float, say, prefix: str) -> tuple[int | str, str]:
    """Runs one process in its own group, forwarding its stderr; (exit status or 'cap', last
    progress)."""
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    last = ""
    deadline = time.monotonic() + cap_s
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(proc.stderr, selectors.EVENT_READ)
    try:
        while True:
            wait = deadline - time.monotonic()
            if wait <= 0:
                _stop(proc)
                return "cap", last
            if not sel.select(timeout=min(wait, 1.0)):
                if proc.poll() is not None:
                    break
                continue
            line = proc.stderr.readline()
            if not line:
                break
            if line.startswith("progress:"):
                last = line.strip()
            say(f"{prefix}{line.rstrip()}", progress=line.startswith("progress:"))
        proc.wait()
        return proc.returncode, last
    finally:
        if proc.poll() is None:
            _stop(proc)
        sel.close()
        proc.stderr.close()


def finish(vdir: Path) -> Path:
    header, rows = rows_done(vdir)
    tmp = vdir / "raw.csv.tmp"
    tmp.write_text("\n".join([header, *rows]) + "\n")
    os.replace(tmp, vdir / "raw.csv")
    return vdir / "raw.csv"


def _abandon(vdir: Path) -> None:
    """A driver cannot continue midway: an earlier attempt's rows stay beside, out of the count."""
    for seg in segment_files(vdir):
        seg.rename(seg.with_name(f"abandoned-{seg.name}"))


def _start_over_if_changed(vdir: Path, v: dict, say) -> None:
    """Rows go on only under the same command (program, flags, parameters) and number of units:
    segments measured otherwise are kept aside (segments-superseded-N), never mixed in."""
    what = {"command": v["command"], "units": v["units"]}
    recorded = vdir / "segments" / "what.json"
    if recorded.exists() and json.loads(recorded.read_text()) != what:
        n = 1 + len(list(vdir.glob("segments-superseded-*")))
        (vdir / "segments").rename(vdir / f"segments-superseded-{n}")
        history = vdir / "segments.json"
        if history.exists():
            history.rename(vdir / f"segments-superseded-{n}" / "segments.json")
        say(
            f"[{v['name']}] the command or its trials changed: earlier rows kept in "
            f"segments-superseded-{n}"
        )
    (vdir / "segments").mkdir(parents=True, exist_ok=True)
    recorded.write_text(json.dumps(what))


def execute(plan: dict, say=None) -> dict[str, list[dict]]:
    """Runs what is left of the plan; returns each variant's segment history. Raises UnitFailed."""
    say = say or (lambda msg, progress=False: print(msg, file=sys.stderr, flush=True))
    variants = plan["variants"]
    by_name = {v["name"]: v for v in variants}
    done = {}
    for v in variants:
        vdir = Path(v["dir"])
        _start_over_if_changed(vdir, v, say)
        (vdir / "segments").mkdir(parents=True, exist_ok=True)
        (vdir / "raw.csv").unlink(missing_ok=True)
        if not v.get("windowed", True) and not is_done(v):
            _abandon(vdir)
        done[v["name"]] = v["units"] if is_done(v) else len(rows_done(vdir)[1])
        if done[v["name"]]:
            say(f"[{v['name']}] {done[v['name']]} of {v['units']} units done earlier: continuing")
    total = sum(v["units"] for v in variants)
    start = time.monotonic()
    deadline = start + float(plan.get("timeout_s") or 86400)
    measured_here = 0
    idle = {v["name"]: 0 for v in variants}
    order = schedule(
        variants, done, int(plan.get("chunk_units") or 10**9), int(plan.get("seed", 1))
    )
    queue = list(order)
    while queue:
        name, first, size = queue.pop(0)
        v = by_name[name]
        vdir = Path(v["dir"])
        if is_done(v):
            continue
        first = len(rows_done(vdir)[1])  # what is really done (a killed chunk may have done less)
        size = min(size, v["units"] - first) if v.get("windowed", True) else v["units"]
        if time.monotonic() > deadline:
            raise UnitFailed(
                f"{plan['experiment']}: timeout_s reached with {name} at unit {first} of "
                f"{v['units']}"
            )
        seg = next_segment(vdir)
        window = ["--skip", str(first), "--limit", str(size)] if v.get("windowed", True) else []
        cmd = [*v["command"], *window, "--out", str(seg)]
        cap = min(float(plan.get("max_unit_s") or 86400), max(1.0, deadline - time.monotonic()))
        started = now()
        status, last = _run_process(cmd, cap, say, f"[{name}] ")
        after = len(rows_done(vdir)[1])
        new = after - first if v.get("windowed", True) else after
        _record(
            vdir,
            {
                "start": started,
                "end": now(),
                "first_unit": first,
                "units_planned": size,
                "units_measured": new,
                "exit_status": status,
                "command": cmd,
            },
        )
        measured_here += max(new, 0)
        elapsed = time.monotonic() - start
        done_all = sum(
            x["units"] if is_done(x) else len(rows_done(Path(x["dir"]))[1]) for x in variants
        )
        left = elapsed * (total - done_all) / measured_here if measured_here else 0.0
        say(
            f"progress: {plan['experiment']} unit {done_all} of {total} (variants interleaved), "
            f"elapsed "
            f"{elapsed:.1f} s, estimated {left:.1f} s left",
            progress=True,
        )
        complete = is_done(v)
        if status == 0 and (complete or (v.get("windowed", True) and new >= size)):
            continue  # this chunk is done; the schedule holds the variant's next one
        if status == USAGE_ERROR:
            raise UnitFailed(
                f"{name}: the program refused its arguments (exit 64): {' '.join(cmd)}"
            )
        if (
            v.get("windowed", True) and after >= v["units"]
        ):  # all rows, but a failure (e.g. a checksum)
            raise UnitFailed(
                f"{name}: all units measured but the program exited with {status}; last: {last}"
            )
        idle[name] = idle[name] + 1 if new <= 0 else 0
        if idle[name] >= GIVE_UP_AFTER:
            raise UnitFailed(
                f"{name}: {GIVE_UP_AFTER} processes in a row measured nothing (last exit status "
                f"{status}); last progress: {last or 'none'}; rows so far are in "
                f"{vdir / 'segments'}"
            )
        what = (
            "reached the cap max_unit_s" if status == "cap" else f"ended with exit status {status}"
        )
        say(f"[{name}] the process {what} after {new} new units; continuing from unit {after}")
        if not v.get("windowed", True):
            _abandon(vdir)
        queue.insert(0, (name, after, size))
    for v in variants:
        finish(Path(v["dir"]))
    return {v["name"]: _history(Path(v["dir"])) for v in variants}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--plan", required=True, type=Path)
    a = ap.parse_args(argv)
    plan = json.loads(a.plan.read_text())
    try:
        execute(plan)
    except UnitFailed as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
