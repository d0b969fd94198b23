"""unmeasurable: a conclusion of the study that no data here can decide (`why` says what would be
needed), listed so that every conclusion has a claim: "not measurable", on every source, without
reading its data."""

from __future__ import annotations

from c18n_ae.analysis.claim_kinds.kind import ClaimKind
from c18n_ae.analysis.claim_kinds.verdict import NOT_MEASURABLE, Source
from c18n_ae.analysis.claim_type import Claim


def decide(claim: Claim, source: Source, base: dict) -> dict:
    return {**base, "statistic": "none", "result": NOT_MEASURABLE, "detail": claim.why}


KIND = ClaimKind("unmeasurable", decide, needs_data=False)
