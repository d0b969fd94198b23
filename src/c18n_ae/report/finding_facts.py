"""What the findings' sentences read from a row or a data set: the point Table 1 prints
(point, has_point), whether a contrast also differs in ABI (abi_too), the build level both sides
share (shared_optimisation), and a debug kernel where its log covers the experiments
(debug_kernel). The conclusion says the claims' outcome no more: Section 4.3 does, once (readers
of rounds 113 to 115 read it there as the paper's finding, a check across releases)."""

from __future__ import annotations

import math
import re

import pandas as pd

from c18n_ae.common.latex import (
    WIDE_FACTOR,
    comparison_text,
    listed,
    ratio_point,
    shown_ends,
)
from c18n_ae.report.headline import rests_on_few
from c18n_ae.report.provenance import covers

# the point estimate at the start of Table 1's cell ('0.92× ⟨0.60, 1.4⟩'), or in parentheses
# where a few ticks print first ('1.63 → 3.01 µs (1.9×)'); a range ('4.2–130×') has none
POINT = re.compile(r"(?:^|ratio |\()([0-9.]+)\$\\times\$")


def _table_cell(r) -> str:
    """The row's ratio as Table 1's cell prints it: the mean, the median where a few trials carry
    the mean."""
    return comparison_text(r, "median" if rests_on_few(r) else "mean", covers=False)


def point(r) -> str:
    """The row's ratio as Table 1 prints it, without its interval ('1.08×'); '' where Table 1
    gives no point estimate (an interval that contains 1, or one wider than WIDE_FACTOR)."""
    if not has_point(r):
        return ""
    found = POINT.search(_table_cell(r))
    return f"{found.group(1)}$\\times$" if found else ratio_point(_quoted(r))


def _quoted(r) -> float:
    return r.median_ratio if rests_on_few(r) else r.ratio


def has_point(r) -> bool:
    """Whether the tables give the row's quoted statistic a point estimate: not where its ends
    (the timer's bound where it limits) contain 1 or lie more than a factor of WIDE_FACTOR
    apart. Read from the numbers, not from their printed form."""
    pre = "median_" if rests_on_few(r) else ""
    side, ref = ("median", "reference_median") if pre else ("mean", "reference_mean")
    num = lambda k: float(getattr(r, k, math.nan))  # noqa: E731
    sides = (num(side), num(ref))
    spreads = (num("sd"), num("reference_sd"))
    low, high = shown_ends(
        num(f"{pre}ratio"),
        num(f"{pre}ci95_low"),
        num(f"{pre}ci95_high"),
        sides if all(math.isfinite(x) for x in sides) else None,
        spreads if all(math.isfinite(x) for x in spreads) else None,
        num("resolution"),
        median=bool(pre),
    )
    if not (math.isfinite(low) and math.isfinite(high)):
        return math.isfinite(num(f"{pre}ratio"))
    return not (low <= 1 <= high) and not (low > 0 and high / low > WIDE_FACTOR)


def abi_too(mine: pd.DataFrame) -> bool:
    """The source's total contrast changes the ABI with the compartments: it has no purecap
    variant without compartments, so no row splits off the compartments' share."""
    return not (mine.share == "compartment share").any()


def shared_optimisation(meta: dict | None, experiment: str, subject: str, baseline: str):
    """The one optimisation level ('-O0') a data set records for both variants' programs of the
    experiment; None where it records none or two."""
    levels = set()
    for v in (subject, baseline):
        builds = ((meta or {}).get("variants", {}).get(v) or {}).get("builds", [])
        levels |= {b.get("optimisation") for b in builds if experiment in b.get("experiments", [])}
    level = levels.pop() if len(levels) == 1 else None
    return level if level and level.startswith("-O") else None


def debug_kernel(meta: dict | None, experiments=None) -> str:
    """'a debug kernel with INVARIANTS and WITNESS' for a data set whose logs show one, else '';
    '' too where the kernel fact covers only some files (kernel.files: one host's logs) and not
    every one of the experiments named (provenance.covers)."""
    kernel = (meta or {}).get("kernel") or {}
    debug = kernel.get("debug_options") or []
    if experiments is not None and not covers(kernel, experiments):
        return ""
    return f"a debug kernel with {listed(debug)}" if debug else ""
