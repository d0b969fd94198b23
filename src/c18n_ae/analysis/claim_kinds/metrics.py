"""metrics: one metric over another of the same trials' experiment (metric / baseline_metric),
with a bootstrap interval, on every variant that ran (those named, or those whose c18n setting is
the claim's) and every parameter value, against `op` `threshold`."""

from __future__ import annotations

import pandas as pd

from c18n_ae.analysis.claim_kinds.interval import decide, threshold
from c18n_ae.analysis.claim_kinds.kind import ClaimKind
from c18n_ae.analysis.claim_kinds.verdict import Source, chosen_variants, no_variant, not_applicable
from c18n_ae.analysis.claim_type import Claim
from c18n_ae.analysis.comparisons import _seed, ratio_ci
from c18n_ae.analysis.summarise import with_derived
from c18n_ae.common.latex import fmt


def ratios(claim: Claim, source: Source, chosen: list[str]) -> pd.DataFrame:
    """One row per variant and parameter value: the ratio of the two metrics with its intervals."""
    rows = []
    if source.tidy is None or not len(source.tidy):
        return pd.DataFrame()
    t = with_derived(source.tidy)
    t = t[(t.source == source.name) & (t.status == "ok")]
    for v in chosen:
        mine = t[t.variant == v]
        for (param, value), g in mine.groupby(
            ["parameter", "parameter_value"], sort=True, observed=True
        ):
            a, b = (g[g.metric == m] for m in (claim.metric, claim.baseline_metric))
            if len(a) and len(b):
                seed = _seed(source.name, v, claim.metric, claim.baseline_metric, param, value)
                # over the runs where there are several, as every comparison of two variants
                stats = ratio_ci(a["value"], b["value"], seed, runs_a=a["run"], runs_b=b["run"])
                key = {"variant": v, "parameter": param, "parameter_value": value, "_p": value}
                rows.append({**key, **stats})
    return pd.DataFrame(rows)


def decide_metrics(claim: Claim, source: Source, base: dict) -> dict:
    chosen = chosen_variants(claim, source.variants)
    if not chosen:
        return not_applicable(base, no_variant(claim))
    rows = ratios(claim, source, chosen)
    if rows.empty or rows.ratio.isna().all():
        return not_applicable(base, f"{claim.metric} and {claim.baseline_metric} not measured")
    rows = rows[rows.ratio.notna()]
    return decide(
        claim,
        threshold(claim.op, claim.threshold),
        base,
        rows,
        lambda r: (
            f"{claim.metric}/{claim.baseline_metric} on {r.variant} at {r.parameter} "
            f"{fmt(float(r.parameter_value))} ({len(rows)} settings on {', '.join(chosen)})"
        ),
    )


KIND = ClaimKind(
    "metrics",
    decide_metrics,
)
