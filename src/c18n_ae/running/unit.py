"""A run unit: the variants of one experiment on one machine, each repeated in several runs, run
in a seeded, interleaved order, a few benchmark units at a time, and resumed where they stopped.
Python's standard library only: this module also runs on a board
(`python3 -m c18n_ae.running.unit --plan plan.json`).

A benchmark unit is one raw row. A lane is one run of one variant (folder <variant>/run-R/); each
process runs a window of a lane's units (--skip K --limit M) and writes them to
run-R/segments/NNNN.csv, row by row, so no process ever spans two runs. Rows are never moved or
copied until the end: the units done are the complete rows of the lane's segment files, so a
process killed at any moment (by the board after an hour, a reboot, the cap below, Ctrl-C) loses
nothing, and the next process, now or at the next workflow run, starts at the first unit not yet
done. When every lane of a variant is done, its raw.csv is the header and every segment's rows,
each unit once, with the run index appended as the last column `run`.

Every segment records the sha256 of the binary and libraries it ran (the plan's build files), its
seconds and the machine's 1-minute load average when it ended (`c18n-ae timings` prints it). A
lane goes on only under the same command, number of units and build: segments measured otherwise
are moved aside (segments-superseded-N, named in the log), kept, never mixed in.

Separate boots (the plan's "boot_per_run", a target's `boot_per_run: true`): the unit runs only
the first run not yet done (its lanes, every variant, interleaved as above) and then, when runs
are left, exits with EXIT["reboot"]; the driver reboots the machine and starts the unit again,
which goes on with the next run. Every segment records the boot it ran in (boot_id: the
`sysctl -n kern.boottime` of FreeBSD and CheriBSD, Linux's /proc/sys/kernel/random/boot_id, else
None). A run's lanes all run in one boot: rows of a run measured in another boot (an unplanned
reboot midway) move aside (segments-superseded-N) and the run starts over; and a run that finds
itself in the boot of the run before it refuses to measure (the reboot did not happen).

Plan (JSON): {"experiment", "seed", "chunk_units", "max_unit_s", "timeout_s", "boot_per_run",
              "stopping" (optional, below),
              "variants": [{"name", "dir", "windowed", "build_files",
                            "runs": [{"run", "command", "units"}]}]}

Stopping early (the plan's "stopping": {"precision", "budget_s", "metrics", "unmeasurable"}): the
runs' units are then a ceiling (the study's count), not a promise. At the end of every round of
the schedule (each lane has had its next chunk, interleaved and seeded as ever) the unit stops
when every headline metric's interval between runs has a relative half-width of at most
`precision` in every variant (the mean of each run's rows, Student's t over the runs; "metrics":
[{"metric", "column", "where": {column: value}, "largest": column or null}], read from the raw
rows, the largest value of `largest` only), or when the time its processes took reaches
`budget_s`; else it goes on to the study's count. Whichever comes first is recorded in each
variant's stop.json (reason precision, budget or count, the units of each run, the precision
reached), which meta.json repeats; a unit started again after such a stop measures nothing more.
`command` ends with the program's own options; the runner adds --skip/--limit (windowed programs)
and --out. A driver (not windowed) runs whole, and starts over if it dies.

Exit status of `main`: 0 done, 3 failed, 4 time limit reached, 5 interrupted (SIGINT/SIGTERM),
6 reboot (boot_per_run: a run is done and runs are left; reboot, then start the unit again)."""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
import selectors
import signal
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

GIVE_UP_AFTER = 3  # processes in a row that measured nothing: a real failure, not a kill
USAGE_ERROR = 64
EXIT = {"ok": 0, "failed": 3, "timeout": 4, "interrupted": 5, "reboot": 6}
RUN_COLUMN = "run"
STOP_FILE = "stop.json"  # why a plan with "stopping" stopped (see the docstring)
LINUX_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


class UnitFailed(RuntimeError):
    pass


class UnitTimeout(UnitFailed):
    pass


class RebootNeeded(Exception):
    """boot_per_run: a run is done and runs are left; the machine must reboot before the next."""


