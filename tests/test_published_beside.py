"""The study's published tables read with explicit units and set beside our summaries."""

import re

import pandas as pd
import pytest

from c18n_ae import experiments as registry
from c18n_ae.analysis.published import beside, latex_table, load, macros
from c18n_ae.analysis.summarise import SUMMARY_COLUMNS
from conftest import ROOT

SOURCE = ROOT / "published" / "morello_c18n_2024.csv"


def test_units_are_converted_explicitly():
    pub = load(SOURCE)
    w = pub[
        (pub.experiment == "memory")
        & (pub.variant == "hybrid")
        & (pub.metric == "write_ns")
        & (pub.parameter_value == "100")
        & (pub.statistic == "mean")
    ].iloc[0]
    assert (w.published, w.unit_as_published, w.unit_as_read, w.value_ns) == (
        282584,
        "ms",
        "us",
        282584e3,
    )
    m = pub[
        (pub.experiment == "cpu") & (pub.variant == "purecap-c18n") & (pub.metric == "math_cpu_ns")
    ].iloc[0]
    assert (m.unit_as_read, m.value_ns) == ("ms", 70780e6)
    # the duplicated tables of the two documents count once
    assert len(pub[(pub.experiment == "cpu") & (pub.variant == "hybrid")]) == 4
    assert r"\newcommand{\PubMemWriteHybridHundredSecondsIfMs}{283}" in macros(pub)


def test_beside_ours_with_ratio_and_not_run():
    row = {c: 0 for c in SUMMARY_COLUMNS}
    ours = pd.DataFrame(
        [
            {
                **row,
                "source": "board",
                "variant": "hybrid",
                "experiment": "cpu",
                "parameter": "work_items",
                "parameter_value": 100000000,
                "metric": "math_cpu_ns",
                "unit": "ns",
                "n": 100,
                "mean": 2 * 46759e6,
            }
        ]
    )
    b = beside(load(SOURCE), {"cpu": ours})
    math = b[(b.metric == "math_cpu_ns") & (b.variant == "hybrid")].iloc[0]
    assert math.source == "board" and math.ratio == pytest.approx(2.0)
    other = b[(b.metric == "math_cpu_ns") & (b.variant == "purecap-c18n")].iloc[0]
    assert other.source == "" and pd.isna(other.ratio)
    # a data set is set beside the printed tables only when it is of their release (24.05)
    sets = pd.concat([ours.assign(source=s) for s in ("set-2405", "set-2212")])
    releases = {"set-2405": "CheriBSD 24.05", "set-2212": "CheriBSD 22.12"}
    same = beside(load(SOURCE), {"cpu": sets}, {}, set(releases), releases)
    assert list(same[(same.metric == "math_cpu_ns") & (same.variant == "hybrid")].source) == [
        "set-2405"
    ]
    tex = latex_table(b)
    ms, s = r"\si{\milli\second}", r"\si{\second}"
    # three significant figures (READ31), a large printed value as a power of ten, read and ours
    # in the largest unit that keeps them >= 1
    row = rf"math\_cpu & $4.68\times10^{{4}}$ {ms} & 46.8 {s} & 93.5 {s} (board"
    assert row in tex and "trials) & 2.00 & --" in tex
    assert "not run here" in tex and f"283 {ms}" in tex and "mu$" not in tex
    assert not re.search(r"\d{5}", tex.replace("1731c6ad", "")), tex


def test_the_shipped_data_set_reproduces_the_printed_tables_or_says_why():
    from c18n_ae.analysis.collect import collect
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.analysis.summarise import summary_table
    from c18n_ae.common import datasets

    meta = datasets.load("morello-2024")
    files = dataset_files(meta)
    tidies = {
        e: collect(e, [], [p for x, _, p in files if x == e])
        for e in registry.names()
        if registry.get(e).study  # the experiments whose rows the study printed
    }
    b = beside(
        load(SOURCE), {e: summary_table(t) for e, t in tidies.items()}, tidies, {"morello-2024"}
    )
    mine = b[b.source == "morello-2024"]
    assert (
        len(mine) == 45
    )  # memory 2 sizes x 4 metrics x 3 variants, CPU 12, pipe trial 100 x 3 x 3
    # a data set's file is asked whether it reproduces the printed value, never given a ratio
    assert mine.ratio.isna().all()
    assert set(mine[mine.experiment != "pipe"].reproduces) == {"yes"}
    not_reproduced = mine[mine.reproduces != "yes"]
    assert set(zip(not_reproduced.variant, not_reproduced.metric)) == {
        ("hybrid", "message_wait_ns"),
        ("hybrid", "write_plus_wait_ns"),
    }
    assert not_reproduced.reproduces.str.contains("printed trials .* differ from the file's").all()
    tex = latex_table(b)
    assert "Ours / printed" not in tex and "1.000" not in tex
    assert "(morello-2024, trial 100) & no: the file's trial 100 gives 0.001 ms" in tex
    assert "File reproduces printed value" in tex
    # the Parameter cell says what its value is (A151: a bare 100 on the pipe rows read as the
    # message size); a value that names itself (a CPU workload) stays as it is
    rows = [x.split(" & ") for x in tex.splitlines() if x.startswith(("memory &", "pipe &"))]
    assert {r[2] for r in rows if r[0] == "pipe"} == {"trial 100"}, rows
    assert {r[2] for r in rows if r[0] == "memory"} == {"100 MB", "1000 MB"}, rows


def test_readme_results_block_is_the_data_sets_verdicts():
    """The committed README shows the claims on the shipped data set; refresh with python -m
    c18n_ae.report.readme."""
    from c18n_ae.report.claim_tables import markdown_table
    from c18n_ae.report.readme import block, dataset_claims, shipped

    assert shipped() == ["morello-2024", "cheribsd-22.12"]
    both = dataset_claims(shipped())
    assert markdown_table(both, shipped()) == block()
    # the study's claims and the package's own apart; the 22.12 memory contrast differs in the
    # compiler's name alone (its hybrid programs built by clang, its purecap ones by
    # clang-morello, both without -O), so it is decided, possibly also beside it; its CPU
    # binaries record one build, so the math claim has none; Table 8 decides the trust claims on
    # the printed values
    text = block()
    assert "**The study's claims (" in text and "**This package's own claims (" in text
    math = [x for x in text.splitlines() if x.startswith("| math-cost-purecap") and "22.12" in x]
    # tested on other data than it was drawn from (24.05), a study's claim does not hold
    assert "**does not hold** | tested |" in math[0], math[0]
    write = [x for x in text.splitlines() if x.startswith("| write-slower") and "22.12" in x]
    assert "**does not hold (possibly also: compiler clang-morello against clang)**" in write[0]
    # a claim read off the study's printed values prints as its kind, never as a test's holds
    assert "**restated (published values, no interval)**" in text
    results = both[both.source == "morello-2024"]
    verdicts = results.set_index("claim").result
    # the study's write loop did no stores: its claims rest on an invalid measurement
    assert verdicts["write-slower-in-compartment"] == "invalid measurement"
    assert verdicts["benchmark-write-faster"] == "invalid measurement"
    assert verdicts["math-cost-purecap"] == "holds"
    # the purecap process revokes freed memory (the kernel's default), the hybrid one does not:
    # the malloc contrast mixes heap revocation with the compartments and decides nothing
    alloc = results.set_index("claim").loc["alloc-10x"]
    assert alloc.result == "confounded" and alloc.confounded_by == "heap revocation on against off"
    assert (
        "| mean | **confounded by heap revocation on against off** | "
        "not attributable to compartments |" in block()
    )
