"""The paper's number formats: one ratio format, at most three significant digits in prose,
ranges for intervals that cannot carry a point estimate, short sentences in generated prose."""

import math
import re

import numpy as np
import pandas as pd

from c18n_ae.common.latex import (
    amount,
    amount_interval,
    bare,
    comparison_text,
    covers_words,
    duration,
    escape,
    few_ticks,
    fmt,
    quantity,
    ratio_point,
    ratio_text,
    shown_ends,
    timer_bound,
)
from c18n_ae.report.findings import MAX_WORDS, experiment_paragraph, sentences


def test_one_ratio_format_with_three_significant_digits():
    assert ratio_text(1.5137, 1.49, 1.53, tex=False) == "1.51× [1.49, 1.53]"
    assert ratio_text(1234.5, 1000, 1500, tex=False) == "1230× [1000, 1500]"
    assert ratio_text(2.2, 2.0, 3.2) == r"2.20$\times$ [2.00, 3.20]"
    assert ratio_point(45.93) == r"45.9$\times$"
    assert ratio_text(math.nan, 1, 2) == "--"


def test_an_interval_that_rounding_collapses_prints_the_point_alone():
    """No interval prints with equal bounds, and no ratio with more than three figures, in prose
    or tables alike (issue 31: '0.96861 ± 0.00002' is false precision): an interval narrower than
    the point's last printed digit prints no brackets at all, the point alone (a cold read:
    '[±0.00002]' beside '0.969×' is notation that says nothing the point does not)."""
    assert ratio_text(1.5137, 1.5136, 1.5138, tex=False) == "1.51×"
    assert ratio_text(0.14286, 0.1428, 0.1429, tex=False) == "0.14×"
    assert ratio_text(1.5137, 1.5136, 1.5138) == r"1.51$\times$"
    assert ratio_text(1.0, 0.9999, 1.0001, tex=False) == "1.00×"
    # a ratio below 1 carries two decimals, as one just above 1 does (cold reads: '0.969×' beside
    # '1.08×' read as false precision)
    assert ratio_text(0.96871, 0.96851, 0.96891, tex=False) == "0.97×"
    assert ratio_text(1.02, 1.02, 1.02, tex=False) == "1.02×"  # an interval of no width
    assert bare("1.51×") and bare("0.97×†") and not bare("1.51× [1.49, 1.53]")
    assert not bare("1.0 → 3.0 µs (3.0×)") and not bare("4.2–130×")
    rng = np.random.default_rng(0)
    for ratio, width in zip(rng.lognormal(0, 2, 500), rng.lognormal(-8, 3, 500)):
        text = ratio_text(ratio, ratio - width / 2, ratio + width / 2, tex=False)
        assert NOTATION.fullmatch(text), text
        bounds = re.search(r"\[([-0-9.]+), ([-0-9.]+)\]", text)
        assert bounds is None or bounds[1] != bounds[2], text
        assert "±" not in text, text
        point = re.match(r"([0-9.]+)×", text)
        assert point is None or 2 <= len(point[1].replace(".", "").lstrip("0")) <= 3, text
        if bare(text):  # the interval within the point's last digit
            figures = len(point[1].replace(".", "").lstrip("0"))
            last = 10 ** (math.floor(math.log10(float(point[1]))) - figures + 1)
            assert width <= last * 1.0001, text


# every form a ratio prints in (READ31's notation), plain text: interval, the timer's range in
# angle brackets, the point alone, a range too uncertain for a point, a few ticks first
NUMBER = r"-?[0-9.]+"
NOTATION = re.compile(
    rf"{NUMBER}×( \[{NUMBER}, {NUMBER}\]| ⟨{NUMBER}, ({NUMBER}|∞)⟩)?"
    rf"|{NUMBER}–{NUMBER}×"
    rf"|-?{NUMBER} → -?{NUMBER} \S+ "
    rf"\(({NUMBER}×( \[{NUMBER}, {NUMBER}\]| ⟨{NUMBER}, ({NUMBER}|∞)⟩)?|{NUMBER}–{NUMBER}×)\)"
)


