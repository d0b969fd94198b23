"""The claim kinds: each is one module of this package declaring KIND = ClaimKind(...), which the
registry finds, as the experiments' registry finds EXPERIMENT. A kind's module says in its docstring
what it compares; its KIND decides a claim of its kind on what one source (target or data set)
measured and may check at load what the schema cannot (a unit against its metric's). Shared by
the kinds: verdict.py (the row of a verdict, what a source offers) and interval.py (deciding on a
95 % interval)."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from c18n_ae.analysis.claim_type import Claim, ClaimError

if TYPE_CHECKING:
    from c18n_ae.analysis.claim_kinds.verdict import Source


@dataclass(frozen=True)
class ClaimKind:
    name: str  # as claims.yaml writes it (kind: ...)
    # (claim, what one source measured, its row with the claim's fields) -> the row with a result
    decide: Callable[[Claim, Source, dict], dict]
    # claim -> mistakes the schema cannot see, each naming the claim and key (optional)
    check: Callable[[Claim], list[str]] | None = None


@functools.cache
def registry() -> dict[str, ClaimKind]:
    """kind name -> ClaimKind, every module of this package that declares one."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        kind = getattr(importlib.import_module(f"{__name__}.{info.name}"), "KIND", None)
        if isinstance(kind, ClaimKind):
            if kind.name in found:
                raise ImportError(f"claim kind {kind.name!r} is declared twice ({info.name})")
            found[kind.name] = kind
    return found


def kind_of(claim: Claim) -> ClaimKind:
    """The claim's kind; a kind no module declares is refused, naming the claim and key."""
    kinds = registry()
    if claim.kind not in kinds:
        raise ClaimError(
            f"claims[{claim.id}].kind: {claim.kind!r} is not a claim kind; known: "
            f"{', '.join(sorted(kinds))}"
        )
    return kinds[claim.kind]
