"""absolute: a metric against a value in a unit ("a call costs under 1 µs"): the mean of `metric`
with its 95 % interval (the summary's, Student's t over the trials), on every variant that ran
(those named, or those whose c18n setting is the claim's) and every parameter value, against `op`
`threshold` `unit`, converted to the metric's unit. Decided on the mean only: the summary gives no
interval of the median. The metric's unit is its summary's; a metric whose name ends in a unit
(`_ns`, `_us`, `_bytes`) is checked against the claim's when the claims are loaded."""

from __future__ import annotations

import pandas as pd

from c18n_ae.analysis.claim_kinds.interval import Bound, side, worst
from c18n_ae.analysis.claim_kinds.kind import ClaimKind
from c18n_ae.analysis.claim_kinds.verdict import (
    RAW,
    TOO_FEW,
    Source,
    chosen_variants,
    no_variant,
    not_applicable,
)
from c18n_ae.analysis.claim_type import Claim, ClaimError
from c18n_ae.common.latex import fmt, setting, tick_note

UNITS = {  # unit -> (what it measures, its size in the smallest unit of that)
    "ns": ("time", 1.0),
    "us": ("time", 1e3),
    "µs": ("time", 1e3),
    "ms": ("time", 1e6),
    "s": ("time", 1e9),
    "bytes": ("size", 1.0),
    "KiB": ("size", 2.0**10),
    "MiB": ("size", 2.0**20),
    "GiB": ("size", 2.0**30),
    "count": ("count", 1.0),
}
_BY_NAME = {u.lower(): u for u in UNITS}


def unit_in_name(metric: str) -> str:
    """The unit a metric's name ends in ('write_ns' -> 'ns'), '' when it ends in none or in a rate
    ('cycles_per_ns')."""
    parts = metric.split("_")
    if len(parts) < 2 or parts[-2] == "per":
        return ""
    return _BY_NAME.get(parts[-1].lower(), "")


def _mismatch(claim: Claim, unit: str, where: str) -> str:
    """'' when the claim's unit converts to `unit`, else the mistake, naming claim and key."""
    if claim.unit not in UNITS:
        return f"claims[{claim.id}].unit: {claim.unit!r} is not a unit; known: {', '.join(UNITS)}"
    if unit in UNITS and UNITS[unit][0] == UNITS[claim.unit][0]:
        return ""
    return (
        f"claims[{claim.id}].unit: {claim.unit} cannot be compared with {claim.metric}, "
        f"{where} {unit or 'no unit'}"
    )


def check(claim: Claim) -> list[str]:
    named = unit_in_name(claim.metric)
    mistake = _mismatch(claim, named or claim.unit, "whose name says it is in")
    return [mistake] if mistake else []


def in_unit(claim: Claim, unit: str, source: str) -> float:
    """The claim's threshold in `unit` (the metric's, as its summary gives it)."""
    mistake = _mismatch(claim, unit, f"which {source} measured in")
    if mistake:
        raise ClaimError(mistake)
    return claim.threshold * UNITS[claim.unit][1] / UNITS[unit][1]


def _interval(r) -> tuple[float, float]:
    """The summary's interval of the mean, at least one timer step wide where the trials sit on one
    or two steps of the grid (their sd below a step): no mean is known finer than the clock."""
    lo, hi, step = r.ci95_low, r.ci95_high, r.resolution
    if pd.notna(step) and step > 0 and not r.sd >= step:
        lo, hi = min(lo, r["mean"] - step / 2), max(hi, r["mean"] + step / 2)
    return lo, hi


def decide(claim: Claim, source: Source, base: dict) -> dict:
    chosen = chosen_variants(claim, source.variants)
    if not chosen:
        return not_applicable(base, no_variant(claim))
    s = source.summary
    s = s[(s.source == source.name) & s.variant.isin(chosen) & (s.metric == claim.metric)]
    s = s[s["mean"].notna()]
    if s.empty:
        return not_applicable(base, f"no {claim.metric} measured on {', '.join(chosen)}")
    unit = str(s.unit.iloc[0])
    limit = in_unit(claim, unit, source.name)
    lows, highs = zip(*(_interval(r) for _, r in s.iterrows()))
    rows = s.assign(ratio=s["mean"], ci95_low=lows, ci95_high=highs, n_reference=s.n)
    need = f"needs {claim.op} {claim.threshold} {claim.unit}"
    if claim.unit != unit:
        need += f" ({fmt(limit, tex=False)} {unit})"
    bound = Bound(lambda lo, hi: side(lo, hi, claim.op, limit), (limit,), need)
    result, row, note = worst(bound, rows, per="")
    value = row.parameter_value
    value = float(value) if isinstance(value, int) else value
    at = f"{row.variant} at {setting(row.parameter, value)}"
    where = at if len(rows) < 2 else f"{at} ({len(rows)} settings on {', '.join(chosen)})"
    out = {
        **base,
        "evidence": RAW,
        "decided_at": at if len(rows) > 1 else "",
        "measured": f"mean {fmt(row['mean'])} {unit}"
        f"{tick_note(row['mean'], row.resolution, unit, tex=False)}, "
        f"95 % CI [{fmt(row.ci95_low)}, {fmt(row.ci95_high)}] {unit}",
        "mean_result": result,
    }
    if int(rows.n.min()) < claim.min_trials:
        fewest = int(rows.n.min())
        return {
            **out,
            "result": TOO_FEW,
            "detail": f"{claim.metric} on {where}; n = {fewest}: at least {claim.min_trials} "
            f"trials are needed (claim minimum), {claim.min_trials - fewest} more",
        }
    detail = f"mean of {claim.metric} on {where}, 95 % CI; n = {int(row.n)}; {need}{note}"
    return {**out, "result": result, "detail": detail}


KIND = ClaimKind(
    "absolute",
    decide,
    check,
)
