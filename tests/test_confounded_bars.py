"""A ratio figure marks a confounded contrast's bars (the same flag the tables use,
analysis.contrasts' confounded_by): hatched and grey, its legend naming what else differs, so
that no confounded ratio reads like a compartment cost (E3's 24.05 benchmark ABI at -O2
against hybrid at -O0, down to about 0.07)."""

import re

import pandas as pd

from c18n_ae.analysis import contrasts
from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.common import datasets
from c18n_ae.experiments import cpu
from c18n_ae.experiments.outputs import Inputs
from c18n_ae.experiments.rows import CONFOUNDED
from c18n_ae.report.render_figure import pgfplots


def e3_figure(name="morello-2024"):
    meta = datasets.load(name)
    files = [p for e, _, p in dataset_files(meta) if e == "cpu"]
    refs = {name: meta["reference_variant"]}
    comps = contrasts.annotate(
        compare(collect("cpu", [], files), refs),
        contrasts.variants_of({"targets": [], "datasets": [name]}),
    )
    return comps, cpu.figure(Inputs(summary=pd.DataFrame(), comparisons=comps, references=refs))


def test_confounded_bars_are_the_confounded_contrasts_and_say_by_what():
    comps, fig = e3_figure()
    mixed = set(comps[comps.confounded_by.fillna("") != ""].variant) - {"hybrid"}
    assert mixed  # the shipped data have one: the benchmark ABI built -O2, hybrid -O0
    for s in fig.panels[0].series:
        variant = s.label.split(",")[0]
        assert (s.style == CONFOUNDED) == (variant in mixed), s.label
        if variant in mixed:
            said = comps[comps.variant == variant].confounded_by.dropna().iloc[0]
            assert s.label.endswith(f"confounded: {said}")


def test_the_paper_draws_them_hatched_and_only_them():
    _, fig = e3_figure()
    tex = pgfplots(fig)
    plots = re.findall(r"\\addplot(\+\[[^\]]*\])? coordinates", tex)
    hatched = [p for p in plots if "pattern=" in p]
    assert len(hatched) == sum(s.style == CONFOUNDED for s in fig.panels[0].series) >= 1
    assert len(plots) > len(hatched)  # the clean contrasts stay plain bars
    assert "confounded: optimisation -O2 against -O0" in tex  # the legend says by what


def test_a_data_set_without_confounds_has_no_hatched_bar():
    _, fig = e3_figure("cheribsd-22.12")
    assert all(s.style != CONFOUNDED for p in fig.panels for s in p.series)
    assert "pattern=" not in pgfplots(fig)
