"""The quick profile's cost, each figure beside the machine's load while it was measured (issue 33's
goals on a quiet 2-core machine: the quick workflow from an empty results/ in at most 60 s, a
no-op under 2 s, the test suite under 6 minutes).

In a fresh copy of the project's tracked files (a temporary folder; this checkout's .venv on
PATH, as artifact/reproduce has it), one after another:
  quick   snakemake --cores 1 --configfile config/quick.yaml from an empty results/
  no-op   the same again with nothing to do (a real run, then a dry run -n)
  tests   with --tests only: the whole suite as artifact/test runs it once installed (pytest on two
          workers), in a second fresh copy (the quick run's results/ would stop some; minutes,
          and it takes both cores: never on a machine others share)
Each measure gives its wall time and its CPU time (user + sys of the command and every process it
waited for: snakemake, its jobs, their compilers and LaTeX), beside the 1-minute load average read
every LOAD_EVERY_S while it ran (mean and maximum) and the machine's cores. A load above the
cores means work was waiting: the wall time is then an upper bound of what a quiet machine takes,
and the verdict against the goal is "inconclusive" when the wall time misses it (the CPU time,
which a busy machine inflates less, says how far off it is). A no-op that ran jobs is said to be
none. Exit status 1 when a command failed.

usage: .venv/bin/python bench/quick_profile_cost.py [--tests] [--keep]"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
LOAD_EVERY_S = 2.0
# issue 33's goals: measure -> (seconds, how the wall time compares with them)
GOALS = {
    "quick": (60.0, "at most"),
    "no-op": (2.0, "under"),
    "no-op -n": (2.0, "under"),
    "tests": (360.0, "under"),
}


def tracked_copy(dest: Path) -> Path:
    """The project's tracked files (what a clone has), copied to dest."""
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    (dest / ".venv").symlink_to(ROOT / ".venv")  # the installed environment, as in place
    return dest


class Load:
    """The 1-minute load average sampled in a thread while a measure runs."""

    def __init__(self):
        self.samples: list[float] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self) -> None:
        while not self.done.is_set():
            self.samples.append(os.getloadavg()[0])
            self.done.wait(LOAD_EVERY_S)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        self.samples.append(os.getloadavg()[0])

    def text(self) -> str:
        """mean / max, one decimal."""
        return f"{statistics.fmean(self.samples):.1f} / {max(self.samples):.1f}"


def cpu_of_children() -> float:
    """User + sys seconds of the processes this one has waited for (and theirs), so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(cmd: list[str], project: Path) -> tuple[float, float, Load, int, str]:
    """(wall s, CPU s, the load while it ran, exit status, output) of one command."""
    env = {**os.environ, "PATH": f"{VENV_BIN}:{os.environ['PATH']}"}
    with Load() as load:
        start, cpu = time.monotonic(), cpu_of_children()
        done = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True)
        took, cpu = time.monotonic() - start, cpu_of_children() - cpu
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-4000:])
    return took, cpu, load, done.returncode, done.stdout + done.stderr


def verdict(wall: float, name: str, load: Load, status: int | str) -> str:
    """Met or not met on a machine whose load stayed within its cores; on a busier one a missed
    goal is inconclusive (the work waited for the cores)."""
    goal, how = GOALS[name]
    if status != 0:
        return status if isinstance(status, str) else f"failed (exit {status})"
    if wall <= goal if how == "at most" else wall < goal:
        return "met"
    if max(load.samples) > (os.cpu_count() or 1):
        return "inconclusive (load above the cores)"
    return "not met"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tests", action="store_true", help="also time artifact/test (minutes)")
    ap.add_argument("--keep", action="store_true", help="keep the project copy (its path printed)")
    a = ap.parse_args(argv)
    snakemake = [str(VENV_BIN / "snakemake"), "--cores", "1", "--configfile", "config/quick.yaml"]
    work = Path(tempfile.mkdtemp(prefix="c18n-ae-bench-"))
    project = tracked_copy(work / "project")
    measures = [
        ("quick", snakemake),
        ("no-op", snakemake),
        ("no-op -n", [*snakemake[:1], "-n", *snakemake[1:]]),
    ]
    if a.tests:
        # what artifact/test runs once its install has nothing to do, in a copy of its own: the
        # quick run's results/ would stop the tests that run in the project itself, and the
        # install would rebuild this checkout's .venv (the copy's is a link to it) for the copy
        measures.append(("tests", [str(VENV_BIN / "python"), "-m", "pytest", "-n", "2"]))
    print(f"cores: {os.cpu_count()}; load: 1-minute load average, mean / max while it ran")
    print("| measure | goal | wall time | CPU time (user + sys) | load (mean / max) | verdict |")
    print("|---|---|---|---|---|---|")
    failed = False
    for name, cmd in measures:
        where = tracked_copy(work / "tests") if name == "tests" else project
        took, cpu, load, status, said = timed(cmd, where)
        if name.startswith("no-op") and "Nothing to be done" not in said:
            status = "jobs ran: not a no-op"  # the quick run left something to do
        failed |= status != 0
        print(
            f"| {name} | {GOALS[name][1]} {GOALS[name][0]:g} s | {took:.1f} s | {cpu:.1f} s "
            f"| {load.text()} | {verdict(took, name, load, status)} |",
            flush=True,
        )
    if a.keep:
        print(f"project copy: {project}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
