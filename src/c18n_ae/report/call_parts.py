"""Section 4's table of what the extra time per call includes: one row per part (the loop's own
code, the library's purecap build, the stall on the program-counter capability's bounds, the
compartment switch), whether the ABI or the compartments bring it, and what these data say of
it. A table, not a chain of conditional sentences (B192, R192, A193, R193: the prose that said
the same was the body's one hard passage). Everything comes from results/per_call.csv through
call_cost's readers; nothing is recomputed here."""

from __future__ import annotations

import pandas as pd

from c18n_ae.common.latex import escape
from c18n_ae.common.names import abi_word, short_release
from c18n_ae.report import call_cost as cc

UNTOLD = "Not told apart by these data."
MECHANISMS = "ABI: present under {abi} with or without compartments; c18n: with compartments only."


def _abi(t: pd.DataFrame, r, abis: dict | None) -> str:
    return escape((abis or {}).get((r.source, r.subject), cc._abi(r.subject)))


def parts(t: pd.DataFrame, abis: dict | None = None) -> list[tuple[str, str]]:
    """The table's rows, (part, what these data say), for the answer's estimate from the data;
    [] where there is none or E10 answers. The switch's bound keeps its conditions (the issue's
    item 1 names the figure an upper bound on the switch alone); the stall's, where one board ran
    the loop in the ABI that avoids it (call_cost.stall_gap), has its own; the others say that
    these data cannot tell them apart, which no single sentence had made plain (B193)."""
    r, kind = cc.answer(t)
    if r is None or kind != "data":
        return []
    abi = _abi(t, r, abis)
    library = escape(cc._s(r.library)) or "the library"
    own = (
        "Little: loops of the same program that call no other library changed by under "
        f"{cc.amount(cc.OWN_SHARE_NS, digits=1)} an iteration (Table~\\ref{{tab:per-call}})."
        if cc.own_small(t, r)
        else UNTOLD
    )
    gap = cc.stall_gap(t, r, abis)
    stall = UNTOLD
    switch = f"At most {cc._about(r.per_call_ns)}, if {', and '.join(cc._conditions(r, abi))}."
    if gap:
        other = escape(abi_word(cc.STALL_FREE_ABI))
        stall = (
            f"At most about {cc._about(gap['per_call'])}, if {library} and the trampolines cost "
            f"no less in {abi} than in the {other} ABI (below)."
        )
        # what the other ABI's figure holds of the switch, said as the sum it is (B182: it is
        # no bound on the switch; A193, R193: the switch's row ignored the 15 ns)
        switch += (
            f" In the {other} ABI, it and that ABI's {library} build took about "
            f"{cc._about(gap['other'].per_call_ns)} a call beyond {escape(cc._s(r.baseline))}, "
            f"plus what \\mbox{{{gap['level']}}} saves (below)."
        )
    return [
        ("The loop's own code (ABI)", own),
        (f"{library}'s {abi} build (ABI)", UNTOLD),
        ("Stall on the program-counter capability's bounds at call and return (ABI)", stall),
        ("Compartment switch (c18n)", switch),
    ]


def table_rows(t: pd.DataFrame, abis: dict | None = None) -> str:
    """The rows as one line of LaTeX, for \\PerCallParts; '' where there are none."""
    # a little space between rows: each cell runs to several lines
    return " \\addlinespace ".join(f"{part} & {said} \\\\" for part, said in parts(t, abis))


def caption(t: pd.DataFrame, releases: dict, abis: dict | None = None) -> str:
    """'What the 60 ns of extra time per call (24.05) includes, and what these data say of each
    part.' with what the marks mean; '' where there is no table."""
    r, kind = cc.answer(t)
    if r is None or kind != "data":
        return ""
    where = escape(short_release(releases.get(r.source, r.source)))
    return (
        f"What the {cc._about(r.per_call_ns)} of extra time per call ({where}) includes, and "
        f"what these data say of each part. {MECHANISMS.format(abi=_abi(t, r, abis))}"
    )
