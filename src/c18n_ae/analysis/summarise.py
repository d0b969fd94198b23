"""Tidy table -> summary table: one row per target, variant, parameter value and metric."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import stdtrit  # Student's t quantile

from c18n_ae import experiments as exp
from c18n_ae.analysis.collect import check_tidy
from c18n_ae.analysis.stats import SUMMARY_FIELDS, TAIL_FACTOR, grid_steps
from c18n_ae.common.fsutil import write_text_atomic

KEYS = ["source", "variant", "experiment", "parameter", "parameter_value", "metric", "unit"]
# n_excluded: trials kept out of the statistics (failed allocations, warm-up), counted, never
# dropped; runs: separate runs (processes, boots) with a successful trial, and run_sd the sd of
# their means (the spread between runs, NaN below two); resolution: the grid the source's values
# of the metric fall on, in `unit` (c18n_ae.analysis.stats.grid_step)
SUMMARY_COLUMNS = KEYS + ["n_excluded"] + SUMMARY_FIELDS + ["runs", "run_sd", "resolution"]


def with_derived(tidy: pd.DataFrame) -> pd.DataFrame:
    """The tidy table plus the experiment's derived per-trial metrics (bandwidth, ...)."""
    if len(tidy):
        derive = exp.get(tidy["experiment"].iloc[0]).derive
        if derive:
            return derive(tidy)
    return tidy


def summary_table(tidy: pd.DataFrame, derived: bool = False) -> pd.DataFrame:
    """The statistics of c18n_ae.analysis.stats.summarise for every group at once: one group code
    per row and grouped aggregations over it, no Python loop over groups and no copy of the
    table, so time and memory stay linear in the rows (a board's 10^6 trials, 10^5 E1
    instances). derived: the experiment's derived metrics are already in the table."""
    check_tidy(tidy)
    if not derived:
        tidy = with_derived(tidy)
    groups = tidy.groupby(KEYS, sort=True, dropna=False, observed=True)
    code = groups.ngroup().to_numpy()
    keys = groups.size().index
    count = len(keys)
    ok = (tidy.status == "ok").to_numpy() & tidy.value.notna().to_numpy()
    value = np.where(ok, tidy.value.to_numpy(dtype=float), np.nan)
    g = pd.Series(value).groupby(code, sort=True)
    stats = pd.DataFrame(
        {
            "n": g.count(),
            "mean": g.mean(),
            "sd": g.std(ddof=1),
            "median": g.median(),
            "p5": g.quantile(0.05),
            "p95": g.quantile(0.95),
            "q1": g.quantile(0.25),
            "q3": g.quantile(0.75),
            "min": g.min(),
            "sum": g.sum(),
        }
    ).reindex(range(count))
    stats["n_excluded"] = np.bincount(code, (tidy.status != "ok").to_numpy(), count)
    # per row: its group's quartiles and median, for the outlier and tail counts
    iqr = (stats.q3 - stats.q1).to_numpy()
    low, high = (stats.q1.to_numpy() - 1.5 * iqr)[code], (stats.q3.to_numpy() + 1.5 * iqr)[code]
    median = stats["median"].to_numpy()
    positive = ((median > 0) & (stats["min"].to_numpy() >= 0))[code]
    with np.errstate(invalid="ignore"):
        big = ok & positive & (value > TAIL_FACTOR * median[code])
        outlier = ok & ((value < low) | (value > high))
    stats["n_outliers"] = np.bincount(code, outlier, count).astype(int)
    stats["tail_trials"] = np.bincount(code, big, count).astype(int)
    tail_sum = np.bincount(code, np.where(big, value, 0.0), count)
    with np.errstate(divide="ignore", invalid="ignore"):
        stats["tail_share"] = np.where(stats["sum"] > 0, tail_sum / stats["sum"], 0.0)
    n = stats["n"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        half = stdtrit(np.maximum(n - 1, 1), 0.975) * stats["sd"].to_numpy() / np.sqrt(n)
    half = np.where(n > 1, half, np.nan)
    stats["ci95_low"], stats["ci95_high"] = stats["mean"] - half, stats["mean"] + half
    stats["n"] = stats["n"].fillna(0).astype(int)
    stats["n_excluded"] = stats["n_excluded"].astype(int)
    stats["runs"], stats["run_sd"] = between_runs(
        code[ok], tidy.run.to_numpy()[ok], value[ok], count
    )
    stats.index = keys
    out = stats.reset_index()
    steps = grid_steps(tidy)
    out = out.merge(steps, on=["source", "metric"], how="left", sort=False)
    for k in KEYS:  # plain values in the CSV whatever the table's column types
        out[k] = out[k].astype(object)
    return out[SUMMARY_COLUMNS]


def between_runs(code: np.ndarray, run: np.ndarray, value: np.ndarray, count: int):
    """Per group code (0 .. count-1): the number of runs and the sd of the runs' means (ddof 1,
    NaN below two runs). Two grouped means over integer keys: linear in the rows."""
    run = run.astype(np.int64)
    span = int(run.max()) + 1 if len(run) else 1
    means = pd.Series(value).groupby(code.astype(np.int64) * span + run).mean()
    owner = means.index.to_numpy() // span
    by_group = means.groupby(owner)
    runs = by_group.count().reindex(range(count), fill_value=0).astype(int)
    sd = by_group.std(ddof=1).reindex(range(count))
    return runs.to_numpy(), sd.to_numpy()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tidy", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    table = summary_table(pd.read_csv(a.tidy))
    write_text_atomic(a.out, table.to_csv(index=False))


if __name__ == "__main__":
    main()
