"""The checks a run makes on its target before and after timing (c18n_ae.running.driver explains
the contract: `check(target, plan) -> dict` recorded in meta.json under checks[<name>], or
RunRefused with a message). for_run chooses them for a target and its variants: on a CheriBSD
board, c18n_ae.running.board_check (compartments active, kernel configuration, revocation, one
binary per build, E10's counted crossings) and, before E10 where the target asks for it
(known_answer: true), c18n_ae.running.known_answer_check."""

from __future__ import annotations

from c18n_ae.running import board_check, known_answer_check
from c18n_ae.running.driver import Check


def for_run(
    target: dict, recipes: list[dict], experiment: str = ""
) -> tuple[list[Check], list[Check]]:
    """(checks before the run starts, checks once its rows are home) for this target."""
    before = board_check.for_target(target) + known_answer_check.for_target(target, experiment)
    return before, []
