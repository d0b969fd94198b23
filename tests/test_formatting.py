"""The paper's number formats: one ratio format, at most three significant digits in prose,
ranges for intervals that cannot carry a point estimate, short sentences in generated prose."""

import math

import pandas as pd

from c18n_ae.common.latex import ratio_point, ratio_text
from c18n_ae.report.findings import MAX_WORDS, experiment_paragraph, sentences


def test_one_ratio_format_with_three_significant_digits():
    assert ratio_text(1.5137, 1.5136, 1.5138, tex=False) == "1.51× [1.51, 1.51]"
    assert ratio_text(0.14286, 0.1428, 0.1429, tex=False) == "0.143× [0.143, 0.143]"
    assert ratio_text(1234.5, 1000, 1500, tex=False) == "1230× [1000, 1500]"
    assert ratio_text(2.2, 2.0, 3.2) == r"2.20$\times$ [2.00, 3.20]"
    assert ratio_point(45.93) == r"45.9$\times$"
    assert ratio_text(math.nan, 1, 2) == "--"


def test_tables_may_add_digits_where_the_ends_would_print_alike():
    assert ratio_text(1.00229, 1.0021, 1.0025, tex=False, digits=None) == "1.0023× [1.0021, 1.0025]"


def test_intervals_that_say_nothing_read_as_ranges():
    # straddles 1: no detectable difference
    assert ratio_text(0.989, 0.053, 16.25, tex=False) == (
        "no detectable difference (ratio between 0.0530 and 16.2)"
    )
    # wider than a factor of ten without straddling 1: no point estimate
    assert ratio_text(45.9, 5.56, 98.2, tex=False) == (
        "ratio between 5.56 and 98.2, too uncertain for a point estimate"
    )
    assert "%" not in ratio_text(0.011, 0.0005, 15.25)


def test_generated_sentences_stay_short():
    items = [
        f"1.0{i}× [1.00, 1.10] for the workload number {i} of the experiment" for i in range(9)
    ]
    for s in sentences("On the data set, the contrast gives", items):
        assert len(s.split()) <= MAX_WORDS, s


def test_experiment_paragraph_sentences_stay_short():
    rows = []
    for i, (metric, crosses) in enumerate(
        [("malloc_ns", "libc"), ("write_ns", ""), ("read_ns", ""), ("free_ns", "libc")]
    ):
        rows.append(
            {
                "source": "set",
                "experiment": "memory",
                "metric": metric,
                "label": f"a long description of metric {metric} of the largest block",
                "crosses": crosses,
                "subject": "purecap-c18n",
                "baseline": "hybrid",
                "contrast": "purecap with compartments against hybrid without",
                "share": "total",
                "ratio": 40.0 + i,
                "ci95_low": 4.0,
                "ci95_high": 120.0,
                "median_ratio": 2.0,
                "median_ci95_low": 1.9,
                "median_ci95_high": 2.5,
                "tail_trials": 3 if i == 0 else 0,
                "tail_n": 100,
                "tail_share": 0.95 if i == 0 else 0.0,
                "invalid": "the loop did no stores" if metric == "write_ns" else "",
                "claims": "alloc-10x: inconclusive (median: fails)" if i == 0 else "",
            }
        )
    text = experiment_paragraph("memory", pd.DataFrame(rows), {"set": "CheriBSD 24.05"}, {})
    assert "(median, a typical trial)" in text and "3 of 100 trials make 95" in text
    assert "not valid measurements: the loop did no stores" in text
    for s in text.replace(r"\,\%", "%").split(". "):
        assert len(s.split()) <= MAX_WORDS, s