def test_a_point_or_an_end_never_prints_in_fewer_than_two_figures():
    """A cold read: '0.50× [0.40, 0.50]' read as 0.46 rounded onto its interval's end. However
    few figures the timer lets a ratio carry (digits), its point and ends print in two."""
    assert ratio_text(0.46, 0.40, 0.50, False, 1) == "0.46× [0.40, 0.50]"
    assert ratio_text(0.5, 0.40, 0.50, True, 1) == r"0.50$\times$ [0.40, 0.50]"
    assert ratio_text(3.0, 2.96, 3.04, False, 1) == "3.0×"  # within its last digit: alone
    assert ratio_text(1.5, math.nan, math.nan, False, 1) == "1.5× (no interval)"


def test_a_ratio_near_the_timers_grid_says_so():
    """Values a few ticks of the clock apart print in time first, baseline then subject, in
    three figures, then the ratio's point ('1.63 → 3.01 µs (1.85× [1.2, 2.7])'); the ratio no
    more figures than the grid carries, nor than three; the timer's range prints in its own angle
    brackets, never an interval's."""
    one_us = dict(resolution=1000.0, unit="ns")
    assert ratio_text(3.0, 3.0, 3.0, tex=False, sides=(3000, 1000), spreads=(0, 0), **one_us) == (
        "1.00 → 3.00 µs (3.0× ⟨1.0, ∞⟩)"  # a tick either way on a 1-tick divisor: no upper end
    )
    assert (
        ratio_text(13.3, 13.3, 13.3, tex=False, sides=(13300, 1000), spreads=(400, 0), **one_us)
        == "13× ⟨6.2, ∞⟩"  # the divisor within a tick of zero: no upper end
    )
    assert (
        ratio_text(1.85, 1.17, 2.73, tex=False, sides=(1850, 1000), spreads=(900, 0), **one_us)
        == "1.00 → 1.85 µs (1.85× [1.2, 2.7])"  # beside an interval: as the times divide
    )
    # 5,985 ticks of 7.8 ms on the smaller side, but prose carries three figures: the ends of
    # the grid's bound (1.513, 1.514) print alike, so the point prints alone
    cpu = dict(sides=(70.78e9, 46.76e9), spreads=(3e7, 3e7), resolution=7.8125e6, unit="ns")
    assert ratio_text(1.5137, 1.5136, 1.5138, tex=False, **cpu) == "1.51×"
    assert ratio_text(1.5137, 1.5136, 1.5138, **cpu) == r"1.51$\times$"
    # the study's int workload: about 127 and 118 ticks, many more than a few: trials that start
    # at random points between ticks average the grid out, so its interval stands, here within
    # the last digit (it printed '1.08× ⟨1.06, 1.09⟩' beside 22.12's '1.07× [1.06, 1.07]')
    int_cpu = dict(sides=(992.56e6, 922.23e6), spreads=(3.6e6, 3.4e6), resolution=7.8125e6)
    assert ratio_text(1.0763, 1.0752, 1.0773, tex=False, unit="ns", **int_cpu) == "1.08×"
    # a tick either way on each side allows no difference at all: the difference, and the ticks
    # that hold it, stand for the ratio (no notation; cold readers met "equal" beside an 8 % drop)
    few = dict(sides=(4600, 5000), spreads=(400, 300), resolution=1000.0, unit="ns")
    assert ratio_text(0.92, 0.92, 0.92, tex=False, **few) == (
        "5.00 → 4.60 µs (within one timer tick)"
    )
    assert ratio_text(0.92, 0.92, 0.92, **few) == (
        r"5.00 $\rightarrow$ 4.60 \si{\micro\second} (within one timer tick)"
    )
    # exactly one tick apart as printed: within one; more than one tick apart: within two
    one = dict(sides=(2410.0, 1410.0), spreads=(400, 300), resolution=1000.0, unit="ns")
    assert ratio_text(1.71, 1.0, 2.0, tex=False, **one) == "1.41 → 2.41 µs (within one timer tick)"
    two = dict(sides=(2610.0, 1410.0), spreads=(400, 300), resolution=1000.0, unit="ns")
    assert ratio_text(1.85, 0.9, 2.5, tex=False, **two) == (
        "1.41 → 2.61 µs (within two timer ticks)"
    )
    # beside its interval, the point as the printed times divide, one figure finer (3.01 / 1.63
    # is 1.85, which cold reads met as 1.9; 2.99 / 1.63 is 1.83, not the mean ratio's 1.84, and
    # not 1.8 beside the other's 1.85: two cold reads)
    pipe = dict(sides=(3012.0, 1626.0), spreads=(900, 300), resolution=1000.0, unit="ns")
    assert ratio_text(3012 / 1626, 1.17, 2.73, tex=False, **pipe) == (
        "1.63 → 3.01 µs (1.85× [1.2, 2.7])"
    )
    bench = dict(sides=(2990.0, 1626.0), spreads=(900, 300), resolution=1000.0, unit="ns")
    assert ratio_text(2990 / 1626, 1.17, 2.73, tex=False, **bench) == (
        "1.63 → 2.99 µs (1.83× [1.2, 2.7])"
    )
    # a point alone keeps its meaning: its interval within its last digit, at the figures the
    # ticks allow (a review met '2.51×' alone beside an interval 0.08 wide)
    wide = dict(sides=(7537.0, 3000.0), spreads=(200, 100), resolution=1000.0, unit="ns")
    assert ratio_text(7537 / 3000, 2.47, 2.55, tex=False, **wide) == "3.00 → 7.54 µs (2.5×)"
    # trials spread across ticks, an interval that holds 1 and times a tick apart: no ratio
    # either (22.12's malloc at 500 MiB printed 1.0× [0.81, 1.2] beside a pair that did not)
    near = dict(sides=(5480.0, 5500.0), spreads=(2000, 2000), resolution=1000.0, unit="ns")
    assert ratio_text(0.996, 0.81, 1.2, tex=False, **near) == (
        "5.50 → 5.48 µs (within one timer tick)"
    )
    # ... but an interval that leaves 1 out keeps the ratio, whatever a tick could do
    assert ratio_text(0.996, 0.95, 0.99, tex=False, **near).startswith("5.50 → 5.48 µs (1.0×")
    # a range that leaves 1 out prints in its own brackets
    apart = dict(sides=(2100, 6000), spreads=(300, 300), resolution=1000.0, unit="ns")
    assert ratio_text(0.35, 0.35, 0.35, tex=False, **apart) == "6.00 → 2.10 µs (0.35× ⟨0.16, 0.62⟩)"
    assert ratio_text(0.35, 0.35, 0.35, **apart) == (
        r"6.00 $\rightarrow$ 2.10 \si{\micro\second} (0.35$\times$ $\langle$0.16, 0.62$\rangle$)"
    )
    # every resample's median on the same grid point, the grid's range within the last digit
    medians = dict(cpu, sides=(47.6952e9, 46.76e9))
    assert ratio_text(1.02, 1.02, 1.02, tex=False, **medians) == "1.02×"
    assert ratio_text(
        1.25, 1.2, 1.3, tex=False, sides=(250e3, 200e3), resolution=1e3, unit="ns"
    ) == ("1.25× [1.20, 1.30]")
    assert fmt(2200.0, 1000.0, "ns", tex=False) == "2200 (2.2 ticks of 1 µs)"
    assert fmt(2200.0, 1000.0, "ns") == r"2200 (2.2 ticks of 1 \si{\micro\second})"
    assert fmt(46.76e9, 7.8125e6, "ns") == "46760000000"
    assert quantity(7.8125e6, "ns") == "7.81 ms" and quantity(1 / 256, "MB") == "0.00391 MB"


