"""The extra time of one call into another library: the calls per iteration are facts of the data
sets that the study's own binaries bear out (decoded here, not typed), the estimate is the
comparison's difference per iteration divided by them, and the abstract states it in one sentence
a reader can repeat."""

import copy
import functools
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from c18n_ae.analysis import contrasts, per_call
from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.common import call_sites, datasets
from c18n_ae.report import call_cost
from conftest import ROOT

SHIPPED = ["morello-2024", "cheribsd-22.12"]
ORIGINAL_BIN = ROOT.parent / "shared" / "reference" / "original-bin"


@pytest.mark.parametrize("name", SHIPPED)
def test_the_math_loop_calls_libm_four_times_and_computes_sqrt_inline(name):
    """Every build of the study, hybrid and purecap (C64) alike: sin, cos, tan and log between
    the two clock() calls, sqrt as an fsqrt; the own-code loops call nothing."""
    meta = datasets.load(name)  # load checks every binary against its facts too
    folder = Path(meta["directory"]) / "binaries"
    facts = meta["calls"]["cpu"]
    for b in facts["math_cpu_ns"]["binaries"]:
        seen = call_sites.between(folder / b["file"], "perform_math_test", "clock")
        assert seen == ["sin", "cos", "tan", "fsqrt", "log"], (b["file"], seen)
    for metric in ("int_cpu_ns", "float_cpu_ns"):
        for b in facts[metric]["binaries"]:
            assert call_sites.between(folder / b["file"], b["function"], "clock") == []
    assert call_sites.mistakes(Path(meta["directory"]), meta) == []


@pytest.mark.skipif(not ORIGINAL_BIN.is_dir(), reason="../shared/reference is not here")
@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_binaries_are_the_studys(name):
    meta = datasets.load(name)
    for b in meta["calls"]["cpu"]["math_cpu_ns"]["binaries"]:
        shipped = Path(meta["directory"]) / "binaries" / b["file"]
        assert shipped.read_bytes() == (ORIGINAL_BIN / b["file"]).read_bytes()


def test_a_calls_fact_the_binary_does_not_bear_out_is_refused():
    meta = datasets.load("morello-2024")
    d = Path(meta["directory"])
    wrong = copy.deepcopy(meta)
    wrong["calls"]["cpu"]["math_cpu_ns"]["calls"] = {"sin": 1, "cos": 1, "tan": 1, "sqrt": 1}
    found = call_sites.mistakes(d, wrong)
    assert len(found) == 3 and all("calls.cpu.math_cpu_ns.binaries" in m for m in found), found
    assert "'log': 1" in found[0] and "'sqrt': 1" in found[0]
    wrong = copy.deepcopy(meta)
    wrong["calls"]["cpu"]["int_cpu_ns"]["binaries"][0]["sha256"] = "0" * 64
    assert call_sites.mistakes(d, wrong) == [
        "calls.cpu.int_cpu_ns.binaries[0]: cpu-out-experiment.hybrid-24.05 does not have the "
        "recorded SHA-256"
    ]


def test_the_pipe_childs_calls_are_cited_from_its_source():
    """1,023 rand() calls a message: rand_str's loop runs STRLEN - 1 times, each line cited."""
    fact = datasets.load("morello-2024")["calls"]["pipe"]["message_wait_ns"]
    assert fact["calls"]["rand"] == 1023
    says = {e["says"] for e in fact["evidence"]}
    assert {"#define STRLEN     1024", "rand_str(str, STRLEN-1);", "rand()"} <= says


@functools.lru_cache
def cpu_comparisons(name: str) -> pd.DataFrame:
    """The data set's E3 comparisons as the workflow makes them, confounds named."""
    meta = datasets.load(name)
    files = [p for e, _, p in dataset_files(meta) if e == "cpu"]
    comps = compare(collect("cpu", [], files), {name: meta["reference_variant"]})
    return contrasts.annotate(comps, contrasts.variants_of({"targets": [], "datasets": [name]}))


