"""ratio: the metric on the claim's subject variant over the same metric on its baseline variant
(results/comparisons), against `op` `threshold`, at every parameter value (scope: all) or the
largest (scope: largest)."""

from __future__ import annotations

import pandas as pd

from c18n_ae.analysis.claim_kinds.interval import Bound, at, confounded, decide, threshold
from c18n_ae.analysis.claim_kinds.kind import ClaimKind
from c18n_ae.analysis.claim_kinds.verdict import Source, not_applicable
from c18n_ae.analysis.claim_type import Claim
from c18n_ae.analysis.comparisons import lookup


def variant_ratio(claim: Claim, source: Source, base: dict, bound: Bound) -> dict:
    """The verdict on the comparisons' subject/baseline rows against a bound; shared by ratio and
    ratio_near, which differ only in the bound."""
    missing = [v for v in (claim.subject, claim.baseline) if v not in source.variants]
    if missing:
        return not_applicable(base, f"no variant {', '.join(missing)} on this target")
    c = source.comparisons
    rows = (
        pd.DataFrame()
        if c is None
        else lookup(c, source.name, claim.subject, claim.baseline, claim.metric)
    )
    rows = rows[rows.ratio.notna()] if len(rows) else rows
    if len(rows):
        p = pd.to_numeric(rows.parameter_value, errors="coerce")
        rows = rows.assign(_p=p).sort_values("_p")
    if claim.scope == "largest" and len(rows):
        rows = rows.iloc[[-1]]
    if rows.empty:
        return not_applicable(base, f"no {claim.metric} measured for both variants")
    out = decide(
        claim,
        bound,
        base,
        rows,
        lambda r: f"{claim.subject}/{claim.baseline} of {claim.metric}{at(r, rows)}",
    )
    return confounded(out, rows, claim)


KIND = ClaimKind(
    "ratio",
    lambda claim, source, base: variant_ratio(
        claim, source, base, threshold(claim.op, claim.threshold)
    ),
)
