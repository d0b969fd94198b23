"""Where the quick workflow's CPU time goes: each rule's jobs, snakemake itself, and the whole run,
beside the machine's load, for this checkout's tracked files and, with --before REV, for another
revision measured right after it on the same machine (issue 33: on a shared machine the wall
time says little, the CPU time of the same work on the same machine minutes apart is the figure
to compare).

Each measure runs in a fresh copy of the tracked files (bench/quick_profile_cost.tracked_copy;
for a revision, its `git archive`), with that copy's own src/ first on PYTHONPATH (the .venv's
editable install would run this checkout's code) and its bytecode compiled as artifact/install
does: snakemake --cores 1 --configfile config/quick.yaml from an empty results/. Every job's
shell command is followed, in the copy only, by bash's `times`, which gives the user + sys time of
the job's processes (Python, the compiler, LaTeX, the benchmarks); the jobs run one at a time
(--cores 1), in the order of snakemake's log. Snakemake's own CPU time is the whole run's less its
jobs'. Exit status 1 when a run failed.

usage: .venv/bin/python bench/quick_profile_jobs.py [--before REV] [--repeat N] [--keep]"""

from __future__ import annotations

import argparse
import collections
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from quick_profile_cost import ROOT, VENV_BIN, Load, tracked_copy  # beside this script

# appended to the copy's wiring.smk: each job's CPU time, whatever its exit status
TIMES = "\nshell.suffix('; __rc=$?; {{ echo JOB; times; }} >> logs/job-times.txt; exit $__rc')\n"
GROUPS = (("build", r"build_"), ("run", r"run_"))  # rules named per target, grouped


def revision_copy(rev: str, dest: Path) -> Path:
    """The tracked files of a revision (git archive), with this checkout's .venv."""
    dest.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", rev], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    (dest / ".venv").symlink_to(ROOT / ".venv")
    return dest


def seconds(field: str) -> float:
    minutes, secs = re.fullmatch(r"(\d+)m([\d.]+)s", field).groups()
    return int(minutes) * 60 + float(secs)


def job_times(log: str, times: str) -> list[tuple[str, float]]:
    """(rule, CPU s) of each job: the rules in the order snakemake's log starts them, the times in
    the order the jobs appended them."""
    rules = [r for r in re.findall(r"^(?:local)?rule (\S+):$", log, re.M) if r != "all"]
    blocks = times.split("JOB\n")[1:]
    if len(rules) != len(blocks):
        raise SystemExit(f"{len(rules)} jobs in the log, {len(blocks)} times: not one at a time?")
    out = []
    for rule, block in zip(rules, blocks):
        shell, children = block.strip().splitlines()[:2]
        out.append((rule, sum(seconds(f) for f in (*shell.split(), *children.split()))))
    return out


def measure(project: Path) -> dict:
    subprocess.run(
        [str(VENV_BIN / "python"), "-m", "compileall", "-q", str(project / "src" / "c18n_ae")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with open(project / "workflow" / "rules" / "wiring.smk", "a") as wiring:
        wiring.write(TIMES)
    (project / "logs").mkdir(exist_ok=True)
    env = {
        **os.environ,
        "PATH": f"{VENV_BIN}:{os.environ['PATH']}",
        "PYTHONPATH": str(project / "src"),
    }
    cmd = [str(VENV_BIN / "snakemake"), "--cores", "1", "--configfile", "config/quick.yaml"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with Load() as load:
        start = time.monotonic()
        done = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True)
        wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-4000:])
        return {"failed": done.returncode}
    jobs = job_times(done.stdout + done.stderr, (project / "logs" / "job-times.txt").read_text())
    by_rule: dict[str, list[float]] = collections.defaultdict(list)
    for rule, secs in jobs:
        group = next((g for g, pattern in GROUPS if re.match(pattern, rule)), rule)
        by_rule[group].append(secs)
    return {"wall": wall, "cpu": cpu, "load": load.text(), "rules": by_rule, "jobs": len(jobs)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--before", metavar="REV", help="also measure this revision, after this one")
    ap.add_argument("--repeat", type=int, default=1, help="measures of each, alternated")
    ap.add_argument("--keep", action="store_true", help="keep the copies (their paths printed)")
    a = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="c18n-ae-jobs-"))
    names = ["now"] + (["before"] if a.before else [])
    results: dict[str, list[dict]] = {n: [] for n in names}
    for i in range(a.repeat):
        for name in names:
            dest = work / f"{name}-{i + 1}"
            if name == "now":
                dest.mkdir()
                project = tracked_copy(dest)
            else:
                project = revision_copy(a.before, dest)
            results[name].append(measure(project))
            if not a.keep:
                shutil.rmtree(dest, ignore_errors=True)
    failed = any("failed" in r for rs in results.values() for r in rs)
    if failed:
        print("a run failed:", {n: [r.get("failed") for r in rs] for n, rs in results.items()})
    else:
        report(results, a.before)
    if a.keep:
        print(f"copies: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


def report(results: dict[str, list[dict]], before: str | None) -> None:
    """One column per measure: CPU s by rule group (jobs), snakemake itself, the whole run."""
    columns = [(n, i, r) for n, rs in results.items() for i, r in enumerate(rs, start=1)]
    heads = [f"{n} {i}" if len(results[n]) > 1 else n for n, i, _ in columns]
    if before:
        heads = [h.replace("before", f"before ({before})") for h in heads]
    print(f"cores: {os.cpu_count()}; CPU seconds (user + sys); jobs run one at a time")
    print("| rule (jobs) | " + " | ".join(heads) + " |")
    print("|---" * (len(heads) + 1) + "|")
    first = columns[0][2]["rules"]
    for rule in sorted(first, key=lambda r: -sum(first[r])):
        cells = [f"{sum(r['rules'].get(rule, [])):.1f}" for _, _, r in columns]
        print(f"| {rule} ({len(first[rule])}) | " + " | ".join(cells) + " |")
    rows = {
        "every job": lambda r: f"{sum(map(sum, r['rules'].values())):.1f}",
        "snakemake itself": lambda r: f"{r['cpu'] - sum(map(sum, r['rules'].values())):.1f}",
        "**whole run, CPU**": lambda r: f"**{r['cpu']:.1f}**",
        "whole run, wall": lambda r: f"{r['wall']:.1f}",
        "load (mean / max)": lambda r: r["load"],
    }
    for label, cell in rows.items():
        print(f"| {label} | " + " | ".join(cell(r) for _, _, r in columns) + " |")


if __name__ == "__main__":
    main()
