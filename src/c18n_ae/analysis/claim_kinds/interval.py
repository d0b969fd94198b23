"""Deciding a claim on 95 % intervals: holds or fails only when the whole interval lies on one side
of the claim's bound, inconclusive otherwise (with the trials that would settle it); the worst of
several rows (parameter values, variants) decides. The ratio kinds decide on both statistics and
say when they disagree; a contrast that mixes more than ABI and compartments is confounded."""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Callable

import pandas as pd

from c18n_ae.analysis.claim_kinds.verdict import CONFOUNDED, RAW, TOO_FEW, not_applicable
from c18n_ae.analysis.claim_type import Claim
from c18n_ae.common.latex import comparison_text, covers_words, setting

OPS = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le}
OPPOSITE = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
STATISTICS = {  # statistic -> the comparison columns of its ratio and interval
    "mean": ("ratio", "ci95_low", "ci95_high"),
    "median": ("median_ratio", "median_ci95_low", "median_ci95_high"),
}
ORDER = {"fails": 0, "inconclusive": 1, "holds": 2}  # the worst row decides


def side(lo: float, hi: float, op: str, threshold: float) -> str:
    """Where a 95 % interval lies against a one-sided threshold: holds, fails or inconclusive."""
    if pd.isna(lo) or pd.isna(hi):
        return "inconclusive"
    if OPS[op](lo, threshold) and OPS[op](hi, threshold):
        return "holds"
    other = OPS[OPPOSITE[op]]
    if other(lo, threshold) and other(hi, threshold):
        return "fails"
    return "inconclusive"


def near(lo: float, hi: float, expected: float, tolerance: float) -> str:
    if pd.isna(lo) or pd.isna(hi):
        return "inconclusive"
    low, high = expected - tolerance, expected + tolerance
    if low <= lo and hi <= high:
        return "holds"
    if hi < low or lo > high:
        return "fails"
    return "inconclusive"


@dataclass(frozen=True)
class Bound:
    """What an interval must clear: verdict(lo, hi), the bounds it is measured against (to say how
    many trials would settle it) and the words of the need ('needs > 10')."""

    verdict: Callable[[float, float], str]
    bounds: tuple[float, ...]
    need: str


def threshold(op: str, value: float, unit: str = "") -> Bound:
    need = f"needs {op} {value} {unit}".rstrip()
    return Bound(lambda lo, hi: side(lo, hi, op, value), (value,), need)


def within(expected: float, tolerance: float) -> Bound:
    return Bound(
        lambda lo, hi: near(lo, hi, expected, tolerance),
        (expected - tolerance, expected + tolerance),
        f"needs {expected} ± {tolerance}",
    )


def trials_to_settle(
    ratio: float, lo: float, hi: float, n: int, bounds, per: str = " per side"
) -> str:
    """The trials (per side, for a ratio) that an interval of the same spread, shrinking as
    1/sqrt(n), would need to clear the nearest bound."""
    if pd.isna(lo) or pd.isna(hi):
        return f"too few trials for an interval (n = {n}); at least 2{per}, better 10 or more"
    d = min(abs(ratio - b) for b in bounds)
    if d == 0:
        what = "ratio" if per else "value"
        return f"the {what} sits on the threshold; more trials cannot settle it"
    half = max(ratio - lo, hi - ratio)
    # what it assumes: the same spread, trials from runs like these (a reader of round 121: a
    # within-run interval says nothing of the runs to come)
    n_settle = max(n + 1, math.ceil(n * (half / d) ** 2))
    return f"about {n_settle} trials{per} would settle it, if their spread stayed as it is"


def _distance(row, bounds) -> float:
    if pd.isna(row.ci95_low):
        return -1.0
    return min(min(abs(row.ci95_low - b), abs(row.ci95_high - b)) for b in bounds)


def worst(bound: Bound, rows: pd.DataFrame, per: str = " per side") -> tuple[str, pd.Series, str]:
    """rows: one per parameter value (or variant) with ratio (or value), interval, n and
    n_reference; the verdict over all of them, the row that decided it (the worst, then the
    nearest its bound) and, when inconclusive, how many trials (per side) would settle it."""
    verdicts = [bound.verdict(r.ci95_low, r.ci95_high) for r in rows.itertuples()]
    at = min(
        range(len(verdicts)),
        key=lambda i: (ORDER[verdicts[i]], _distance(rows.iloc[i], bound.bounds)),
    )
    row = rows.iloc[at]
    note = ""
    if verdicts[at] == "inconclusive":
        note = "; " + trials_to_settle(
            row.ratio,
            row.ci95_low,
            row.ci95_high,
            int(min(row.n, row.n_reference)),
            bound.bounds,
            per,
        )
    return verdicts[at], row, note


