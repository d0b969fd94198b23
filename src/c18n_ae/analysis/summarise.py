"""Tidy table -> summary table: one row per target, variant, parameter value and metric."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.collect import check_tidy
from c18n_ae.analysis.stats import SUMMARY_FIELDS, summarise
from c18n_ae.common.fsutil import write_text_atomic

KEYS = ["target", "variant", "experiment", "parameter", "parameter_value", "metric", "unit"]
# n_excluded: trials kept out of the statistics (failed allocations, warm-up), counted, never
# dropped
SUMMARY_COLUMNS = KEYS + ["n_excluded"] + SUMMARY_FIELDS


def with_derived(tidy: pd.DataFrame) -> pd.DataFrame:
    """The tidy table plus the experiment's derived per-trial metrics (bandwidth, ...)."""
    if len(tidy):
        derive = exp.get(tidy["experiment"].iloc[0]).derive
        if derive:
            return derive(tidy)
    return tidy


def summary_table(tidy: pd.DataFrame) -> pd.DataFrame:
    check_tidy(tidy)
    tidy = with_derived(tidy)
    rows = []
    for key, group in tidy.groupby(KEYS, sort=True, dropna=False):
        ok = group[group["status"] == "ok"]["value"]
        rows.append(
            {
                **dict(zip(KEYS, key)),
                "n_excluded": int((group["status"] != "ok").sum()),
                **summarise(ok),
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tidy", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    table = summary_table(pd.read_csv(a.tidy))
    write_text_atomic(a.out, table.to_csv(index=False))


if __name__ == "__main__":
    main()
