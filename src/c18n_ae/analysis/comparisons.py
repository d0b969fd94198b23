"""Every comparison the paper makes, as a ratio with a 95 % confidence interval.

Within a target (or data set): each variant against every variant before it, the reference first
(so c18n against no compartment, and purecap-benchmark against purecap, are both there). Between
targets: the same variant on each target against the first target that has it. Per experiment,
parameter value and metric: ratio of means and of medians, each with a percentile-bootstrap
interval (each side resampled independently and seeded, so a re-run gives the same interval), and
the number of trials on each side. A side measured in two or more separate runs is resampled
hierarchically (Kalibera and Jones, "Rigorous benchmarking in reasonable time", 2013): its runs
first, then the trials within each run drawn, so the interval covers the variation between runs,
widened for the few runs (Hesterberg's expanded percentile interval, _widened); a side of one run
(every data set: one build, boot and process per variant) gives an interval of the
trial-to-trial noise within that run only, and the row says which (`interval_covers`). Each row
also carries what its printed form needs (c18n_ae.common.latex.comparison_text): each side's
mean, median and sd, the metric's unit and the timer's resolution (the coarser side's grid)."""

from __future__ import annotations

import argparse
import functools
import math
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae.analysis.clocks import clock_steps
from c18n_ae.analysis.groups import Groups
from c18n_ae.analysis.stats import grid_steps, stdtrit
from c18n_ae.analysis.summarise import with_derived
from c18n_ae.common import config
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.experiments.rows import lookup  # noqa: F401  (where callers look it up)

COLUMNS = [
    "source",
    "variant",
    "reference_source",
    "reference_variant",
    "experiment",
    "parameter",
    "parameter_value",
    "metric",
    "ratio",
    "ci95_low",
    "ci95_high",
    "n",
    "n_reference",
    "median_ratio",
    "median_ci95_low",
    "median_ci95_high",
    "interval_covers",  # within one run | between runs
    "runs",
    "reference_runs",
    "unit",
    "resolution",  # the grid step of the coarser side's values, in unit
    "mean",
    "reference_mean",
    "median",
    "reference_median",
    "sd",
    "reference_sd",
    "comparison",
    "confounded_by",  # what else differs beside ABI and compartments (analysis.contrasts)
    "possibly_also",  # what else differs in name alone: the verdict stands (analysis.contrasts)
]
# the columns a row's printed form reads beside its ratios (c18n_ae.common.latex.comparison_text)
PRINTED = COLUMNS[COLUMNS.index("interval_covers") : COLUMNS.index("comparison")]
RESAMPLES = 2000
GROUP = ["experiment", "parameter", "parameter_value", "metric"]
WITHIN, BETWEEN = "within one run", "between runs"


def _seed(*key) -> int:
    return zlib.crc32("|".join(map(str, key)).encode())