def _on(rows: pd.DataFrame, statistic: str) -> pd.DataFrame:
    """The rows with the statistic's ratio and interval in the columns the verdict reads."""
    r, lo, hi = STATISTICS[statistic]
    return rows.assign(ratio=rows[r], ci95_low=rows[lo], ci95_high=rows[hi])


def at(row, rows) -> str:
    """' at 800 MiB' (block_mib 800): the parameter value of the deciding row, when there are
    several."""
    if len(rows) < 2 or "parameter" not in row:
        return ""
    value = row._p if pd.notna(row.get("_p", math.nan)) else row.parameter_value
    return f" at {setting(row.parameter, value)}"


def decide(claim: Claim, bound: Bound, base: dict, rows: pd.DataFrame, what: Callable) -> dict:
    """The verdict of a ratio claim on its rows (one per parameter value or variant) against its
    bound, on the claim's statistic, with the other statistic's verdict beside it. what(row) says
    which ratio decided it."""
    statistic = claim.statistic
    other = "median" if statistic == "mean" else "mean"
    verdicts = {}
    for stat in (statistic, other):
        on = _on(rows, stat)
        on = on[on.ratio.notna()]
        verdicts[stat] = worst(bound, on) if len(on) else None
    if verdicts[statistic] is None:
        return not_applicable(base, f"no {statistic} ratio computed")
    result, row, note = verdicts[statistic]
    fewest = int(min(rows.n.min(), rows.n_reference.min()))
    trials = f"n = {int(row.n)} and {int(row.n_reference)}"
    out = {
        **base,
        "decided_at": at(row, rows).removeprefix(" at "),
        "evidence": RAW,
        "measured": comparison_text(row, statistic, tex=False),
        "ratio": row.ratio,
        "ci95_low": row.ci95_low,
        "ci95_high": row.ci95_high,
        f"{statistic}_result": result,
    }
    if fewest < claim.min_trials:
        return {
            **out,
            "result": TOO_FEW,
            "statistics_agree": True,
            "detail": f"{what(row)}; {trials}: at least {claim.min_trials} trials per side "
            f"are needed (claim minimum), {claim.min_trials - fewest} more on the smaller side",
        }
    # what the interval covers, said once per claim (over one run's trials never a 95 % CI)
    covers = row.get("interval_covers") if hasattr(row, "get") else None
    interval = covers_words(covers, tex=False) if isinstance(covers, str) and covers else "95 % CI"
    detail = f"{statistic} ratio {what(row)}, {interval}; {trials}; {bound.need}{note}"
    if verdicts[other] is not None:
        o_result, o_row, _ = verdicts[other]
        out[f"{other}_result"] = o_result
        out["statistics_agree"] = o_result == result
        if o_result != result:
            detail += (
                f". The {other} disagrees: it {o_result} "
                f"({comparison_text(o_row, other, tex=False)}{at(o_row, rows)})"
            )
    return {**out, "result": result, "detail": detail}


def _named(rows: pd.DataFrame, column: str) -> list[str]:
    if column not in rows:
        return []
    return [c for c in dict.fromkeys(rows[column]) if isinstance(c, str) and c]


def confounded(out: dict, rows: pd.DataFrame, claim: Claim) -> dict:
    """A ratio verdict on a contrast that differs in more than ABI and compartments, in something
    known to change the quantity (the comparisons' confounded_by): 'confounded', with what is
    mixed, never holds or fails. A difference of name alone (possibly_also) leaves the verdict
    standing, named beside it."""
    if out["result"] == "not applicable":
        return out
    mixed = _named(rows, "confounded_by")
    if not mixed:
        maybe = "; ".join(_named(rows, "possibly_also"))
        if not maybe:
            return out
        return {**out, "possibly_also": maybe, "detail": f"{out['detail']}; possibly also: {maybe}"}
    what = "; ".join(mixed)
    return {
        **out,
        "result": CONFOUNDED,
        "confounded_by": what,
        "mean_result": CONFOUNDED if out.get("mean_result") else "",
        "median_result": CONFOUNDED if out.get("median_result") else "",
        "statistics_agree": True,
        "detail": f"{claim.statistic or 'mean'} ratio {claim.subject}/{claim.baseline} "
        f"of {claim.metric}; the two differ in {what} as well as in ABI and compartments, so "
        "the ratio mixes them and decides nothing about compartments",
    }
