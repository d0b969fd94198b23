"""The interval method on data whose true ratio is known: skewed samples (log-normal, as times
are) whose means and medians differ by a known factor. The percentile bootstrap's 95 % intervals
must cover the true ratio close to 95 % of the time, for the mean and for the median."""

import numpy as np
import pytest

from c18n_ae.analysis.comparisons import ratio_ci

TRUE = 1.5  # subject / baseline, for the mean and for the median alike (same shape, scaled)


def coverage(sigma: float, n: int, repeats: int = 200) -> tuple[float, float]:
    rng = np.random.default_rng(12345)
    hit_mean = hit_median = 0
    for i in range(repeats):
        baseline = rng.lognormal(0.0, sigma, n)
        subject = TRUE * rng.lognormal(0.0, sigma, n)
        r = ratio_ci(subject, baseline, seed=i, resamples=1000)
        hit_mean += r["ci95_low"] <= TRUE <= r["ci95_high"]
        hit_median += r["median_ci95_low"] <= TRUE <= r["median_ci95_high"]
    return hit_mean / repeats, hit_median / repeats


@pytest.mark.parametrize("sigma", [0.25, 0.75])
def test_percentile_bootstrap_covers_a_known_ratio(sigma):
    mean_cov, median_cov = coverage(sigma, n=60)
    # 200 repeats: a binomial standard error of 1.5 points at 95 %; bootstrap intervals run a
    # little narrow at this size, which the lower bound allows
    assert 0.88 <= mean_cov <= 0.99, mean_cov
    assert 0.88 <= median_cov <= 0.995, median_cov


def test_a_wrong_ratio_is_not_covered():
    """The test above can fail: intervals rarely cover a ratio that is not the true one."""
    rng = np.random.default_rng(7)
    misses = 0
    for i in range(50):
        r = ratio_ci(TRUE * rng.lognormal(0, 0.25, 60), rng.lognormal(0, 0.25, 60), seed=i)
        misses += not (r["ci95_low"] <= 1.2 <= r["ci95_high"])
    assert misses >= 45


def test_large_sample_intervals_agree_with_the_bootstrap_where_both_apply():
    """The linear-cost intervals used above LARGE_SAMPLE trials against the bootstrap on the same
    data (4,000 trials a side): each bound within 10 % of the bootstrap interval's width (measured
    here: at most 4.4 %)."""
    from c18n_ae.analysis.comparisons import ratio_ci_large

    rng = np.random.default_rng(3)
    for sigma in (0.2, 0.6, 1.0):
        a = 1.3 * rng.lognormal(0, sigma, 4000)
        b = rng.lognormal(0, sigma, 4000)
        boot = ratio_ci(a, b, resamples=2000)
        fast = ratio_ci_large(a, b)
        for prefix in ("", "median_"):
            lo, hi = boot[f"{prefix}ci95_low"], boot[f"{prefix}ci95_high"]
            tolerance = 0.10 * (hi - lo)
            assert abs(fast[f"{prefix}ci95_low"] - lo) <= tolerance, (prefix, sigma, fast, boot)
            assert abs(fast[f"{prefix}ci95_high"] - hi) <= tolerance, (prefix, sigma, fast, boot)


def test_large_samples_switch_to_the_linear_intervals_and_stay_reproducible():
    from c18n_ae.analysis.comparisons import LARGE_SAMPLE

    rng = np.random.default_rng(4)
    a, b = 2 * rng.lognormal(0, 0.5, LARGE_SAMPLE + 1), rng.lognormal(0, 0.5, LARGE_SAMPLE + 1)
    first, again = ratio_ci(a, b), ratio_ci(a, b)
    assert first == again
    assert (
        first["ci95_low"] < 2 < first["ci95_high"] and first["ci95_high"] / first["ci95_low"] < 1.1
    )
    assert first["median_ci95_low"] < first["median_ratio"] < first["median_ci95_high"]


def test_a_huge_sample_beside_a_small_one_costs_its_length_once():
    """A board's 10^5 trials against a data set's 100: the huge side's normal distribution stands
    in for its resamples (bench/analysis_cost.py measures the cost); the interval agrees with the
    full bootstrap's within 10 % of its width."""
    from c18n_ae.analysis import comparisons

    rng = np.random.default_rng(5)
    small, huge = rng.lognormal(0, 0.5, 100), 1.4 * rng.lognormal(0, 0.5, 20_000)
    mixed = ratio_ci(huge, small)
    limit = comparisons.LARGE_SAMPLE
    comparisons.LARGE_SAMPLE = 10**9  # the bootstrap alone, for reference
    try:
        boot = ratio_ci(huge, small)
    finally:
        comparisons.LARGE_SAMPLE = limit
    for prefix in ("", "median_"):
        width = boot[f"{prefix}ci95_high"] - boot[f"{prefix}ci95_low"]
        for end in ("ci95_low", "ci95_high"):
            assert abs(mixed[f"{prefix}{end}"] - boot[f"{prefix}{end}"]) <= 0.1 * width


