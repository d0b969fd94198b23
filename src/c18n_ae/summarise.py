"""Tidy table -> summary table: one row per target, variant, parameter value and metric."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from .collect import check_tidy
from .fsutil import write_text_atomic
from .stats import SUMMARY_FIELDS, summarise

KEYS = ["target", "variant", "experiment", "parameter", "parameter_value", "metric", "unit"]
SUMMARY_COLUMNS = KEYS + ["n_failed"] + SUMMARY_FIELDS

BYTES_PER_MIB = 1024 * 1024


def derive_memory(df: pd.DataFrame) -> pd.DataFrame:
    """Adds per-trial bandwidth: bytes per ns is GB/s (10^9 bytes per second)."""
    extra = []
    for phase in ("write", "read"):
        part = df[df["metric"] == f"{phase}_ns"].copy()
        part["value"] = part["parameter_value"] * BYTES_PER_MIB / part["value"]
        part["metric"] = f"{phase}_GBps"
        part["unit"] = "GB/s"
        extra.append(part)
    return pd.concat([df, *extra], ignore_index=True)


DERIVE = {"memory": derive_memory}


def summary_table(tidy: pd.DataFrame) -> pd.DataFrame:
    check_tidy(tidy)
    experiment = tidy["experiment"].iloc[0] if len(tidy) else None
    if experiment in DERIVE:
        tidy = DERIVE[experiment](tidy)
    rows = []
    for key, group in tidy.groupby(KEYS, sort=True, dropna=False):
        ok = group[group["status"] == "ok"]["value"]
        rows.append({**dict(zip(KEYS, key)), "n_failed": int((group["status"] != "ok").sum()), **summarise(ok)})
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
