"""The paper's body (abstract to conclusion) reads like a paper: no claim ID, no file or config
path, no package jargon, short sentences. Checked on the hand-written sections and on every
generated macro they use, made by the commands from both shipped data sets."""

import re

import pytest

from c18n_ae.analysis.claims import load
from c18n_ae.common import datasets
from c18n_ae.report import call_cost
from conftest import ROOT

BODY = ["abstract", "introduction", "background", "setup", "methodology", "results", "per-call"]
BODY += ["releases", "threats", "related", "conclusion"]
CLAIM_IDS = [c.id for c in load(ROOT / "config" / "claims.yaml")]
# a path of the package or of its configuration, in any form LaTeX source or prose may print it
PATH = re.compile(r"config/|\.ya?ml\b|datasets/|results/|\.csv\b|dataset\\?_?\.yaml")
JARGON = ("which is not a Morello board", "calls facts", "against not recorded")


def problems(text: str) -> list[str]:
    """Claim IDs, paths and package jargon in a text."""
    found = [c for c in CLAIM_IDS if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)]
    found += PATH.findall(text)
    found += [j for j in JARGON if j in text]
    return found


def macros_used(tex: str) -> set[str]:
    return set(re.findall(r"\\([A-Z][A-Za-z]+)", tex))


def sections() -> str:
    text = "\n".join((ROOT / "paper" / "sections" / f"{s}.tex").read_text() for s in BODY)
    # the float of Table 1 is its own (its caption and cells are the table's, not prose)
    return re.sub(r"(?s)\\begin\{table\*\}.*?\\end\{table\*\}", "", text)


def test_the_hand_written_body_names_no_claim_and_no_path():
    text = re.sub(r"(?m)%.*$", "", sections())
    assert problems(text) == []
    # claims are named by the appendix's section and table; the body points to it
    assert r"\ref{sec:claims}" in text


def test_the_body_defines_only_tested_and_leaves_the_kinds_to_the_claims_table():
    """No body section names a verdict kind but "tested"; the claims' appendix section says what
    "tested" means and points to Table 7, whose caption defines the five verdict kinds once
    (claim_tables.kinds_defined)."""
    from c18n_ae.analysis.claim_kinds.verdict import TESTED, VERDICT_KINDS
    from c18n_ae.report.claim_tables import kinds_defined

    text = " ".join(re.sub(r"(?m)%.*$", "", sections()).split())
    assert [k for k in VERDICT_KINDS if k != TESTED and k in text] == []
    claims = " ".join((ROOT / "paper" / "sections" / "claims.tex").read_text().split())
    assert r"A claim is \emph{tested} only on data that could have" in claims
    assert all(rf"\emph{{{k}}}, " in kinds_defined() for k in VERDICT_KINDS)


def defined(tex: str) -> dict[str, str]:
    tex = re.sub(r"(?m)^%.*$", "", tex)
    parts = re.split(r"\\newcommand\{\\(\w+)\}\{", tex)
    return {name: body.rsplit("}", 1)[0] for name, body in zip(parts[1::2], parts[2::2])}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """findings.tex, as the workflow makes it from both shipped data sets' headline table and
    verdicts, and the data sets' macros (threats)."""
    import test_findings
    from c18n_ae.report import findings
    from c18n_ae.report.macros import dataset_macros

    tmp = tmp_path_factory.mktemp("body")
    metas = [datasets.load("morello-2024"), datasets.load("cheribsd-22.12")]
    table, verdicts = test_findings.data(
        metas, {"targets": [], "datasets": [m["name"] for m in metas]}
    )
    table.to_csv(tmp / "headline.csv", index=False)
    verdicts.to_csv(tmp / "claims.csv", index=False)
    findings.main(
        ["--config", str(ROOT / "config" / "config.yaml"), "--out", str(tmp / "findings.tex")]
        + ["--headline", str(tmp / "headline.csv"), "--verdicts", str(tmp / "claims.csv")]
    )
    return {**defined((tmp / "findings.tex").read_text()), **defined(dataset_macros(metas))}


def test_every_generated_macro_the_body_uses_names_no_claim_and_no_path(generated):
    used = macros_used(sections())
    # \PartFindingsCost holds \FindingsMemory, ... (one per experiment of the part)
    used |= {n for n in generated if n.startswith("Findings") and not n.endswith("Detail")}
    # and the claims' appendix section's count, which the body once held
    checked = {n: generated[n] for n in used | {"ClaimsTally"} if n in generated}
    assert "ClaimsTally" in checked
    # where the claims come from is said once, in the count (the abstract's and Section 4.3's);
    # why their own files test none is Section 4.3's definition of tested, said once there
    for name in ("ClaimsTally", "ClaimsSummary"):
        assert generated[name].count("drew from its 24.05 data. Its separate") == 1, generated[name]
        assert "arithmetic" not in generated[name], generated[name]
    results = (ROOT / "paper" / "sections" / "claims.tex").read_text()
    assert " ".join(results.split()).count("on runs other than those it was drawn from") == 1
    for name in ("DatasetSummary",):
        assert name in checked, name
    bad = {n: problems(t) for n, t in checked.items() if problems(t)}
    assert not bad, bad
    for name, text in checked.items():
        if r"\begin{tabular}" in text:  # a table's cells are no sentences
            text = text.split(r"\begin{tabular}")[0]
        plain = re.sub(r"\\[a-z]+\{[^}]*\}|\$[^$]*\$", "x", text)
        for sentence in re.split(r"(?<=[.?!])\s+(?=[A-Z])", plain):
            assert len(sentence.split()) <= 60, (name, sentence)


