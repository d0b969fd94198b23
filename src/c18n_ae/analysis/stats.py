"""Summary statistics of one sample: the numbers every table and claim is built from."""

from __future__ import annotations

import functools
import math

import numpy as np

from c18n_ae.analysis.clocks import NS, in_unit
from c18n_ae.common import student_t
from c18n_ae.common.latex import quantity


def stdtrit(df, p):
    """Student's t quantile, scipy.special.stdtrit's values (c18n_ae.common.student_t, without
    scipy's import), for numbers or arrays; each distinct (df, p) computed once."""
    with np.errstate(invalid="ignore"):  # NaN in, NaN out, as scipy's
        out = _STDTRIT(df, p)
    return out[()] if out.ndim == 0 else out


_STDTRIT = np.vectorize(functools.cache(student_t.quantile), otypes=[float])


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
        half = float(stdtrit(n - 1, 0.975)) * sd / math.sqrt(n)
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


# The grid a metric's values fall on: a clock ticks in steps, and a program writes its values
# with a fixed number of decimals; both put every value on a grid whose step bounds what a
# statistic or a ratio can resolve.
RELATIVE_EPS = 1e-12  # values are compared on this relative grid: float noise of a decimal file
NO_GRID = 1e-9  # a step below this fraction of the largest value: no grid in the data
ON_GRID = 0.9  # share of the small differences that must be near-multiples of the step
MIN_EVIDENCE = 10  # small differences that show a tick where values do not repeat


def _on_eps(x: np.ndarray) -> tuple[np.ndarray, float]:
    """The distinct values as integers on a relative grid of RELATIVE_EPS (a power of ten), and
    that grid's step."""
    eps = 10.0 ** math.floor(math.log10(float(np.abs(x).max()) * RELATIVE_EPS))
    return np.unique(np.round(x / eps).astype(np.int64)), eps


def written_step(values) -> float:
    """The step values are written with: the greatest common divisor of the differences between
    distinct values (exact, on integers); NaN where the data show none (fewer than two distinct
    values, or values as fine as floating point, such as a derived bandwidth)."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < 2 or not np.abs(x).max() > 0:
        return math.nan
    q, eps = _on_eps(x)
    if len(q) < 2:
        return math.nan
    written = _clean(float(np.gcd.reduce(np.diff(q))) * eps)
    return written if written >= NO_GRID * float(np.abs(x).max()) else math.nan


def grid_step(values, written: float | None = None, count: int | None = None) -> float:
    """The step of the grid the values fall on, in their unit; NaN where the data show none.
    written: the step the values are written with (written_step; by default of these values).
    Where the smallest difference between distinct values spans several written steps (a clock
    ticking at 7.8125 ms written in whole ms: differences of 7 and 8 ms), the step is the tick
    that the small differences are near-multiples of, each within one written step, fitted by
    least squares; otherwise the written step is the resolution. count: the number of values
    where `values` holds only the distinct ones (its grid is theirs; whether values repeat is
    seen from the count)."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    count = len(x) if count is None else count
    written = written_step(x) if written is None else written
    if count < 2 or not written > 0 or not np.abs(x).max() > 0:
        return math.nan
    q, eps = _on_eps(x)
    if len(q) < 2:
        return written
    d = np.diff(q).astype(float)
    w = max(1.0, written / eps)
    step = float(d.min())
    if step < 3 * w:
        return written
    for limit in (4, 20, 20):  # a first fit on the smallest differences, then refined
        small = d[d <= limit * step]
        step = small.sum() / np.maximum(1, np.round(small / step)).sum()
    small = d[d <= 20 * step]
    off = np.abs(small - np.round(small / step) * step)
    # evidence of a tick: values that repeat (a few distinct values among many) or many small
    # differences that fit it; a handful of distinct values far apart show no grid of their own
    evident = count >= 2 * len(q) or len(small) >= MIN_EVIDENCE
    return _clean(step * eps) if evident and (off <= w * 1.000001).mean() >= ON_GRID else written


def _clean(x: float) -> float:
    """A step without the float noise of its scaling (1000.0000000000001 -> 1000.0)."""
    return float(f"{x:.12g}")


GRID_COLUMNS = ["resolution", "clock_step", "resolution_note"]
NEAR_MULTIPLE = 0.01  # a grid within this share of a multiple of the clock step (or one written
# step, where the values are written coarser than that) sits on the clock's grid


