"""Tidy table -> summary table: one row per target, variant, parameter value and metric."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.clocks import clock_steps, run_programs
from c18n_ae.analysis.collect import check_tidy
from c18n_ae.analysis.groups import Groups
from c18n_ae.analysis.stats import (
    GRID_COLUMNS,
    SUMMARY_FIELDS,
    TAIL_FACTOR,
    grid_steps,
    stdtrit,
)
from c18n_ae.common.fsutil import write_text_atomic

KEYS = ["source", "variant", "experiment", "parameter", "parameter_value", "metric", "unit"]
# n_excluded: trials kept out of the statistics (failed allocations, warm-up), counted, never
# dropped; runs: separate runs (processes, boots) with a successful trial, and run_sd the sd of
# their means (the spread between runs, NaN below two); resolution: the grid the source's values
# of the metric fall on, in `unit`, checked against clock_step, the step the source's clock
# declares (dataset.yaml, meta.json), and resolution_note where they disagree
# (c18n_ae.analysis.stats.grid_steps)
SUMMARY_COLUMNS = KEYS + ["n_excluded"] + SUMMARY_FIELDS + ["runs", "run_sd", *GRID_COLUMNS]


def with_derived(tidy: pd.DataFrame, consume: bool = False) -> pd.DataFrame:
    """The tidy table plus the experiment's derived per-trial metrics (bandwidth, ...). consume:
    the caller does not use `tidy` again, so its columns may be dropped as they are joined."""
    if len(tidy):
        derive = exp.get(tidy["experiment"].iloc[0]).derive
        if derive:
            return derive(tidy, consume=consume)
    return tidy


def summary_table(
    tidy: pd.DataFrame, derived: bool = False, steps: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The statistics of c18n_ae.analysis.stats.summarise for every group: the groups found once
    (c18n_ae.analysis.groups: a code per row, no copy of the table), then a batch of groups at a
    time (at most BATCH rows, in table order) summarised by grouped aggregations over their
    codes (batch_stats), so time stays linear in the rows and memory within the table plus a
    few bytes a row and one batch (a board's 10^7 trials, 10^5 E1 instances). derived: the
    experiment's derived metrics are already in the table; steps: its grid_steps (by default
    checked against the clocks of the shipped data sets it holds)."""
    check_tidy(tidy)
    if not derived:
        tidy = with_derived(tidy)
    groups = Groups(tidy, KEYS)
    value = tidy.value.to_numpy(dtype=float)
    ok = (tidy.status == "ok").to_numpy()
    run = tidy.run.to_numpy()
    parts = []
    for batch in groups.batches(BATCH):  # a few groups' rows at a time: bounded memory
        rows = groups.rows_of(batch[0], batch[-1])  # in table order, as pandas sums them
        taken = [value[rows], ok[rows], run[rows], groups.code[rows] - batch[0]]
        count = len(batch)
        if count == 1 < groups.count:  # pandas sums a lone group another way: keep it company
            taken = [np.append(c, x) for c, x in zip(taken, (0.0, True, 1, 1))]
            count = 2
        parts.append(batch_stats(*taken, count).iloc[: len(batch)])
    stats = (
        pd.concat(parts, ignore_index=True)
        if parts
        else batch_stats(value, ok, run, np.zeros(0, int), 0)
    )
    out = pd.concat([groups.keys, stats], axis=1)
    steps = grid_steps(tidy, clocks=clock_steps(tidy)) if steps is None else steps
    out = out.merge(steps, on=["source", "metric"], how="left", sort=False)
    for k in KEYS:  # plain values in the CSV whatever the table's column types
        out[k] = out[k].astype(object)
    return out[SUMMARY_COLUMNS]


BATCH = 1 << 21  # rows summarised at once (a larger group alone): about 200 MB at most


def batch_stats(
    value: np.ndarray, status_ok: np.ndarray, run: np.ndarray, code: np.ndarray, count: int
) -> pd.DataFrame:
    """The statistics of groups 0 .. count-1 (code: each row's group): grouped aggregations over
    the codes, no Python loop over groups."""
    ok = status_ok & ~np.isnan(value)
    value = np.where(ok, value, np.nan)
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
    stats["n_excluded"] = np.bincount(code, ~status_ok, count)
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
    stats["runs"], stats["run_sd"] = between_runs(code[ok], run[ok], value[ok], count)
    return stats.reset_index(drop=True)


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


def warn(steps: pd.DataFrame, out=None) -> None:
    """A line in the log for each source and metric whose values disagree with the clock step
    its source declares, or whose source declares none (grid_steps' note): never silently."""
    for r in steps[steps.resolution_note.fillna("") != ""].itertuples(index=False):
        print(f"warning: {r.source}, {r.metric}: {r.resolution_note}", file=out or sys.stderr)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tidy", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument(
        "--raw",
        action="append",
        default=[],
        type=Path,
        help="a run's raw.csv (its meta.json: "
        "the clock step its program declares); the shipped data sets' steps are found by name",
    )
    a = ap.parse_args(argv)
    tidy = with_derived(pd.read_csv(a.tidy))
    steps = grid_steps(tidy, clocks=clock_steps(tidy, run_programs(a.raw)))
    warn(steps)
    table = summary_table(tidy, derived=True, steps=steps)
    write_text_atomic(a.out, table.to_csv(index=False))


if __name__ == "__main__":
    main()
