"""What one call into another library costs, for the paper: the abstract's first finding (short
sentences), Figure 1 (every source and workload, crossings apart from own code, confounded
contrasts left out), the table that puts the estimate from the data beside E10's direct
one, and the paragraph that sets it beside Morello's published performance work. Everything is
read from results/per_call.csv (c18n_ae.analysis.per_call) and the published figures' CSV;
nothing is recomputed."""

from __future__ import annotations

import argparse
import math
import re
import struct
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.contrasts import read_possibly
from c18n_ae.common import call_sites
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import (
    WIDE_FACTOR,
    amount,
    escape,
    figures_of,
    in_words,
    listed,
    newcommand,
    ratio_figures,
    ratio_point,
    ratio_text,
    shown_ends,
    timer_range,
)
from c18n_ae.common.names import (
    ABI_GLOSS,
    abi_word,
    compartment_name,
    from_config,
    release_labels,
    short_release,
)
from c18n_ae.report.files import PER_CALL
from c18n_ae.report.finding_facts import shared_optimisation
from c18n_ae.report.findings import mix_sentence, question_words, study_limits
from c18n_ae.report.macros import unseen_phrases

# Figure 1's two panels: the loops that call into another library and those that call none
CROSSING_HEADS = {
    False: "Code that calls into another library",
    True: "Code that calls no other library",
}
MAX_WORDS = 35  # a sentence of the abstract
ABSTRACT_WORDS = 200  # the whole abstract
WORKLOAD = {  # a metric as a workload's short name in the figure and table
    "math_cpu_ns": "math",
    "int_cpu_ns": "int",
    "float_cpu_ns": "float",
    "array_cpu_ns": "array",
    "message_wait_ns": "wait for a pipe message",
    "crossing_extra_ns": "E10 crossing",
}


def _s(x) -> str:
    return x if isinstance(x, str) else ""


