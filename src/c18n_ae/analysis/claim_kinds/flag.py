"""flag: the mean of a 0/1 metric at `parameter_value` equals `expected` on every variant whose
c18n setting is the claim's (true: in a compartment; false: without); the row says how much
evidence it rests on (trials, and what the claim's counts found)."""

from __future__ import annotations

import pandas as pd

from c18n_ae.analysis.claim_kinds.kind import ClaimKind
from c18n_ae.analysis.claim_kinds.verdict import RAW, Source, chosen_variants, not_applicable
from c18n_ae.analysis.claim_type import Claim


def _at(summary: pd.DataFrame, claim: Claim, source: str, variant: str) -> pd.DataFrame:
    return summary[
        (summary.source == source)
        & (summary.variant == variant)
        & (summary.parameter_value.astype(str) == str(claim.parameter_value))
    ]


def amount(metric: str, mean: float, n: int) -> str:
    """How much evidence a flag rests on: 'strings_visible = 1 in 1 of 100 trials'."""
    return f"{metric} = 1 in {round(mean * n)} of {n} trial{'s' if n != 1 else ''}"


def counted(claim: Claim, summary: pd.DataFrame, source: str, variant: str) -> str:
    """', 1 of 100 strings found': what the flag counts (the claim's counts: found and of, two
    metrics at its parameter value), summed over the trials; '' when the claim names none."""
    if not claim.counts:
        return ""
    s = _at(summary, claim, source, variant)
    total = {}
    for key in ("found", "of"):
        row = s[s.metric == getattr(claim.counts, key)]
        if row.empty or pd.isna(row.iloc[0]["mean"]):
            return ""
        total[key] = round(float(row.iloc[0]["mean"]) * int(row.iloc[0]["n"]))
    return f", {total['found']} of {total['of']} {claim.counts.what} found"


def decide(claim: Claim, source: Source, base: dict) -> dict:
    chosen = chosen_variants(claim, source.variants)
    if not chosen:
        kind = "with c18n: true" if claim.c18n else "without c18n"
        return not_applicable(base, f"no variant {kind} on this target")
    summary, values, counts = source.summary, {}, {}
    for v in chosen:
        s = _at(summary, claim, source.name, v)
        s = s[s.metric == claim.metric]
        if len(s) and pd.notna(s.iloc[0]["mean"]):
            values[v] = (float(s.iloc[0]["mean"]), int(s.iloc[0]["n"]))
            counts[v] = counted(claim, summary, source.name, v)
    where = f"{claim.metric} at {claim.parameter_value}"
    if not values:
        return not_applicable(base, f"{where} not run on {', '.join(chosen)}")
    ok = all(mean == claim.expected for mean, _ in values.values())
    return {
        **base,
        "result": "holds" if ok else "fails",
        "measured": ", ".join(
            f"{v}: {amount(claim.metric, mean, n)}{counts[v]}" for v, (mean, n) in values.items()
        ),
        "evidence": RAW,
        "detail": f"{where}; needs {claim.expected} in every trial",
    }


KIND = ClaimKind("flag", decide)
