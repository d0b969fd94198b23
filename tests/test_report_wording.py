"""What the paper may say from a result: E10's local difference from its interval, a headline
experiment without a row named, and bar labels that do not run into each other or the legend."""

from c18n_ae import experiments as registry
from c18n_ae.experiments.crossing import extra_says
from c18n_ae.experiments.outputs import Figure, Panel, Series, if_enough_trials, three_figures
from c18n_ae.report import headline
from c18n_ae.report.render_figure import legend_depth, pgfplots, slanted


def test_a_difference_is_stated_only_where_its_interval_excludes_zero():
    row = {"mean": -0.0641, "ci95_low": -0.2, "ci95_high": 0.08}
    assert extra_says(row).startswith("the two calls show no detectable difference")
    assert "-0.0641" in extra_says(row)
    assert extra_says({**row, "mean": 0.6, "ci95_low": 0.5, "ci95_high": 0.7}).startswith(
        "the call into the other library took longer"
    )
    assert "faster" in extra_says({**row, "ci95_high": -0.01})


def test_below_the_minimum_of_trials_latex_chooses_the_functional_check():
    assert (
        if_enough_trials(3, "+499", "check")
        == r"\ifnum3<\ClaimMinTrials\relax check\else +499\fi{}"
    )
    assert three_figures(13101242.0) == "13100000" and three_figures(0.0123456) == "0.0123"


def test_a_headline_experiment_without_a_row_says_so():
    from test_findings import TABLE  # the study's 24.05 files: memory, CPU and pipe rows

    with_rows = TABLE.experiment.iloc[0]  # an experiment of the table's rows, beside E10 without
    tex = headline.latex_table(TABLE, [with_rows, "crossing"])
    title = registry.get("crossing").title
    assert f"{{{title}: not run with compartments}} \\\\" in tex  # one short line
    assert tex.count("not run with") == 1  # the other has its rows
    assert "not run with" not in headline.latex_table(TABLE)


def test_long_bar_labels_are_slanted_and_the_legend_sits_below_them():
    short = Figure("bars", "t", [Panel("p", [Series("O2", ["a", "b"], [1, 2])])], "y")
    assert not slanted(short) and legend_depth(short) == 0.42
    names = ["write", "read", "write+read", "round trip"]
    crowded = Figure("bars", "t", [Panel("p", [Series("O2", names, [1, 2, 3, 4])])], "y")
    assert slanted(crowded) and "rotate=40" in pgfplots(crowded)
    longest = ["local-O0-parent", "morello-2024-benchmark-c18n-parent"]
    deep = Figure("bars", "t", [Panel("p", [Series("x", longest, [1, 2])])], "y", slanted=True)
    assert legend_depth(deep) > legend_depth(crowded) > 0.42
    assert f"at={{(0.5,{-legend_depth(deep)})}}" in pgfplots(deep)