def test_a_comparison_row_prints_with_what_it_carries():
    """One number and its interval, nothing after it: what the interval covers is said once (a
    legend, a paragraph), unless a caller asks for it."""
    row = {
        "ratio": 3.0,
        "ci95_low": 3.0,
        "ci95_high": 3.0,
        "median_ratio": 2.0,
        "median_ci95_low": 1.0,
        "median_ci95_high": 3.0,
        "mean": 3000.0,
        "reference_mean": 1000.0,
        "median": 2000.0,
        "reference_median": 1000.0,
        "sd": 0.0,
        "reference_sd": 0.0,
        "resolution": 1000.0,
        "unit": "ns",
        "interval_covers": "within one run",
    }
    assert comparison_text(row, tex=False) == "1.00 → 3.00 µs (3.0× ⟨1.0, ∞⟩)"
    # the timer's range covers nothing an interval would: no words on what it covers
    assert comparison_text(row, tex=False, covers=True) == "1.00 → 3.00 µs (3.0× ⟨1.0, ∞⟩)"
    assert (
        comparison_text(pd.Series(row), "median", tex=False) == "1.00 → 2.00 µs (2.00× [1.0, 3.0])"
    )
    bare = {"ratio": 1.5137, "ci95_low": 1.5136, "ci95_high": 1.5138}
    assert comparison_text(bare, tex=False) == "1.51×"
    wide = {**row, "mean": 3e6, "reference_mean": 1e6, "ci95_low": 1.1, "ci95_high": 40.0}
    assert comparison_text(wide, tex=False) == "1.1–40×"
    assert comparison_text(wide, tex=False, covers=True) == "1.1–40×, the spread within one run"


