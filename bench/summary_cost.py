"""Cost of the analysis: summarising 10^6 tidy rows alone, and summarising plus every comparison
with its bootstrap interval, in one run on this machine (the issue's target: under 10 s). The
trials sit in 3 runs, so every interval is hierarchical (runs, then trials); the same rows as one
run give the flat bootstrap's cost beside it, measured in the same process, as a ratio.

usage: .venv/bin/python bench/summary_cost.py [--rows 1000000]"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.analysis.tidy import TIDY_COLUMNS


def synthetic(rows: int) -> pd.DataFrame:
    """E3-shaped rows: 2 targets x 4 variants x 25 parameter values x 10 metrics x trials, the
    trials in 3 runs, the values whole nanoseconds (a timer's grid)."""
    targets, variants, params, metrics = 2, 4, 25, 10
    trials = max(2, rows // (targets * variants * params * metrics))
    rng = np.random.default_rng(1)
    t, v, p, m, tr = np.meshgrid(
        np.arange(targets),
        np.arange(variants),
        np.arange(params),
        np.arange(metrics),
        np.arange(trials),
        indexing="ij",
    )
    n = t.size
    return pd.DataFrame(
        {
            "source": np.array(["boardA", "boardB"])[t.ravel()],
            "variant": np.array(["hybrid", "purecap", "purecap-c18n", "benchmark-c18n"])[v.ravel()],
            "experiment": "cpu",
            "run": tr.ravel() * 3 // trials + 1,
            "trial": tr.ravel() + 1,
            "parameter": "work_items",
            "parameter_value": (p.ravel() + 1) * 1000,
            "metric": np.array([f"w{i}_cpu_ns" for i in range(metrics)])[m.ravel()],
            "value": np.round(rng.lognormal(10, 0.1, n) * (1 + v.ravel() * 0.1)),
            "unit": "ns",
            "status": "ok",
        },
        columns=TIDY_COLUMNS,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    a = ap.parse_args()
    tidy = synthetic(a.rows)
    t0 = time.perf_counter()
    summary_table(tidy)
    t1 = time.perf_counter()
    summary_table(tidy)
    references = {"boardA": "hybrid", "boardB": "hybrid"}
    comparisons = compare(tidy, references)
    t2 = time.perf_counter()
    compare(tidy.assign(run=1), references)
    t3 = time.perf_counter()
    alone, both, flat = t1 - t0, t2 - t1, t3 - t2
    print(f"{len(tidy)} tidy rows, {len(comparisons)} comparisons with intervals")
    print(
        f"summary alone: {alone:.2f} s; summary and comparisons: {both:.2f} s "
        f"({both / alone:.2f} times the summary alone); target under 10 s: "
        f"{'met' if both < 10 else 'missed'}"
    )
    print(
        f"hierarchical intervals (3 runs a side): {both - alone:.2f} s; the same rows as one run "
        f"(flat bootstrap): {flat:.2f} s; {(both - alone) / flat:.2f} times the flat cost"
    )


if __name__ == "__main__":
    main()
