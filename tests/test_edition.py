"""The paper's title and framing follow from what ran: a board run asks the question; without one
(only this machine, or the tests' simulated CheriBSD target) the paper is a re-analysis of the
study's board data, and E7 to E9 are this machine's functional check in an appendix of their own.
The body quotes only each experiment's findings; its section is in the appendix."""

import re

from c18n_ae import experiments as exp
from c18n_ae.report.macros import (
    TITLE_BOARD,
    TITLE_DATA,
    boards,
    edition_macros,
    paper_order,
    run_scope,
)

KINDS = {"local": "local", "morello": "morello"}
BESIDE = [e.name for e in exp.registry().values() if e.part == "beside"]  # E7 to E9
COST = [e.name for e in exp.registry().values() if e.part == "cost"]


def meta(target, experiment, simulated=None):
    """A run's meta.json as far as the title reads it: target, experiment, the board check."""
    checks = {} if simulated is None else {"board": {"simulated": simulated}}
    return {"target": target, "experiment": experiment, "checks": checks}


def defined(text: str) -> dict[str, str]:
    return dict(re.findall(r"\\newcommand\{\\(\w+)\}\{(.*)\}", text))


def test_without_a_board_run_the_paper_is_a_reanalysis_and_e7_to_e9_a_functional_check():
    local = [meta("local", e) for e in COST + BESIDE]
    simulated = [meta("morello", e, simulated=True) for e in COST[:1] + BESIDE[:1]]
    for metas in (local, local + simulated, []):
        said = defined(edition_macros(metas, KINDS))
        assert said["PaperTitle"] == TITLE_DATA and "Re-analysis" in TITLE_DATA
        assert "PaperSubtitle" not in said  # provenance is the introduction's, not a subtitle
        assert "BoardRan" not in said and "BesideOnBoard" not in said
    assert boards(local + simulated, KINDS) == []
    scope = run_scope(local + simulated, KINDS)
    # no purecap build ran (the simulated board's tools stand in for one): no capabilities
    assert scope == "for this paper it ran on 2 machines, none of them with capabilities", scope
    purecap = [{**m, "abi": "purecap"} for m in simulated]
    scope = run_scope(local + purecap, KINDS)
    assert scope == "for this paper it ran on 2 machines, none of them a Morello board", scope
    one = run_scope(local[:1], KINDS)
    assert one == "for this paper it ran on one machine without capabilities", one
    assert "edition" not in scope  # package jargon: the reader has a paper
    assert "texttt" not in scope  # plain words: the set-up table names the hosts


def test_a_board_run_asks_the_question_and_e7_to_e9_join_it_only_when_they_ran_there():
    board = [meta("local", BESIDE[0]), meta("morello", COST[0], simulated=False)]
    said = defined(edition_macros(board, KINDS))
    assert said["PaperTitle"] == TITLE_BOARD and TITLE_BOARD.startswith("What a Library")
    assert "BoardRan" in said and "BesideOnBoard" not in said  # E7 ran on local only
    said = defined(edition_macros([*board, meta("morello", BESIDE[-1], simulated=False)], KINDS))
    assert "BoardRan" in said and "BesideOnBoard" in said
    # a target of another kind is no board, whatever it ran
    assert "BoardRan" not in defined(edition_macros([meta("local", COST[0])], {"local": "ssh"}))


def test_each_experiment_adds_its_section_to_the_appendix_and_only_its_findings_to_the_body():
    said = defined(paper_order())
    by_part = {p: [e for e in exp.registry().values() if e.part == p] for p in exp.PARTS}
    for part, members in by_part.items():
        sections = said[f"Sections{part.title()}"]
        findings = said[f"PartFindings{part.title()}"]
        for e in members:
            assert rf"\experimentsection{{{e.name}}}{{E{e.number}}}" in sections
            # one paragraph with its findings and a pointer to its section, or nothing
            pointer = rf"(Appendix~\ref{{sec:{e.name}}}.)"
            assert (pointer in findings) == bool(e.headline or e.findings), e.name
            assert r"\input" not in findings and "figure" not in findings
    assert r"\paragraph{CPU-bound work (E3).} \FindingsCpu{}" in said["PartFindingsCost"]
    assert said["PartFindingsBeside"] == ""  # E7 to E9 say nothing in the body


def test_the_experiments_after_the_study_s_are_introduced_from_the_registry():
    """Section 2 says in one sentence what the experiments after the study's six are (E7 to E9
    by their titles, beside other isolation mechanisms; E10 by its own), from the registry."""
    from c18n_ae.report.macros import added_experiments

    said = defined(added_experiments())
    ours = [e for e in exp.registry().values() if e.number > 6]
    assert said["ExperimentsAdded"].startswith(
        f"E7 to E{max(e.number for e in ours)} are ours, built for runs on a board: "
    )
    # those beside other mechanisms by their kind (their titles are their appendix sections'),
    # the others by what they measure
    for e in ours:
        title = e.title.removeprefix(f"E{e.number} ")
        assert (title in said["ExperimentsAdded"]) == (e.part != "beside"), e.name
    assert (
        "E7 to E9 follow published studies of other isolation mechanisms"
        in said["ExperimentsAdded"]
    )
    assert said["ExperimentsBeside"] == "E7 to E9"
    for s in said["ExperimentsAdded"].split(". "):
        assert len(s.split()) <= 35, s
