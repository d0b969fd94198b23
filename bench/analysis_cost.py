"""Cost of the analysis at board scale: the workflow's own stage commands on generated data in the
study's layouts, wall time and peak memory per stage, and how each grows with the data.

- E2 memory, two variants (hybrid, purecap-c18n), 10 block sizes: 10^4, 10^5 and 10^6 trials per
  variant (--largest 6; the largest is 2 x 10^6 trials in all);
- E1, one variant: 10^3, 10^4 and 10^5 instances, to a compiled LaTeX page with the figure.

Each stage is the command its rule runs (python -m c18n_ae....: analyse is collect, summarise and
compare in one process), in a fresh process, on files in a scratch folder; peak memory is that
process's maximum resident set. The growth exponent between
two sizes is log(t2 / t1) / log(n2 / n1): 1 is linear.

usage: .venv/bin/python bench/analysis_cost.py [--largest 6] [--e1-largest 5]"""

from __future__ import annotations

import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = list(range(100, 1100, 100))


def run(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one stage's process."""
    return run_usage(cmd, cwd)[:2]


def run_usage(cmd: list[str], cwd: Path, limit: int = 0) -> tuple[float, float, float]:
    """Wall seconds, peak resident MiB and CPU seconds (user + system) of one stage's process;
    limit: its address space in bytes (0: none), so a stage that would take the shared machine's
    memory fails instead."""

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=cap if limit else None,
    )
    err = proc.stderr.read().decode(errors="replace")  # before waiting: a full pipe blocks
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err[-2000:]}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def memory_data_set(folder: Path, trials_per_variant: int) -> None:
    """The study's E2 layout (ms with three decimals), a heavy tail in the purecap allocations."""
    rng = np.random.default_rng(trials_per_variant)
    per_block = trials_per_variant // len(BLOCKS)
    files = []
    for variant, scale in (("hybrid", 1.0), ("purecap-c18n", 2.2)):
        n = per_block * len(BLOCKS)
        block = np.repeat(BLOCKS, per_block)
        trial = np.tile(np.arange(1, per_block + 1), len(BLOCKS))
        malloc = rng.lognormal(math.log(0.005 * scale), 0.3, n)
        write = block * 2.83 * rng.lognormal(0, 0.01, n)
        read = block * 2.83 * rng.lognormal(0, 0.01, n)
        free = rng.lognormal(math.log(0.01), 0.3, n)
        path = folder / f"{variant}.csv"
        with open(path, "w") as f:
            f.write(
                "Block Size (MB),Trial Num,Allocation Time (ms),Write Time (ms),"
                "Read Time (ms),Free Time (ms)\n"
            )
            np.savetxt(
                f,
                np.column_stack([block, trial, malloc, write, read, free]),
                fmt=["%d", "%d", "%.3f", "%.3f", "%.3f", "%.3f"],
                delimiter=",",
            )
        files.append({"path": path.name, "variant": variant, "layout": "memory"})
    write_meta(folder, "bench-memory", files, ["hybrid", "purecap-c18n"])


def scale_data_set(folder: Path, instances: int) -> None:
    rng = np.random.default_rng(instances)
    i = np.arange(1, instances + 1)
    with open(folder / "purecap-c18n.csv", "w") as f:
        f.write("Number of Processes,Memory Used (MB),Time Elapsed (ms)\n")
        np.savetxt(
            f,
            np.column_stack([i, 1600 + 1.4 * i + rng.normal(0, 5, instances), i * 510.5]),
            fmt=["%d", "%.3f", "%.3f"],
            delimiter=",",
        )
    files = [{"path": "purecap-c18n.csv", "variant": "purecap-c18n", "layout": "scale"}]
    write_meta(folder, "bench-scale", files, ["purecap-c18n"])


def write_meta(folder: Path, name: str, files: list[dict], variants: list[str]) -> None:
    meta = {
        "name": name,
        "title": "generated data for the analysis benchmark",
        "measured_by": "bench/analysis_cost.py",
        "measured_when": "generated",
        "source": {"repository": "none", "commit": "0000000", "license": "none"},
        "host": {"model": "generated", "os": "generated", "arch": "none"},
        "reference_variant": variants[0],
        "variants": {
            v: {"description": v, "abi": v.split("-")[0], "c18n": v.endswith("c18n")}
            for v in variants
        },
        "files": files,
    }
    (folder / "dataset.yaml").write_text(yaml.safe_dump(meta))


