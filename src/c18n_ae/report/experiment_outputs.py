"""One experiment's table and figure in one process: the experiment's module makes them as data
from its results (c18n_ae.experiments.outputs), the renderers write booktabs LaTeX, the pgfplots
source with its points, and the matplotlib preview. Every file read is named by the rule."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.common import config
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.experiments.outputs import Inputs
from c18n_ae.experiments.rows import mark_invalid
from c18n_ae.report import render_figure, render_table


def inputs(a, cfg) -> Inputs:
    """The rule's files; the references and invalid metrics from the config (--reference adds or
    overrides a target's reference variant, for a call outside the workflow)."""
    tidy = pd.read_csv(a.tidy)
    references = {
        **(config.references(cfg) if cfg else {}),
        **dict(r.split("=", 1) for r in a.reference),
    }
    return Inputs(
        summary=mark_invalid(pd.read_csv(a.summary), config.invalid_metrics(cfg) if cfg else {}),
        tidy=tidy,
        comparisons=pd.read_csv(a.comparisons) if len(tidy) else None,
        references=references,
        published={Path(p).stem: pd.read_csv(p) for p in a.published},
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--experiment", required=True)
    config.add_arguments(ap)
    for name in ("summary", "tidy", "comparisons", "table", "pdf", "png", "pgfplots", "series"):
        ap.add_argument(f"--{name}", required=True, type=Path)
    ap.add_argument("--published", nargs="*", default=[], type=Path, help="published tables read")
    ap.add_argument("--reference", action="append", default=[], help="TARGET=VARIANT")
    a = ap.parse_args(argv)
    e = exp.get(a.experiment)
    data = inputs(a, exp.config_from_arguments(a))
    write_text_atomic(a.table, render_table.appendix_table(e, e.table(data)))
    render_figure.render(e.figure(data), a.pgfplots, a.series, a.pdf, a.png, e.name)


if __name__ == "__main__":
    main()
