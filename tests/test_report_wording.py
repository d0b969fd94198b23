"""What the paper may say from a result: E10's local difference from its interval, a headline
experiment without a row named, and bar labels that do not run into each other or the legend."""

from c18n_ae import experiments as registry
from c18n_ae.common.names import from_config
from c18n_ae.experiments.crossing import extra_says
from c18n_ae.experiments.outputs import Figure, Panel, Series, if_enough_trials, three_figures
from c18n_ae.report import headline
from c18n_ae.report.render_figure import paper_panels, pgfplots, sideways, without_capabilities
from conftest import ROOT


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


def test_table_1_lists_only_experiments_measured_with_compartments():
    """An experiment no source ran with compartments (E10 on the study's data) has no line in
    Table 1: the body says it did not run, once; every row's experiment is one of the table's."""
    from test_findings import TABLE  # the study's 24.05 files: memory, CPU and pipe rows

    tex = headline.latex_table(TABLE).split(r"\end{tabular}")[0]
    assert "not run" not in tex and registry.get("crossing").title not in tex
    titles = {registry.get(e).title for e in TABLE.experiment}
    listed = {x.split(" & ")[0] for x in tex.splitlines() if " & " in x} - {"", "Experiment"}
    listed = {x for x in listed if not x.startswith(r"\multicolumn")}  # the possibly-also row
    assert listed and listed <= titles, listed


def test_long_bar_labels_lie_the_bars_down_and_each_panel_has_its_own_categories():
    """Labels too long to stand side by side lie the bars down (categories on y, each label
    on a line of its own: set at an angle, they ran into each other, Figures 4 and 8 of the
    cold read); each panel lists only its own categories, in the paper's names."""
    short = Figure("bars", "t", [Panel("p", [Series("O2", ["a", "b"], [1, 2])])], "y")
    assert not sideways(short) and "ybar" in pgfplots(short) and "rotate" not in pgfplots(short)
    names = ["write", "read", "write+read", "round trip", "wait"]
    crowded = Figure("bars", "t", [Panel("p", [Series("O2", names, [1, 2, 3, 4, 5])])], "y")
    tex = pgfplots(crowded)
    assert sideways(crowded) and "xbar" in tex and "symbolic y coords" in tex
    assert "rotate" not in tex and "xlabel={y}" in tex and "(3,write+read)" in tex
    # a panel's categories are its own: the board's two are not spaced for local's four
    # (a metric it did not measure takes no room)
    two = Panel("morello-2024", [Series("purecap-c18n", ["write", "read", "wait"], [1, NAN, 2])])
    four = Panel("local", [Series("O2", names[:4], [1, 2, 3, 4])])
    tex = pgfplots(Figure("bars", "t", [four, two], "y"), from_config(PAPER))
    assert "symbolic x coords={write,wait}" in tex and "title={24.05}" in tex
    assert "addlegendentry{purecap + c18n}" in tex and "morello-2024" not in tex
    assert "symbolic x coords={write,read,write+read,round trip}" in tex


PAPER = {"targets": [], "datasets": ["morello-2024"]}


def test_the_paper_leaves_out_a_machine_without_capabilities_where_a_source_with_them_is_drawn():
    """A target whose every variant is native (the development machine) is drawn only where
    nothing else ran the experiment; a target with one capability variant is a source like a
    data set (R208, A208: whose numbers a figure showed)."""
    config = {
        "targets": [
            {"name": "local", "variants": [{"name": "O2", "abi": "native"}]},
            {"name": "x86", "variants": [{"name": "O0", "abi": "native"}]},
            {
                "name": "board",
                "variants": [{"name": "hybrid", "abi": "hybrid"}, {"name": "p", "abi": "purecap"}],
            },
        ]
    }
    plain = without_capabilities(config)
    assert plain == {"local", "x86"} and without_capabilities(None) == set()
    panel = lambda t: Panel(t, [Series("O2", ["a"], [1])])  # noqa: E731
    mixed = Figure("bars", "t", [panel("local"), panel("morello-2024"), panel("board")], "y")
    assert [p.title for p in paper_panels(mixed, plain).panels] == ["morello-2024", "board"]
    alone = Figure("bars", "t", [panel("local"), panel("x86")], "y")
    assert paper_panels(alone, plain) == alone
    assert "title={local}" not in pgfplots(paper_panels(mixed, plain))
    # Appendix A says so in one plain sentence (R217 to B227: the elliptical form was reread)
    said = " ".join((ROOT / "paper" / "sections" / "experiments.tex").read_text().split())
    assert "development machine, which has no capabilities, appears only where neither ran" in said


NAN = float("nan")


def test_a_log_axis_within_one_decade_still_has_ticks_to_read():
    """A cold read met E4's local panel with a single tick, 10^0: a log axis gets the 1, 2, 5
    steps of each decade its values span, as plain numbers, and none where no value is
    positive (pgfplots then chooses)."""
    from c18n_ae.report.render_figure import log_ticks

    within = Panel("local", [Series("O2", ["write", "read"], [0.3, 5.07])])
    assert log_ticks(within) == ["0.2", "0.5", "1", "2", "5", "10"]
    fig = Figure("bars", "E4", [within], "mean time (µs)", ylog=True)
    assert "ytick={0.2,0.5,1,2,5,10}, log ticks with fixed point" in pgfplots(fig)
    assert log_ticks(Panel("none", [Series("O2", ["write"], [0.0])])) == []
    # 3 to 4.5: no 1, 2 or 5 step among the values, so every step
    narrow = log_ticks(Panel("narrow", [Series("O2", ["a", "b"], [3.0, 4.5])]))
    assert sum(3.0 <= float(t) <= 4.5 for t in narrow) >= 2, narrow
    # many decades: pgfplots' powers of ten, not a row of long fixed-point labels
    assert log_ticks(Panel("wide", [Series("O2", ["1", "64"], [5e5, 2e8])])) == []