def test_every_form_of_an_interval_says_what_it_covers_where_asked():
    """Bounds and a range without a point: each says what it covers right after the interval when
    a caller asks (covers), in the same words everywhere (over one run's trials, the spread
    within one run; over runs, a 95 % interval); a ratio without an interval, or with the
    timer's range in its place, says nothing about one."""
    runs = dict(tex=False, covers="between runs")
    grid = dict(sides=(30000, 10000), spreads=(0, 0), resolution=1000.0, unit="ns")
    assert (
        ratio_text(1.5137, 1.49, 1.53, **runs) == "1.51× [1.49, 1.53], 95 % interval between runs"
    )
    # no interval printed, nothing said of one
    assert ratio_text(1.5137, 1.5136, 1.5138, **runs) == "1.51×"
    assert ratio_text(45.9, 5.56, 98.2, **runs) == "5.6–98×, 95 % interval between runs"
    assert ratio_text(0.989, 0.5, 1.6, **runs) == ("0.99× [0.50, 1.60], 95 % interval between runs")
    # the timer's range is no interval: nothing said of what one covers
    assert ratio_text(3.0, 3.0, 3.0, **runs, **grid) == "3.0× ⟨2.6, 3.4⟩"
    assert ratio_text(1.5, math.nan, math.nan, **runs) == "1.50× (no interval)"
    within = ratio_text(1.5137, 1.49, 1.53, tex=False, covers="within one run")
    assert within == "1.51× [1.49, 1.53], the spread within one run"
    assert amount_interval(60.054, 60.044, 60.064, covers="within one run", tex=False) == (
        "60.1 ns [60.0, 60.1], the spread within one run"
    )
    assert amount_interval(60.054, 60.052, 60.056, tex=False) == "60.1 ns"


def test_amounts_bounds_and_few_ticks_have_one_form_each():
    """An amount with its interval, a bound from the timer's step (no brackets), a metric a few
    ticks long (time first), each one formatter, at most three significant figures."""
    assert amount(60.0544, tex=False) == "60.1 ns" and amount(-0.258, tex=False) == "-0.258 ns"
    assert amount(1234.5, tex=False) == "1230 ns"
    assert timer_bound(0.0390625, tex=False) == "timer step ±0.0391 ns"
    assert "[" not in timer_bound(0.0390625) and "]" not in timer_bound(0.0390625)
    assert few_ticks(3000, 1000, tex=False) == "1.00 → 3.00 µs"
    assert few_ticks(3010.1, 1630, tex=False) == "1.63 → 3.01 µs"
    assert covers_words("within one run", tex=False) == "the spread within one run"


