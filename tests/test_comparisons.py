"""Ratios with bootstrap intervals: coverage on groups with a known ratio, verdicts from
intervals."""

import numpy as np
import pandas as pd
import pytest

from c18n_ae.analysis.claims import evaluate, parse
from c18n_ae.analysis.collect import TIDY_COLUMNS
from c18n_ae.analysis.comparisons import COLUMNS, compare, lookup, ratio_ci


def test_interval_covers_the_true_ratio_in_90_to_99_percent_of_200_simulations():
    rng = np.random.default_rng(7)
    covered = 0
    for i in range(200):
        a = rng.normal(150.0, 15.0, 30)  # true ratio of means 1.5
        b = rng.normal(100.0, 10.0, 30)
        r = ratio_ci(a, b, seed=i, resamples=1000)
        covered += r["ci95_low"] <= 1.5 <= r["ci95_high"]
    assert 0.90 * 200 <= covered <= 0.99 * 200, covered


def test_same_seed_same_interval_and_too_few_trials():
    a, b = [10.0, 11, 12, 13], [5.0, 5.5, 6, 6.5]
    assert ratio_ci(a, b, 3) == ratio_ci(a, b, 3)
    one = ratio_ci([10.0], b, 3)
    assert one["ratio"] == pytest.approx(10 / 5.75) and np.isnan(one["ci95_low"]) and one["n"] == 1


def tidy(groups):
    """groups: {(target, variant, value): [values]} -> tidy rows of one metric."""
    rows = []
    for (target, variant, param), values in groups.items():
        rows += [
            (target, variant, "cpu", 1, i + 1, "work_items", param, "math_cpu_ns", v, "ns", "ok")
            for i, v in enumerate(values)
        ]
    return pd.DataFrame(rows, columns=TIDY_COLUMNS)


def test_pairs_within_and_between_targets_and_inverted_lookup():
    rng = np.random.default_rng(1)
    t = tidy(
        {
            ("board", "hybrid", 1): rng.normal(100, 1, 20),
            ("board", "purecap-c18n", 1): rng.normal(150, 1, 20),
            ("board", "benchmark-c18n", 1): rng.normal(120, 1, 20),
            ("b2", "hybrid", 1): rng.normal(110, 1, 20),
        }
    )
    c = compare(t, {"board": "hybrid", "b2": "hybrid"})
    assert list(c.columns) == COLUMNS
    pairs = set(zip(c.variant, c.reference_variant, c.source, c.reference_source))
    assert pairs == {
        ("purecap-c18n", "hybrid", "board", "board"),
        ("benchmark-c18n", "hybrid", "board", "board"),
        ("benchmark-c18n", "purecap-c18n", "board", "board"),
        ("hybrid", "hybrid", "b2", "board"),
    }
    r = lookup(c, "board", "purecap-c18n", "benchmark-c18n", "math_cpu_ns").iloc[0]
    assert r.ratio == pytest.approx(1.25, rel=0.02) and r.ci95_low < r.ratio < r.ci95_high


CLAIM = {
    "id": "slower",
    "text": "t",
    "experiment": "cpu",
    "kind": "ratio",
    "metric": "math_cpu_ns",
    "subject": "purecap-c18n",
    "baseline": "hybrid",
    "op": ">",
    "threshold": 1,
    "scope": "all",
    "statistic": "mean",
    "min_trials": 5,
}


def verdict(a, b, claim=CLAIM):
    t = tidy({("board", "hybrid", 1): b, ("board", "purecap-c18n", 1): a})
    summaries = {"cpu": t.assign(mean=t.value)}  # only presence of target and variant is read here
    res = evaluate(
        parse(claim),
        summaries,
        {"board": {"hybrid": False, "purecap-c18n": True}},
        {"cpu": compare(t, {"board": "hybrid"})},
        {"cpu": t},
    )
    return res.iloc[0]


def test_overlapping_groups_are_inconclusive_and_reversed_groups_fail():
    rng = np.random.default_rng(2)
    clear = verdict(rng.normal(150, 5, 20), rng.normal(100, 5, 20))
    assert clear.result == "holds" and clear.ci95_low > 1
    overlap = verdict(rng.normal(101, 20, 5), rng.normal(100, 20, 5))
    assert overlap.result == "inconclusive" and overlap.ci95_low < 1 < overlap.ci95_high
    assert "trials per side would settle it" in overlap.detail
    reversed_ = verdict(rng.normal(80, 5, 20), rng.normal(100, 5, 20))
    assert reversed_.result == "fails" and reversed_.ci95_high < 1


def test_ratio_near_holds_only_inside_the_tolerance():
    near = {**CLAIM, "kind": "ratio_near", "expected": 1.5, "tolerance": 0.1}
    rng = np.random.default_rng(3)
    assert verdict(rng.normal(150, 1, 30), rng.normal(100, 1, 30), near).result == "holds"
    assert verdict(rng.normal(200, 1, 30), rng.normal(100, 1, 30), near).result == "fails"
    assert verdict(rng.normal(160, 30, 6), rng.normal(100, 30, 6), near).result == "inconclusive"


def test_resampled_medians_equal_numpy_medians_of_the_same_resamples():
    """Medians come from sorted positions, not a sort per resample: check against np.median."""
    from c18n_ae.analysis.comparisons import _resampling

    x = np.random.default_rng(5).normal(0, 1, 9)
    for n in (8, 9):
        counts, lo, hi = _resampling(n, 0, 50)
        s = np.sort(x[:n])
        for k in range(50):
            assert np.median(np.repeat(s, counts[k].astype(int))) == (s[lo[k]] + s[hi[k]]) / 2
        assert (counts.sum(axis=1) == n).all()
