"""Every conclusion the study's two documents state has a claim (config/claims.yaml), whose
`study.where` names the document and section it stands in: the list below is the study's
conclusions, each with its document, section and line, read from the documents themselves
(../shared/reference/study-text/, checked against them when they are beside the project). The data
set's account of the boards (dataset.yaml boards) quotes the same documents."""

import pytest

from c18n_ae.analysis.claims import load
from c18n_ae.common import datasets
from conftest import ROOT

TEXT = ROOT.parent / "shared" / "reference" / "study-text"
DOCS = {"000": "000_1334b63f2a71c3ae.txt", "002": "002_1e774f91fd06034a.txt"}

# (document, section, line, the conclusion's words as printed, the claims that decide it)
CONCLUSIONS = [
    ("000", "2.4", 348, "it takes significantly longer to allocate memory blocks inside "
     "compartments", ["alloc-10x", "alloc-slower-benchmark"]),
    ("000", "2.4", 350, "Execution inside a compartment consistently takes longer",
     ["write-slower-in-compartment", "benchmark-write-faster"]),
    ("000", "2.4", 352, "execution within compartments shows consistently longer read times",
     ["read-slower-in-compartment"]),
    ("000", "2.4", 354, "freeing memory inside compartments introduces significant delays",
     ["free-slower-in-compartment"]),
    ("000", "3.1", 526, "The write operation executed inside compartments consistently shows a "
     "higher latency", ["pipe-write-slower"]),
    ("000", "3.1", 528, "compartmentalisation introduces delays in inter-process communication",
     ["pipe-read-slower"]),
    ("000", "3.1", 530, "the compartments provide significant benefits in terms of security",
     ["security-benefit"]),
    ("000", "3.1", 530, "they incur performance costs", ["pipe-write-slower", "pipe-read-slower"]),
    ("002", "4.1", 211, "This represents a performance cost of approximately 51.33%",
     ["math-cost-purecap"]),
    ("002", "4.1", 213, "in the execution of int, float and array operations, the performance is "
     "similar with and without compartments",
     ["int-similar-purecap", "float-similar-purecap", "array-similar-purecap"]),
    ("002", "4.1", 213, "the float is is slightly better in the run inside a compartment",
     ["float-faster-purecap"]),
    ("002", "4.2", 237, "This represents a performance cost of approximately 13.12%",
     ["math-cost-benchmark"]),
    ("002", "4.2", 239, "the performance is significantly better inside compartments",
     ["int-gain-benchmark", "float-gain-benchmark", "array-gain-benchmark"]),
    ("002", "5.1", 382, "The write operation executed inside compartments consistently shows a "
     "higher latency", ["pipe-write-slower"]),
    ("002", "5.1", 384, "compartmentalisation introduces delays in inter-process communication",
     ["pipe-read-slower"]),
    ("002", "5.1", 386, "the compartments provide significant benefits in terms of security",
     ["security-benefit"]),
    ("002", "6.1", 479, "a user with root privileges has permission to access any memory region, "
     "including memory regions allocated to compartments",
     ["root-reads-compartment", "root-reads-plain"]),
    ("002", "6.1", 479, "ordinary users are unable to access memory regions allocated to "
     "processes, including processes not executed inside compartments",
     ["ordinary-denied-compartment", "ordinary-denied-plain"]),
    ("002", "6.1", 481, "the Morello Board implements the traditional asymmetric trust model",
     ["root-reads-compartment", "ordinary-denied-compartment"]),
    ("002", "6.1", 512, "This crash raises concerns about a possible failure in memory isolation",
     ["protected-region-crash"]),
    ("002", "7.2.1", 642, "even when running in a multi-compartment environment, a user with root "
     "privileges is able to access data from memory", ["owner-reads-compartments"]),
    ("002", "7.2.2", 654, "Attempts to access these regions from a different process result in "
     "crashes", ["protected-region-crash"]),
    ("002", "7.2.3", 667, "We managed to read this string directly from memory too",
     ["owner-reads-compartments"]),
]  # fmt: skip


def _lines(doc: str) -> list[str]:
    path = TEXT / DOCS[doc]
    if not path.is_file():
        pytest.skip(f"the study's documents are not beside the project ({TEXT})")
    return path.read_text(encoding="utf-8", errors="replace").split("\n")


def test_every_conclusion_has_a_claim_that_names_its_document_and_section():
    claims = {c.id: c for c in load(ROOT / "config" / "claims.yaml")}
    for doc, section, line, words, ids in CONCLUSIONS:
        for cid in ids:
            assert cid in claims, f"{doc} section {section}: no claim {cid}"
            study = claims[cid].study
            assert study is not None and claims[cid].origin == "study", cid
            assert f"document {doc}" in study.where, (cid, study.where)
            top = section.split(".")[0]
            assert f"section {section}" in study.where or f"section {top}" in study.where, (
                cid,
                study.where,
            )


def test_every_conclusion_is_on_its_line_of_its_document():
    for doc, section, line, words, _ in CONCLUSIONS:
        lines = _lines(doc)
        assert words in lines[line - 1], f"{DOCS[doc]}:{line} does not say {words!r}"
        # the line stands in the section named: the nearest numbered heading above it
        numbered = [x for x in lines[:line] if x.startswith("#") and x.lstrip("# ")[:1].isdigit()]
        heading = numbered[-1]
        assert heading.lstrip("# ").startswith(section), (doc, line, heading)


def test_every_claim_of_the_study_stands_for_a_conclusion_or_a_printed_table():
    """No study claim floats free of the documents: each is listed above, or restates a printed
    table or trial (its `restates` names one)."""
    listed = {c for *_, ids in CONCLUSIONS for c in ids}
    for c in load(ROOT / "config" / "claims.yaml"):
        if c.origin == "study" and c.id not in listed:
            assert "Table" in c.restates or "log" in c.restates, c.id


def test_the_data_sets_boards_quote_the_documents_which_differ():
    meta = datasets.load("morello-2024")
    boards = meta["boards"]
    assert {b["document"] for b in boards} == set(DOCS.values())
    for b in boards:
        lines = _lines(b["document"][:3])
        assert b["says"] in lines[b["line"] - 1], b
    # four boards in one, one board in the other; three hosts named in the files
    assert {h["host"] for h in meta["hosts"]} == {"morello-camb-2", "morello-camb-3", "tom"}


def test_every_quotation_of_the_study_is_in_its_documents():
    """The words a claim puts in quotation marks (study.says) stand in the documents as printed
    ('[...]' marks a cut); a study's claim quotes at least once."""
    import re

    text = " ".join(" ".join(_lines(d)) for d in DOCS)
    text = " ".join(text.replace("**", "").split())
    for c in load(ROOT / "config" / "claims.yaml"):
        if c.origin != "study":
            continue
        quotes = re.findall(r'"([^"]+)"', c.study.says)
        assert quotes, f"{c.id}: no quotation of the study"
        for q in quotes:
            for piece in filter(None, (p.strip(" .") for p in q.split("[...]"))):
                assert piece in text, f"{c.id}: {piece!r} is not in the study's documents"
