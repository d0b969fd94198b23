"""A claim decided on the values a study printed (its on_published block), where no raw data exist:
a flag on the printed rows it selects, or every printed subject/baseline pair against the claim's
threshold. No interval: the table gives none ("published values, no interval")."""

from __future__ import annotations

import math

import pandas as pd

from c18n_ae import PROJECT_ROOT
from c18n_ae.analysis.claim_kinds.interval import OPS, threshold
from c18n_ae.analysis.claim_kinds.verdict import PUBLISHED
from c18n_ae.analysis.claim_type import Claim, ClaimError
from c18n_ae.common.latex import fmt

PUBLISHED_DIR = PROJECT_ROOT / "published"


def published_verdict(claim: Claim, base: dict) -> dict:
    """The verdict on the printed rows (on_published.where) or subject/baseline pairs (grouped by
    on_published.by)."""
    spec = claim.on_published
    path = PUBLISHED_DIR / spec.file
    try:
        table = pd.read_csv(path, dtype=str)
    except OSError as e:
        raise ClaimError(f"{claim.id}: on_published.file {path}: {e.strerror}") from None
    where = dict(spec.where)
    missing = [c for c in [spec.column, *where, *spec.by] if c not in table]
    if missing:
        raise ClaimError(f"{path}: no column {', '.join(missing)} (claim {claim.id})")
    out = {**base, "evidence": PUBLISHED, "ratio": math.nan}
    if not spec.subject:
        rows = table
        for key, value in where.items():
            rows = rows[rows[key] == value]
        if rows.empty:
            raise ClaimError(f"{path}: no row {where} (claim {claim.id})")
        printed = rows[spec.column]
        ones = int((printed == spec.is_one).sum())
        ok = all((x == spec.is_one) == bool(claim.expected) for x in printed)
        return {
            **out,
            "result": "holds" if ok else "fails",
            "measured": f"{spec.column}: {', '.join(printed)} "
            f"({ones} of {len(rows)} printed trial{'s' if len(rows) != 1 else ''} read as 1)",
            "detail": f"{spec.file}; needs {claim.expected}",
        }
    if not claim.op:
        raise ClaimError(
            f"claims[{claim.id}]: on_published.subject needs the claim's op and threshold"
        )
    table = table.assign(value=pd.to_numeric(table["value"], errors="coerce"))
    ratios = []
    for _, g in table.groupby(list(spec.by), sort=False):
        a = g[g[spec.column] == spec.subject].value
        b = g[g[spec.column] == spec.baseline].value
        if len(a) == 1 and len(b) == 1 and b.iloc[0]:
            ratios.append(float(a.iloc[0] / b.iloc[0]))
    if not ratios:
        raise ClaimError(f"{path}: no {spec.subject}/{spec.baseline} pair (claim {claim.id})")
    ok = all(OPS[claim.op](r, claim.threshold) for r in ratios)
    low, high = min(ratios), max(ratios)
    return {
        **out,
        "result": "holds" if ok else "fails",
        "ratio": high if claim.op in ("<", "<=") else low,
        "measured": f"{spec.subject}/{spec.baseline} from {fmt(low)} to {fmt(high)} over "
        f"{len(ratios)} printed settings",
        "detail": f"{spec.file}; {threshold(claim.op, claim.threshold).need} at every setting",
    }


def with_published(claim: Claim, rows: list[dict], releases: dict[str, str]) -> list[dict]:
    """A claim's rows with its printed-values verdict: in place of 'not applicable' on each data
    set of the printed release, or as a row of its own source (a study with no data set here)."""
    spec = claim.on_published
    if not spec:
        return rows
    mine = [r for r in rows if r["claim"] == claim.id]
    base = {**(mine[0] if mine else {}), "measured": "", "detail": "", "ratio": math.nan}
    if spec.source:
        return rows + [published_verdict(claim, {**base, "source": spec.source})]
    out = []
    for r in rows:
        swap = (
            r["claim"] == claim.id
            and r["result"] == "not applicable"
            and releases.get(r["source"]) == spec.release
        )
        out.append(published_verdict(claim, {**r, "measured": "", "detail": ""}) if swap else r)
    return out
