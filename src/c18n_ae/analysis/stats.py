"""Summary statistics of one sample: the numbers every table and claim is built from."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

SUMMARY_FIELDS = [
    "n",
    "mean",
    "sd",
    "median",
    "p5",
    "p95",
    "ci95_low",
    "ci95_high",
    "n_outliers",
    "tail_trials",
    "tail_share",
]
TAIL_FACTOR = 10  # a trial above this multiple of the median is part of the tail


def tail(x: np.ndarray, median: float) -> tuple[int, float]:
    """How far a mean rests on a few trials: the trials above TAIL_FACTOR times the median and
    their share of the total ("3 of 100 trials make 95 % of the total time"). Defined for positive
    samples only (times, sizes)."""
    if not len(x) or median <= 0 or (x < 0).any():
        return 0, 0.0
    big = x > TAIL_FACTOR * median
    return int(big.sum()), float(x[big].sum() / x.sum()) if x.sum() > 0 else 0.0


def summarise(values) -> dict:
    """n, mean, sample sd, median, 5th/95th percentiles (linear interpolation), a 95 % confidence
    interval of the mean (Student's t), the count of outliers by the 1.5 IQR rule, and the tail
    that a mean may rest on (see tail)."""
    x = np.asarray([v for v in values if not math.isnan(v)], dtype=float)
    n = len(x)
    if n == 0:
        return {
            k: (0 if k in ("n", "n_outliers", "tail_trials") else math.nan) for k in SUMMARY_FIELDS
        }
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    if n > 1:
        half = float(sps.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
        ci = (mean - half, mean + half)
    else:
        ci = (math.nan, math.nan)
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    outliers = int(((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr)).sum())
    median = float(np.median(x))
    tail_trials, tail_share = tail(x, median)
    return {
        "n": n,
        "mean": mean,
        "sd": sd,
        "median": median,
        "p5": float(np.percentile(x, 5)),
        "p95": float(np.percentile(x, 95)),
        "ci95_low": ci[0],
        "ci95_high": ci[1],
        "n_outliers": outliers,
        "tail_trials": tail_trials,
        "tail_share": tail_share,
    }