def checked_resolution(grid: float, clock: float, written: float, distinct: int) -> tuple:
    """(resolution, note): the data's grid checked against the step its clock declares (both in
    the metric's unit). A value cannot be finer than its clock: the resolution is the larger of
    the two, and where the grid is near a multiple k of the clock step, exactly k steps (a tick
    estimated from whole-ms values as 7.84 ms is 7.8125 ms). The note says where the data
    disagree with the clock: a grid finer than the step, or one not near a multiple of it, or
    values that show no grid of their own (distinct: their number of distinct values)."""
    if not grid > 0:
        seen = distinct >= 2 and not math.isfinite(written)  # as fine as floating point
        note = "values on no grid, finer than the clock's declared step" if seen else ""
        return clock, note
    k = max(1.0, float(round(grid / clock)))
    tolerance = max(written if written > 0 else 0.0, NEAR_MULTIPLE * k * clock)
    if abs(grid - k * clock) <= tolerance:
        return _clean(k * clock), ""
    if grid < clock:
        return clock, "values on a grid finer than the clock's declared step"
    return grid, "values on a grid that is no multiple of the clock's declared step"


def grid_steps(tidy, by=("source", "metric"), clocks: dict | None = None):
    """grid_step of the successful values of each source and metric (every variant and setting
    measured by the same clock), each written step taken over all metrics of the source with the
    same unit (one program writes them alike; a metric with few distinct values alone would show
    too coarse a step), checked against the clock step the source declares (checked_resolution;
    clocks: (source, metric) -> step in ns, c18n_ae.analysis.clocks.clock_steps): a frame with
    the `by` columns and GRID_COLUMNS (resolution and clock_step in the metric's unit; the note
    names both steps). A sort per group, a handful of groups: linear in the rows up to the
    sort. A metric its experiment declares a mean over many calls (Experiment.means_over_calls)
    gets no note: its grid is finer than the clock's by design."""
    import pandas as pd

    from c18n_ae.analysis.groups import Groups

    clocks = clocks or {}
    means = means_over_calls(tidy)
    found = Groups(tidy, [*by, "unit"])
    value = tidy.value.to_numpy(dtype=float)
    ok = (tidy.status == "ok").to_numpy()
    distinct, count = {}, {}  # each group's distinct successful values and their number
    for g, key in enumerate(found.keys.itertuples(index=False, name=None)):
        x = found.take(value, g)
        x = x[found.take(ok, g) & ~np.isnan(x)]
        if len(x):
            distinct[key], count[key] = np.unique(x), int(np.isfinite(x).sum())
    # the written step of a source and unit from the union of its groups' distinct values:
    # the same integers on the same grid as all the values, at the size of the distinct ones
    union: dict[tuple, list] = {}
    for key, d in distinct.items():
        union.setdefault((key[0], key[-1]), []).append(d)
    written = {k: written_step(np.unique(np.concatenate(v))) for k, v in union.items()}
    rows = []
    for key, values in distinct.items():
        source, metric, unit = key[0], key[-2], key[-1]
        step = written[(source, unit)]
        grid = grid_step(values, step, count[key])
        clock = in_unit(clocks.get((source, metric), math.nan), str(unit))
        if clock > 0:
            distinct = 2 if grid > 0 else len(values)
            resolution, note = checked_resolution(grid, clock, step, distinct)
            if metric in means:
                note = ""
            elif note:
                shown = quantity(grid, str(unit)) if grid > 0 else "none"
                note += f" (grid {shown}, clock step {quantity(clock, str(unit))})"
        elif str(unit) in NS:
            resolution = grid
            note = "no clock step declared" + ("" if grid > 0 else ", and the values show no grid")
        else:  # bytes, counts, rates: no clock to check against
            resolution, note = grid, ""
        rows.append((*key[:-1], resolution, clock, note))
    return pd.DataFrame(rows, columns=[*by, *GRID_COLUMNS])


def means_over_calls(tidy) -> set[str]:
    """The metrics of the tidy table that their experiment declares a mean over many calls."""
    from c18n_ae import experiments as exp

    if "experiment" not in tidy.columns:
        return set()
    from c18n_ae.analysis.groups import Groups

    pairs = Groups(tidy, ["experiment", "metric"]).keys.itertuples(index=False, name=None)
    known = exp.registry()
    return {m for e, m in pairs if e in known and known[e].mean_over_calls(m)}
