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

usage: .venv/bin/python bench/trials_to_pdf.py [--sizes 6 7]"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

# run as a script: its folder, bench/, is the first place Python looks for modules
from analysis_cost import memory_data_set, run, stages_memory

PAGE = r"""\documentclass[sigconf,nonacm]{acmart}
\usepackage{siunitx}\usepackage{booktabs}\usepackage{array}\usepackage{adjustbox}
\usepackage{pgfplots}\pgfplotsset{compat=1.18}\usepgfplotslibrary{groupplots}
\begin{document}
\input{../tab.tex}
\input{fig.tex}
\end{document}
"""


def measure(trials: int) -> dict[str, tuple[float, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = tmp / "datasets" / "bench-memory"
        data.mkdir(parents=True)
        (tmp / "paper").mkdir()
        (tmp / "paper" / "page.tex").write_text(PAGE)
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
        out = {}
        for stage, cmd in stages.items():
            out[stage] = run(cmd, tmp / "paper" if stage == "latex" else tmp)
            print(
                f"  {trials:>11,} trials: {stage:<8} {out[stage][0]:7.1f} s "
                f"{out[stage][1]:7.0f} MiB",
                file=sys.stderr,
                flush=True,
            )
        assert (tmp / "paper" / "page.pdf").stat().st_size > 0
        out["size"] = (size, 0.0)
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[6, 7], help="10^N trials in all")
    a = ap.parse_args()
    results = [(10**k, measure(10**k)) for k in a.sizes]
    print("\n| trials | CSV MiB | analyse | outputs | latex | total | peak MiB |")
    print("|---" * 7 + "|")
    for n, t in results:
        stages = ("analyse", "outputs", "latex")
        total = sum(t[s][0] for s in stages)
        peak = max(t[s][1] for s in stages)
        cells = " | ".join(f"{t[s][0]:.1f} s ({t[s][1]:.0f} MiB)" for s in stages)
        print(f"| {n:,} | {t['size'][0]:.0f} | {cells} | {total:.0f} s | {peak:.0f} |")


if __name__ == "__main__":
    main()
