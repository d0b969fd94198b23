"""One experiment's table and figures in one process (the interpreter, pandas and matplotlib start
once): c18n_ae.report.tables experiment and c18n_ae.report.figures, with the arguments of each."""

from __future__ import annotations

import argparse
from pathlib import Path

from c18n_ae.report import figures, tables


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--experiment", required=True)
    ap.add_argument("--config", nargs="+", required=True)
    ap.add_argument("--table", required=True, type=Path)
    ap.add_argument("--pdf", required=True, type=Path)
    ap.add_argument("--png", required=True, type=Path)
    ap.add_argument("--pgfplots", required=True, type=Path)
    ap.add_argument("--series", required=True, type=Path)
    ap.add_argument("--paper-dir", required=True, type=Path)
    a = ap.parse_args(argv)
    results = Path("results")
    summary = results / "summary" / f"{a.experiment}.csv"
    comparisons = results / "comparisons" / f"{a.experiment}.csv"
    tables.main(
        ["experiment", "--config", *a.config, "--experiment", a.experiment, "--out", str(a.table)]
    )
    figures.main(
        [
            "--experiment", a.experiment, "--summary", str(summary),
            "--comparisons", str(comparisons), "--config", *a.config,
            "--pdf", str(a.pdf), "--png", str(a.png), "--pgfplots", str(a.pgfplots),
            "--series", str(a.series), "--paper-dir", str(a.paper_dir),
        ]
    )  # fmt: skip


if __name__ == "__main__":
    main()
