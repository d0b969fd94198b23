"""The claim kinds, one module each, declaring KIND = ClaimKind(...) (kind.py) and saying in its
docstring what it compares; its KIND decides a claim of its kind on what one source (target or
data set) measured and may check at load what the schema cannot (a unit against its metric's).
The registry imports each kind's module by name here, so that the rules see the files a verdict
runs (c18n_ae.common.module_files); a test checks that every module declaring a KIND is in it.
Shared by the kinds: verdict.py (the row of a verdict, what a source offers) and interval.py
(deciding on a 95 % interval)."""

from __future__ import annotations

from c18n_ae.analysis.claim_kinds import (
    absolute,
    flag,
    metrics,
    ratio,
    ratio_near,
    unmeasurable,
)
from c18n_ae.analysis.claim_kinds.kind import ClaimKind
from c18n_ae.analysis.claim_type import Claim, ClaimError

KINDS: dict[str, ClaimKind] = {
    m.KIND.name: m.KIND for m in (ratio, ratio_near, metrics, absolute, flag, unmeasurable)
}


def registry() -> dict[str, ClaimKind]:
    """kind name -> ClaimKind."""
    return KINDS


def kind_of(claim: Claim) -> ClaimKind:
    """The claim's kind; a kind no module declares is refused, naming the claim and key."""
    if claim.kind not in KINDS:
        raise ClaimError(
            f"claims[{claim.id}].kind: {claim.kind!r} is not a claim kind; known: "
            f"{', '.join(sorted(KINDS))}"
        )
    return KINDS[claim.kind]