def test_intervals_that_say_nothing_read_as_ranges():
    """An interval wider than a factor of ten prints as a range with no point (READ31's
    '4.2–130×'), whether or not it holds 1; a narrower one that holds 1 prints as any other, its
    ends either side of 1."""
    assert ratio_text(0.989, 0.053, 16.25, tex=False) == "0.053–16×"
    assert ratio_text(45.9, 5.56, 98.2, tex=False) == "5.6–98×"
    assert ratio_text(45.9, 4.24, 130.4) == r"4.2--130$\times$"
    assert ratio_text(0.99, 0.95, 1.03, tex=False) == "0.99× [0.95, 1.03]"
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
    # the median where a few trials carry the mean, marked; an invalid metric left to Table 1
    assert re.search(r"2\.0+\$\\times\$[^;]*\$\^\\dagger\$", text), text
    assert "write\\_ns" not in text and "tab:headline" in text
    assert "the loop did no stores" not in text and "alloc-10x" not in text
    for s in text.replace(r"\,\%", "%").split(". "):
        assert len(s.split()) <= MAX_WORDS, s


def test_a_figure_and_a_within_read_the_ends_the_tables_print():
    """shown_ends: the timer's bound where it takes the interval's place (a few-ticks metric's:
    0.60 to 1.4, not the spread's 0.92 to 0.92, which ratio_text says in words as it holds 1),
    the interval's ends otherwise (the study's int workload,
    many ticks long: 1.075 to 1.077); a time unit prints in one spelling (µs, never 'us'); a
    single run's figure in prose has two significant figures."""
    few = dict(sides=(4600, 5000), spreads=(400, 300), resolution=1000.0)
    low, high = shown_ends(0.92, 0.92, 0.92, **few)
    assert round(low, 2) == 0.60 and round(high, 1) == 1.4
    # a figure's bar through 1 where the words say the two are within a tick
    assert low <= 1 <= high and "within one timer tick" in ratio_text(
        0.92, 0.92, 0.92, tex=False, unit="ns", **few
    )
    int_cpu = dict(sides=(992.56e6, 922.23e6), spreads=(3.6e6, 3.4e6), resolution=7.8125e6)
    assert shown_ends(1.0763, 1.0752, 1.0773, **int_cpu) == (1.0752, 1.0773)
    float_cpu = dict(sides=(804.16e6, 829.96e6), spreads=(3e6, 3e6), resolution=7.8125e6)
    assert shown_ends(0.9689, 0.96807, 0.96975, **float_cpu) == (0.96807, 0.96975)
    assert shown_ends(1.5, 1.4, 1.6) == (1.4, 1.6)  # no grid: the interval
    assert quantity(0.001, "us") == "1 ns" and quantity(1, "us") == "1 µs"
    assert quantity(7.8125, "ms") == "7.81 ms"
    assert amount(60.0544, tex=False, digits=2) == "60 ns"
    assert amount(15.355, tex=False, digits=2) == "15 ns"


def test_a_duration_prints_in_its_natural_unit_with_two_figures():
    """A run's wall-clock time reads '17 s', never '0.283 minutes': the largest unit that keeps it
    at least 1, two significant figures; the appendix's run time takes this form."""
    from c18n_ae.report.macros import run_time_macros

    assert duration(16.98) == "17 s" and duration(282) == "4.7 min" and duration(11500) == "3.2 h"
    assert duration(59.6) == "1.0 min" and duration(0.25) == "250 ms"
    assert duration(float("nan")) == "--"
    metas = [
        {"started_at": "2026-01-01T10:00:00", "finished_at": "2026-01-01T10:00:09"},
        {"started_at": "2026-01-01T10:00:05", "finished_at": "2026-01-01T10:00:17"},
    ]
    assert r"\newcommand{\EditionRunTime}{17~s}" in run_time_macros(metas, "quick")
    # a run made an hour later adds its own 5 s, not the hour between
    later = metas + [{"started_at": "2026-01-01T11:00:00", "finished_at": "2026-01-01T11:00:05"}]
    assert r"\newcommand{\EditionRunTime}{22~s}" in run_time_macros(later, "quick")


