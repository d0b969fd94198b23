"""One experiment's table and figure in one process: the experiment's module makes them as data
from its results (c18n_ae.experiments.outputs), the renderers write booktabs LaTeX, the pgfplots
source with its points, and the matplotlib preview. The rule lists the files as its inputs and
outputs; the command names the experiment and finds them where the workflow puts them (the
results, the module's published tables, report.files), unless a file is given."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.claim_type import read as read_claims
from c18n_ae.analysis.tidy import CATEGORICAL
from c18n_ae.common import config
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.names import from_config
from c18n_ae.experiments.outputs import Inputs
from c18n_ae.experiments.rows import mark_invalid
from c18n_ae.report import files, render_figure, render_html, render_table


def inputs(a, cfg, reads_tidy: bool = True) -> Inputs:
    """The rule's files; the references and invalid metrics from the config (--reference adds or
    overrides a target's reference variant, for a call outside the workflow). reads_tidy: the
    experiment's table or figure reads the tidy table (Experiment.reads_tidy); otherwise it is
    not read (a board's 4 x 10^7 rows), and Inputs.tidy is None."""
    # the names as categories: a board's tidy rows at a byte a name, not a string each
    tidy = pd.read_csv(a.tidy, dtype={c: "category" for c in CATEGORICAL}) if reads_tidy else None
    measured = len(tidy) if tidy is not None else has_rows(a.tidy)
    references = {
        **(config.references(cfg) if cfg else {}),
        **dict(r.split("=", 1) for r in a.reference),
    }
    return Inputs(
        summary=mark_invalid(pd.read_csv(a.summary), config.invalid_metrics(cfg) if cfg else {}),
        tidy=tidy,
        comparisons=pd.read_csv(a.comparisons) if measured else None,
        references=references,
        published={Path(p).stem: pd.read_csv(p) for p in a.published},
        boards=boards(a.results, cfg, a.experiment) if cfg else {},
    )


def has_rows(path: Path) -> bool:
    """Whether a CSV file holds a row below its header (read no further)."""
    with open(path) as f:
        return bool(f.readline()) and bool(f.readline().strip())


def boards(results: Path, cfg: dict, experiment: str) -> dict:
    """(target, variant) -> its board check's facts, from the runs' meta.json where present, with
    whether the target was the tests' simulated one."""
    out = {}
    for target, variant in config.runs(cfg, experiment):
        meta = Path(results) / target / variant / experiment / "meta.json"
        if not meta.exists():
            continue
        seen = json.loads(meta.read_text()).get("checks", {}).get("board")
        if seen:
            facts = seen.get("variants", {}).get(variant, {})
            out[(target, variant)] = {**facts, "simulated": bool(seen.get("simulated"))}
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--experiment", required=True)
    config.add_arguments(ap)
    ap.add_argument("--results", type=Path, default=Path("results"))
    outputs = ("table", "html", "pdf", "png", "pgfplots", "series")
    for name in ("summary", "tidy", "comparisons", *outputs):
        ap.add_argument(f"--{name}", type=Path, help="default: where the workflow puts it")
    ap.add_argument("--published", nargs="*", type=Path, help="default: the module's tables")
    ap.add_argument("--reference", action="append", default=[], help="TARGET=VARIANT")
    ap.add_argument(
        "--claims", type=Path, default=Path("config/claims.yaml"), help="its min_trials"
    )
    a = ap.parse_args(argv)
    e = exp.get(a.experiment)
    for kind in ("summary", "tidy", "comparisons"):
        setattr(a, kind, getattr(a, kind) or a.results / kind / f"{e.name}.csv")
    for kind, path in files.experiment_outputs(e.name).items():
        setattr(a, kind, getattr(a, kind) or Path(path))
    if a.published is None:
        a.published = [Path(p) for p in e.published_files()]
    loaded = exp.config_from_arguments(a)
    data = inputs(a, loaded, e.reads_tidy)
    table = e.table(data)
    # the rows on the HTML report's page, the PDF's appendix a line naming it (issue 31)
    write_text_atomic(a.html, render_html.page(e.number, e.name, table, read_claims(a.claims)[1]))
    write_text_atomic(a.table, render_table.appendix_entry(e, table))
    figure = e.figure(data)
    plain = render_figure.without_capabilities(loaded)
    render_figure.render(
        figure, a.pgfplots, a.series, a.pdf, a.png, e.name, from_config(loaded), plain
    )


if __name__ == "__main__":
    main()
