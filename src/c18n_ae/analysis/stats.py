"""Summary statistics of one sample: the numbers every table and claim is built from."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

SUMMARY_FIELDS = ["n", "mean", "sd", "median", "p5", "p95", "ci95_low", "ci95_high", "n_outliers"]


def summarise(values) -> dict:
    """n, mean, sample sd, median, 5th/95th percentiles (linear interpolation), a 95 % confidence
    interval of the mean (Student's t), and the count of outliers by the 1.5 IQR rule."""
    x = np.asarray([v for v in values if not math.isnan(v)], dtype=float)
    n = len(x)
    if n == 0:
        return {k: (0 if k in ("n", "n_outliers") else math.nan) for k in SUMMARY_FIELDS}
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
    return {
        "n": n,
        "mean": mean,
        "sd": sd,
        "median": float(np.median(x)),
        "p5": float(np.percentile(x, 5)),
        "p95": float(np.percentile(x, 95)),
        "ci95_low": ci[0],
        "ci95_high": ci[1],
        "n_outliers": outliers,
    }
