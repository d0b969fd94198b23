"""What a claim kind is: its name as claims.yaml writes it, how it decides a claim on what one
source measured, and what it checks at load beyond the schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from c18n_ae.analysis.claim_kinds.verdict import Source
    from c18n_ae.analysis.claim_type import Claim


@dataclass(frozen=True)
class ClaimKind:
    name: str  # as claims.yaml writes it (kind: ...)
    # (claim, what one source measured, its row with the claim's fields) -> the row with a result
    decide: Callable[[Claim, Source, dict], dict]
    # claim -> mistakes the schema cannot see, each naming the claim and key (optional)
    check: Callable[[Claim], list[str]] | None = None
    # False: decided without the source's data (a conclusion no data here can decide)
    needs_data: bool = True