def analyse(work: Path, data: Path, experiment: str, references: list[str]) -> list[str]:
    """The analyse rule's command: collect, summarise and compare in one process."""
    return [
        sys.executable, "-m", "c18n_ae.analysis.analyse", "--experiment", experiment,
        *[f"--dataset-file={p}" for p in sorted(data.glob("*.csv"))], *references,
        "--tidy", str(work / "tidy.csv"), "--summary", str(work / "summary.csv"),
        "--comparisons", str(work / "comparisons.csv"),
    ]  # fmt: skip


def stages_memory(work: Path, data: Path) -> dict[str, list[str]]:
    ref = ["--reference", "bench-memory=hybrid"]
    return {"analyse": analyse(work, data, "memory", ref), "outputs": outputs(work, "memory", ref)}


def outputs(work: Path, experiment: str, references: list[str]) -> list[str]:
    """The experiment_outputs rule's command: the table and the figure in one process."""
    return [
        sys.executable, "-m", "c18n_ae.report.experiment_outputs", "--experiment", experiment,
        *references, *(f"--{k}={work / k}.csv" for k in ("tidy", "summary", "comparisons")),
        "--table", str(work / "tab.tex"), "--pdf", str(work / "fig.pdf"),
        "--png", str(work / "fig.png"), "--pgfplots", str(work / "paper" / "fig.tex"),
        "--series", str(work / "paper" / "series.csv"), "--html", str(work / "page.html"),
        "--claims", str(ROOT / "config" / "claims.yaml"),
    ]  # fmt: skip


def stages_scale(work: Path, data: Path) -> dict[str, list[str]]:
    return {
        "analyse": analyse(work, data, "scale", []),
        "outputs": outputs(work, "scale", []),
        "latex": ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "page.tex"],
    }


PAGE = r"""\documentclass[sigconf,nonacm]{acmart}
\usepackage{siunitx}\usepackage{pgfplots}\pgfplotsset{compat=1.18}
\usepgfplotslibrary{groupplots}
\begin{document}\input{fig.tex}\end{document}
"""


def measure(kind: str, sizes: list[int]) -> list[tuple[int, dict[str, tuple[float, float]]]]:
    out = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            data = tmp / "datasets" / f"bench-{kind}"
            data.mkdir(parents=True)
            (tmp / "paper").mkdir()
            (tmp / "paper" / "page.tex").write_text(PAGE)
            (memory_data_set if kind == "memory" else scale_data_set)(data, n)
            stages = (stages_memory if kind == "memory" else stages_scale)(tmp, data)
            times = {}
            for stage, cmd in stages.items():
                times[stage] = run(cmd, tmp / "paper" if stage == "latex" else tmp)
                print(
                    f"  {kind} {n:>9}: {stage:<12} {times[stage][0]:7.2f} s "
                    f"{times[stage][1]:7.0f} MiB",
                    file=sys.stderr,
                    flush=True,
                )
            out.append((n, times))
    return out


def report(title: str, unit: str, results) -> None:
    stages = list(results[0][1])
    print(f"\n{title}\n")
    print(f"| {unit} | " + " | ".join(stages) + " | total | peak MiB |")
    print("|---" * (len(stages) + 3) + "|")
    for n, t in results:
        total = sum(w for w, _ in t.values())
        peak = max(m for _, m in t.values())
        cells = [f"{t[s][0]:.2f} s" for s in stages]
        print(f"| {n:,} | " + " | ".join(cells) + f" | {total:.1f} s | {peak:.0f} |")
    for (n1, t1), (n2, t2) in zip(results, results[1:]):
        growth = [
            math.log(max(t2[s][0], 1e-3) / max(t1[s][0], 1e-3)) / math.log(n2 / n1) for s in stages
        ]
        print(f"| growth {n1:,} to {n2:,} | " + " | ".join(f"{g:.2f}" for g in growth) + " | | |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--largest", type=int, default=6, help="E2: up to 10^N trials per variant")
    ap.add_argument("--e1-largest", type=int, default=5, help="E1: up to 10^N instances")
    a = ap.parse_args()
    memory = measure("memory", [10**k for k in range(4, a.largest + 1)])
    scale = measure("scale", [10**k for k in range(3, a.e1_largest + 1)])
    report("E2 memory, two variants, 10 block sizes", "trials per variant", memory)
    report("E1 scale, one variant, to a compiled page", "instances", scale)


if __name__ == "__main__":
    main()
