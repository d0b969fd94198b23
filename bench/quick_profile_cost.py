"""The quick profile's cost, each figure beside the machine's load while it was measured (issue 33's
goals on a quiet 2-core machine: the quick workflow from an empty results/ in at most 60 s, a
no-op under 2 s, the test suite under 6 minutes).

In a fresh copy of the project's tracked files (a temporary folder; this checkout's .venv on
PATH, as artifact/reproduce has it), one after another:
  quick   snakemake --cores 1 --configfile config/quick.yaml from an empty results/
  no-op   the same again with nothing to do (a real run, then a dry run -n)
  tests   with --tests only: artifact/test in the copy (the whole suite on two workers; minutes,
          and it takes both cores: never on a machine others share)
The load is the 1-minute load average read every LOAD_EVERY_S during each measure (mean and
maximum), with the machine's cores: a load above the cores means work was waiting, and the
figure is then an upper bound of what a quiet machine takes.

usage: .venv/bin/python bench/quick_profile_cost.py [--tests] [--keep]"""

from __future__ import annotations

import argparse
import os
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
GOALS = {"quick": 60.0, "no-op": 2.0, "no-op -n": 2.0, "tests": 360.0}


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
        return f"{statistics.fmean(self.samples):.1f} / {max(self.samples):.1f}"


def timed(name: str, cmd: list[str], project: Path) -> tuple[str, float, str, int]:
    env = {**os.environ, "PATH": f"{VENV_BIN}:{os.environ['PATH']}"}
    with Load() as load:
        start = time.monotonic()
        done = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True)
        took = time.monotonic() - start
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-4000:])
    return name, took, load.text(), done.returncode


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
        measures.append(("tests", ["artifact/test"]))
    print(f"cores: {os.cpu_count()}; load: 1-minute load average, mean / max while it ran")
    print("| measure | goal | wall time | load (1-min, mean / max) | exit |")
    print("|---|---|---|---|---|")
    failed = False
    for name, cmd in measures:
        name, took, load, status = timed(name, cmd, project)
        failed |= status != 0
        print(
            f"| {name} | under {GOALS[name]:g} s | {took:.1f} s | {load} | {status} |", flush=True
        )
    if a.keep:
        print(f"project copy: {project}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
