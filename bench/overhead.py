"""Overhead of a workflow run: the wall time of every job that is not a benchmark run (building,
provenance, analysis, tables, figures, macros, claims, LaTeX) against the wall time of the run
jobs (the benchmark programs, each run unit with its runner), read from Snakemake's per-job
benchmark files (logs/benchmarks/, one per job, the `benchmark:` of every rule).

The jobs are those of the latest snakemake run in the project that ran any: its log
(.snakemake/log/) names each job's benchmark file, so files left by older runs do not count.
The quick profile's old goal, other / run at most 0.5, is withdrawn (README): --max sets a bound.
bench/quick_profile_cost.py times the quick profile, a no-op and the tests instead.

usage: artifact/reproduce --configfile config/quick.yaml   (from a clean results/)
       .venv/bin/python bench/overhead.py [--project .] [--log FILE] [--max 0.5]"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = Path("logs/benchmarks")
GOAL = 0.5


def group_of(benchmark_file: Path) -> str:
    """The rule group a job's benchmark file belongs to: its rule (the first part of the path
    under logs/benchmarks), with the per-target rules build_<t>, run_<t>_<e> and provenance_<t>
    folded into build, run and provenance."""
    rule = benchmark_file.relative_to(BENCHMARKS).parts[0].removesuffix(".tsv")
    for family in ("run", "build", "provenance"):
        if rule.startswith(family + "_"):
            return family
    return rule


def latest_log(project: Path) -> Path:
    """The newest snakemake log that names benchmark files (a dry run or a run with nothing to do
    names none)."""
    logs = sorted((project / ".snakemake" / "log").glob("*.snakemake.log"), reverse=True)
    for log in logs:
        if "    benchmark: " in log.read_text(errors="replace"):
            return log
    sys.exit(
        f"overhead: no snakemake log under {project / '.snakemake/log'} names a job's benchmark "
        "file: run the workflow first (artifact/reproduce --configfile config/quick.yaml)"
    )


def jobs_of(log: Path) -> tuple[list[Path], float | None]:
    """The benchmark files of the jobs the log's run finished, and the run's span in seconds from
    its first job to its last (None when the log has no time stamps)."""
    text = log.read_text(errors="replace")
    files = list(dict.fromkeys(Path(p) for p in re.findall(r"^\s+benchmark: (\S+)$", text, re.M)))
    stamps = [
        datetime.strptime(s, "%a %b %d %H:%M:%S %Y")
        for s in re.findall(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$", text, re.M)
    ]
    span = (max(stamps) - min(stamps)).total_seconds() if stamps else None
    return files, span


def wall_seconds(project: Path, benchmark_file: Path) -> float:
    """The wall time of one job, from its benchmark file (its CPU time is sampled, and a job
    shorter than the sampling interval shows none: not used)."""
    path = project / benchmark_file
    try:
        rows = list(csv.DictReader(open(path), delimiter="\t"))
        return float(rows[-1]["s"])
    except (OSError, KeyError, IndexError, ValueError) as err:
        sys.exit(f"overhead: {path}: not a snakemake benchmark file ({err})")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--project", type=Path, default=ROOT, help="the project folder that ran")
    ap.add_argument("--log", type=Path, help="a snakemake log (default: the newest with jobs)")
    ap.add_argument("--max", type=float, default=GOAL, help="exit 1 above this ratio")
    a = ap.parse_args(argv)
    log = a.log or latest_log(a.project)
    files, span = jobs_of(log)
    groups: dict[str, list] = {}  # group -> [jobs, wall s]
    for f in files:
        g = groups.setdefault(group_of(f), [0, 0.0])
        g[0] += 1
        g[1] += wall_seconds(a.project, f)
    runs, run = groups.get("run", [0, 0.0])
    other = sum(wall for name, (_, wall) in groups.items() if name != "run")
    print(f"jobs of {log}")
    print(f"{'rule group':24} {'jobs':>5} {'wall s':>8}")
    for name, (n, wall) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        print(f"{name:24} {n:5d} {wall:8.1f}")
    print(f"{'run jobs (benchmarks)':24} {runs:5d} {run:8.1f}")
    print(f"{'every other job':24} {len(files) - runs:5d} {other:8.1f}")
    if span is not None:
        print(
            f"{'snakemake between jobs':24} {'':5} {max(span - run - other, 0):8.1f}"
            "  (the run's span from its first job to its last, less the jobs; not counted)"
        )
    if run <= 0:
        sys.exit("overhead: the run has no run job (nothing benchmarked): no ratio")
    ratio = other / run
    print(f"overhead ratio (other / run): {ratio:.2f} (goal at most {a.max})")
    sys.exit(0 if ratio <= a.max else 1)


if __name__ == "__main__":
    main()