def test_per_call_is_the_difference_per_iteration_over_the_calls():
    meta = datasets.load("morello-2024")
    comps = cpu_comparisons("morello-2024")
    rows = pd.DataFrame(per_call.estimates(meta, {"cpu": comps}, {}))
    math_row = rows[(rows.metric == "math_cpu_ns") & (rows.subject == "purecap-c18n")].iloc[0]
    c = comps[(comps.metric == "math_cpu_ns") & (comps.variant == "purecap-c18n")]
    c = c[c.reference_variant == "hybrid"].iloc[0]
    assert math_row.calls_per_iteration == 4 and math_row.iterations == 100_000_000
    want = (c["mean"] - c.reference_mean) / 1e8 / 4
    assert math_row.per_call_ns == pytest.approx(want)
    assert 10 < math_row.per_call_ns < 200  # tens of nanoseconds, as the reader found
    assert math_row.per_call_low_ns <= math_row.per_call_ns <= math_row.per_call_high_ns
    # the timer's bound: two 7.8125 ms steps over 10^8 iterations and 4 calls
    assert math_row.timer_bound_ns == pytest.approx(2 * 7.8125e6 / 1e8 / 4)
    assert math_row.estimate.startswith("ABI and compartment switch together, an upper bound")
    assert math_row.confounded_by == "" or isinstance(math_row.confounded_by, str)
    assert math.isnan(math_row.per_call_cycles)  # the study recorded no clock frequency
    own = rows[(rows.metric == "int_cpu_ns") & (rows.subject == "purecap-c18n")].iloc[0]
    assert own.calls_per_iteration == 0 and own.estimate.startswith("extra time per iteration")
    assert own.e10_note == per_call.NOT_IN_STUDY


def abstract_problems(text: str) -> list[str]:
    return call_cost.abstract_problems(text)


def test_the_first_finding_is_one_short_sentence_with_the_cost_in_ns():
    meta = datasets.load("morello-2024")
    rows = pd.DataFrame(
        per_call.estimates(meta, {"cpu": cpu_comparisons("morello-2024")}, {}),
        columns=per_call.COLUMNS,
    )
    sentence = call_cost.finding(rows, {"morello-2024": "CheriBSD 24.05"})
    assert re.search(r"cost \d+(\.\d)? \\si\{\\nano\\second\} \[", sentence), sentence
    assert "the spread within one run" in sentence and "of hybrid" in sentence
    assert call_cost.abstract_problems(sentence) == []


def test_the_abstract_rules_catch_long_text_long_sentences_and_nested_parentheses():
    long_sentence = " ".join(["word"] * 36) + "."
    said = call_cost.abstract_problems(long_sentence)
    assert said == ["a sentence of 36 words: word word word …"]
    nested = "A claim (with a note (inside)) here."
    assert call_cost.abstract_problems(nested) == ["nested parentheses: (with a note (inside))"]
    many = " ".join(["Short sentence of five words."] * 41)
    assert call_cost.abstract_problems(many) == ["205 words, more than 200"]


def morello_rows() -> pd.DataFrame:
    meta = datasets.load("morello-2024")
    comps = {"cpu": cpu_comparisons("morello-2024")}
    return pd.DataFrame(per_call.estimates(meta, comps, {}), columns=per_call.COLUMNS)


def test_the_table_puts_each_workload_beside_e10_and_marks_confounds():
    rows = morello_rows()
    tex = call_cost.latex_table(rows)
    body = [x for x in tex.splitlines() if x.startswith(r"\texttt{morello-2024}")]
    assert len(body) == len(rows) == 8  # four workloads, two contrasts
    assert all("not run: the study has no E10" in x for x in body)
    assert all("not recorded" in x for x in body)  # the study recorded no frequency
    math_row = next(x for x in body if "purecap-c18n}: math" in x)
    assert r"4 (sin, cos, tan, log)" in math_row and "timer step" in math_row
    assert "$^\\S$" not in math_row.split("&")[0]
    assert all("$^\\S$" in x.split("&")[0] for x in body if "benchmark-c18n" in x)
    assert "optimisation -O2 against -O0" in tex


def test_figure_one_keeps_crossings_apart_and_confounded_ones_hollow():
    rows = morello_rows()
    fig = call_cost.figure(rows)
    top, below = fig.split("Code that calls no other library")
    assert "Calls into another library" in top and "mark=o" in top  # -O2 against -O0: hollow
    assert "benchmark-c18n" not in below  # confounded own-code contrasts left out
    assert below.count("+= (") == 3  # int, float, array of purecap-c18n
