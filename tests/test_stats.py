import math

import pytest

from c18n_ae.analysis.stats import summarise


def test_known_sample():
    s = summarise([1, 2, 3, 4, 5])
    assert s["n"] == 5
    assert s["mean"] == 3
    assert s["sd"] == pytest.approx(math.sqrt(2.5))
    assert s["median"] == 3
    assert s["p5"] == pytest.approx(1.2)
    assert s["p95"] == pytest.approx(4.8)
    # t(0.975, 4) = 2.776445105
    half = 2.776445105 * math.sqrt(2.5) / math.sqrt(5)
    assert s["ci95_low"] == pytest.approx(3 - half, rel=1e-6)
    assert s["ci95_high"] == pytest.approx(3 + half, rel=1e-6)
    assert s["n_outliers"] == 0


def test_outliers_by_iqr_rule():
    # q1=2, q3=4 by linear interpolation over 1..5 plus 100: IQR fence excludes only 100
    s = summarise([1, 2, 3, 4, 5, 100])
    assert s["n_outliers"] == 1
    assert s["mean"] == pytest.approx(115 / 6)


def test_nan_is_ignored_and_single_value_has_no_spread():
    s = summarise([float("nan"), 7.0])
    assert s["n"] == 1 and s["mean"] == 7.0 and s["median"] == 7.0
    assert math.isnan(s["sd"]) and math.isnan(s["ci95_low"])


def test_empty_sample():
    s = summarise([])
    assert s["n"] == 0 and math.isnan(s["mean"])


def test_the_grouped_summary_equals_summarise_group_by_group():
    """summary_table aggregates all groups at once; each row must equal summarise() of its group,
    on the study's real files (heavy tails, failed allocations, warm-up rows, E6 categories)."""
    import pandas as pd

    from c18n_ae.analysis.collect import collect
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.analysis.summarise import KEYS, summary_table, with_derived
    from c18n_ae.common import datasets

    files = dataset_files(datasets.load("morello-2024"))
    for experiment in dict.fromkeys(e for e, _, _ in files):
        tidy = collect(experiment, [], [p for e, _, p in files if e == experiment])
        table = summary_table(tidy).set_index(KEYS)
        derived = with_derived(tidy)
        for key, group in derived.groupby(KEYS, sort=True, dropna=False, observed=True):
            row = table.loc[key]
            expected = summarise(group[group.status == "ok"]["value"])
            assert row["n_excluded"] == int((group.status != "ok").sum())
            for field, value in expected.items():
                got = row[field]
                if isinstance(value, float) and math.isnan(value):
                    assert pd.isna(got), (key, field)
                else:
                    assert got == pytest.approx(value, rel=1e-9, abs=1e-12), (key, field)


def test_categories_in_memory_give_the_same_summary_and_comparisons():
    """The analyse step keeps text columns as categories (board-scale memory); its summary and
    comparisons equal those of a table of plain text columns, row for row, on the shipped data."""
    import pandas as pd

    from c18n_ae.analysis.collect import collect
    from c18n_ae.analysis.comparisons import compare
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.analysis.summarise import summary_table, with_derived
    from c18n_ae.common import datasets

    names = ["morello-2024", "cheribsd-22.12"]
    files = [f for n in names for f in dataset_files(datasets.load(n))]
    refs = {n: "hybrid" for n in names}
    for experiment in dict.fromkeys(e for e, _, _ in files):
        tidy = collect(experiment, [], [p for e, _, p in files if e == experiment])
        assert isinstance(tidy.metric.dtype, pd.CategoricalDtype)
        plain = tidy.astype({c: object for c in tidy.columns if tidy[c].dtype == "category"})
        derived = with_derived(tidy)
        assert isinstance(derived.metric.dtype, pd.CategoricalDtype)
        pd.testing.assert_frame_equal(
            summary_table(plain), summary_table(derived, derived=True), check_dtype=False
        )
        key = ["source", "variant", "reference_source", "reference_variant", "parameter_value",
               "metric"]  # fmt: skip
        a = compare(plain, refs, names).astype({"parameter_value": str}).sort_values(key)
        b = compare(derived, refs, names, derived=True).astype({"parameter_value": str})
        pd.testing.assert_frame_equal(
            a.reset_index(drop=True), b.sort_values(key).reset_index(drop=True), check_dtype=False
        )