def test_the_abstract_s_claims_sentence_is_plain_and_short(generated):
    said = generated["ClaimsSummary"]
    # counted on the study's data, as Table 4 counts them there (it tests two more locally)
    # and why there: the study drew its claims from 24.05's files, not 22.12's
    assert said.startswith(
        "The 24 claims come from conclusions the study drew from its 24.05 data. "
        "Its separate 22.12 runs could test 9 of them, and there 4 hold, 4 do not and 1 is "
        "inconclusive."
    ), said
    # the noise its intervals cover is Section 3's to say, once
    assert "within one run" not in said, said
    # how they came out, the counts adding up to the claims tested
    outcome = said.split("could test 9 of them, and there ", 1)[1]
    assert sum(int(n) for n in re.findall(r"\b(\d+) (?:hold|holds|do not|is|are)\b", outcome)) == 9
    assert call_cost.abstract_problems(said) == [], said
    # the data sets' description: one sentence; what their provenance leaves open is Threats'
    # (DatasetBoardsOpen) and the appendix's; no id (Table 2 says once which id each release
    # names)
    summary = generated["DatasetSummary"]
    assert summary.count(". ") == 0 and "measured by their authors on" in summary, summary
    assert "measured none" not in summary, summary  # the box in the artifact appendix says it
    assert generated["DatasetBoardsOpen"] == (
        "The study's documents disagree on how many boards it used and its files name three hosts "
        "(Appendix~\\ref{sec:provenance})."
    ), generated["DatasetBoardsOpen"]
    assert "BoardsOpen" in generated  # so Threats has its bullet
    assert "morello-2024" not in summary and "texttt" not in summary, summary
    assert "morello-camb" not in summary and "tom" not in summary.split()  # no host names


def test_section_2_tables_each_tested_claim_with_the_ratio_that_decides_it(generated):
    """The nine claims tested on 22.12 in the study's words, each with its setting, ratio and
    verdict, those that hold first; no claim ID; the why-not of 24.05 and what a verdict on 22.12
    means in the two sentences before it."""
    table = generated["ClaimsTestedTable"]
    rows = [x for x in table.splitlines() if x.endswith(r"\\") and "The study's claim" not in x]
    assert len(rows) == 9, table
    # one data set: named once, in the caption
    assert "tested on its 22.12 data," in table and " & 22.12 & " not in table, table
    verdicts = [x.rsplit(" & ", 1)[1].removesuffix(r" \\") for x in rows]
    # the study's claims drawn from 24.05 and tested on 22.12: whether they hold there
    assert verdicts == ["holds"] * 4 + ["does not hold"] * 4 + ["inconclusive"], verdicts
    alloc = next(x for x in rows if x.startswith("Allocating a block"))
    # the deciding block size in its own column, beside the ratio
    assert "more than 10 times slower" in alloc and " & 500 MiB & " in alloc, alloc
    # the threshold each verdict tests, and whose it is (the study's words or our reading)
    assert "& > 10 (ours) & does not hold" in alloc, alloc
    assert any("& > 1 (study) & does not hold" in x for x in rows), rows
    assert (
        r"\label{tab:tested}" in table
        and "of the block sizes that give its verdict, the one nearest its threshold" in table
    )
    assert not re.search(r"\b[a-z]+-[a-z0-9]+-[a-z0-9-]+\b", table)  # no claim ID
    tally = generated["ClaimsTally"]
    # where the verdicts hold, in the sentence that counts them (rounds 103 to 105: a sentence
    # of its own on what a verdict on 22.12 says was reread by every reader)
    assert tally.startswith(
        "The 24 claims come from conclusions the study drew from its 24.05 data. Its separate "
        "22.12 runs could test 9 of them, and there 4 hold, 4 do not and 1 is inconclusive."
    ), tally
    assert problems(tally) == [] and call_cost.abstract_problems(tally) == [], tally
    # no sentence on a comparison across releases that none could make
    assert generated["ReleaseClaims"] == "", generated["ReleaseClaims"]


def test_the_problem_finder_finds_what_it_looks_for():
    """A test that cannot fail is a defect: each kind of problem is caught."""
    assert problems(r"the claim alloc-10x holds") == ["alloc-10x"]
    assert problems(r"as \texttt{config/claims.yaml} says") != []
    assert problems("ran on local only, which is not a Morello board") != []
    assert problems("allocation took ten times longer in 24.05 data") == []


def test_the_per_call_sentences_name_no_claim_and_no_path():
    """The first finding (abstract and conclusion) and E10's sentence; the paragraph beside
    Morello's published work (call_cost.beside) cites its CSV and is checked where it is made."""
    import test_per_call

    rows = test_per_call.morello_rows()
    for text in (
        call_cost.finding(rows, test_per_call.RELEASES, test_per_call.ABIS),
        call_cost.direct(rows),
    ):
        assert problems(text) == [], text
