"""The paper's c18n paragraphs: from a board first, else a data set; never a number that is not
there."""

import pandas as pd

from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common import datasets
from c18n_ae.report.findings import paragraph, sources_from, sources_of

META = datasets.load("morello-2024")
DATASET = sources_of({"targets": [], "datasets": ["morello-2024"]})[0]


def data(experiment):
    tidy = collect(experiment, [], [p for e, _, p in dataset_files(META) if e == experiment])
    return summary_table(tidy), compare(tidy, {"morello-2024": "hybrid"})


def test_memory_paragraph_names_the_source_the_ratios_and_the_limits():
    summary, comps = data("memory")
    text = paragraph("memory", sources_from([DATASET]), summary, comps)
    assert text.startswith(r"On Morello, from the data set \texttt{morello-2024}")
    assert (
        "measured by the original study's authors" in text
        and "Morello System Development Platform" in text
    )
    assert (
        r"\texttt{purecap-c18n} against \texttt{hybrid} (compartment against no compartment) for "
        r"a 1000\,MiB block" in text
    )
    assert (
        r"\texttt{benchmark-c18n} against \texttt{purecap-c18n} (one compartment ABI against "
        r"another)" in text
    )
    assert "which is 0 for every block size" in text  # the study's method, said beside its numbers
    assert "--" not in text


def test_a_board_comes_before_the_data_set_and_absence_is_said():
    summary, comps = data("cpu")
    board = {
        "kind": "morello",
        "name": "board1",
        "description": "",
        "reference_variant": "hybrid",
        "variants": {"hybrid": False, "purecap-c18n": True},
    }
    assert [s["name"] for s in sources_from([DATASET, board])] == ["board1", "morello-2024"]
    # the board has no cpu rows here, so the data set speaks
    text = paragraph("cpu", sources_from([DATASET, board]), summary, comps)
    assert "morello-2024" in text and "board1" not in text
    mine = summary.assign(target=summary.target.replace("morello-2024", "board1"))
    mine_c = comps.assign(target="board1", reference_target="board1")
    text = paragraph(
        "cpu",
        sources_from([DATASET, board]),
        pd.concat([summary, mine]),
        pd.concat([comps, mine_c]),
    )
    assert text.startswith(r"On Morello, from this package's own runs on the board \texttt{board1}")
    none = paragraph("cpu", [], summary, comps)
    assert (
        none.startswith("No Morello measurements of this experiment were included")
        and "--" not in none
    )
