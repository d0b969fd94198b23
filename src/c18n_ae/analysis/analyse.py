"""One experiment's analysis in one process: collect (raw runs and data set files -> tidy table),
summarise, and every comparison with its interval. The workflow runs this once per experiment, so
the interpreter and pandas start once for the three steps and the tidy table is not read back;
each step is also a command of its own (c18n_ae.analysis.collect, .summarise, .comparisons)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.analysis import contrasts, imports
from c18n_ae.analysis.clocks import clock_steps, run_programs
from c18n_ae.analysis.collect import collect_runs
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.stats import grid_steps
from c18n_ae.analysis.summarise import summary_table, warn, with_derived
from c18n_ae.analysis.tidy import CATEGORICAL
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_csv_atomic, write_text_atomic


def from_config(a, config: dict):
    """What the config decides unless given: the runs' raw files, the data sets' files, each
    source's reference variant and the releases. The rule's command names the experiment only,
    so it stays short whatever the number of data sets."""
    e = a.experiment
    a.raw = a.raw or [a.results / t / v / e / "raw.csv" for t, v in cfg.runs(config, e)]
    by_experiment = imports.dataset_files_by_experiment(config.get("datasets", []))
    a.dataset_file = a.dataset_file or [Path(os.path.relpath(p)) for p in by_experiment.get(e, [])]
    a.reference = a.reference or [f"{s}={v}" for s, v in cfg.references(config).items()]
    a.release = a.release or list(config.get("datasets", []))
    return a


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--experiment", required=True)
    ap.add_argument("--dataset-file", action="append", default=[], type=Path)
    ap.add_argument("--reference", action="append", default=[], help="TARGET=VARIANT")
    ap.add_argument("--release", action="append", default=[], help="a data set, in config order")
    ap.add_argument("--tidy", required=True, type=Path)
    ap.add_argument("--summary", required=True, type=Path)
    ap.add_argument("--comparisons", required=True, type=Path)
    cfg.add_arguments(ap)  # the variants' builds: what else differs in a contrast
    ap.add_argument("--results", type=Path, default=Path("results"))
    ap.add_argument("raw", nargs="*", type=Path, help="results/<target>/<variant>/<e>/raw.csv")
    a = ap.parse_args(argv)
    config = exp.config_from_arguments(a)
    if config:
        a = from_config(a, config)
    tidy = collect_runs(a.experiment, a.raw, a.dataset_file)
    write_csv_atomic(a.tidy, tidy)  # streamed: a board's table is never one string
    # the key columns as categories, and the derived metrics made once: a board's 10^6 trials
    # stay within a few bytes per value
    for column in CATEGORICAL:
        tidy[column] = tidy[column].astype("category")
    tidy = with_derived(tidy, consume=True)  # written: the table is not held twice
    for column in CATEGORICAL:
        tidy[column] = tidy[column].astype("category")
    # each metric's grid, checked against the clock step its source declares (a run's
    # meta.json, a data set's dataset.yaml), once for the summary and the comparisons
    sets = {m["name"]: m for m in cfg.datasets(config)} if config else {}
    steps = grid_steps(tidy, clocks=clock_steps(tidy, run_programs(a.raw), sets))
    warn(steps)
    summary = summary_table(tidy, derived=True, steps=steps)
    write_text_atomic(a.summary, summary.to_csv(index=False))
    references = dict(r.split("=", 1) for r in a.reference)
    comparisons = compare(tidy, references, a.release, derived=True, steps=steps)
    known = contrasts.variants_of(config) if config else {}
    # a board run's recorded state (meta.json checks.board), each variant's own: what differs
    # between a contrast's two variants confounds it
    comparisons = contrasts.annotate(comparisons, known, contrasts.run_states(a.raw))
    write_text_atomic(a.comparisons, comparisons.to_csv(index=False))


if __name__ == "__main__":
    main()
