"""Time and peak memory from raw trials to a PDF at board scale (issue 33: 10^7 trials to the PDF
in under 5 minutes and 4 GB): an E2 data set of N trials in the study's layout (two variants,
hybrid and purecap-c18n, N/2 trials each, 10 block sizes, as bench/analysis_cost.py makes it)
through the workflow's own stage commands, each a fresh process as its rule runs it:

- analyse: collect (the data set's CSV files read into the tidy table), summarise, compare; it
  writes the tidy table, the summary and the comparisons;
- outputs: the experiment's table and figure (it reads the three CSV files back);
- latex: a page with that table and that figure, compiled by latexmk.

What it leaves out, because it does not grow with the trials: the other nine experiments, the
verdicts, the headline and the full paper (the quick profile's 67 jobs take about a minute).
Peak memory is each stage's maximum resident set; the largest is the run's peak (the stages run
one after another).

Each stage runs under an address-space limit (--limit-gib, 4 by default: the goal's memory), so
a stage that would need more fails, with its error, instead of taking the shared machine's memory.
Beside each stage's wall time, its CPU time (user + system): on a shared machine the wall time is
inflated by the other jobs (the table gives the load average, 1 minute, before and after).

usage: .venv/bin/python bench/trials_to_pdf.py [--sizes 6 7] [--limit-gib 4]"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

# run as a script: its folder, bench/, is the first place Python looks for modules
from analysis_cost import ROOT, memory_data_set, run_usage, stages_memory

PAGE = r"""\documentclass[sigconf,nonacm]{acmart}
\usepackage{siunitx}\usepackage{booktabs}\usepackage{array}\usepackage{adjustbox}
\usepackage{pgfplots}\pgfplotsset{compat=1.18}\usepgfplotslibrary{groupplots}
REPORTTABLE
\begin{document}
\input{../tab.tex}
\input{fig.tex}
\end{document}
"""


def page() -> str:
    """The page, with the paper's own definition of the table's entry (its rows are on the HTML
    report's page: the PDF holds its caption), read from paper/main.tex."""
    main = (ROOT / "paper" / "main.tex").read_text()
    found = re.search(
        r"\\makeatletter\n\\newcommand\{\\reporttable\}.*?\\makeatother\n", main, re.S
    )
    if not found:
        raise SystemExit("paper/main.tex: no definition of \\reporttable")
    return PAGE.replace("REPORTTABLE\n", found.group(0))


def measure(trials: int, limit: int) -> dict[str, tuple[float, ...]]:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = tmp / "datasets" / "bench-memory"
        data.mkdir(parents=True)
        (tmp / "paper").mkdir()
        (tmp / "paper" / "page.tex").write_text(page())
        start = time.perf_counter()
        memory_data_set(data, trials // 2)
        size = sum(p.stat().st_size for p in data.glob("*.csv")) / 2**20
        print(
            f"  {trials:>11,} trials: data set {size:.0f} MiB made in "
            f"{time.perf_counter() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        stages = stages_memory(tmp, data)
        stages["latex"] = [
            "latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "page.tex"
        ]  # fmt: skip
        out = {"load": os.getloadavg()[:1]}
        for stage, cmd in stages.items():
            out[stage] = run_usage(cmd, tmp / "paper" if stage == "latex" else tmp, limit)
            print(
                f"  {trials:>11,} trials: {stage:<8} {out[stage][0]:7.1f} s wall "
                f"{out[stage][2]:7.1f} s CPU {out[stage][1]:7.0f} MiB "
                f"(load {os.getloadavg()[0]:.1f})",
                file=sys.stderr,
                flush=True,
            )
        assert (tmp / "paper" / "page.pdf").stat().st_size > 0
        out["size"] = (size, 0.0)
        out["load"] += os.getloadavg()[:1]
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[6, 7], help="10^N trials in all")
    ap.add_argument(
        "--limit-gib", type=float, default=4.0, help="each stage's address space (0: no limit)"
    )
    a = ap.parse_args()
    limit = int(a.limit_gib * 2**30)
    results = [(10**k, measure(10**k, limit)) for k in a.sizes]
    print("\nwall / CPU (user + system) seconds and peak resident MiB of each stage")
    print(
        "\n| trials | CSV MiB | analyse | outputs | latex | total wall | total CPU | peak MiB "
        "| load |"
    )
    print("|---" * 9 + "|")
    for n, t in results:
        stages = ("analyse", "outputs", "latex")
        wall, cpu = (sum(t[s][i] for s in stages) for i in (0, 2))
        peak = max(t[s][1] for s in stages)
        cells = " | ".join(f"{t[s][0]:.0f} / {t[s][2]:.0f} s ({t[s][1]:.0f})" for s in stages)
        load = " to ".join(f"{x:.1f}" for x in t["load"])
        print(
            f"| {n:,} | {t['size'][0]:.0f} | {cells} | {wall:.0f} s | {cpu:.0f} s | {peak:.0f} "
            f"| {load} |"
        )


if __name__ == "__main__":
    main()