@functools.lru_cache(maxsize=16)  # at most 16 x 32 MB; in practice a few sample sizes
def _resampling(n: int, role: int, resamples: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For samples of size n: how often each sorted position is drawn in each resample (counts,
    resamples x n), and the sorted positions of each resample's median (two, equal when n is odd).
    Seeded by n and the side (role 0 or 1), so the two sides are resampled independently and a
    re-run draws the same resamples. Medians need no sort per resample: in a resample of sorted
    values the median sits where the cumulative count first reaches half."""
    rng = np.random.default_rng(_seed("bootstrap", n, role, resamples))
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=resamples)
    cum = counts.cumsum(axis=1)
    lo = (cum >= (n + 1) // 2).argmax(axis=1) if n % 2 else (cum >= n // 2).argmax(axis=1)
    hi = lo if n % 2 else (cum >= n // 2 + 1).argmax(axis=1)
    return counts.astype(float), lo, hi


# Above this many trials on the smaller side, intervals come from large-sample theory, whose cost
# is linear in the trials, instead of the bootstrap, whose cost is resamples x trials; a test
# checks that the two agree where both apply (tests/test_interval_method.py).
LARGE_SAMPLE = 5000
Z95 = 1.959963984540054
CACHED_CELLS = 4_000_000  # resamples x n above this (32 MB) are drawn in chunks, never kept


def _resampled(x: np.ndarray, role: int, resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """Means and medians of `resamples` bootstrap resamples of x; above LARGE_SAMPLE trials, draws
    from the normal distributions of its mean and median (delta method, order statistics), so a
    huge sample beside a small one costs its length once, not resamples times."""
    n = len(x)
    if n > LARGE_SAMPLE:  # its large-sample distribution stands in for resamples: linear in n
        rng = np.random.default_rng(_seed("normal", n, role, resamples))
        mean, median = x.mean(), np.median(x)
        sd_mean = x.std(ddof=1) / math.sqrt(n)
        sd_median = abs(median) * _log_se_of_median(x) if median > 0 else math.nan
        return rng.normal(mean, sd_mean, resamples), rng.normal(median, sd_median, resamples)
    if n * resamples > CACHED_CELLS:  # a large sample: bounded memory, chunk by chunk
        rng = np.random.default_rng(_seed("bootstrap", n, role, resamples))
        means, medians = [], []
        chunk = max(1, CACHED_CELLS // n)
        for start in range(0, resamples, chunk):
            r = x[rng.integers(0, n, (min(chunk, resamples - start), n))]
            means.append(r.mean(axis=1))
            medians.append(np.median(r, axis=1))
        return np.concatenate(means), np.concatenate(medians)
    counts, lo, hi = _resampling(n, role, resamples)
    s = np.sort(x)
    return counts @ s / n, (s[lo] + s[hi]) / 2


def _run_draws(sizes: tuple[int, ...], role: int, resamples: int, rng=None):
    """For runs of these sizes (trials of each run in one block, runs in order): how often each
    trial is drawn in each two-level resample (resamples x trials), each resample's total, and
    the running sum of the counts down each run's block (its trials in sorted order), a row of
    zeros above each block ((trials + runs) x resamples; _hierarchical's medians read it). The
    runs are drawn with replacement; a run drawn k times adds a multinomial draw of k times its
    size over its trials. Seeded by the sizes and the side's role."""
    rng = rng or np.random.default_rng(_seed("hierarchical", role, resamples, *sizes))
    r = len(sizes)
    chosen = rng.integers(0, r, (resamples, r))
    times = np.zeros((resamples, r), dtype=np.int64)  # how often each run is drawn
    np.add.at(times, (np.repeat(np.arange(resamples), r), chosen.ravel()), 1)
    counts = np.empty((resamples, sum(sizes)))  # a row per resample: its mean is one product
    running = np.zeros((sum(sizes) + r, resamples), dtype=np.int32)
    start = 0
    for i, size in enumerate(sizes):
        block = rng.multinomial(times[:, i] * size, np.full(size, 1.0 / size))
        counts[:, start : start + size] = block
        np.cumsum(block, axis=1, out=running[start + i + 1 : start + i + 1 + size].T)
        start += size
    return counts, times @ np.asarray(sizes), running


_cached_run_draws = functools.lru_cache(maxsize=16)(_run_draws)  # at most 16 x 48 MB


def _first_reaching(running: np.ndarray, below: np.ndarray, goals: list) -> np.ndarray:
    """Per goal and resample (column of running): the first sorted position whose cumulative
    count reaches the goal. The cumulative count at sorted position g sums, over the runs, the
    running count of the run's block at the number of its trials at or below g (below: runs x
    positions, each offset to its block's first row in running). A branch-free binary search,
    every goal and resample at once: log2(trials) steps of runs x resamples reads."""
    n, cols = below.shape[1], running.shape[1]
    flat, rows = running.ravel(), [b * cols for b in below]  # one flat row index per run
    at = np.tile(np.arange(cols), len(goals))
    goal = np.concatenate(goals)
    count = np.zeros(len(goal), dtype=np.int64)  # positions whose cumulative count is short
    step = 1 << (n.bit_length() - 1)
    while step:
        last = count + step
        np.minimum(last, n, out=last)
        last -= 1
        reached = flat.take(rows[0].take(last) + at)  # 1-d takes: faster than a 2-d gather
        for row in rows[1:]:
            reached += flat.take(row.take(last) + at)
        np.add(count, step, out=count, where=reached < goal)
        step >>= 1
    return np.minimum(count, n - 1).reshape(len(goals), cols)


def _hierarchical(
    x: np.ndarray, runs: np.ndarray, role: int, resamples: int
) -> tuple[np.ndarray, np.ndarray]:
    """Means and medians of `resamples` two-level bootstrap resamples of x measured in several
    runs: the runs drawn with replacement, then, for each run drawn, its trials drawn with
    replacement (_run_draws). One counts matrix gives each resample's mean; its median is where
    the cumulative count over the sorted values first reaches half its total, found by a binary
    search on the runs' running counts (_first_reaching), so a side costs one product of its
    trials with the counts, not a pass over a sorted copy of them. The draws' memory stays
    within CACHED_CELLS, in chunks beyond. Above LARGE_SAMPLE trials each run's mean and median
    are drawn from their large-sample normal distributions and a resample's median is the
    size-weighted mean of its runs' medians (an approximation)."""
    order = np.lexsort((x, runs))  # by run, then value: each run's trials in one block
    x, runs = x[order], runs[order]
    sizes = tuple(int(k) for k in np.unique(runs, return_counts=True)[1])
    n = len(x)
    if n > LARGE_SAMPLE:
        return _hierarchical_large(x, sizes, role, resamples)
    ranks = np.argsort(x, kind="stable")  # sorted order; ties keep their block order
    s = x[ranks]
    # per run: how many of its trials sit at or below each sorted position (ties stay in block
    # order, so they are its first ones), as a row of the run's running counts
    run_of = np.repeat(np.arange(len(sizes)), sizes)[ranks]
    first_row = np.cumsum((0, *sizes))[:-1] + np.arange(len(sizes))
    below = np.cumsum(run_of == np.arange(len(sizes))[:, None], axis=1) + first_row[:, None]
    if n * resamples <= CACHED_CELLS:
        chunks = [_cached_run_draws(sizes, role, resamples)]
    else:  # bounded memory: the same seeded stream, drawn a chunk of resamples at a time
        rng = np.random.default_rng(_seed("hierarchical", role, resamples, *sizes))
        step = max(1, CACHED_CELLS // n)
        chunks = (
            _run_draws(sizes, role, min(step, resamples - lo), rng)
            for lo in range(0, resamples, step)
        )
    means, medians = [], []
    for counts, total, running in chunks:
        # einsum, not BLAS: its threads stall when the workflow runs jobs side by side
        means.append(np.einsum("rn,n->r", counts, x) / total)
        low, high = _first_reaching(running, below, [(total + 1) // 2, total // 2 + 1])
        medians.append((s[low] + s[high]) / 2)
    return np.concatenate(means), np.concatenate(medians)


def _hierarchical_large(x: np.ndarray, sizes: tuple[int, ...], role: int, resamples: int):
    """_hierarchical above LARGE_SAMPLE trials (x in blocks by run): linear in the trials."""
    rng = np.random.default_rng(_seed("hierarchical-large", role, resamples, *sizes))
    r = len(sizes)
    times = np.zeros((resamples, r), dtype=np.int64)
    np.add.at(times, (np.repeat(np.arange(resamples), r), rng.integers(0, r, resamples * r)), 1)
    bounds = np.cumsum((0, *sizes))
    parts = [x[bounds[i] : bounds[i + 1]] for i in range(r)]
    mean = np.array([p.mean() for p in parts])
    med = np.array([np.median(p) for p in parts])
    se = np.array([p.std(ddof=1) / math.sqrt(len(p)) if len(p) > 1 else 0.0 for p in parts])
    se_med = np.nan_to_num(np.array([abs(m) * _log_se_of_median(p) for m, p in zip(med, parts)]))
    weight = times * np.asarray(sizes)
    total = weight.sum(axis=1)
    noise = rng.standard_normal((2, resamples, r)) / np.sqrt(np.maximum(times, 1))
    means = (weight * (mean + se * noise[0])).sum(axis=1) / total
    medians = (weight * (med + se_med * noise[1])).sum(axis=1) / total
    return means, medians


def _side(x: np.ndarray, runs, role: int, resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """Resampled means and medians of one side: hierarchical over its runs when it has two or
    more, else over its trials (_resampled)."""
    if runs is not None and len(np.unique(runs)) >= 2:
        return _hierarchical(x, np.asarray(runs), role, resamples)
    return _resampled(x, role, resamples)


def run_count(runs) -> int:
    return 1 if runs is None else max(1, len(np.unique(runs)))


def _widened(lo: float, hi: float, point: float, counts) -> tuple[float, float]:
    """A percentile interval over resampled runs, widened for their few number: Hesterberg's
    expanded percentile interval ("What teachers should know about the bootstrap", The American
    Statistician 69(4), 2015). The bootstrap over R runs underestimates their spread by about
    sqrt((R-1)/R) and uses normal quantiles where t ones apply, so each end moves away from the
    point estimate by w = t(df, 0.975) / z(0.975) * sqrt(R/(R-1)), on the log scale (the ratios
    are positive; linear where an end is not). R: the fewest runs of a side resampled over its
    runs (two or more; none such: the interval unchanged); df: the sum of R_i - 1 over those
    sides, as for a difference of two means of run means (2(R-1) when both sides have R runs).
    tests/test_interval_method.py measures the coverage at 2, 3 and 10 runs."""
    hierarchical = [k for k in counts if k >= 2]
    if not hierarchical or not all(map(math.isfinite, (lo, hi, point))):
        return lo, hi
    r, df = min(hierarchical), sum(k - 1 for k in hierarchical)
    w = float(stdtrit(df, 0.975)) / Z95 * math.sqrt(r / (r - 1))
    if min(lo, hi, point) > 0:
        return point * (lo / point) ** w, point * (hi / point) ** w
    return point - w * (point - lo), point + w * (hi - point)


def _log_se_of_mean(x: np.ndarray) -> float:
    """Standard error of log(mean) by the delta method: sd / (mean sqrt(n))."""
    return float(x.std(ddof=1) / (abs(x.mean()) * math.sqrt(len(x))))


def _log_se_of_median(x: np.ndarray) -> float:
    """Standard error of log(median) from order statistics: the distribution-free 95 % interval
    of a median runs between the order statistics n/2 -+ 1.96 sqrt(n)/2; half its width on the
    log scale, over 1.96, is the standard error. Linear time (np.partition, no sort)."""
    n = len(x)
    k = Z95 * math.sqrt(n) / 2
    lo, hi = max(0, int(math.floor(n / 2 - k))), min(n - 1, int(math.ceil(n / 2 + k)))
    part = np.partition(x, [lo, hi])
    if part[lo] <= 0:
        return math.nan
    return float((math.log(part[hi]) - math.log(part[lo])) / (2 * Z95))


def ratio_ci_large(a: np.ndarray, b: np.ndarray) -> dict:
    """The large-sample intervals of ratio_ci: ratio of means by the delta method on the log
    scale, ratio of medians from each median's order-statistic interval, both as
    ratio x exp(-+1.96 se) with the two sides' log standard errors added in quadrature."""
    out = {}
    for name, point, se in (
        ("", a.mean() / b.mean(), math.hypot(_log_se_of_mean(a), _log_se_of_mean(b))),
        (
            "median_",
            np.median(a) / np.median(b),
            math.hypot(_log_se_of_median(a), _log_se_of_median(b)),
        ),
    ):
        ok = point > 0 and math.isfinite(se)
        low = point * math.exp(-Z95 * se) if ok else math.nan
        high = point * math.exp(Z95 * se) if ok else math.nan
        out[f"{name}ci95_low"], out[f"{name}ci95_high"] = float(low), float(high)
    return out


def _numbers(x, runs=None) -> tuple[np.ndarray, np.ndarray | None]:
    """x as floats without NaN, and the run of each value kept (None: one run)."""
    x = np.asarray(x, dtype=float)
    keep = ~np.isnan(x)
    return x[keep], (None if runs is None else np.asarray(runs)[keep])


def ratio_ci(a, b, seed: int = 0, resamples: int = RESAMPLES, runs_a=None, runs_b=None) -> dict:
    """Ratio of means and of medians of a over b, with 95 % intervals: percentile bootstrap, each
    side resampled on its own (seeded through _resampling; `seed` is kept for callers' keys),
    hierarchically over its runs where it has two or more (runs_a, runs_b: the run of each
    value); for one run per side above LARGE_SAMPLE trials on the smaller side, large-sample
    theory (ratio_ci_large). interval_covers: what the interval's spread includes."""
    a, runs_a = _numbers(a, runs_a)
    b, runs_b = _numbers(b, runs_b)
    counted = min(run_count(runs_a), run_count(runs_b))
    out = {
        "n": len(a),
        "n_reference": len(b),
        "runs": run_count(runs_a),
        "reference_runs": run_count(runs_b),
        "interval_covers": BETWEEN if counted >= 2 else WITHIN,
    }
    nan = {
        k: math.nan
        for k in (
            "ratio",
            "ci95_low",
            "ci95_high",
            "median_ratio",
            "median_ci95_low",
            "median_ci95_high",
        )
    }
    if not len(a) or not len(b) or b.mean() == 0:
        return {**out, **nan}
    out["ratio"] = float(a.mean() / b.mean())
    out["median_ratio"] = float(np.median(a) / np.median(b)) if np.median(b) != 0 else math.nan
    if len(a) < 2 or len(b) < 2:
        return {**nan, **out}
    flat = max(run_count(runs_a), run_count(runs_b)) < 2
    if flat and min(len(a), len(b)) > LARGE_SAMPLE and a.mean() > 0 and b.mean() > 0:
        return {**out, **ratio_ci_large(a, b)}
    mean_a, median_a = _side(a, runs_a, 0, resamples)
    mean_b, median_b = _side(b, runs_b, 1, resamples)
    with np.errstate(divide="ignore", invalid="ignore"):
        means = mean_a / mean_b
        medians = median_a / median_b
    counts = (run_count(runs_a), run_count(runs_b))
    lo, hi = _widened(*np.nanpercentile(means, [2.5, 97.5]), out["ratio"], counts)
    out.update(ci95_low=float(lo), ci95_high=float(hi))
    if np.isfinite(medians).all():
        mlo, mhi = np.percentile(medians, [2.5, 97.5])
        mlo, mhi = _widened(mlo, mhi, out["median_ratio"], counts)
        out.update(median_ci95_low=float(mlo), median_ci95_high=float(mhi))
    else:
        out.update(median_ci95_low=math.nan, median_ci95_high=math.nan)
    return out


def ratio_of_ratios(a1, b1, a2, b2, resamples: int = RESAMPLES, runs=(None,) * 4) -> dict:
    """(a1/b1) / (a2/b2) of means and of medians, with percentile-bootstrap 95 % intervals: the
    four samples resampled independently (roles 0 to 3; hierarchically over their runs where
    runs gives two or more), as a contrast on one release against the same contrast on
    another."""
    pairs = [_numbers(x, r) for x, r in zip((a1, b1, a2, b2), runs)]
    xs, rs = [x for x, _ in pairs], [r for _, r in pairs]
    counts = [run_count(r) for r in rs]
    out = {
        "n": min(len(xs[0]), len(xs[1])),
        "n_reference": min(len(xs[2]), len(xs[3])),
        "runs": min(counts[:2]),
        "reference_runs": min(counts[2:]),
        "interval_covers": BETWEEN if min(counts) >= 2 else WITHIN,
    }
    keys = ("ratio", "ci95_low", "ci95_high", "median_ratio", "median_ci95_low", "median_ci95_high")
    if min(map(len, xs)) < 2 or any(x.mean() == 0 or np.median(x) == 0 for x in xs):
        return {**out, **{k: math.nan for k in keys}}
    point = [x.mean() for x in xs]
    mid = [np.median(x) for x in xs]
    flat = max(counts) < 2
    if flat and min(map(len, xs)) > LARGE_SAMPLE and min(point) > 0:  # linear, as ratio_ci_large
        out["ratio"] = float((point[0] / point[1]) / (point[2] / point[3]))
        out["median_ratio"] = float((mid[0] / mid[1]) / (mid[2] / mid[3]))
        for name, se in (
            ("", math.sqrt(sum(_log_se_of_mean(x) ** 2 for x in xs))),
            ("median_", math.sqrt(sum(_log_se_of_median(x) ** 2 for x in xs))),
        ):
            r = out[f"{name}ratio"]
            out[f"{name}ci95_low"] = float(r * math.exp(-Z95 * se))
            out[f"{name}ci95_high"] = float(r * math.exp(Z95 * se))
        return out
    means, medians = zip(*(_side(x, r, role, resamples) for role, (x, r) in enumerate(pairs)))
    with np.errstate(divide="ignore", invalid="ignore"):
        m = (means[0] / means[1]) / (means[2] / means[3])
        d = (medians[0] / medians[1]) / (medians[2] / medians[3])
    ratio = float((point[0] / point[1]) / (point[2] / point[3]))
    median_ratio = float((mid[0] / mid[1]) / (mid[2] / mid[3]))
    lo, hi = _widened(*np.nanpercentile(m, [2.5, 97.5]), ratio, counts)
    mlo, mhi = _widened(*np.nanpercentile(d, [2.5, 97.5]), median_ratio, counts)
    return {
        **out,
        "ratio": ratio,
        "ci95_low": float(lo),
        "ci95_high": float(hi),
        "median_ratio": median_ratio,
        "median_ci95_low": float(mlo),
        "median_ci95_high": float(mhi),
    }


def release_rows(groups: dict, references: dict[str, str], releases: list[str]) -> list[dict]:
    """Each release (data set, in config order) against the first release before it with the same
    contrast: every variant against its data set's reference variant, per parameter value and
    metric. A third release joins without code: it is compared with the first."""
    rows = []
    for i, target in enumerate(releases):
        ref = references.get(target)
        for key in [k for k in groups if k[0] == target and k[1] != ref]:
            _, variant, *g = key
            earlier = next(
                (
                    r
                    for r in releases[:i]
                    if references.get(r) == ref
                    and (r, variant, *g) in groups
                    and (r, ref, *g) in groups
                ),
                None,
            )
            if earlier is None or (target, ref, *g) not in groups:
                continue
            sides = [
                groups[k]
                for k in (key, (target, ref, *g), (earlier, variant, *g), (earlier, ref, *g))
            ]
            stats = ratio_of_ratios(*(v for v, _ in sides), runs=[r for _, r in sides])
            contrast = f"{variant}/{ref}"
            names = ["source", "variant", "reference_source", "reference_variant", *GROUP]
            rows.append(
                dict(zip(names, [target, contrast, earlier, contrast, *g]))
                | stats
                | {"comparison": "release"}
            )
    return rows


def _pairs(series: list[tuple], references: dict[str, str]) -> list[tuple[str, str, str, str]]:
    """(target, variant, reference target, reference variant), in the order described above;
    series: the table's (target, variant) pairs in order of appearance."""
    pairs = []
    for target in dict.fromkeys(t for t, _ in series):
        variants = [v for t, v in series if t == target]
        ref = references.get(target)
        if ref in variants:
            variants = [ref] + [v for v in variants if v != ref]
        pairs += [(target, v, target, w) for i, v in enumerate(variants) for w in variants[:i]]
    first: dict[str, str] = {}
    for target, variant in series:
        if variant in first and first[variant] != target:
            pairs.append((target, variant, first[variant], variant))
        first.setdefault(variant, target)
    return pairs


def side_stats(a: np.ndarray, b: np.ndarray) -> dict:
    """Each side's mean, median and sd (the row's printed form needs them: step counts, whether
    the values sit on one or two grid points)."""
    out = {}
    for pre, x in (("", a), ("reference_", b)):
        out[f"{pre}mean"] = float(x.mean()) if len(x) else math.nan
        out[f"{pre}median"] = float(np.median(x)) if len(x) else math.nan
        out[f"{pre}sd"] = float(x.std(ddof=1)) if len(x) > 1 else math.nan
    return out


def sides(tidy: pd.DataFrame) -> tuple[dict, list[tuple], dict]:
    """Each side's successful values and their runs, in table order, by (target, variant,
    *GROUP), in order of their first successful row (as pandas' groupby without sort); the
    (target, variant) pairs in order of their first row; each metric's unit. The groups are
    found once (c18n_ae.analysis.groups), with no copy of the table."""
    found = Groups(tidy, ["source", "variant", *GROUP, "unit"])
    value = tidy.value.to_numpy(dtype=float)
    ok = (tidy.status == "ok").to_numpy()
    run = tidy.run.to_numpy()
    # the keys as tuples once (a pass over a frame of categories is a Python call an element)
    keys = list(found.keys.itertuples(index=False, name=None))
    taken, first = {}, {}
    for g, key in enumerate(keys):
        keep = found.take(ok, g) & ~np.isnan(found.take(value, g))
        side = key[:-1]
        if keep.any():
            at = int(found.take_index(g)[keep][0])
            parts = (found.take(value, g)[keep], found.take(run, g)[keep])
            if side in taken:  # a metric in two units: one side, as pandas groups it
                first[side] = min(first[side], at)
                parts = tuple(np.concatenate(p) for p in zip(taken[side], parts))
            else:
                first[side] = at
            taken[side] = parts
    groups = {k: taken[k] for k in sorted(taken, key=first.get)}
    earliest: dict[tuple, int] = {}
    for (source, variant, *_), at in zip(keys, found.first):
        earliest[(source, variant)] = min(earliest.get((source, variant), at), int(at))
    series = sorted(earliest, key=earliest.get)
    units = {k[-2]: k[-1] for k in keys}
    return groups, series, units


def compare(
    tidy: pd.DataFrame,
    references: dict[str, str],
    releases: list[str] = (),
    derived: bool = False,
    steps: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Variant against variant and target against target; releases (data sets, in config order):
    each one's contrasts against the same contrasts on the first release (release_rows).
    derived: the experiment's derived metrics are already in the table; steps: its grid_steps
    (by default checked against the clocks of the shipped data sets it holds)."""
    if tidy.empty:
        return pd.DataFrame(columns=COLUMNS)
    if not derived:
        tidy = with_derived(tidy)
    groups, series, units = sides(tidy)
    if steps is None:
        steps = grid_steps(tidy, clocks=clock_steps(tidy))
    step = dict(zip(zip(steps.source, steps.metric), steps.resolution))
    keys_by_series: dict[tuple[str, str], list[tuple]] = {}
    for k in groups:
        keys_by_series.setdefault(k[:2], []).append(k[2:])
    rows = []
    for target, variant, rtarget, rvariant in _pairs(series, references):
        for g in keys_by_series.get((target, variant), []):
            b = groups.get((rtarget, rvariant, *g))
            if b is None:
                continue
            a = groups[(target, variant, *g)]
            stats = ratio_ci(
                a[0],
                b[0],
                _seed(target, variant, rtarget, rvariant, *g),
                runs_a=a[1],
                runs_b=b[1],
            )
            metric = g[-1]
            grid = np.fmax(step.get((target, metric), np.nan), step.get((rtarget, metric), np.nan))
            rows.append(
                dict(
                    zip(
                        ["source", "variant", "reference_source", "reference_variant", *GROUP],
                        [target, variant, rtarget, rvariant, *g],
                    )
                )
                | stats
                | side_stats(a[0], b[0])
                | {"unit": units.get(metric, ""), "resolution": float(grid)}
                | {"comparison": "variant" if target == rtarget else "target"}
            )
    rows += release_rows(groups, references, [r for r in releases if r in {t for t, _ in series}])
    return pd.DataFrame(rows, columns=COLUMNS)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tidy", type=Path, help="results/tidy/EXPERIMENT.csv")
    ap.add_argument("--reference", action="append", default=[], help="TARGET=VARIANT")
    ap.add_argument(
        "--release", action="append", default=[], help="a data set compared release to release"
    )
    ap.add_argument(
        "--merge",
        nargs="*",
        type=Path,
        default=None,
        help="per-experiment comparison files to join",
    )
    # --experiments NAME...: join their results/comparisons/NAME.csv (the workflow's short command)
    config.add_experiment_arguments(ap, "comparisons")
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    if a.experiments:
        a.merge = [*(a.merge or []), *config.experiment_files(a, "comparisons").values()]
    if a.merge is not None:
        frames = [pd.read_csv(p) for p in a.merge]
        df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    else:
        df = compare(pd.read_csv(a.tidy), dict(r.split("=", 1) for r in a.reference), a.release)
    write_text_atomic(a.out, df.to_csv(index=False))


if __name__ == "__main__":
    main()
