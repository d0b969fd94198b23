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