def _f(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def no_cost(t: pd.DataFrame) -> pd.Series:
    """Rows whose extra time is no cost per call (per_call.csv's no_cost_per_call gives why: the
    pipe's parent waits on its child, whose calls its wait does not time)."""
    reason = t["no_cost_per_call"] if "no_cost_per_call" in t else pd.Series("", index=t.index)
    return reason.fillna("").astype(str) != ""


def crossing(t: pd.DataFrame) -> pd.DataFrame:
    return t[(t.calls_per_iteration > 0) & t.per_call_ns.notna() & ~no_cost(t)]


def own_code(t: pd.DataFrame) -> pd.DataFrame:
    return t[(t.calls_per_iteration == 0) & t.ratio.notna()]


def clean(t: pd.DataFrame) -> pd.DataFrame:
    return t[t.confounded_by.fillna("") == ""]


def answer(t: pd.DataFrame):
    """The row the abstract states: a board's E10 where one ran, else the estimate from the data
    of a contrast that differs in ABI and compartments only, the narrowest interval first."""
    board = t[t.e10_per_call_ns.notna()]
    if len(board):
        return board.iloc[0], "e10"
    rows = clean(crossing(t))
    if rows.empty:
        return None, ""
    width = (rows.per_call_high_ns - rows.per_call_low_ns) / rows.per_call_ns.abs()
    return rows.loc[width.idxmin()], "data"


def _grid(r) -> tuple:
    """A row's ratio, interval, sides, spreads and timer step, as latex.shown_ends reads them."""
    sides = (_f(r.mean_ns), _f(r.reference_mean_ns))
    sds = (_f(getattr(r, "sd_ns", math.nan)), _f(getattr(r, "reference_sd_ns", math.nan)))
    return (
        _f(r.ratio),
        _f(r.ci95_low),
        _f(r.ci95_high),
        sides if all(math.isfinite(x) for x in sides) else None,
        sds if all(math.isfinite(x) for x in sds) else None,
        _f(r.resolution_ns),
    )


def _ends(r) -> tuple[float, float]:
    """The ends Table 1 prints for a row's ratio: the timer's bound where it limits, else the
    spread within the run (latex.shown_ends)."""
    return shown_ends(*_grid(r))


def _on_timer(r) -> bool:
    """Whether Table 1 prints the row's ratio with the timer's range, ⟨a, b⟩ (latex.timer_range),
    which Figure 1 draws apart from an interval."""
    return timer_range(*_grid(r)) is not None


def _timer_limits(r, x: float, low: float, high: float) -> bool:
    """Whether a cost per call prints with the timer's bound (a tick either way, ⟨⟩) in place of
    the spread within the run: only where Table 1 prints the row's ratio with the timer's range
    (_on_timer: a metric a few ticks long, or a median), and the bound is at least as wide. A
    mean over a metric many ticks long averages the steps out (Section 3.1), so its spread stands
    for its extra time as for its ratio (a cold read met 22.12's float at 0.99x, holding,
    beside an extra time whose tick bound held 0)."""
    bound = _f(getattr(r, "timer_bound_ns", math.nan))
    return math.isfinite(bound) and _on_timer(r) and bound >= max(high - x, x - low)


def _own_rows(t: pd.DataFrame, source: str, subject: str) -> pd.DataFrame:
    rows = clean(own_code(t))
    return rows[(rows.source == source) & (rows.subject == subject)]


def own_points(t: pd.DataFrame, source: str, subject: str) -> tuple[float, float] | None:
    """The lowest and the highest point ratio Table 1 prints (ratio_figures) for the source's
    own-code workloads of this contrast (0.97 and 1.08 on 24.05); None where none was
    measured without a confound or none has a point (a ratio too uncertain prints as a range)."""
    rows = _own_rows(t, source, subject)
    points = []
    for r in rows.itertuples():
        low, high = _ends(r)
        if math.isfinite(_f(r.ratio)) and not (low > 0 and high / low > WIDE_FACTOR):
            points.append(float(ratio_figures(_f(r.ratio))))
    return (min(points), max(points)) if points else None


def own_words(t: pd.DataFrame, r, releases: dict[str, str], named: bool = True) -> str:
    """'On the 24.05 data, code that calls no other library ran at 0.97× to 1.08× hybrid's CPU
    time.': the point ratios Table 1 prints for code calling no other library on the answer's
    source (named: another source's own code, or another metric's, gives other ratios), in Table
    1's form, in the conclusion and, unnamed, in the abstract; '' where none has one.
    named=False: 'On 24.05, code that calls ...', where the sentence before names the
    data set (two cold reads of round 87 took an unnamed range for both releases')."""
    was = _own_range(t, r)
    if not was:
        return ""
    metrics = _own_rows(t, r.source, r.subject).metric
    what = "CPU time" if all(str(m).endswith("_cpu_ns") for m in metrics) else "time"
    name = escape(short_release(releases.get(r.source, "")))
    where = f"the {name} data" if name else f"\\texttt{{{escape(r.source)}}}"
    base = escape(_s(r.baseline)) or "hybrid"
    said = f"code that calls no other library ran at {was} {base}'s {what}."
    # the release alone where the sentence before names the data set (B182: 'There' unclear)
    return f"On {where}, {said}" if named else f"On {name or where}, {said}"


def _about(x: float) -> str:
    """A single run's figure in prose: two significant figures ('about 60 ns')."""
    return amount(x, digits=2)


def _iteration_amount(x: float) -> str:
    """An extra time per iteration in prose ('240 ns'): the figures of the calls' figure times
    their number, two below 100 ns and three above (the abstract, Section 4 and its loops that
    call nothing print it alike)."""
    return amount(x, digits=2 if x < 100 else 3)


def _workload(r) -> str:
    return WORKLOAD.get(r.metric, r.metric)


def _others(t: pd.DataFrame, r) -> pd.DataFrame:
    """The same source's and workload's estimates with another ABI in compartments (the
    benchmark ABI's, the tighter figure where its contrast's confound is named)."""
    o = crossing(t)
    return o[(o.source == r.source) & (o.metric == r.metric) & (o.subject != r.subject)]


def finding(
    t: pd.DataFrame, releases: dict[str, str], abis: dict | None = None, then: str = ""
) -> str:
    """The abstract's first finding, after its scope (scope) and before what its figures mix and
    rest on (findings.study_limits, built_words): short sentences, each of at most MAX_WORDS
    words, in prose figures (two significant figures; the table keeps more): the loop's ratio,
    its extra time per call on each release, then (then: slow_path_brief) what kind of call that
    is, right after the figure it qualifies, and how close code calling no other library stays
    to hybrid."""
    abis = abis or {}
    r, kind = answer(t)
    if r is None:
        return (
            "No comparison in this run differs in ABI and compartments alone, so this paper "
            "gives no cost of a call into another library."
        )
    where = escape(releases.get(r.source, r.source))
    abi = escape(abis.get((r.source, r.subject), _abi(r.subject)))
    library = escape(_s(r.library)) or "another library"
    if kind == "e10":
        out = [
            f"In E10 on the board \\texttt{{{where}}}, each call into another library took "
            f"about {_about(r.e10_per_call_ns)} more with compartments and the {abi} ABI."
        ]
    else:
        study = _s(r.interval_covers) == "within one run"  # a data set: one run per variant
        what = "CPU time" if str(r.metric).endswith("_cpu_ns") else "time"
        # whose data these are and what they compare come first (scope), then the loop's ratio
        # as Table 1 prints it, then what it comes to per call: the reader meets the study's
        # own measure and the per-call figure together
        named = compartment_name(abi)
        # a data set's answer follows the scope sentence, which defines the variant (scope); a
        # board's answer has none, so it defines the variant here
        if not study:
            named += f" (the {abi} ABI with compartments)"
        loop = f"the study's {_workload(r)} loop" if study else f"its {_workload(r)} loop"
        base = escape(_s(r.baseline)) or "hybrid"  # as scope and own_words name it
        # issue 31: the first finding a reader can repeat, the loop's ratio with what it comes
        # to per call, then how close code calling no other library stays; the other releases'
        # figures follow in sentences of their own; what a figure per call is (the question's
        # words, findings.question_words, and findings.mix_sentence) and what the figures rest
        # on (findings.study_limits) follow them, in one place
        # the iteration's extra time and its calls before the figure per call, so that the
        # figure reads as the iteration's divided among its calls (A175, B175, R175: 'per libm
        # call' alone promised a crossing cost that Section 4 then took back)
        whole, k = _f(r.extra_per_iteration_ns), _f(r.calls_per_iteration)
        # the other releases' figures beside it, in parentheses (the abstract's word count, once
        # it ends on what one board bounds: A183, R183)
        # ('about' once: the sentence's printed words stay within 35)
        also = _elsewhere(t, r, releases).replace("(about ", "(", 1)
        if math.isfinite(whole) and k > 1:
            # the iteration's extra time, then what it comes to for each of its calls (A230,
            # R230: 'for each iteration's four libm calls' charged all of it to the calls)
            # no 'about': two figures, like the iteration's, and the sentence within MAX_WORDS as
            # printed (a tie is a space: 36 words in the PDF)
            per = (
                f"{_iteration_amount(whole)} more per iteration, {_about(r.per_call_ns)} "
                f"for each of its {in_words(int(k))} {library} calls{also}"
            )
        else:
            per = f"about {_about(r.per_call_ns)} more per {library} call{also}"
        first = (
            f"On {where}, {named} ran {loop} at {ratio_point(_f(r.ratio))} {base}'s {what}: {per}"
        )
        own = _own_clause(t, r)
        together = f"{first}; {own}."
        if own and len(printed_words(together)) <= MAX_WORDS:
            return " ".join(x for x in (together, then) if x)
        if own:  # a sentence of its own, right after the finding whose data set it shares
            return " ".join(
                x for x in (f"{first}.", then, own_words(t, r, releases, named=False)) if x
            )
        out = [x for x in (f"{first}.", then) if x]
    own = own_words(t, r, releases)
    if own:
        out.append(own)
    return " ".join(out)


def abstract_mix(t: pd.DataFrame, abis: dict, sets: list[dict]) -> str:
    """findings.mix_sentence where a data set answers (scope), '' otherwise: said in
    finding_then, and then left out of the limits (findings.study_limits' mix)."""
    return mix_sentence(sets) if scope(t, abis) else ""


def finding_then(t: pd.DataFrame, abis: dict, sets: list[dict], reduction) -> str:
    """What the abstract says right after the first finding's figure: what it combines
    (abstract_mix), then the kind of call it is of (slow_path_brief), before code calling
    nothing (A229, R229: the two apart read as the figure taken back, then qualified again;
    B229: one definition of the figure)."""
    return " ".join(x for x in (abstract_mix(t, abis, sets), slow_path_brief(t, reduction)) if x)


def _own_clause(t: pd.DataFrame, r) -> str:
    """'code calling no other library ran at 0.97× to 1.08×': own_words' ratios as a clause
    of the first finding's sentence, whose source, baseline and statistic it shares; '' where
    none has one."""
    was = _own_range(t, r)
    # 'calling': the clause fits the first finding's sentence (MAX_WORDS)
    return f"code calling no other library ran at {was}" if was else ""


def _own_range(t: pd.DataFrame, r) -> str:
    """'0.97× to 1.08×': own_points in Table 1's form, one point where both ends print alike;
    '' where none has one."""
    ends = own_points(t, r.source, r.subject)
    if not ends:
        return ""
    low, high = (ratio_point(x) for x in ends)
    return low if low == high else f"{low} to {high}"


def built_words(t: pd.DataFrame, level: str | None) -> str:
    """What the first finding's figures rest on, for the abstract's limits (findings.
    study_limits): 'one run per variant of programs built unoptimised (-O0)' for a data set's
    answer
    (one run each, what its intervals cannot cover), the level where both sides of every quoted
    figure share one (quoted_level); '' where a board answers or nothing is recorded."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    study = _s(r.interval_covers) == "within one run"
    # the study's programs, not the libraries they call (A145, B145)
    built = f"programs built {_level_words(level)}" if level else ""
    if study:
        return f"one run per variant of {built}" if built else "one run per variant"
    return built


def scope(t: pd.DataFrame, abis: dict | None = None) -> str:
    """The abstract's words on whose data these are and what they compare, where the first
    finding is a data set's: 'We re-analyse an earlier study's public Morello data, which compare
    purecap + c18n (every pointer a capability) with hybrid (plain 64-bit pointers).', each
    side's ABI glossed (names.ABI_GLOSS); the finding
    follows it, then what its figures mix and rest on (findings.study_limits); '' where a board
    answers."""
    r, kind = answer(t)
    if r is None or kind != "data" or _s(r.interval_covers) != "within one run":
        return ""
    raw = (abis or {}).get((r.source, r.subject), _abi(r.subject))
    abi, base = escape(raw), _s(r.baseline) or "hybrid"
    ours, theirs = ABI_GLOSS.get(raw), ABI_GLOSS.get((abis or {}).get((r.source, base), base))
    if ours and theirs:  # what each side does to a pointer, where the reader first meets them
        return (
            "We re-analyse an earlier study's public Morello data, which compare "
            f"{compartment_name(abi)} ({ours}) with "
            f"{escape(base)} ({theirs})."
        )
    return (
        "We re-analyse an earlier study's public Morello data, which compare "
        f"{compartment_name(abi)} (the {abi} ABI with compartments) with {escape(base)}."
    )


def _level_words(level: str) -> str:
    """An optimisation level as a reader outside compilers reads it: '-O0' -> 'unoptimised
    (-O0)'; any other level as the data record it."""
    # unbroken: a line may not end at its hyphen
    return f"unoptimised (\\mbox{{{escape(level)}}})" if level == "-O0" else escape(level)


def conclusion_finding(t: pd.DataFrame, releases: dict[str, str], abis: dict | None = None) -> str:
    """The conclusion's answer in one sentence, the abstract's first finding (finding) in other
    words: the figures (two significant) and that they hold the ABI and the switch together, in
    Figure 1's words. Not the abstract's build level nor its code calling no other library again
    (B203, R203: the conclusion repeated the abstract nearly word for word). No rate scaled from
    it: a figure of one workload's unoptimised loop says nothing of programs in general."""
    abis = abis or {}
    r, kind = answer(t)
    if r is None:
        return (
            "No comparison in these data differs in ABI and compartments alone, so they give no "
            "cost of a call into another library."
        )
    abi = escape(abis.get((r.source, r.subject), _abi(r.subject)))
    library = escape(_s(r.library)) or "another library"
    if kind == "e10":
        where = escape(releases.get(r.source, r.source))
        out = [
            f"Compartments with the {abi} ABI cost about {_about(r.e10_per_call_ns)} on each "
            f"call into another library, as E10 measured it on the board \\texttt{{{where}}}."
        ]
    else:
        study = _s(r.interval_covers) == "within one run"
        where = escape(short_release(releases.get(r.source, r.source)))
        where = f"the study's {where} data" if study else f"\\texttt{{{where}}}"
        also = _elsewhere(t, r, releases, prose=True)
        # the figure's workload named, not 'where code calls into another library': one loop's
        # calls give it, and a cold read set it against 22.12's malloc and free, whose one call
        # per timed region shows no such cost within the timer's steps
        out = [
            # 'slowed', a verb a reader need not parse twice (B145)
            f"{compartment_name(abi).capitalize()} slowed the {escape(_workload(r))} "
            f"loop, which calls into {library}, by "
            f"about {_about(r.per_call_ns)} a call on {where}"
            + (f", and {also}" if also else "")
            + ", for the ABI and the switch together."
        ]
        # what the figure bounds is Section 4's alone (R167, B167: the conclusion repeated the
        # abstract and the bound; A160: two statements of the conditions differed)
        return " ".join(out)
    own = own_words(t, r, releases)
    if own:
        out.append(own)
    return " ".join(out)


# the ABI that Morello's early performance report says avoids the program-counter bounds stall
# on calls into another library (beside, other_abis)
STALL_FREE_ABI = "purecap-benchmark"


def other_abis(t: pd.DataFrame, abis: dict | None = None) -> str:
    """Appendix D's sentence (beside the per-call table: its contrast is confounded) on the same
    loop's estimate with another ABI in compartments: what
    it is, what else its contrast differs in (an optimisation level changes the calling loop and
    its call sites), and, for the ABI that avoids the program-counter bounds stall
    (STALL_FREE_ABI) with a lower estimate, that mechanism, as one the data cannot weigh; ''
    where there is none."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    out = []
    # the answer's host and ABI in compartments, as the sentence on one board names them
    host = _named_host(r)
    mine = compartment_name(
        escape(abi_word((abis or {}).get((r.source, r.subject), _abi(r.subject))))
    )
    for o in _others(t, r).itertuples():
        full = (abis or {}).get((o.source, o.subject), _abi(o.subject))
        abi = escape(abi_word(full))  # Section 2's short name, used from then on
        said = f"The same estimate with the {abi} ABI is about {_about(o.per_call_ns)}"
        also = _s(o.confounded_by)
        # which way the level moves it (a cold read took the lower figure for a bound on the
        # switch from above): a subject built at a higher level runs its own loop faster. The
        # levels said once, as the build of each side (an editor: said twice before)
        levels = re.search(r"optimisation -O(\d+) against -O(\d+)", also)
        if levels and levels[1] != levels[2]:
            rest = ", ".join(x for x in also.split(", ") if x != levels[0])
            higher = int(levels[1]) > int(levels[2])
            less, way = ("less", "lowers") if higher else ("more", "raises")
            said += (
                f", but its {compartment_name(abi)} side was built at -O{levels[1]} and "
                f"{escape(_s(o.baseline)) or 'its baseline'} at -O{levels[2]}"
            )
            out.append(said + (f"; it also differs in {escape(rest)}." if rest else "."))
            # what the level does, and no guess at what a like build would give (a cold read
            # of round 88: 'would likely be larger' rested on nothing shown)
            out.append(
                f"At -O{levels[1]} its loop did {less} of its own work, which {way} the "
                "estimate by an amount these data cannot give, and its call sites differ."
            )
        else:
            if also:
                said += (
                    f", but that contrast also differs in {escape(also)}, which changes the loop "
                    "and its call sites"
                )
            out.append(said + ".")
        # one board under both ABIs in compartments, where their files name one host: the gap
        # between their figures is no board's (B162, B163, A161: the cleanest contrast there is)
        if host and host == _named_host(o):
            out.append(
                f"The {compartment_name(abi)} files and the {mine} files name the same host, "
                f"{escape(host)}, so those two ran on one board."
            )
        if full == STALL_FREE_ABI and o.per_call_ns < r.per_call_ns:
            # the published mechanism that could explain the gap, said as a reading, not a result
            out.append(
                # no more than a reading: a switch may set the callee's bounds in either ABI (a
                # cold read: 'which would fit much of the gap' was unsupported)
                f"The {abi} ABI avoids the stall on calls that change the program-counter "
                "capability's bounds (Section~\\ref{sec:background}), though a compartment switch "
                "may still change them; these data cannot say how much of the gap between "
                f"{_about(r.per_call_ns)} and {_about(o.per_call_ns)} the stall explains."
            )
    return " ".join(out)


# workloads whose result the study's programs never read, so that a higher optimisation level
# may drop their work: the array is filled, doubled and halved, then freed unread
# (cpu-in-experiment-purecap.c, lines 123 to 146; Appendix A.3 says so)
UNREAD_AT_HIGHER_LEVEL = {"array_cpu_ns"}

# the loops that call nothing weigh a build level's share of the same-board gap only where their
# largest gap is a small part of the calling loop's (same_board_words)
LEVEL_SHARE = 0.1


# a contrast confounded by its build levels alone, as analysis.contrasts records it: the
# subject's level, then the baseline's
LEVELS = re.compile(r"optimisation (-O\d+) against (-O\d+)")


def _same_board_other(t: pd.DataFrame, r, abis: dict | None = None):
    """The answer's contrast with the ABI that avoids the stall (STALL_FREE_ABI), where both
    sides in compartments name one host and differ in nothing recorded but their build level,
    with the two builds' gaps on the loops that call nothing (subject minus other, per
    iteration): (row, level, gaps), or None."""
    host = _named_host(r)
    if not host:
        return None
    own = own_code(t)  # each side's loops that call nothing, the other's level and all (not clean)
    for o in _others(t, r).itertuples():
        full = (abis or {}).get((o.source, o.subject), _abi(o.subject))
        levels = LEVELS.fullmatch(_s(o.confounded_by))
        if full != STALL_FREE_ABI or _named_host(o) != host or not levels:
            continue
        mine, theirs = (
            own[(own.source == x.source) & (own.subject == x.subject)]
            .set_index("metric")
            .extra_per_iteration_ns
            for x in (r, o)
        )
        gaps = (mine - theirs).dropna()
        if gaps.empty or len(gaps) < len(mine):
            return None
        return o, levels[1], gaps
    return None


def _kept(gaps: pd.Series) -> pd.Series:
    """The loops that call nothing whose work a higher level keeps (UNREAD_AT_HIGHER_LEVEL's
    may be dropped, so their saving says nothing of the calling loop's; B184)."""
    return gaps[[m not in UNREAD_AT_HIGHER_LEVEL for m in gaps.index]]


def _compiler_part(o) -> dict | None:
    """The compilers a row's contrast names apart ('cc' against 'clang-morello'), as its
    possibly-also note records them; None where they share one."""
    return _possibly_part(o, "compiler")


def release_compilers(metas: dict, r) -> str:
    """What the other data sets' binaries record of their variants' compilers, where they record
    one build for all: 'though their binaries record one compiler build, clang 13.0.0' (A189:
    'whose versions no file records' was wrong; the binaries' .comment sections say); '' where
    none does. The releases paragraph then leaves the compilers' names out (A203, A204, B204: a
    difference of names only, raised and cancelled in one sentence; Table 1 names them) and
    names them apart only where this is ''."""
    for name, meta in metas.items():
        if r is None or name == r.source:
            continue
        records = call_sites.compilers(meta)
        build = call_sites.one_build(records, *(meta.get("variants") or {}))
        if build:
            return f"though their binaries record one compiler build, {build}"
    return ""


def stall_gap(t: pd.DataFrame, r, abis: dict | None = None) -> dict | None:
    """The answer's contrast with the ABI that avoids the stall on one board (_same_board_other),
    where the two builds' loops that call nothing make the level's share small (LEVEL_SHARE) and
    some keep their work (_kept): {'other': its row, 'level': '-O2', 'per_call': the gap per
    call}; None otherwise."""
    found = _same_board_other(t, r, abis)
    if found is None:
        return None
    o, level, gaps = found
    gap = _f(r.extra_per_iteration_ns) - _f(o.extra_per_iteration_ns)
    k = _f(r.calls_per_iteration)
    if not (math.isfinite(gap) and gap > 0 and k > 0 and _iteration_times(o)):
        return None
    if gaps.abs().max() >= LEVEL_SHARE * gap or _kept(gaps).empty:
        return None
    return {"other": o, "level": level, "per_call": gap / k}


def same_board_words(t: pd.DataFrame, abis: dict | None = None, records: dict | None = None) -> str:
    """Section 4's paragraph on the answer's loop in the ABI that avoids the stall, on the board
    the answer's compartment side names: its figure and the gap to the answer's, how it was built
    (records: each variant's compiler build, call_sites.compilers; A189), and why the gap gives
    no figure for the stall alone (its build level; no bound, A229 to R230). Only where
    the loops that call nothing show the build level's share of the gap to be small (stall_gap);
    '' otherwise. No bound on the other ABI's switch (A197, B197, R197: that chain read as six
    conditional inferences)."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    gap = stall_gap(t, r, abis)
    if gap is None:
        return ""
    o, level = gap["other"], gap["level"]
    k = _f(r.calls_per_iteration)
    abi = escape(abi_word(STALL_FREE_ABI))
    full = escape((abis or {}).get((r.source, r.subject), _abi(r.subject)))
    mine = compartment_name(escape(abi_word(full)))
    same = f"With the same {in_words(int(k))} calls, it" if _f(o.calls_per_iteration) == k else "It"
    compiler = _compiler_part(o) if not _compiler_part(r) else None
    build = call_sites.one_build(records, r.subject, o.subject, _s(r.baseline))
    # a compiler named apart only where the binaries record no one build for all three (A189);
    # the one build is Table 1's to name (R210, B210; A229 to B231: read against Table 1's names;
    # A236, B236: the names beside it read as a detour), and a compiler not shown to be the same
    # build may have changed the loop's own code too
    apart_compiler = compiler if compiler and not build else None
    by = f", by \\texttt{{{escape(apart_compiler['subject'])}}}" if apart_compiler else ""
    other = " and the other compiler" if apart_compiler else ""
    base = escape(_s(r.baseline)) or "hybrid"
    apart = _about(gap["per_call"])
    rest = _about(o.per_call_ns)
    # the board by name (A215, R215, A217, A218: 'the board the ... files name' left it to find)
    named = _named_host(r)
    board = f"\\texttt{{{escape(named)}}}, " if named else ""
    # no lower bound on the rest (B202 asked for one): it is the other ABI's own figure again, 60
    # less 45, which A214 read as that figure
    # the answer's level, which its clean contrast shares with the baseline: the one the other
    # ABI's contrast names against its own
    theirs = LEVELS.fullmatch(_s(o.confounded_by))[2]
    levels = f"It was built \\mbox{{{level}}}, the other two \\mbox{{{theirs}}}{by}."
    return (
        # the subtraction and why it isolates nothing: no bound on the stall (A229, B229, R229,
        # A230, B230, R230: the bound under its conditions read as nearly empty, every round)
        f"The study also ran the loop with c18n in the {abi} ABI, which avoids the stall outside "
        "compartments, on "
        f"{board}the board the {mine} files name. {same} took about {rest} a call more than "
        f"{base} (Table~\\ref{{tab:per-call}}), {apart} less than {mine}. {levels} The "
        f"{apart} gap therefore mixes the stall with what \\mbox{{{level}}}{other} saved in the "
        "loop's own code and gives no figure for the stall alone."
    )


def _possibly_part(r, kind: str) -> dict | None:
    """The part of a row's possibly-also note of one kind (read_possibly), None where none is."""
    parts = read_possibly(_s(getattr(r, "possibly_also", "")))
    return next((p for p in parts if p["kind"] == kind), None)


def _host_part(r) -> dict | None:
    """The board named by one side's files only, as a row's possibly-also note records it
    (read_possibly: 'named', 'host', 'other'); None where there is none."""
    return _possibly_part(r, "host")


def _named_host(r) -> str:
    """The host a row's subject's files name (_host_part); '' where none is named."""
    part = _host_part(r)
    return part["host"] if part and part["named"] == r.subject else ""


def _other_sources(t: pd.DataFrame, r) -> pd.DataFrame:
    """The same workload's and contrast's per-call rows on the other data sets, as Figure 1 draws
    them (no confound): what the first finding, the worked estimate and the releases' sentence
    set beside r."""
    o = clean(crossing(t))
    return o[(o.metric == r.metric) & (o.subject == r.subject) & (o.source != r.source)]


def built_level_sentence(level: str | None) -> str:
    """Threats' sentence on the builds: 'Both sides of the extra time per call were built at -O0;
    Table 2 gives every variant's build.' where one level covers them (quoted_level), in place of
    each data set's list of builds, which Table 2 gives (A162, R163, A164, R165, B165: the list
    repeated the table); each data set's list (\\DatasetOptimisation) otherwise."""
    if not level:
        return "\\DatasetOptimisation{}"
    return (
        f"Both sides of the extra time per call were built at {escape(level)}; "
        "Table~\\ref{tab:setup} gives every variant's build."
    )


def quoted_level(t: pd.DataFrame, releases: dict[str, str], metas: dict) -> str | None:
    """The one optimisation level ('-O0') that the data sets record for both sides of every
    figure the first finding quotes (the answer and the same contrast on the other data sets,
    finding's parenthesis); None where E10 answers, or any side records none or another level."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return None
    o = _other_sources(t, r)
    rows = [r, *(x for _, x in o.iterrows() if x.source in releases)]
    levels = {
        shared_optimisation(metas.get(x.source), x.experiment, x.subject, x.baseline) for x in rows
    }
    return levels.pop() if len(levels) == 1 else None


def _elsewhere(t: pd.DataFrame, r, releases: dict[str, str], prose: bool = False) -> str:
    """' (about 40 ns on CheriBSD 22.12)', the release named in full as the answer's is (a
    cold read met a bare '22.12' in the abstract): the same workload's and contrast's figure on
    the other data sets, as Figure 1 draws them (no confound); '' where there is none. prose:
    'about 40 ns on 22.12 and about ...', out of any parenthesis and each release without the
    system's name, for a sentence that names the answer's release so (the conclusion's 'the
    study's 24.05 data')."""
    o = _other_sources(t, r)
    given = [
        (_about(x.per_call_ns), releases[x.source]) for x in o.itertuples() if x.source in releases
    ]
    if prose:
        return " and ".join(f"about {f} on {escape(short_release(n))}" for f, n in given)
    # a data set named beside its release, 'CheriBSD 24.05 (copy)', in brackets inside the
    # parenthesis: no parenthesis inside another (the item 2; a third data set of one
    # release nested them)
    said = [f"about {f} on " + escape(n).replace("(", "[").replace(")", "]") for f, n in given]
    return f" ({'; '.join(said)})" if said else ""


def _compilers(node) -> set[str]:
    """Every compiler a data set's description names (its builds' compiler keys), recorded ones."""
    if isinstance(node, dict):
        out = {str(v) for k, v in node.items() if k == "compiler" and v != "not recorded"}
        return out.union(*(_compilers(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_compilers(v) for v in node))
    return set()


def _apart(a: dict, b: dict, subject: str) -> list[str]:
    """What else differs between two data sets (dataset.yaml) beside the release, as far as each
    records it: how c18n was enabled, the compilers (named apart), the boards and kernels."""
    out = []
    by = [((m.get("variants") or {}).get(subject) or {}).get("c18n_by") for m in (a, b)]
    if by[0] != by[1]:
        out.append("how c18n was enabled")
    if _compilers(a) != _compilers(b):
        out.append("the compilers")  # the releases paragraph says what their names leave open
    if any(a.get(k) != b.get(k) for k in ("host", "kernel")):
        out.append("the boards and kernels")  # round 138: a trailing clause that led nowhere
    return out


def release_gap(t: pd.DataFrame, releases: dict[str, str], metas: dict) -> str:
    """Section 4.1's sentences on the per-call figure across releases ('From 22.12 to 24.05, the
    extra time per call went from about 41 to about 60 ns, and both sides moved: against their
    22.12 times, hybrid's time per iteration fell by 6.2 % and purecap + c18n's rose by 7.2 %.
    These data cannot tell whether the change comes from
    the release (for example, changes to c18n's trampolines) or from how c18n was enabled, ...');
    '' without such a figure on two data sets."""
    r, kind = answer(t)
    if r is None or kind == "e10":
        return ""
    o = _other_sources(t, r)
    out = []
    here = escape(short_release(releases.get(r.source, r.source)))
    for x in o.itertuples():
        if x.source not in releases:
            continue
        there = escape(short_release(releases[x.source]))
        way = "lower" if x.per_call_ns < r.per_call_ns else "higher"
        # both sides of the gap, in the times Section 4.1 divides: the baseline moved too (a
        # note of the last sessions: hybrid's 498.3 against 467.6 ns went unsaid); the gap's
        # figures in the same sentence, which Section 4.1 gave already (three readers of rounds
        # 143 to 146: a sentence repeating them)
        # each figure from one release to the other, in that order (A148, A150: 'Both sides of
        # the gap … moved: … against …' had to be parsed twice)
        mine, theirs = _iteration_times(r), _iteration_times(x)
        if mine and theirs:
            (s_here, b_here, s_there, b_there), unit = _dividing_times((*mine, *theirs))
            base, subject = escape(_s(r.baseline)), escape(_s(r.subject))

            # which way and how far each side moved, not its times again: the paragraph on the
            # estimate gave all four (B158); each as a share of its time on the other data set,
            # one base for both (A170, B170, R170: 6.6 % and 7.2 % were on two bases; B169: a
            # split of the change per call read as an attribution)
            def moved(now: str, before: str) -> str:
                share = abs(float(now) - float(before)) / float(before) * 100
                verb = "fell" if float(now) < float(before) else "rose"
                return f"{verb} by {_pct(share, digits=2)}"

            # how far each side moved, no split of the change per call (A175, B175, R175: the
            # split mixed units and the next sentence says the data cannot explain it; B169: it
            # read as an attribution); Section 5's 2 to 6 % sets the scale of drift
            out.append(
                f"From {there} to {here}, the extra time per call went from about "
                f"{_num(x.per_call_ns)} to about {_about(r.per_call_ns)}, and both sides "
                f"moved: against their {there} times, {base}'s time per iteration "
                f"{moved(b_here, b_there)} and {subject}'s {moved(s_here, s_there)}."
            )
        else:
            out.append(
                f"The extra time per call is {way} on {there}: about "
                f"{_about(x.per_call_ns)} against about {_about(r.per_call_ns)} on {here}."
            )
        apart = _apart(metas.get(r.source, {}), metas.get(x.source, {}), r.subject)
        if apart:
            # the release includes c18n's own code, its trampolines among it (a cold read of
            # round 87 named them as the likeliest cause, and found the paper silent); said as a
            # question of where the gap comes from (round 95 could not tell which items were
            # the causes and which the things compared; round 97 misparsed 'among it')
            out.append(
                "These data cannot tell whether the change comes from the release (for example, "
                f"changes to c18n's trampolines) or from {listed(apart, 'or')}."
            )
    return " ".join(out)


def _times(n: int) -> str:
    """An iteration count in math mode: a power of ten as one ('10^{8}'), else its figures."""
    if n > 0 and 10 ** round(math.log10(n)) == n:
        return f"10^{{{round(math.log10(n))}}}"
    return f"{n:,}".replace(",", r"\,")


_UNITS = (("s", 1e9), ("ms", 1e6), ("µs", 1e3))  # a time's unit: the largest it reaches
_SI_TIME = {"s": r"\si{\second}", "ms": r"\si{\milli\second}", "µs": r"\si{\micro\second}",
            "ns": r"\si{\nano\second}"}  # fmt: skip


def _time_places(values: tuple[float, ...], pick=max) -> tuple[str, float, int]:
    """The unit, scale and decimal places that print times alike: the unit the picked value
    (pick: max or min of them) reaches, and three significant figures of it."""
    unit, scale = next(((u, f) for u, f in _UNITS if pick(values) >= f), ("ns", 1.0))
    return unit, scale, max(0, 2 - math.floor(math.log10(pick(values) / scale)))


def _dividing_times(values: tuple[float, ...]) -> tuple[list[str], str]:
    """Times as the worked estimate prints them: four significant figures of the larger, all in
    its unit and to the same place, so that their difference is what the text subtracts and
    divides to the figure printed (cold reads: 660 and 498 ns give 40.5, printed 41; then 708/468
    beside 660.4/498.3 read as two forms, and 707.8 beside Table 6's 70.8 s as a third), with
    the unit's macro."""
    unit, scale, places = _time_places(values)
    return [f"{x / scale:.{places + 1}f}" for x in values], _SI_TIME[unit]


def _iteration_times(x) -> tuple[float, float] | None:
    """A row's two mean times per iteration (subject, baseline), None where one is missing."""
    a, b, n = _f(x.mean_ns), _f(x.reference_mean_ns), _f(x.iterations)
    return (a / n, b / n) if all(math.isfinite(v) and v > 0 for v in (a, b, n)) else None


def _same_way(t: pd.DataFrame, r, releases: dict) -> str:
    """'On the 22.12 data, 660.4 ns and 498.3 ns an iteration give about 41 ns the same way. ': the
    worked estimate's other data sets (those _elsewhere quotes), their two times per iteration,
    so that a reader can check each figure the abstract gives; '' where there is none."""
    out = []
    for x in _other_sources(t, r).itertuples():
        times = _iteration_times(x)
        if x.source not in releases or times is None:
            continue
        (sa, sb), u = _dividing_times(times)
        where = escape(short_release(releases[x.source]))
        out.append(
            f"On the {where} data, {sa}~{u} and {sb}~{u} an iteration give about "
            f"{_about(x.per_call_ns)} the same way. "
        )
    return "".join(out)


def arithmetic(t: pd.DataFrame, releases: dict, abis: dict | None = None) -> str:
    """Section 4.1's worked estimate, so that a reader can check it: the answer's two mean times
    per iteration (_dividing_times) and the iterations of a trial they come from, its calls per
    iteration, and the cost per call as the abstract gives it, then the other data sets' figures
    the same way. '' where the answer is E10's direct measurement or no row has the numbers."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    a, b, n, k = _f(r.mean_ns), _f(r.reference_mean_ns), _f(r.iterations), r.calls_per_iteration
    if not all(math.isfinite(x) and x > 0 for x in (a, b, n)):
        return ""
    # per iteration, four figures, as the per-call table prints its times per trial (a cold
    # read met 70.78 s here and 70.8 s there when both were given)
    (ia, ib), ui = _dividing_times((a / n, b / n))
    what = "CPU time" if str(r.metric).endswith("_cpu_ns") else "time"
    abi = escape((abis or {}).get((r.source, r.subject), _abi(r.subject)))
    where = escape(short_release(releases.get(r.source, r.source)))
    where = f"the {where} data" if r.source in releases else f"\\texttt{{{where}}}"
    calls = [escape(x.strip()) for x in _s(r.calls).split(",") if x.strip()]
    named = f" ({listed(calls)})" if calls else ""
    library = escape(_s(r.library)) or "another library"
    return (
        # the division spelled out (round 87: 'a trial's over its' read like a typo)
        f"On {where}, the {escape(_workload(r))} loop's mean {what} per iteration (a trial's "
        f"{what} divided by its ${_times(int(n))}$ iterations) was {ia}~{ui} in "
        f"{compartment_name(abi)} and "
        f"{ib}~{ui} in {escape(r.baseline)}. Each iteration makes "
        # a call and its return cross the boundary twice (a cold read met 'per call, with its
        # return' here and 'crosses twice' in Appendix A.5 and asked which a switch is)
        # divided among the calls, not caused by their crossings (B217: 'so' charged all of the
        # extra time to the crossings before the next paragraph said what it includes)
        f"{in_words(int(k))} calls into {library}{named}, each crossing into it and back. "
        "Divided among them, the extra time per iteration gives the extra time per call, "
        f"$({ia} - {ib})$~{ui}~/~${int(k)} \\approx$ {_about(r.per_call_ns)}. "
        # what the extra time includes, the loop's own code among it, is the next paragraph's
        # (bound_words; four readers of rounds 141 to 143: a closing clause on the build level
        # here had no stated purpose)
        f"{_same_way(t, r, releases)}"
    ).rstrip()


# where a library's path for large arguments starts: the smallest double whose high word is the
# one the library's source compares (published/libm_argument_reduction.csv)
def _smallest(high_word: str) -> float:
    return struct.unpack(">d", struct.pack(">II", int(high_word, 16), 0))[0]


def _threshold_tex(text: str) -> str:
    """'2^20*(pi/2)', as the library's source writes it, in mathematics: $2^{20}\\cdot\\pi/2$."""
    text = re.sub(r"\^(\d+)", r"^{\1}", text).replace("*", "\\cdot ").replace("pi", "\\pi ")
    return f"${text.replace('(', '').replace(')', '').replace(' /', '/')}$"


def _slow_path(r, reduction: pd.DataFrame | None) -> tuple | None:
    """(the library's row of published/libm_argument_reduction.csv, the share of the loop's
    integer arguments on its slower path, the highest argument, its functions' names escaped)
    where the answer's library has such a path and the data set records the arguments its calls
    get (dataset.yaml argument_range), and most of them take it; None otherwise."""
    if reduction is None or not len(reduction):
        return None
    low, high = _f(getattr(r, "argument_low", math.nan)), _f(getattr(r, "argument_high", math.nan))
    rows = reduction[reduction.library == _s(r.library)]
    if rows.empty or not (math.isfinite(low) and math.isfinite(high) and high > low):
        return None
    x = rows.iloc[0]
    first = max(low, math.ceil(_smallest(str(x.smallest_high_word))))
    share = max(0.0, (high - first + 1) / (high - low + 1))
    if share < 0.5:
        return None
    return x, share, high, [escape(f.strip()) for f in str(x.functions).split(",")]


def slow_path_brief(t: pd.DataFrame, reduction: pd.DataFrame | None) -> str:
    """The abstract's sentence on the kind of call the figure is of, right after the figure
    (finding's then, after findings.mix_sentence): 'Those libm calls are expensive, as sin, cos
    and tan take libm's slower path for large arguments, so the figure need not hold for cheaper
    calls.' (A214, B214, A219, B219, R219: without it a reader repeats the figure as the
    cost of any call; the baseline's time per call, A215, B215, R215, also counts the loop's own
    code; A220, B220, R220, A225, B225, R225: the fact alone did not say what follows from it;
    A221: 'so' skipped a step; A226, B226, R226: 'mostly' left open what it qualified, so the
    functions are named; A229, R229: 'not of a compartment switch alone' read as disowning the
    figure, which the sentence before it, on what the figure combines, already says; short,
    so that a third data set keeps the abstract within 200 words); '' where the answer is not
    the data's, its calls take no such path (_slow_path) or the path's functions make half its
    calls or fewer."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    found = _slow_path(r, reduction)
    if found is None:
        return ""
    # 'those calls are expensive' only where most of them are: the path's functions' share of
    # the iteration's calls, times the share of arguments on it (three of four, 98 %: about 74 %)
    _, share, _, names = found
    k = _f(r.calls_per_iteration)
    if not (k > 0 and min(len(names), k) / k * share > 0.5):
        return ""
    library = escape(_s(r.library))
    return (
        f"Those {library} calls are expensive, as {listed(names)} take {library}'s slower path "
        "for large arguments, so the figure need not hold for cheaper calls."
    )


def slow_path_words(r, reduction: pd.DataFrame | None, abi: str = "purecap") -> str:
    """'Each call does much work inside libm: the argument is the loop's index, which runs to
    10^8, so 98 % of arguments are at least 2^20·π/2, where sin, cos and tan reduce them by a
    slower path [msun]. Hybrid's iteration takes 467.6 ns, so its four calls average at most
    about 117 ns each, the loop's own code included.', before what
    the extra time includes and the bound it loosens (A147: which argument
    was meant had to be inferred):
    where the answer's library has such a path (published/libm_argument_reduction.csv) and the
    data set records the arguments its calls get
    (dataset.yaml argument_range), the share of integer arguments on it, said where it is most of
    them (three expert readers of rounds 129 and 130: the figure is of calls that do much work
    inside libm, so its purecap build may hold much of the extra time); '' otherwise."""
    found = _slow_path(r, reduction)
    if found is None:
        return ""
    x, share, high, names = found
    functions = listed([f"\\texttt{{{f}}}" for f in names])
    library = escape(_s(r.library))
    below = high + 1
    exponent = math.log10(below)
    bound = f"$10^{{{int(exponent)}}}$" if exponent == int(exponent) else f"{int(below):,}"
    # the link from the slower path to the bound said outright (round 138: both sides take the
    # path; round 139: 'It may be loose.' alone left the reader to work out why)
    # how much work each call does, in the baseline's own time per call (A173, B173: 'much work'
    # read as circular without it; B167 had worked it out), in two sentences (R173: one held all)
    times = _iteration_times(r)
    k = _f(r.calls_per_iteration)
    per = ""
    if times and k > 0:
        (_, b), unit = _dividing_times(times)
        per = (
            # 'at most': the iteration's whole time, its own code and inline sqrt included,
            # divided among the calls (A219, B217, B224, R225: read as a measured call's time),
            # said with why (A229) in a sentence of its own (A229, B229: three facts in a clause),
            # as an average (B232: 'a call' read as each call's, log's included)
            f" {escape(_s(r.baseline)).capitalize()}'s iteration takes {b}~{unit}, so its "
            f"{in_words(int(k))} calls average at most about {amount(times[1] / k)} each, the "
            "loop's own code included."
        )
    return (
        # what it means, then the facts (A180, B180, R180: the facts alone never said why they
        # matter); first (R177: the most important fact about what 'per call' means sat in a
        # parenthesis mid-paragraph; A177: 'may account for much of it' read as a weighing the
        # same-board benchmark figure points against), so the reader weighs libm's build
        # the facts first, then what follows from them (B229: an upper bound on a call's time
        # cannot show it expensive; the slower path does)
        # cause before effect (B238: the clauses read garbled in the other order)
        f"Each call does much work inside {library}: the argument is the loop's index, which runs "
        f"to {bound}, so {round(share * 100)}\\,\\% of arguments are at least "
        f"{_threshold_tex(str(x.threshold_as_published))}, where {functions} reduce them by a "
        f"slower path~\\cite{{freebsd-msun}}.{per}"
    )


def bound_words(t: pd.DataFrame, abis: dict | None = None, reduction=None) -> str:
    """Section 4's paragraph on what the estimate includes, in plain sentences: where the library
    takes a slower path for most of the loop's arguments, how much work each call does there,
    first (slow_path_words); the parts; what the loops that call nothing suggest of the loop's
    own code (own_small). That the parts bound the switch alone, and when, is Threats' to say
    (upper_words; A195, B195, R195: the conditions in the same sentence were reread, and the
    guide keeps qualifiers in one place). '' where E10 answers."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    abi = escape((abis or {}).get((r.source, r.subject), _abi(r.subject)))
    library = escape(_s(r.library)) or "the library"
    slow = slow_path_words(r, reduction, abi)
    # the parts only; the bound on the switch with its conditions follows them in per-call.tex
    # (upper_words), why the boards cannot be checked is Threats' (boards_open_words)
    # what libm's build adds and the parts in one sentence (A236, B236: two sentences said it);
    # 'includes' (A237, B237: 'holds' reread)
    parts = (
        f"The {_about(r.per_call_ns)} includes whatever {library}'s {abi} build adds to that work, "
        "the loop's own code, the stall (Section~\\ref{sec:background}) and the switch: it is "
        "the extra time of an expensive call, not of a switch alone."
        if slow
        else f"The {_about(r.per_call_ns)} includes the loop's own code, {library}'s {abi} build, "
        "the stall (Section~\\ref{sec:background}) and the switch."
    )
    # whose loops (A200: the benchmark build's changed by more), against what (A214, B214:
    # 'changed' named no baseline); what they suggest of the loop's own code, not that nearly all
    # of the extra time lies in the calls (R217, B217: that read against the parts just listed),
    # the two figures side by side, no inference (B229, R229, A231, B231, R232, B232: other
    # loops, with no calls; A230, B230 missed the comparison when it was gone)
    own = (
        # as ratios too (A237, B237, R237: under 1 ns of a 9 ns iteration is 8 %)
        f"The {compartment_name(abi)} loops of the same program that call no other library "
        f"ran at {_own_range(t, r)} {escape(_s(r.baseline)) or 'hybrid'}'s time, under "
        f"{amount(OWN_SHARE_NS, digits=1)} an iteration either way "
        f"(Table~\\ref{{tab:per-call}}), against the {_workload(r)} loop's "
        f"{ratio_point(_f(r.ratio))} and {_iteration_amount(_f(r.extra_per_iteration_ns))}."
        if own_small(t, r)
        else ""
    )
    # the work each call does before what the extra time includes (R177; A172, R170: the slower
    # path, which weighs most on what the figure means, came fourth)
    return " ".join(x for x in (slow, parts, own) if x)


def upper_words(t: pd.DataFrame, abis: dict | None = None) -> str:
    """Section 4's sentence on when the extra time per call bounds the switch alone (the issue's
    item 1), with its conditions (A170, B169, R170: no share may be negative; round 135: a bound
    across boards is none), right after what the figure includes (R231, B231, B232: in Threats
    it came last); why the boards cannot be checked is Threats' (boards_open_words). '' where
    E10 answers."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    abi = escape((abis or {}).get((r.source, r.subject), _abi(r.subject)))
    said = (
        "The extra time per call is an upper bound on the switch alone if "
        f"{', and '.join(_conditions(r, abi))}"
    )
    # the condition only: why the boards cannot be checked is Threats' (boards_open_words; A235,
    # R235: two conditions and a detour in one sentence)
    return f"{said}."


def boards_open_words(t: pd.DataFrame, abis: dict | None = None) -> str:
    """Threats' sentence on why the bound's boards cannot be checked (_boards_open), for the
    answer's contrast; '' where E10 answers or both sides name one board."""
    r, kind = answer(t)
    if r is None or kind != "data":
        return ""
    return _boards_open(r, escape((abis or {}).get((r.source, r.subject), _abi(r.subject))))


def _boards_open(r, abi: str) -> str:
    """'The hybrid files name no board, so whether it was the same as purecap + c18n's,
    morello-camb-3, cannot be checked.': where the answer's two sides may come from different
    boards (the switch's bound's second condition, _conditions); '' otherwise. The side that
    names none, not 'only ... name their board' (the benchmark files name it too)."""
    part = _host_part(r)  # the same part that makes the boards a condition (_conditions)
    if not part:
        return ""
    named = part["named"]
    side = compartment_name(abi) if named == r.subject else escape(named)
    silent = escape(_s(r.baseline)) if named == r.subject else compartment_name(abi)
    return (
        # 'the same as', not 'like' (A218: 'like boards' read as a typo)
        f"The {silent} files name no board, so whether it was the same as {side}'s, "
        f"\\texttt{{{escape(part['host'])}}}, cannot be checked."
    )


OWN_SHARE_NS = 1.0  # the loops that call nothing bound the loop's own code where all changed less


def own_small(t: pd.DataFrame, r) -> bool:
    """Whether every workload of the answer's source and contrast that calls no other library
    differed from the baseline by less than OWN_SHARE_NS an iteration, so that they suggest the
    loop's own code accounts for little (A156 to B159: Table 4 bounds that share; their loops
    are not the math loop's, hence 'suggest', rounds 139 to 142)."""
    rows = _own_rows(t, r.source, r.subject)
    extra = pd.to_numeric(rows.get("extra_per_iteration_ns"), errors="coerce").abs()
    return not (rows.empty or extra.isna().any() or extra.max() >= OWN_SHARE_NS)


def _conditions(r, abi: str) -> list[str]:
    """The bound's conditions (bound_words), each a clause: 'neither the loop's own code nor libm
    runs faster in its purecap build' (no share of the extra time may be negative: A170, B169,
    R170; the loops that call nothing are other loops), and 'both sides ran on equivalent
    boards' only where the answer's two sides may come from different ones (two readers of round
    135: a bound across boards is none)."""
    library = escape(_s(r.library)) or "the library"
    out = [f"neither the loop's own code nor {library} runs faster in its {abi} build"]
    if _host_part(r):
        out.append("both sides ran on equivalent boards")  # A218, B222: 'like boards' misread
    return out


def printed_words(text: str) -> list[str]:
    """The words of an abstract's tex as it prints: a tie (~) is a space, so '240~ns' is two
    (the PDF's 36-word sentence passed a count of the tex)."""
    return text.replace("~", " ").split()


def abstract_problems(text: str) -> list[str]:
    """What breaks the abstract's rules: more than ABSTRACT_WORDS words, a sentence of more than
    MAX_WORDS, a parenthesis inside another ([] for a text that keeps them)."""
    out = []
    n = len(printed_words(text))
    if n > ABSTRACT_WORDS:
        out.append(f"{n} words, more than {ABSTRACT_WORDS}")
    for sentence in re.split(r"(?<=[.;?!])\s+(?=[A-Z\\])", text.strip()):
        words = printed_words(sentence)
        if len(words) > MAX_WORDS:
            out.append(f"a sentence of {len(words)} words: {' '.join(words[:3])} …")
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
            start = i if depth == 1 else start
            if depth == 2:
                end = text.find(")", text.find(")", i) + 1)
                out.append(f"nested parentheses: {text[start : end + 1]}")
        elif c == ")":
            depth = max(0, depth - 1)
    return out


def _abi(variant: str) -> str:
    return "purecap-benchmark" if variant.startswith("benchmark") else "purecap"


def _pct(x: float, digits: int = 3) -> str:
    """A percentage in prose, its sign thinly spaced: '6.2\\,\\%'."""
    return amount(x, "%", digits=digits).replace(" %", r"\,\%")


def plain_label(r, releases: dict | None = None, abis: dict | None = None) -> str:
    """A row in words: '24.05, purecap + c18n, math (libm)' (release, the variant's ABI with
    compartments, the workload and the library it calls)."""
    release = _s((releases or {}).get(r.source, "")) or r.source
    release = short_release(release)
    abi = (abis or {}).get((r.source, r.subject), _abi(_s(r.subject)))
    lib = _s(getattr(r, "library", ""))
    work = escape(_workload(r)) + (f" ({escape(lib)})" if lib else "")
    return f"{escape(release)}, {escape(compartment_name(abi))}, {work}"


BOX_CM = (0.25, 0.45)  # an axis box's height: a margin and each row
GAP_CM = 2.1  # from one box's bottom to the next box's top: tick labels, x label, next title
HYBRID_ROOM = 0.6  # extra room below a ratio axis's last row, in rows, for the 'hybrid' label


def _panel_height(n: int) -> float:
    """An axis box's height in cm for n rows, with room below them for the line at 1's label."""
    return BOX_CM[0] + BOX_CM[1] * (n + HYBRID_ROOM)


def value_labels(rows: list[tuple], xmax: float) -> list[str]:
    """Each row's printed value in a column right of the axis box (at xmax, which every
    interval's end stays left of), so that no label meets a mark or a bar however many rows
    there are."""
    n = len(rows)
    return [
        rf"\node[anchor=west, font=\small, xshift=3pt] at (axis cs:{xmax:.6g},{n - 1 - i}) "
        f"{{{row[4]}}};"
        for i, row in enumerate(rows)
    ]


# an interval [a, b]: a filled mark and a solid bar; the timer's range ⟨a, b⟩ (a tick either way,
# no interval): an open mark and a dashed bar (Figure 1's caption says so)
MARKS = {False: ("mark=*", "solid"), True: ("mark=o", "densely dashed")}


def _axis(rows: list[tuple], title: str, xlabel: str, span: tuple, extra: str = "", top=0.0) -> str:
    """One panel: rows of (label, ratio, low, high, shown value, timer), the first at the top;
    the shown values in a column right of the box (value_labels); a ratio axis over span (its
    own: _ratio_span), with room below the last row for the line at 1's label; a timer's
    range (timer) drawn apart from an interval (MARKS)."""
    if not rows:
        return ""
    n = len(rows)
    labels = ",".join("{" + x[0] + "}" for x in rows)
    ticks = ",".join(str(n - 1 - i) for i in range(n))
    pts: dict[bool, list[str]] = {False: [], True: []}
    for i, (_, v, lo, hi, _shown, timer) in enumerate(rows):
        lo, hi = (v, v) if not (math.isfinite(lo) and math.isfinite(hi)) else (lo, hi)
        pts[timer].append(f"({v:.6g},{n - 1 - i}) += ({hi - v:.6g},0) -= ({v - lo:.6g},0)")
    (xmin, xmax), ymin = span, -0.6 - HYBRID_ROOM
    bars = "error bars/.cd, x dir=both, x explicit, error bar style={line width=1pt, %s}"
    plots = [
        rf"\addplot[only marks, {MARKS[t][0]}, black, {bars % MARKS[t][1]}] coordinates "
        f"{{{' '.join(pts[t])}}};"
        for t in (False, True)
        if pts[t]
    ]
    height = _panel_height(n)
    return "\n".join(
        [
            r"\begin{axis}[",
            rf"  title={{{title}}}, xlabel={{{xlabel}}}, width=0.42\textwidth,",
            rf"  scale only axis, anchor=north west, at={{(0,{-top:.2f}cm)}}, clip=false,",
            rf"  height={height:.2f}cm, ymin={ymin:.1f}, ymax={n - 0.4:.1f},",
            rf"  xmin={xmin:.4g}, xmax={xmax:.4g}, ytick={{{ticks}}}, yticklabels={{{labels}}},",
            r"  yticklabel style={font=\small}, xmajorgrids, title style={font=\small\bfseries},",
            r"  label style={font=\small}, scaled x ticks=false" + extra + "]",
            *plots,
            *value_labels(rows, float(f"{xmax:.4g}")),
            r"\end{axis}",
        ]
    )


def _cost_label(r) -> str:
    """A cost per call's point as Table 7 prints it, with its unit after the amount: '60 ns'
    (its interval is Table 7's, as the ratio's is its bar's: _ratio_label)."""
    return f"{cost_cell(r).partition(' ')[0]} \\si{{\\nano\\second}}"


def _library_call(r) -> str:
    """'libm call': the call a row's cost is divided among, by its library where known."""
    library = escape(_s(getattr(r, "library", "")))
    return f"\\texttt{{{library}}} call" if library else "call"


def _signed(label: str) -> str:
    """An extra time with its sign, as Figure 1 labels it: '+60 ns'; a negative one keeps its
    own minus ('$-$5 ns')."""
    return label if label.startswith(("$-$", "-")) else f"+{label}"


def _ratio_label(r) -> str:
    """A ratio's point as Table 1 prints it, without its interval or the timer's range, which its
    bar draws (round 111: a label without brackets needed a rule of its own in the caption, and
    a visible bar beside it read as a contradiction); a range too uncertain for a point whole."""
    ratio, low, high, sides, spreads, resolution = _grid(r)
    said = ratio_text(ratio, low, high, True, sides=sides, spreads=spreads, resolution=resolution,
                      unit="ns")  # fmt: skip
    for ends in (" [", " $\\langle$"):
        said = said.split(ends, 1)[0]
    return said


def _cpu_or_time(rows: pd.DataFrame) -> str:
    return "CPU time" if all(str(m).endswith("_cpu_ns") for m in rows.metric) else "time"


def _drawn(t: pd.DataFrame) -> pd.DataFrame:
    """Figure 1's rows: the calls into another library and the code that calls none, each
    without its confounded contrasts."""
    return pd.concat([clean(crossing(t)), clean(own_code(t))])


def figure(t: pd.DataFrame, releases: dict | None = None, abis: dict | None = None) -> str:
    """Figure 1: two panels on one ratio axis, one above the other: the time of code that calls
    into another library against hybrid, with its extra time per call (ABI and switch together)
    beside the ratio, and the time of code that calls no other library. One axis, so that the
    gap between the two kinds of code is seen at a glance. Contrasts that differ in more than ABI
    and compartments are left out of both (the appendix's table lists them), so every mark is a
    contrast the text can name; each value is printed in a column right of its panel, clear of
    every bar; the axis spans 1 and every value; a bar is the interval Table 1 prints (the
    timer's bound where it limits, drawn apart: MARKS). A board's direct E10 measurement has no
    ratio: Table 7 gives it beside the estimates."""
    calls = clean(crossing(t))
    own = clean(own_code(t))
    if calls.empty and own.empty:
        return "No source in this run has workloads whose calls per iteration are known.\n"

    def ratio_row(r, shown: str) -> tuple:
        return (plain_label(r, releases, abis), _f(r.ratio), *_ends(r), shown, _on_timer(r))

    # the ratio as Table 1 prints it, then what it comes to per call as Table 7 prints it
    top_rows = [
        # the library named, and loop time: cold reads took '+60 ns per call' for a crossing's
        # cost (Section 4.1 defines the extra time per call; round 140: a coined name for it read
        # as the switch's cost before its definition)
        ratio_row(
            r,
            f"{_ratio_label(r)}; {_signed(_cost_label(r))} per {_library_call(r)}",
        )
        for r in calls.itertuples()
    ]
    own_rows = [ratio_row(r, _ratio_label(r)) for r in own.itertuples()]
    # both panels on one scale, 1 included, so that how close code calling no other library
    # stays to hybrid reads against the loop's 1.5 (A178, B178, R183, B185: on scales of their
    # own 1.08 sat where 1.51 did; rounds 46 to 49 had asked for scales apart, before the labels
    # printed each value)
    # the line at 1 named at its foot, in the room below the last row (HYBRID_ROOM)
    hybrid = (
        r", extra description/.code={\draw[dashed] (axis cs:1,\pgfkeysvalueof{/pgfplots/ymin})"
        r" -- (axis cs:1,\pgfkeysvalueof{/pgfplots/ymax}) node[pos=0, anchor=south west,"
        r" font=\scriptsize] {hybrid};}"
    )
    what = _cpu_or_time(pd.concat([calls, own]))
    xlabel = f"mean {what}, ratio to hybrid"  # under each panel
    span = _ratio_span(top_rows + own_rows)
    top = _axis(
        top_rows,
        CROSSING_HEADS[False],
        xlabel,
        span,
        extra=hybrid,
    )
    below = _axis(
        own_rows,
        CROSSING_HEADS[True],
        xlabel,
        span,
        extra=hybrid,
        top=_panel_height(len(top_rows)) + GAP_CM if top_rows else 0.0,
    )
    parts = [r"\begin{tikzpicture}", *(x for x in (top, below) if x)]
    parts.append(r"\end{tikzpicture}")
    return "\n".join(parts) + "\n"


def figure_marks(t: pd.DataFrame, releases: dict | None = None) -> str:
    """Figure 1's caption on its marks: the timer's range drawn apart only where a row drawn is
    printed with it (MARKS), else intervals alone."""
    drawn = _drawn(t)
    # short (A196, R196: a clause on bars nobody sees read as false precision)
    hidden = "(hidden where narrower than the dot)."
    # what the intervals cover, where every row drawn is one run per variant (a cold read took
    # Figure 1's narrow bars for 95 % intervals of the effect)
    one = len(drawn) and all(_s(r.interval_covers) == "within one run" for r in drawn.itertuples())
    # in the words the tables use for the same thing (the item 5)
    what = "the spread within one run" if one else "intervals"
    # the labels print points only, so the bars alone carry the intervals (a ratio's on the
    # timer's range drawn apart): no rule for labels without brackets (round 111)
    if any(_on_timer(r) for r in drawn.itertuples()):
        return (
            f"Solid bars, filled marks: {what}; dashed bars, open marks: a timer tick either way "
            f"{hidden}"
        )
    # the only view of the variation between runs beside the bars that leave it out (A196, R196,
    # B197, A197, R197, A198, B198, R198: the bars alone implied a precision the data lack)
    found = _baseline_moved(t, releases) if one else None
    widest = _widest_bar(drawn)
    if found and widest:
        data, base, shown, _, moved = found
        # how wide the bars are, not where they hide (A229, B230, R230, A230: a clause on bars
        # nobody sees); the variation between runs beside it
        return (
            f"Bars: {what}, under $\\pm${widest}\\,\\% of a ratio; runs vary more: {base}'s "
            f"own {shown} moved by {moved}\\,\\% between {data[0].lower()}{data[1:]}."
        )
    if widest:
        return f"Bars: {what}, under $\\pm${widest}\\,\\% of a ratio."
    return f"Bars: {what} {hidden}"


def _widest_bar(drawn: pd.DataFrame) -> str:
    """The whole percentage just above the widest bar Figure 1 draws, as a share of its ratio ('1'
    for 24.05's array, whose interval reaches 0.70 % above its ratio); '' where none has one."""
    shares = []
    for r in drawn.itertuples():
        x, (low, high) = _f(r.ratio), _ends(r)
        if all(math.isfinite(v) for v in (x, low, high)) and x > 0:
            shares.append(max(high - x, x - low) / x)
    if not shares:
        return ""
    # the next whole percentage point above it (A232: '0.8' read against the 0.70 it rounds up)
    return f"{math.floor(max(shares) * 100) + 1}"


def _ratio_span(rows: list[tuple]) -> tuple[float, float]:
    """A panel's ratio axis: from its lowest end to its highest, 1 included, with a margin, so
    that differences of a few per cent can still be seen."""
    lows = [min(x[2] if math.isfinite(x[2]) else x[1], x[1]) for x in rows]
    highs = [max(x[3] if math.isfinite(x[3]) else x[1], x[1]) for x in rows]
    lo, hi = min(*lows, 1.0), max(*highs, 1.0)
    pad = max(hi - lo, 0.02) * 0.1
    return lo - pad, hi + pad


def _num(x: float) -> str:
    """A number of the table's ns column: the one amount formatter's figures, two significant as
    the text and Figure 1 give a cost per call, which charges all of a loop's extra time to its
    calls (_about; Section 3.1), without the unit (the column's heading gives it)."""
    return figures_of(_about(_f(x)))


def _ends_cell(x: float, low: float, high: float, brackets: tuple[str, str]) -> str:
    """'0.70 ⟨0.55, 0.86⟩' or '73 [46, 110]'; where the interval or range is narrower than the
    amount's last printed digit (two significant figures), the amount alone, as Table 1 prints a
    ratio ('41', never '41 ⟨40, 41⟩' for 40.4 to 40.6)."""
    lo, hi = _num(low), _num(high)
    digit = 10 ** (math.floor(math.log10(abs(x))) - 1) if math.isfinite(x) and x else math.nan
    if lo == hi or (high - low) < digit:
        return _num(x)
    return f"{_num(x)} {brackets[0]}{lo}, {hi}{brackets[1]}"


CALLS = "Calls into another library: extra time per call"
NO_CALL = "No call into another library: extra time per iteration (no call)"
SPREAD, TICK = ("[", "]"), (r"$\langle$", r"$\rangle$")  # the notation of Table 1's legend


def table_marks(t: pd.DataFrame) -> str:
    """Table 7's caption on its brackets, only those a cell prints: '$[a, b]$: the spread within
    one run; $\\langle a, b\\rangle$: a timer tick either way; ' (a notation defined where no
    cell uses it is one more for a cold reader to learn)."""
    shown = t[~no_cost(t)]  # a row with no cost per call prints in a note, not a cell
    cells = [cost_cell(r) for r in shown.itertuples() if math.isfinite(_f(r.per_call_ns))]
    marks = []
    if any(SPREAD[0] in c for c in cells):
        marks.append("$[a, b]$: the spread within one run")
    if any(TICK[0] in c for c in cells):
        marks.append("$\\langle a, b\\rangle$: a timer tick either way")
    return "".join(f"{m}; " for m in marks)


def cost_cell(r) -> str:
    """The estimate with one interval: a tick either way in angle brackets where Table 1 prints
    the row's ratio on the timer's range and that bound is the wider (_timer_limits), else the
    spread within the run in square brackets."""
    half = max(r.per_call_high_ns - r.per_call_ns, r.per_call_ns - r.per_call_low_ns)
    bound = _f(r.timer_bound_ns)
    if _timer_limits(r, r.per_call_ns, r.per_call_low_ns, r.per_call_high_ns):
        return _ends_cell(r.per_call_ns, r.per_call_ns - bound, r.per_call_ns + bound, TICK)
    if math.isfinite(half):
        return _ends_cell(r.per_call_ns, r.per_call_low_ns, r.per_call_high_ns, SPREAD)
    return _num(r.per_call_ns)


def _cycles(r) -> str:
    if math.isfinite(_f(r.per_call_cycles)):
        return _num(r.per_call_cycles)
    return "not recorded"


def _e10(r) -> str:
    if math.isfinite(_f(r.e10_per_call_ns)):
        return _ends_cell(r.e10_per_call_ns, _f(r.e10_low_ns), _f(r.e10_high_ns), SPREAD)
    return escape(_s(r.e10_note) or "not run")


def _means(r) -> str:
    """The two mean times per trial the estimate divides, subject then baseline, in the unit of
    the smaller, four significant figures each ('66.04 / 49.83 s', '1024 / 960.9 ms', never
    '1.024 / 0.961 s'), as the worked estimate prints its own, so that a reader
    can redo any row as Section 4.1 does its own and meets a time in one form (cold reads:
    66.0 / 49.8 s gave 40.5, not 41; 707.8 ns in the text beside 70.8 s here); where that unit is
    not the baseline's own, each side in its own unit with the smaller's figures ('100.6 ms /
    1.407 s'); '--' where a side is missing."""
    a, b = _f(r.mean_ns), _f(r.reference_mean_ns)
    if not all(math.isfinite(x) and x > 0 for x in (a, b)):
        return "--"
    unit, scale, _ = _time_places((a, b), min)
    if _time_places((b,))[0] != unit:
        # the baseline would leave its own unit (1407.1 ms beside 100.6 ms): each side in its
        # own unit, four figures, so that a baseline prints alike in every row (a cold read met
        # 1.407 s and 1407.1 ms in one table)
        return " / ".join(_own_unit(x, 4) for x in (a, b))
    # each side four significant figures in the smaller's unit, as C.1 says (the larger's place
    # for both printed 1024 / 961 ms; the smaller's, 1024.3 / 960.9 ms: five)
    shown = [f"{x / scale:.{max(0, 3 - math.floor(math.log10(x / scale)))}f}" for x in (a, b)]
    return f"{shown[0]} / {shown[1]} {_SI_TIME[unit]}"


def _own_unit(x: float, figures: int) -> str:
    """A mean time in the unit it reaches, to `figures` significant figures ('1.407 s')."""
    unit, own, _ = _time_places((x,))
    shown = max(0, figures - 1 - math.floor(math.log10(x / own)))
    return f"{x / own:.{shown}f} {_SI_TIME[unit]}"


def _calls(r) -> str:
    n = int(r.calls_per_iteration)
    names = escape(_s(r.calls)).replace(" x", r"\,$\times$")  # 'rand x1023'
    return f"{n} ({names})" if n else "0"


def latex_table(
    t: pd.DataFrame, releases: dict | None = None, abis: dict | None = None, converted: bool = False
) -> str:
    """One row per source, contrast and workload: its calls per iteration (the evidence in the
    data sets' facts), the estimate from the data with one interval, in cycles where a clock
    frequency is recorded, and E10's direct estimate beside it. A column no row fills (no
    frequency, no E10) becomes one line below the table."""
    releases, abis = releases or {}, abis or {}
    # a workload whose timed process is not the caller gives no cost per call: a note below the
    # table says so, never a number in its column
    apart, t = t[no_cost(t)], t[~no_cost(t)]
    cycles = t.per_call_cycles.notna().any() if len(t) else False
    e10 = t.e10_per_call_ns.notna().any() if len(t) else False
    # the iterations each mean holds, in the heading where every row shares them (a cold read
    # found the per-iteration extra times rest on a count the paper never stated)
    every = "iterations" in t and len(t) and t.iterations.notna().all()
    counts = t.iterations.unique() if every else []
    per = f"trial (${_times(int(counts[0]))}$ iterations)" if len(counts) == 1 else "trial"
    heads = [
        "Data",
        "Variant",
        "Workload",
        "Calls per iteration",
        # the variants by role, not 'with / without' compartments: the contrast changes the ABI
        # too (a cold read of round 103)
        f"Mean per {per}, subject / hybrid",
        # per call, or per iteration where none is made: said in the heading, not only in each
        # block's title (a cold read took one column for two quantities)
        r"Extra time per call or iteration, \si{\nano\second}",
    ]
    heads += ["Cycles"] * bool(cycles) + [r"E10 direct, \si{\nano\second}"] * bool(e10)
    n = len(heads)
    spec = r"lll>{\raggedright\arraybackslash}p{0.22\textwidth}ll" + "l" * (n - 6)
    lines = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule", " & ".join(heads) + r" \\", r"\midrule"]
    if t.empty:
        lines.append(
            rf"\multicolumn{{{n}}}{{l}}{{No source in this run has calls per iteration.}} \\"
        )
    # a workload that calls no other library has no cost per call: its rows apart, under their
    # own heading, so that its extra time per iteration is never read as one call's
    for heading, rows in (
        (CALLS, t[t.calls_per_iteration > 0]),
        (NO_CALL, t[t.calls_per_iteration == 0]),
    ):
        if rows.empty:
            continue
        lines += [r"\midrule"] * (heading == NO_CALL and len(lines) > 4)  # after the calls
        lines += [rf"\multicolumn{{{n}}}{{@{{}}l}}{{\emph{{{heading}}}}} \\"]
        for r in rows.itertuples():
            release = _s(releases.get(r.source, "")) or r.source
            abi = abis.get((r.source, r.subject), _abi(_s(r.subject)))
            lib = _s(getattr(r, "library", ""))
            work = escape(_workload(r)) + (f" ({escape(lib)})" if lib else "")
            # smashed: a raised mark would make its row taller than the rest
            work += r"\smash{$^\S$}" if _s(r.confounded_by) else ""
            cells = [escape(short_release(release)), escape(compartment_name(abi)), work]
            if r.kind == "target":
                cells += ["1 (E10)", "--", "--"]
            else:
                cells += [_calls(r), _means(r), cost_cell(r)]
            cells += [_cycles(r)] * bool(cycles) + [_e10(r)] * bool(e10)
            lines.append(" & ".join(cells) + r" \\")
    notes = []
    for (_, metric, reason), rows in apart.groupby(
        ["source", "metric", "no_cost_per_call"], sort=False
    ):
        first = rows.iloc[0]
        release = _s(releases.get(first.source, "")) or first.source
        lib = _s(first.library)
        work = escape(_workload(first)) + (f" ({escape(lib)})" if lib else "")
        who = listed(
            [escape(compartment_name(abis.get((first.source, v), _abi(_s(v)))))
             for v in dict.fromkeys(rows.subject)]
        )  # fmt: skip
        notes.append(
            f"{work[0].upper()}{work[1:]}, {escape(short_release(release))}, {who}: "
            f"no cost per call, as {escape(reason)} (results/per\\_call.csv keeps its numbers)."
        )
    confounded = t[t.confounded_by.fillna("") != ""]
    mixed = [
        plain_label(rows.iloc[0], releases, abis).rsplit(", ", 1)[0]
        + ", "
        + ", ".join(escape(WORKLOAD.get(m, m)) for m in dict.fromkeys(rows.metric))
        + f": {escape(c)}"
        for (s, v, c), rows in confounded.groupby(
            ["source", "subject", "confounded_by"], sort=False
        )
    ]
    if mixed:
        notes.append(r"$^\S$ The contrast also differs in: " + "; ".join(mixed) + ".")
    if len(t) and not cycles:
        # the table gives only what a source recorded; where Section 4.1 converts at the
        # published clock (converted), it says so (a cold read of round 90 set the two side by
        # side)
        notes.append(
            "Cycles: no source recorded its clock frequency, so this table gives none"
            + (
                r"; Section~\ref{sec:per-call} converts at Morello's published clock."
                if converted
                else "."
            )
        )
    if len(t) and not e10:
        why = [escape(_s(x).removeprefix("not run").strip(": ")) for x in t.e10_note]
        said = listed([x for x in dict.fromkeys(why) if x])
        notes.append(
            "E10, which times a compartment switch directly, ran nowhere with compartments"
            + (f": {said}." if said else ".")
        )
    if notes:
        width = r">{\raggedright\arraybackslash}p{0.95\textwidth}"
        lines += [r"\midrule"] + [rf"\multicolumn{{{n}}}{{{width}}}{{{x}}} \\" for x in notes]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def nominal_cycles(t: pd.DataFrame, published: pd.DataFrame) -> str:
    """The answer's cost per call in cycles at Morello's published clock (its CSV's 'clock
    frequency' row, in GHz), at a clock no data set records: 'At Morello's published clock of
    2.5 GHz, 60 ns is about 150 cycles, if the study's boards ran at it.'; '' where the answer is
    E10's or a board's (which records its own clock), or the report gives no clock."""
    r, kind = answer(t)
    clock = published[published.metric == "clock frequency"] if "metric" in published else None
    if r is None or kind != "data" or clock is None or clock.empty:
        return ""
    if _s(r.interval_covers) != "within one run":  # a board records its own clock
        return ""
    ghz = float(clock.value.iloc[0])
    if str(clock.unit_as_published.iloc[0]) != "GHz" or not math.isfinite(_f(r.per_call_ns)):
        return ""
    cycles = amount(_f(r.per_call_ns) * ghz, "cycles", digits=2)  # the prose figures of _about
    return (
        f"At Morello's published clock of {ghz:g}~GHz~\\cite{{morello-early-performance}}, "
        f"{_about(r.per_call_ns)} is about {cycles}, if the study's boards ran at it."
    )


def _published(published: pd.DataFrame, configuration: str, microarchitecture: str) -> str:
    """One whole-program overhead from Morello's published performance work (its CSV)."""
    x = published[
        (published.configuration == configuration)
        & published.microarchitecture.str.startswith(microarchitecture)
    ]
    return _pct(float(x.value.iloc[0])) if len(x) else "not published"


def beside(stall_free: bool = False) -> str:
    """Section 2's words on the purecap ABI's own cost on a call into another library, from
    Morello's published performance work, ahead of the estimates that mix it with the switch;
    with the ABI that avoids it where Section 4 uses that ABI (stall_free; A193, B193, R193,
    B192: used three sections before Related work defined it); its whole-program figures are
    Related work's (published_overheads)."""
    said = (
        # calls and returns, as the report's morello-microarchitectural-limitations.md says them
        # (lines 8 to 9, 'inter-library pure-capability function calls or returns'; A151), each
        # named (rounds 152 and 153: 'Each' and 'Both' had no clear referent); with or without
        # compartments (A152); the cost named by what it is, its source cited after it (R177)
        "Under the purecap ABI, a call into another library and its return each change the "
        "bounds of the program-counter capability, with or without compartments. Morello's "
        # the term Section 4 uses, named where it is defined (R204, R205, R207), and the switch's
        # own changes in a sentence of their own (A206: one sentence held both), of what and why
        # (B219, B220, B221, B224: 'changes of its own' named neither)
        "branch predictor does not predict that change, so the instructions that depend on those "
        # what a trampoline does to them is Section 2's next paragraph's, where the trampoline
        # is defined (R234, B234, A234: read here before it)
        "bounds wait: the \\emph{stall}~\\cite{morello-early-performance}."
    )
    if stall_free:
        said += (
            f" The {STALL_FREE_ABI} ABI ({abi_word(STALL_FREE_ABI)}) leaves those bounds unchanged "
            # the calls named (R229: 'such calls' had no clear referent), without compartments:
            # no source says what a trampoline does under it (A227, A231: read against the
            # sentence before)
            "on calls into another library without compartments and so avoids that "
            "stall~\\cite{cheribsd-guide}."
        )
    return said


def published_overheads(published: pd.DataFrame, defined: bool = False) -> str:
    """Related work's sentences on the ABIs' whole-program overheads in Morello's published
    performance work (its CSV), with what the ABI that avoids Section 2's stall is (R177, B177:
    Section 2 defined an ABI the body never used): none of them a cost per call or a
    compartment switch. Where Section 2 defines that ABI (defined: beside), its name only."""
    stall_free = abi_word(STALL_FREE_ABI)
    what = (
        f"{stall_free} ABI (Section~\\ref{{sec:background}})"
        if defined
        else f"{STALL_FREE_ABI} ABI ({stall_free}), which leaves the program-counter capability's "
        "bounds unchanged on a call into another library and so avoids the stall of "
        "Section~\\ref{sec:background}~\\cite{cheribsd-guide}"
    )
    return (
        "Morello's early performance report~\\cite{morello-early-performance} ran SPECint 2006's "
        "train workload on FPGA implementations of the shipped Morello design, under the purecap "
        f"ABI and under the {what}. Against "
        f"hybrid, it measured {_published(published, 'Purecap ABI', 'unmodified')} "
        "geometric-mean overhead with purecap and "
        f"{_published(published, 'Benchmark ABI', 'unmodified')} with {stall_free}; two fixes "
        "to the microarchitecture brought the latter to "
        f"{_published(published, 'Benchmark ABI', 'data-dependent exception fix and')}. These are "
        "whole-program overheads, not costs per call, and none of them includes a compartment "
        "switch."
    )


def confounds(t: pd.DataFrame, abis: dict | None = None, releases: dict | None = None) -> str:
    """What else the first finding's contrast may differ in, said once in Threats' bullet on the
    boards, in plain words (no data set or variant IDs, no host names): 'For the cost per call
    on 24.05, ' then a compiler named differently ('the compilers' names differ, cc for purecap +
    c18n against clang for hybrid'), a host named by one side's files only ('only the purecap +
    c18n files name their host' is Section 4's, where the bound names it as a condition:
    _boards_open), anything else in analysis.contrasts' words."""
    r, kind = answer(t)
    if r is None or kind != "data" or not _s(getattr(r, "possibly_also", "")):
        return ""
    abi = (abis or {}).get((r.source, r.subject), _abi(r.subject))
    names = {r.subject: compartment_name(abi), r.baseline: str(r.baseline)}
    said = []
    for part in read_possibly(r.possibly_also):
        if part["kind"] == "host":
            continue  # Section 4's bound says it, as its condition (_boards_open)
        if part["kind"]:  # a name alone: the compiler's
            said.append(
                f"the {part['kind']}s' names differ, {part['subject']} for {names[r.subject]} "
                f"against {part['baseline']} for {names[r.baseline]}"
            )
        else:
            said.append(part["text"])
    if not said:
        return ""
    on = escape(short_release((releases or {}).get(r.source, "")))
    where = f" on {on}" if on else ""
    return f"For the extra time per call{where}, {escape('; '.join(said))}."


def baseline_shift(t: pd.DataFrame, releases: dict | None = None) -> str:
    """Section 5's measure of how far runs of one variant may differ, where each data set is one
    run per variant: the baseline's own mean time for the same workloads across the data sets
    that ran them ('The 24.05 and 22.12 data, which differ in more than their runs, give the only
    view of that variation: hybrid's CPU time for the same four workloads moved by 2 to 7 % between
    them.'); five readers of rounds 138 to 141 set hybrid's 6.6 % against the intervals over one
    run and against the 0.97x to 1.08x of code calling no other library. '' where fewer than two
    data sets ran a workload or its times did not move."""
    found = _baseline_moved(t, releases)
    if not found:
        return ""
    data, base, what, n, moved = found
    return (
        # the variation named, not 'it' (R151)
        f"{data}, which differ in more than their runs, give the only view of that variation: "
        f"{base}'s {what} for the same {in_words(n)} workloads moved by {moved}\\,\\% between "
        "them."
    )


def _baseline_moved(t: pd.DataFrame, releases: dict | None = None) -> tuple | None:
    """How far the baseline's own mean time for the same workloads moved across the data sets
    that ran them (baseline_shift): ('The 24.05 and 22.12 data', 'hybrid', 'CPU time', 4,
    '2 to 6'); None where fewer than two data sets ran a workload or its times did not move."""
    r, kind = answer(t)
    if r is None or kind != "data" or _s(r.interval_covers) != "within one run":
        return None
    rows = t[
        (t.subject == r.subject)
        & (t.baseline == r.baseline)
        & (t.interval_covers == "within one run")
        & t.reference_mean_ns.notna()
    ]
    shifts, used = [], []
    for metric, g in rows.groupby("metric", sort=False):
        # each other data set's time the base, as Section 4's releases paragraph has it (A171,
        # R171: the larger over the smaller gave 7 % where that paragraph gave 6.2 %)
        means = g.drop_duplicates("source").set_index("source").reference_mean_ns.astype(float)
        if r.source not in means.index or len(means) < 2 or (means <= 0).any():
            continue
        here = means[r.source]
        shifts.append(max(abs(here - b) / b for s, b in means.items() if s != r.source))
        used.append(metric)
    sources = list(dict.fromkeys(rows.source))
    low, high = (round(100 * x) for x in (min(shifts, default=0), max(shifts, default=0)))
    if len(shifts) < 1 or high < 1:
        return None
    named = [escape(short_release((releases or {}).get(x, x))) for x in sources]
    data = f"The {listed(named)} data" if len(named) < 4 else f"The {len(named)} data sets"
    moved = f"{low} to {high}" if 0 < low < high else f"up to {high}" if low < high else f"{high}"
    what = _cpu_or_time(rows[rows.metric.isin(used)])
    return data, escape(_s(r.baseline)), what, len(shifts), moved


def direct(t: pd.DataFrame) -> str:
    """What the text says of E10's direct measurement: where it stands; '' where it did not run
    (the box on page one and the conclusion say so: round 106 met it a third time here)."""
    ran = t[t.e10_per_call_ns.notna()]
    if ran.empty:
        return ""
    return (
        "E10 measures a crossing directly on a board; its rows stand beside these estimates in "
        "the same table."
    )


def names(config: dict) -> tuple[dict, dict]:
    """(releases, abis): each source's release ('CheriBSD 24.05'; a board target's description)
    and each (source, variant)'s ABI, as the config and data sets record them."""
    releases, abis = {}, {}
    for t in config.get("targets", []):
        releases[t["name"]] = t.get("description", "") or t["name"]
        for v in t["variants"]:
            abis[(t["name"], v["name"])] = v.get("abi", v["name"])
    labels = release_labels(cfg.datasets(config))  # copies of one release named apart
    for m in cfg.datasets(config):
        releases[m["name"]] = labels[m["name"]] or m["name"]
        for v, spec in m["variants"].items():
            abis[(m["name"], v)] = spec.get("abi", v)
    return releases, abis


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    # the workflow's paths by default (report.files), so that the rule's command stays short
    ap.add_argument("--per-call", type=Path, default=Path(PER_CALL["csv"]))
    ap.add_argument("--published", type=Path, default=Path(PER_CALL["published"]))
    ap.add_argument("--reduction", type=Path, default=Path(PER_CALL["reduction"]))
    cfg.add_arguments(ap)
    for key in ("table", "figure", "macros"):
        ap.add_argument(f"--{key}", type=Path, default=Path(PER_CALL[key]))
    a = ap.parse_args(argv)
    t = pd.read_csv(a.per_call)
    config = exp.config_from_arguments(a)
    releases, abis = names(config or {})
    named = from_config(config).text  # the paper's names for any id left in the text
    published = pd.read_csv(a.published)
    # Section 4.1 prints its cycles beside the bound on the switch (per-call.tex)
    reduction = pd.read_csv(a.reduction, dtype=str)
    # each variant's compiler build, as the answer's data set's binaries record it (A189)
    metas = {m["name"]: m for m in cfg.datasets(config or {})}
    first, _ = answer(t)
    records = (
        call_sites.compilers(metas[first.source])
        if first is not None and first.source in metas
        else {}
    )
    same = same_board_words(t, abis, records)
    cycles, bound = nominal_cycles(t, published), bound_words(t, abis, reduction)
    write_text_atomic(a.table, named(latex_table(t, releases, abis, bool(cycles and bound))))
    write_text_atomic(a.figure, named(figure(t, releases, abis)))
    text = "% Generated by c18n_ae.report.call_cost from results/per_call.csv; do not edit.\n"
    quoted = quoted_level(t, releases, metas)  # the build level of every figure quoted
    sets = list(metas.values())
    text += newcommand("PerCallQuestion", question_words(sets))
    text += newcommand("PerCallScope", scope(t, abis))
    # what the figure combines right after it, then the kind of call it is of (A229, R229: the
    # two sentences apart read as the figure taken back, then qualified again; B229: one
    # definition of the figure), then how close code calling nothing stays; libm's build not
    # named (A226, B226): Section 4 names it with its evidence
    then = finding_then(t, abis, sets, reduction)
    text += newcommand("PerCallFinding", finding(t, releases, abis, then))
    # what the figures rest on, after them: the qualifiers in one place (findings.study_limits)
    # the boards the two sides may differ in are Threats' (R177, A177: the abstract's third
    # qualifier in one sentence)
    said = abstract_mix(t, abis, sets)  # what the figures mix, said in finding_then
    limits = study_limits(sets, unseen_phrases(sets), built_words(t, quoted), not said)
    text += newcommand("PerCallLimits", limits)
    text += newcommand("PerCallConclusion", conclusion_finding(t, releases, abis))
    text += newcommand("PerCallBuilt", built_level_sentence(quoted))
    text += newcommand("ReleaseCompilers", release_compilers(metas, first))
    # the same-board contrast in Section 4, in a few plain sentences (A191, B191, R191: in
    # Appendix D it was the only split of the 60 ns, buried; B190, R190 had found its longer form
    # the body's one hard passage), and said once: Appendix D then has the other ABIs' words only
    # where there is no such contrast
    text += newcommand("PerCallSameBoard", same)
    text += newcommand("PerCallOthers", "" if same else other_abis(t, abis))
    text += newcommand("PerCallDirect", direct(t))
    text += newcommand("PerCallBaselineShift", baseline_shift(t, releases))
    text += newcommand("PerCallMarks", figure_marks(t, releases))
    text += newcommand("PerCallTableMarks", table_marks(t))
    text += newcommand("PerCallArithmetic", arithmetic(t, releases, abis))
    text += newcommand("PerCallPossibly", confounds(t, abis, releases))
    text += newcommand("PerCallBeside", beside(bool(same)))
    text += newcommand("PerCallPublished", published_overheads(published, bool(same)))
    text += newcommand("PerCallCycles", cycles)
    text += newcommand("PerCallBound", bound)
    text += newcommand("PerCallUpper", upper_words(t, abis))
    text += newcommand("PerCallBoardsOpen", boards_open_words(t, abis))
    text += newcommand("PerCallReleases", release_gap(t, releases, metas))
    write_text_atomic(a.macros, named(text, prose=True))


if __name__ == "__main__":
    main()