def between_run_coverage(runs: int, trials: int, repeats: int = 200) -> tuple[float, float]:
    """Both sides measured in `runs` separate runs of `trials` trials, each run shifted by its own
    offset (sd 5 between runs, 5 within, around means 150 and 100: a true ratio of means of 1.5):
    how often the hierarchical and the flat bootstrap's 95 % intervals cover 1.5."""
    rng = np.random.default_rng(2026)
    label = np.repeat(np.arange(1, runs + 1), trials)
    shape = (repeats, 2, runs, 1)
    data = rng.normal(0, 5, shape) + rng.normal(0, 5, (repeats, 2, runs, trials))
    data += np.array([150.0, 100.0])[None, :, None, None]
    hit = {"hierarchical": 0, "flat": 0}
    for i in range(repeats):
        a, b = data[i, 0].ravel(), data[i, 1].ravel()
        r = ratio_ci(a, b, resamples=400, runs_a=label, runs_b=label)
        hit["hierarchical"] += r["ci95_low"] <= TRUE <= r["ci95_high"]
        f = ratio_ci(a, b, resamples=400)
        hit["flat"] += f["ci95_low"] <= TRUE <= f["ci95_high"]
    assert r["interval_covers"] == "between runs" and f["interval_covers"] == "within one run"
    return hit["hierarchical"] / repeats, hit["flat"] / repeats


@pytest.mark.parametrize("runs, upper", [(2, 1.0), (3, 0.995), (10, 0.995)])
def test_hierarchical_bootstrap_covers_what_varies_between_runs(runs, upper):
    """A known between-run variance (half the total): resampling runs, then trials within runs,
    and widening for the few runs (Hesterberg's expanded percentile interval, _widened) keeps
    coverage near 95 %; the flat bootstrap over trials treats the trials as independent and
    falls far short. Measured on 2,000 repeats at 2, 3, 5 and 10 runs: 0.989, 0.964, 0.954,
    0.959 (flat: 0.53, 0.51, 0.54, 0.58); before the widening the hierarchical interval covered
    0.746, 0.833, 0.893, 0.929, and with t's degrees of freedom from one side alone (R - 1) it
    covered 1.00, 0.993, 0.980, 0.969: too wide. At 2 runs it stays conservative (0.9975 on
    this test's 400 repeats)."""
    hierarchical, flat = between_run_coverage(runs=runs, trials=10, repeats=400)
    assert 0.92 <= hierarchical <= upper, hierarchical
    assert flat <= 0.75, flat


def test_the_widening_factor_and_its_scales():
    """w = t(df, 0.975) / z(0.975) * sqrt(R/(R-1)) about the point estimate, R the fewest runs of
    a hierarchically resampled side and df the sum of their R_i - 1: on the log scale for
    positive bounds, else linear; a side of one run alone leaves the interval as it is."""
    from scipy.stats import t

    from c18n_ae.analysis.comparisons import _widened

    z = 1.959963984540054
    w = t.ppf(0.975, 2 + 4) / z * 1.5**0.5  # runs 3 and 5: R = 3, df = 6
    lo, hi = _widened(1.8, 2.5, 2.0, (3, 5))
    assert lo == pytest.approx(2 * 0.9**w) and hi == pytest.approx(2 * 1.25**w)
    w3 = 4.302652729911275 / z * 1.5**0.5  # one side of 3 runs: t(2, 0.975)
    assert _widened(-1.0, 3.0, 1.0, (1, 3)) == pytest.approx((1 - 2 * w3, 1 + 2 * w3))
    assert _widened(1.8, 2.5, 2.0, (1, 1)) == (1.8, 2.5)


def test_hierarchical_means_and_medians_equal_numpy_on_the_same_resamples():
    """One counts matrix gives each two-level resample's mean, and the runs' running counts its
    median: both against numpy on the materialised resamples (runs of unequal size, ties); the
    draws are seeded."""
    from c18n_ae.analysis import comparisons

    rng = np.random.default_rng(9)
    x = rng.normal(10, 2, 11)
    x[[1, 5, 9]] = x[0]  # a value in three runs: ties across runs
    runs = np.array([2] * 4 + [1] * 3 + [3] * 4)
    means, medians = comparisons._hierarchical(x, runs, 0, 40)
    order = np.lexsort((x, runs))  # the blocks the draws are made over: run 1, 2, 3
    counts, total, running = comparisons._run_draws((3, 4, 4), 0, 40)
    for b in range(40):
        sample = np.repeat(x[order], counts[b].astype(int))
        assert len(sample) == total[b]
        # each run's running count, a zero above its block, as the medians' search reads it
        blocks = np.split(counts[b], [3, 7])
        assert running[:, b].tolist() == [v for k in blocks for v in [0, *np.cumsum(k)]]
        assert means[b] == pytest.approx(sample.mean()) and medians[b] == np.median(sample)
    assert means.std() > 0 and comparisons._hierarchical(x, runs, 0, 40)[0].tolist() == list(means)


def test_large_samples_in_several_runs_keep_the_between_run_spread():
    """Above LARGE_SAMPLE trials a side of several runs is drawn from its runs' large-sample
    distributions (linear cost): the interval still widens with the spread between runs, which
    the flat large-sample interval ignores."""
    from c18n_ae.analysis.comparisons import LARGE_SAMPLE

    rng = np.random.default_rng(11)
    per_run = LARGE_SAMPLE // 2
    runs = np.repeat([1, 2, 3, 4], per_run)
    offsets = np.repeat(rng.normal(0, 5, (2, 4)), per_run, axis=1)
    a = 150 + offsets[0] + rng.normal(0, 5, 4 * per_run)
    b = 100 + offsets[1] + rng.normal(0, 5, 4 * per_run)
    hier = ratio_ci(a, b, runs_a=runs, runs_b=runs)
    flat = ratio_ci(a, b)
    assert hier["interval_covers"] == "between runs" and hier["runs"] == 4
    width = hier["ci95_high"] - hier["ci95_low"]
    assert width > 5 * (flat["ci95_high"] - flat["ci95_low"])
    assert hier["median_ci95_low"] < hier["median_ratio"] < hier["median_ci95_high"]