def test_a_timer_range_that_only_straddles_a_rounding_edge_prints_the_point_alone():
    """22.12's math CPU times, 66.0 s against 49.8 s on clock()'s 7.81 ms tick: a tick either way
    gives 1.3250 to 1.3257, narrower than the point's last digit; printed as ⟨1.32, 1.33⟩ it
    would read as a tick near 100 ms. A range a digit wide still prints."""
    tick = 7812500.0
    sides = (66043.87e6, 49831.29e6)
    assert ratio_text(1.32535, 1.32527, 1.32543, tex=False, sides=sides, resolution=tick) == "1.33×"
    # a few ticks long (about 7 of 160 ns), a range a digit wide: said, here in words, as a tick
    # either way allows no difference
    wide = ratio_text(1.075, 1.074, 1.076, tex=False, sides=(1075.0, 1000.0), resolution=160.0)
    assert wide.endswith("(within one timer tick)"), wide


def test_the_timer_paragraph_names_each_data_sets_grid_from_its_summaries():
    """One clause per data set, from the summaries' resolution (the coarsest of an experiment's
    time metrics), each data set by its release: a reader checks a timer's range against it."""
    from c18n_ae.report.macros import timer_grids

    def summary(source, metric, step):
        return {"source": source, "metric": metric, "unit": "ns", "resolution": step}

    summaries = {
        "memory": pd.DataFrame([summary("a", "malloc_ns", 1e3), summary("b", "malloc_ns", 1e3)]),
        "cpu": pd.DataFrame(
            [summary("a", "math_cpu_ns", 7812500.0), summary("b", "math_cpu_ns", 7812500.0)]
        ),
    }
    sets = [{"name": "a", "release": "CheriBSD 24.05"}, {"name": "b", "release": "CheriBSD 22.12"}]
    said = timer_grids(summaries, sets)
    # every data set's times on one grid: said once for both
    assert said == (
        r"on the 24.05 and 22.12 data, memory times in steps of 1~\si{\micro\second} and CPU "
        r"times in steps of 7.81~\si{\milli\second}"
    ), said
    # grids that differ: one clause per data set
    coarse = {**summaries, "memory": summaries["memory"].assign(resolution=[1e3, 4e3])}
    assert timer_grids(coarse, sets) == (
        r"on the 24.05 data, memory times in steps of 1~\si{\micro\second} and CPU times in steps"
        r" of 7.81~\si{\milli\second}; on the 22.12 data, memory times in steps of"
        r" 4~\si{\micro\second} and CPU times in steps of 7.81~\si{\milli\second}"
    )
    # times on one grid said together; an experiment the body does not quote left out
    summaries["pipe"] = pd.DataFrame([summary("a", "write_ns", 1e3), summary("b", "write_ns", 1e3)])
    summaries["isolation"] = pd.DataFrame([summary("a", "read_ns", 1e3)])
    said = timer_grids(summaries, sets)
    assert said.startswith(r"on the 24.05 and 22.12 data, memory and pipe times in steps of 1~")
    assert "isolation" not in said
    # a kind of time one data set lacks (22.12 ran no pipe): said with the data sets that have it
    summaries["pipe"] = pd.DataFrame([summary("a", "write_ns", 1e3)])
    said = timer_grids(summaries, sets)
    assert said.startswith(
        r"on the 24.05 and 22.12 data, memory times and pipe times (24.05 only) in steps of 1~"
    ), said