def boot_id() -> str | None:
    """This boot of the machine: Linux's boot_id, FreeBSD's and CheriBSD's kern.boottime (the
    boot's time, which stays put within a boot unless the clock is stepped), else None."""
    try:
        return LINUX_BOOT_ID.read_text().strip() or None
    except OSError:
        pass
    try:
        done = subprocess.run(
            ["sysctl", "-n", "kern.boottime"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def load() -> float | None:
    """The machine's 1-minute load average (FreeBSD, CheriBSD, Linux), or None."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _print(msg: str, progress: bool = False) -> None:
    print(msg, file=sys.stderr, flush=True)


# --- lanes, segments and rows -------------------------------------------------------------------


def lanes(plan: dict) -> list[dict]:
    """Every (variant, run) of the plan as one lane with its own folder and segments."""
    out = []
    for v in plan["variants"]:
        for r in v["runs"]:
            out.append(
                {
                    "name": f"{v['name']}/run-{r['run']}",
                    "variant": v["name"],
                    "run": r["run"],
                    "dir": str(Path(v["dir"]) / f"run-{r['run']}"),
                    "command": r["command"],
                    "units": r["units"],
                    "windowed": v.get("windowed", True),
                    "build_files": v.get("build_files", []),
                }
            )
    return out


def _complete_lines(path: Path) -> list[str]:
    """Lines ending in a newline: a process killed mid-write leaves at most one partial line."""
    return path.read_text(errors="replace").split("\n")[:-1]


def segment_files(ldir: Path) -> list[Path]:
    """A lane's segments in order (NNNN.csv, or NNNN.csv.partial when the process died)."""
    return sorted((Path(ldir) / "segments").glob("[0-9]*.csv*"))


def next_segment(ldir: Path) -> Path:
    """A name no earlier process used, counted from the files themselves (a runner killed before
    it recorded a segment still left the file)."""
    used = [int(p.name.split(".")[0].split("-")[-1]) for p in (ldir / "segments").glob("*.csv*")]
    return ldir / "segments" / f"{max(used, default=0) + 1:04d}.csv"


def rows_done(ldir: Path) -> tuple[str | None, list[str]]:
    """(header, data rows) of every segment of one lane, in order; headers must agree."""
    header, rows = None, []
    for seg in segment_files(ldir):
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


def lane_dirs(vdir: Path) -> list[Path]:
    """A variant folder's lanes (run-1, run-2, ...), by run index."""
    found = [p for p in Path(vdir).glob("run-*") if p.name[4:].isdigit()]
    return sorted(found, key=lambda p: int(p.name[4:]))


def rows_measured(vdir: Path) -> int:
    """Data rows measured so far in every run of one variant."""
    return sum(len(rows_done(d)[1]) for d in lane_dirs(vdir))


def _history(ldir: Path) -> list[dict]:
    p = Path(ldir) / "segments.json"
    return json.loads(p.read_text()) if p.exists() else []


def history(vdir: Path) -> list[dict]:
    """Every segment of every run of one variant, each with its run index."""
    return [{**s, "run": int(d.name[4:])} for d in lane_dirs(vdir) for s in _history(d)]


def _record(ldir: Path, segment: dict) -> None:
    tmp = ldir / "segments.json.tmp"
    tmp.write_text(json.dumps(_history(ldir) + [segment], indent=1))
    os.replace(tmp, ldir / "segments.json")


def build_of(files: list[str]) -> dict[str, str]:
    """sha256 of each file the lane's processes run (binary and libraries), by file name."""
    out = {}
    for f in files:
        try:
            out[Path(f).name] = hashlib.sha256(Path(f).read_bytes()).hexdigest()
        except OSError:
            out[Path(f).name] = "absent"
    return out


def is_done(lane: dict) -> bool:
    """A windowed lane is done when every unit has its row; a driver's when a run of it ended
    well."""
    ldir = Path(lane["dir"])
    if lane["windowed"]:
        return len(rows_done(ldir)[1]) >= lane["units"]
    return any(s["exit_status"] == 0 for s in _history(ldir)) and bool(segment_files(ldir))


def units_done(lane: dict) -> int:
    return lane["units"] if is_done(lane) else len(rows_done(Path(lane["dir"]))[1])


# --- preparing a lane: same command, units and build, or start over ------------------------------


def _changed(before: dict, what: dict) -> str:
    """What differs between the recorded and the present lane, in words."""
    if before.get("build") != what["build"]:
        diff = [
            f"{name} {str(before.get('build', {}).get(name, 'none'))[:12]} -> {digest[:12]}"
            for name, digest in what["build"].items()
            if before.get("build", {}).get(name) != digest
        ]
        return f"the build changed ({', '.join(diff) or 'files differ'})"
    if before.get("command") != what["command"]:
        return "the command changed"
    return "its number of units changed"


def _start_over_if_changed(lane: dict, say) -> None:
    """Rows go on only under the same command (program, flags, parameters), units and build:
    segments measured otherwise are kept aside (segments-superseded-N), never mixed in."""
    ldir = Path(lane["dir"])
    what = {"command": lane["command"], "units": lane["units"], "build": lane["build"]}
    recorded = ldir / "segments" / "what.json"
    if recorded.exists() and json.loads(recorded.read_text()) != what:
        before = json.loads(recorded.read_text())
        aside = _set_aside(ldir)
        say(f"[{lane['name']}] {_changed(before, what)}: its earlier rows are kept in {aside}")
    (ldir / "segments").mkdir(parents=True, exist_ok=True)
    recorded.write_text(json.dumps(what))


def _set_aside(ldir: Path) -> Path:
    """Moves a lane's segments (and their record) to segments-superseded-N, kept."""
    n = 1 + len(list(ldir.glob("segments-superseded-*")))
    aside = ldir / f"segments-superseded-{n}"
    (ldir / "segments").rename(aside)
    if (ldir / "segments.json").exists():
        (ldir / "segments.json").rename(aside / "segments.json")
    return aside


def _abandon(ldir: Path) -> None:
    """A driver cannot continue midway: an earlier attempt's rows stay beside, out of the count."""
    for seg in segment_files(ldir):
        seg.rename(seg.with_name(f"abandoned-{seg.name}"))


def prepare(lane: dict, say) -> int:
    """Readies a lane's folder; returns its units done earlier (of the same build)."""
    lane["build"] = build_of(lane["build_files"])
    _start_over_if_changed(lane, say)
    if not lane["windowed"] and not is_done(lane):
        _abandon(Path(lane["dir"]))
    done = units_done(lane)
    if done:
        say(f"[{lane['name']}] {done} of {lane['units']} units done earlier: continuing")
    return done


def _stray_runs(vdir: Path, runs: set[int], say) -> None:
    """Runs beyond the plan's number (the config asked for fewer) move aside, kept."""
    for d in lane_dirs(vdir):
        if int(d.name[4:]) not in runs:
            n = 1 + len(list(vdir.glob("runs-superseded-*")))
            aside = vdir / f"runs-superseded-{n}"
            aside.mkdir()
            d.rename(aside / d.name)
            say(f"[{vdir.name}] {d.name} is not in the plan: kept in {aside}")


# --- stopping early: precision between runs, a time budget ---------------------------------------

# Student's t, two-sided 95 %, by degrees of freedom (runs - 1); beyond the table the normal's 1.96
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)


def relative_half_width(means: list[float]) -> float:
    """The 95 % interval's half-width of the mean of the runs' means, relative to that mean
    (infinite with fewer than two runs or a zero mean)."""
    if len(means) < 2 or statistics.fmean(means) == 0:
        return float("inf")
    t = T95[len(means) - 2] if len(means) - 2 < len(T95) else 1.96
    half = t * statistics.stdev(means) / len(means) ** 0.5
    return abs(half / statistics.fmean(means))


def _values(header: str | None, rows: list[str], spec: dict) -> list[tuple[float, float]]:
    """(value of `largest` or 0, value of the metric's column) of the rows the spec selects."""
    if header is None:
        return []
    names = header.split(",")
    out = []
    for row in csv.reader(rows):
        cells = dict(zip(names, row))
        if any(cells.get(k) != v for k, v in spec.get("where", {}).items()):
            continue
        try:
            value = float(cells[spec["column"]])
            at = float(cells[spec["largest"]]) if spec.get("largest") else 0.0
        except (KeyError, ValueError):
            continue  # a row without the value (a failed allocation): not in the mean
        out.append((at, value))
    return out


def precision_reached(variants: dict[str, list[Path]], metrics: list[dict]) -> dict[str, float]:
    """Each headline metric's relative half-width between runs, the widest over the variants
    (variants: name -> its lanes' folders)."""
    out = {}
    for spec in metrics:
        worst = 0.0
        for dirs in variants.values():
            per_run = [_values(*rows_done(d), spec) for d in dirs]
            top = max((at for run in per_run for at, _ in run), default=0.0)
            means = [
                statistics.fmean(vals)
                for run in per_run
                if (vals := [v for at, v in run if at == top])
            ]
            worst = max(worst, relative_half_width(means))
        out[spec["metric"]] = worst
    return out


def segment_seconds(segment: dict) -> float:
    """The time one segment's process took: its seconds, or its start and end (to the second)
    where an older segment did not record them."""
    if "seconds" in segment:
        return float(segment["seconds"])
    took = datetime.fromisoformat(segment["end"]) - datetime.fromisoformat(segment["start"])
    return took.total_seconds()


def seconds_spent(dirs: list[Path]) -> float:
    """The time the lanes' processes took (so across resumptions)."""
    return sum(segment_seconds(s) for d in dirs for s in _history(d))


# --- the schedule --------------------------------------------------------------------------------


def schedule(
    items: list[dict], done: dict[str, int], chunk: int, seed: int, by_run: bool = False
) -> list[tuple[str, int, int]]:
    """(lane, first unit, units) in a seeded random interleaving: round by round, every lane with
    units left runs its next chunk, the lanes in a freshly shuffled order each round. by_run
    (boot_per_run): run by run instead, every lane of one run to its end (interleaved so) before
    any lane of the next."""
    rng = random.Random(seed)
    if not by_run:
        return _interleave(items, done, chunk, rng)
    out = []
    for run in sorted({v["run"] for v in items}):
        out += _interleave([v for v in items if v["run"] == run], done, chunk, rng)
    return out


def _interleave(
    items: list[dict], done: dict[str, int], chunk: int, rng: random.Random
) -> list[tuple[str, int, int]]:
    nxt = {v["name"]: done[v["name"]] for v in items}
    out = []
    while True:
        left = [v for v in items if nxt[v["name"]] < v["units"]]
        if not left:
            return out
        rng.shuffle(left)
        for v in left:
            rest = v["units"] - nxt[v["name"]]
            size = rest if not v.get("windowed", True) else min(chunk, rest)
            out.append((v["name"], nxt[v["name"]], size))
            nxt[v["name"]] += size


# --- one benchmark process -----------------------------------------------------------------------


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


def run_process(cmd: list[str], cap_s: float, say, prefix: str) -> tuple[int | str, str]:
    """Runs one process in its own group, forwarding its stderr; (exit status or 'cap', last
    progress). Any exception (a signal) ends the process group first."""
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    last = ""
    deadline = time.monotonic() + cap_s
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


# --- the run unit --------------------------------------------------------------------------------


class Unit:
    """What is left of a plan, run chunk by chunk. `launch` runs one benchmark process (the real
    run_process, or a fake in tests); `clock` is a monotonic clock in seconds; `boot` reads the
    machine's boot id (boot_id, or a fake)."""

    def __init__(self, plan: dict, say=None, launch=None, clock=time.monotonic, boot=None):
        self.plan, self.say = plan, say or _print
        self.launch, self.clock = launch or run_process, clock
        self.lanes = {ln["name"]: ln for ln in lanes(plan)}
        self.total = sum(ln["units"] for ln in self.lanes.values())
        self.idle = dict.fromkeys(self.lanes, 0)
        self.measured_here = 0
        self.by_boot = bool(plan.get("boot_per_run"))
        self.boot = (boot or boot_id)()
        self.stopping, self.stop_record = plan.get("stopping"), None
        if self.stopping and self.by_boot:
            raise UnitFailed(
                f"{plan['experiment']}: a precision or budget_s needs the runs interleaved, not "
                "one run per boot (boot_per_run)"
            )

    def prepare(self) -> dict[str, int]:
        for v in self.plan["variants"]:
            vdir = Path(v["dir"])
            vdir.mkdir(parents=True, exist_ok=True)
            (vdir / "raw.csv").unlink(missing_ok=True)
            if not self.stopping:
                (vdir / STOP_FILE).unlink(missing_ok=True)  # of an earlier plan that had one
            _stray_runs(vdir, {r["run"] for r in v["runs"]}, self.say)
        return {name: prepare(ln, self.say) for name, ln in self.lanes.items()}

    def run(self) -> dict[str, list[dict]]:
        done = self.prepare()
        self.start = self.clock()
        self.deadline = self.start + float(self.plan.get("timeout_s") or 86400)
        chunk = int(self.plan.get("chunk_units") or 10**9)
        current = self.current_run() if self.by_boot else None
        if current is not None:
            done.update(self.one_boot(current))
        seed = int(self.plan.get("seed", 1))
        queue = schedule(list(self.lanes.values()), done, chunk, seed, by_run=self.by_boot)
        if self.stopping and self.stopped_earlier():
            queue = []
        this_round: set[str] = set()
        while queue:
            name, _, size = queue[0]
            lane = self.lanes[name]
            if current is not None and lane["run"] != current:
                break  # the next run waits for the next boot
            if self.stopping and name in this_round:  # a round ended: every lane had its chunk
                this_round.clear()
                if self.stop_now():
                    break
            this_round.add(name)
            queue.pop(0)
            if is_done(lane):
                continue
            after = self.chunk(lane, size)
            if after is not None:  # the process stopped early: the lane's rest goes first
                queue.insert(0, (name, after, size))
                this_round.discard(name)
        if self.stopping and not self.stop_record:
            self.stop_now(at_count=True)
        if current is not None and self.current_run() is not None:
            raise RebootNeeded(
                f"run {current} of {self.runs()} done in boot {self.boot}: reboot the machine, "
                f"then start the unit again for run {self.current_run()}"
            )
        for v in self.plan["variants"]:
            finish(Path(v["dir"]))
        return {v["name"]: history(Path(v["dir"])) for v in self.plan["variants"]}

    def variant_lanes(self) -> dict[str, list[Path]]:
        return {
            v["name"]: [Path(ln["dir"]) for ln in self.lanes.values() if ln["variant"] == v["name"]]
            for v in self.plan["variants"]
        }

    def units_by_lane(self) -> dict[str, int]:
        return {name: len(rows_done(Path(ln["dir"]))[1]) for name, ln in self.lanes.items()}

    def stopped_earlier(self) -> bool:
        """A stop recorded under the same stopping rule, the lanes' rows as they were then."""
        for v in self.plan["variants"]:
            path = Path(v["dir"]) / STOP_FILE
            if not path.exists():
                return False
            record = json.loads(path.read_text())
            if record.get("stopping") != self.stopping or record.get("units") != {
                k: n for k, n in self.units_by_lane().items() if k.startswith(f"{v['name']}/")
            }:
                return False
        self.stop_record = record
        self.say(f"{self.plan['experiment']}: stopped earlier ({record['why']}): nothing to add")
        return True

    def stop_now(self, at_count: bool = False) -> bool:
        """Whether the precision or the budget is reached (at_count: the study's count is, the
        queue is empty); when it is, each variant's stop.json records why."""
        want, budget = self.stopping.get("precision"), self.stopping.get("budget_s")
        metrics = self.stopping.get("metrics") or []
        reached = precision_reached(self.variant_lanes(), metrics) if want and metrics else {}
        spent = seconds_spent([Path(ln["dir"]) for ln in self.lanes.values()])
        shown = ", ".join(f"{m} {w:.3g}" for m, w in reached.items())
        if reached and all(w <= want for w in reached.values()):
            reason, why = "precision", f"every headline metric within {want:g} ({shown})"
        elif budget and spent >= budget:
            reason, why = "budget", f"budget_s {budget:g} spent ({spent:.0f} s)"
        elif at_count:
            reason, why = "count", "the study's count reached"
            if want:
                why += f" before the precision {want:g}" + (
                    f" ({shown})" if reached else f": {self.stopping.get('unmeasurable', '')}"
                )
        else:
            return False
        units = self.units_by_lane()
        for v, dirs in self.variant_lanes().items():
            record = {
                "reason": reason,
                "why": why,
                "stopping": self.stopping,
                "precision_reached": reached,
                "seconds_spent": spent,
                "runs": len(dirs),
                "units": {k: n for k, n in units.items() if k.startswith(f"{v}/")},
                "units_per_run": [len(rows_done(d)[1]) for d in dirs],
            }
            path = Path(dirs[0]).parent / STOP_FILE
            path.with_suffix(".tmp").write_text(json.dumps(record, indent=1))
            os.replace(path.with_suffix(".tmp"), path)
        self.stop_record = record
        self.say(f"{self.plan['experiment']}: stopped, {why}")
        return True

    def runs(self) -> int:
        return max((ln["run"] for ln in self.lanes.values()), default=0)

    def current_run(self) -> int | None:
        """The first run with a lane not done (None when every run is done)."""
        return min((ln["run"] for ln in self.lanes.values() if not is_done(ln)), default=None)

    def boots_of(self, run: int) -> set:
        """The boot ids the segments of one run recorded (None for segments without one)."""
        return {
            s.get("boot")
            for ln in self.lanes.values()
            if ln["run"] == run
            for s in _history(Path(ln["dir"]))
        }

    def one_boot(self, current: int) -> dict[str, int]:
        """boot_per_run: refuses to measure run `current` in the boot of the run before it; rows
        of the run measured in another boot move aside. The units done of the run's lanes."""
        self.say(f"boot_per_run: run {current} of {self.runs()}, in boot {self.boot}")
        if self.boot is None:
            self.say("warning: this machine's boot id cannot be read: the reboot is not checked")
            return {}
        if current > 1 and self.boot in self.boots_of(current - 1):
            raise UnitFailed(
                f"boot_per_run: run {current} would run in boot {self.boot}, the boot run "
                f"{current - 1} ran in: the reboot did not happen; reboot the machine (check that "
                "reboot_command reboots it) and run again; every row measured so far is kept"
            )
        if not self.boots_of(current) - {self.boot}:
            return {}
        out = {}
        for name, ln in self.lanes.items():
            if ln["run"] == current and (Path(ln["dir"]) / "segments").exists():
                aside = _set_aside(Path(ln["dir"]))
                self.say(
                    f"[{name}] rows of another boot, or of none recorded (a run is one boot): "
                    f"kept in {aside}; the run starts over"
                )
                out[name] = prepare(ln, self.say)
        return out

    def chunk(self, lane: dict, size: int) -> int | None:
        """Runs one process of the lane; None when it did its chunk, else the next unit to do."""
        ldir = Path(lane["dir"])
        first = len(rows_done(ldir)[1])  # what is really done (a killed chunk may have done less)
        size = min(size, lane["units"] - first) if lane["windowed"] else lane["units"]
        if self.clock() > self.deadline:
            raise UnitTimeout(
                f"{self.plan['experiment']}: timeout_s reached with {lane['name']} at unit "
                f"{first} of {lane['units']}"
            )
        build = build_of(lane["build_files"])
        if build != lane["build"]:
            raise UnitFailed(
                f"{lane['name']}: {_changed({'build': lane['build']}, {**lane, 'build': build})} "
                "while the run went on; run again: its rows of the earlier build will move aside"
            )
        seg = next_segment(ldir)
        window = ["--skip", str(first), "--limit", str(size)] if lane["windowed"] else []
        cmd = [*lane["command"], *window, "--out", str(seg)]
        cap = min(
            float(self.plan.get("max_unit_s") or 86400), max(1.0, self.deadline - self.clock())
        )
        started, began = now(), self.clock()
        status, last = self.launch(cmd, cap, self.say, f"[{lane['name']}] ")
        after = len(rows_done(ldir)[1])
        new = after - first if lane["windowed"] else after
        _record(
            ldir,
            {
                "start": started,
                "end": now(),
                "seconds": round(self.clock() - began, 3),
                "first_unit": first,
                "units_planned": size,
                "units_measured": new,
                "exit_status": status,
                "command": cmd,
                "build": build,
                "boot": self.boot,
                "load": load(),
            },
        )
        self.measured_here += max(new, 0)
        self.progress()
        if status == 0 and (is_done(lane) or (lane["windowed"] and new >= size)):
            return None
        self.check_failure(lane, status, cmd, new, after, last)
        return after

    def progress(self) -> None:
        elapsed = self.clock() - self.start
        done = sum(units_done(ln) for ln in self.lanes.values())
        left = elapsed * (self.total - done) / self.measured_here if self.measured_here else 0.0
        self.say(
            f"progress: {self.plan['experiment']} unit {done} of {self.total} (variants and runs "
            f"interleaved), elapsed {elapsed:.1f} s, estimated {left:.1f} s left",
            progress=True,
        )

    def check_failure(self, lane, status, cmd, new: int, after: int, last: str) -> None:
        """Raises UnitFailed for a failure that another process would not mend."""
        name = lane["name"]
        if status == USAGE_ERROR:
            raise UnitFailed(
                f"{name}: the program refused its arguments (exit 64): {' '.join(cmd)}"
            )
        if lane["windowed"] and after >= lane["units"]:  # all rows, but a failure (a checksum)
            raise UnitFailed(
                f"{name}: all units measured but the program exited with {status}; last: {last}"
            )
        self.idle[name] = self.idle[name] + 1 if new <= 0 else 0
        if self.idle[name] >= GIVE_UP_AFTER:
            raise UnitFailed(
                f"{name}: {GIVE_UP_AFTER} processes in a row measured nothing (last exit status "
                f"{status}); last progress: {last or 'none'}; rows so far are in "
                f"{Path(lane['dir']) / 'segments'}"
            )
        what = (
            "reached the cap max_unit_s" if status == "cap" else f"ended with exit status {status}"
        )
        self.say(f"[{name}] the process {what} after {new} new units; continuing from unit {after}")
        if not lane["windowed"]:
            _abandon(Path(lane["dir"]))


def finish(vdir: Path) -> Path:
    """raw.csv of one variant: every run's rows in run order, the run index as the last column."""
    header, out = None, []
    for d in lane_dirs(vdir):
        h, rows = rows_done(d)
        if h is None:
            continue
        if RUN_COLUMN in h.split(","):
            raise UnitFailed(f"{d}: the program's header already has a column {RUN_COLUMN!r}")
        if header is not None and h != header:
            raise UnitFailed(f"{d}: header differs from the earlier runs' ({h!r} vs {header!r})")
        header = h
        out += [f"{row},{d.name[4:]}" for row in rows]
    if header is None:
        raise UnitFailed(f"{vdir}: no run wrote a row")
    tmp = vdir / "raw.csv.tmp"
    tmp.write_text("\n".join([f"{header},{RUN_COLUMN}", *out]) + "\n")
    os.replace(tmp, vdir / "raw.csv")
    return vdir / "raw.csv"


def execute(
    plan: dict, say=None, launch=None, clock=time.monotonic, boot=None
) -> dict[str, list[dict]]:
    """Runs what is left of the plan; returns each variant's segment history. Raises UnitFailed
    (UnitTimeout at the plan's time limit), and RebootNeeded when a run of a boot_per_run plan is
    done and runs are left."""
    return Unit(plan, say, launch, clock, boot).run()


def _interrupted(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--plan", required=True, type=Path)
    a = ap.parse_args(argv)
    plan = json.loads(a.plan.read_text())
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, _interrupted)
    try:
        execute(plan)
    except RebootNeeded as e:
        print(f"reboot: {e}", file=sys.stderr, flush=True)
        sys.exit(EXIT["reboot"])
    except UnitTimeout as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        sys.exit(EXIT["timeout"])
    except UnitFailed as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        sys.exit(EXIT["failed"])
    except KeyboardInterrupt:
        print("error: interrupted; every row measured so far is kept", file=sys.stderr, flush=True)
        sys.exit(EXIT["interrupted"])


if __name__ == "__main__":
    main()
