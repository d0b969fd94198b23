"""ratio_near: the ratio of the ratio kind within `tolerance` of `expected` (absolute, on the
ratio)."""

from __future__ import annotations

from c18n_ae.analysis.claim_kinds.interval import within
from c18n_ae.analysis.claim_kinds.kind import ClaimKind
from c18n_ae.analysis.claim_kinds.ratio import variant_ratio

KIND = ClaimKind(
    "ratio_near",
    lambda claim, source, base: variant_ratio(
        claim, source, base, within(claim.expected, claim.tolerance)
    ),
)