def test_a_few_ticks_metric_prints_times_its_ratio_follows_from():
    """Property: a few-ticks metric prints its times in three figures always, so that one side
    prints alike beside every partner (hybrid's pipe write was 1.6 µs in Table 1 and 1.63 µs in
    Table 9), and its printed ratio is what the printed times give, but where they sit on a
    rounding edge, and then by no more than the figures' rounding allows."""
    rng = np.random.default_rng(31)
    unresolved = 0
    for _ in range(2000):
        b, a = rng.uniform(1000, 9000, 2)  # ns, a few 1 µs ticks
        text = ratio_text(a / b, a / b * 0.99, a / b * 1.01, False, sides=(a, b), resolution=1000)
        if re.search(r"µs \(within (one|two) timer ticks?\)$", text):  # no ratio to follow
            unresolved += 1
            continue
        m = re.fullmatch(r"([\d.]+) → ([\d.]+) µs \(([\d.]+)×(?: [⟨\[][^)]*)?\)", text)
        assert m, text
        before, after, point = m.groups()
        assert all(len(x.replace(".", "").lstrip("0")) == 3 for x in (before, after)), text
        half = [5 * 10.0 ** -(len(x.partition(".")[2]) + 1) for x in (point, after, before)]
        q = float(after) / float(before)
        slack = half[0] + q * (half[1] / float(after) + half[2] / float(before))
        assert abs(q - float(point)) <= slack * 1.01, text
    # most pairs still print a ratio to check; the rest are within a tick of equal
    assert 0 < unresolved < 1200, unresolved
    # one side alike beside two partners: the case readers saw
    assert few_ticks(2960, 1634, "ns", False) == "1.63 → 2.96 µs"
    assert few_ticks(3010, 1634, "ns", False) == "1.63 → 3.01 µs"


def test_an_interval_end_never_prints_as_its_point_unless_they_are_equal():
    """Property: where an interval's end differs from its point, the two never print alike
    (Table 7's '0.50× [0.40, 0.50]'): one more figure for all three, up to the three figures a
    ratio prints at most (READ31); the timer's grid may allow fewer (resolution_digits)."""
    rng = np.random.default_rng(7)
    for _ in range(2000):
        point = 10 ** rng.uniform(-2, 1)
        low, high = point * (1 - rng.uniform(0.001, 0.5)), point * (1 + rng.uniform(0.0001, 0.05))
        text = ratio_text(point, low, high, False, 2)  # two figures asked, as a grid allows
        m = re.fullmatch(r"([\d.]+)× \[([\d.]+), ([\d.]+)\]", text)
        if not m:  # a bare point or a range: no end printed beside a point
            continue
        figures = len(m[1].replace(".", "").lstrip("0"))
        assert figures <= 3 and (figures == 3 or m[1] not in (m[2], m[3])), text
        if m[1] in (m[2], m[3]):  # still alike at three figures: within its last digit
            assert min(abs(point - low), abs(high - point)) < 2 * _half_last(m[1]), text
    assert ratio_text(0.497, 0.40, 0.503, False, 2) == "0.497× [0.400, 0.503]"
    # at three figures, an interval narrower than the last digit that only straddles a rounding
    # edge prints the point alone (cold reads took '1.07× [1.06, 1.07]' for an error); one as
    # wide as the last digit keeps its brackets
    assert ratio_text(1.066, 1.0635, 1.0704, False) == "1.07×"
    # an end that would print as the point takes one more figure, as far as three
    assert ratio_text(0.8756, 0.8700, 0.8812, False) == "0.876× [0.870, 0.881]"
    # never an end onto 1 from below: the interval holds 1, and its print says so
    assert ratio_text(1.0117, 0.99797, 1.02, False) == "1.01× [0.998, 1.02]"
    assert ratio_text(0.8756, 0.8750, 0.8762, False) == "0.88×"
    # still alike at three figures, with an interval wider than the last digit: that end one
    # unit outward, so the print holds the interval and the point sits inside it
    assert ratio_text(1.025763, 1.018730, 1.032985, False) == "1.03× [1.02, 1.04]"
    assert ratio_text(1.0258, 1.0251, 1.0402, False) == "1.03× [1.02, 1.04]"


def _half_last(printed: str) -> float:
    """Half the value of a printed number's last digit ('0.0119' -> 0.00005)."""
    return 5 * 10.0 ** -(len(printed.partition(".")[2]) + 1)


def test_escaped_microseconds_print_upright_as_siunitx_prints_them():
    """A plain-text time in µs (Table 2's cells, axis labels) prints as Table 1's cells do, with
    siunitx's upright µ; math's \\mu, italic, only where µ stands alone."""
    assert escape("5.50 → 5.48 µs (1.0× [0.81, 1.2])") == (
        r"5.50 $\rightarrow$ 5.48 \si{\micro\second} (1.0$\times$ [0.81, 1.2])"
    )
    assert escape("µ_x") == r"$\mu$\_x"
