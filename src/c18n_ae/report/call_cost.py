"""What one call into another library costs, for the paper: the abstract's first finding (one
sentence), Figure 1 (every source and workload, crossings apart from own code, confounded
contrasts hollow and marked), the table that puts the estimate from the data beside E10's direct
one, and the paragraph that sets it beside Morello's published performance work. Everything is
read from results/per_call.csv (c18n_ae.analysis.per_call) and the published figures' CSV;
nothing is recomputed."""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import (
    amount,
    amount_interval,
    escape,
    newcommand,
    timer_bound,
)

MAX_WORDS = 35  # a sentence of the abstract
ABSTRACT_WORDS = 200  # the whole abstract
WORKLOAD = {  # a metric as a workload's short name in the figure and table
    "math_cpu_ns": "math",
    "int_cpu_ns": "int",
    "float_cpu_ns": "float",
    "array_cpu_ns": "array",
    "message_wait_ns": "pipe message",
    "crossing_extra_ns": "E10 crossing",
}


def _s(x) -> str:
    return x if isinstance(x, str) else ""


def _f(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def crossing(t: pd.DataFrame) -> pd.DataFrame:
    return t[(t.calls_per_iteration > 0) & t.per_call_ns.notna()]


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


def own_spread(t: pd.DataFrame, source: str, subject: str) -> float | None:
    """How far, in per cent of hybrid's time, the source's own-code workloads of this contrast
    reach at their intervals' ends; None where none was measured without a confound."""
    rows = clean(own_code(t))
    rows = rows[(rows.source == source) & (rows.subject == subject)]
    if rows.empty:
        return None
    return float(max((rows.ci95_high - 1).abs().max(), (rows.ci95_low - 1).abs().max()) * 100)


def finding(t: pd.DataFrame, releases: dict[str, str]) -> str:
    """The abstract's first finding, one sentence of at most MAX_WORDS words."""
    r, kind = answer(t)
    if r is None:
        return (
            "No contrast in this run differs in ABI and compartments alone, so this edition "
            "gives no cost of a call into another library."
        )
    where = escape(releases.get(r.source, r.source))
    if kind == "e10":
        cost = amount_interval(
            r.e10_per_call_ns, r.e10_low_ns, r.e10_high_ns, covers=_s(r.interval_covers)
        )
        head = (
            f"In E10 on the board \\texttt{{{where}}}, each call into another library cost "
            f"{cost}; that is the ABI and the compartment switch together"
        )
    else:
        cost = amount_interval(
            r.per_call_ns, r.per_call_low_ns, r.per_call_high_ns, covers=_s(r.interval_covers)
        )
        head = (
            f"Each call into another library cost {cost}, with compartments and the "
            f"{escape(_abi(r.subject))} ABI on {where}"
        )
    spread = own_spread(t, r.source, r.subject)
    tail = (
        f"; code calling no other library stayed within {_pct(spread)} of hybrid."
        if spread is not None
        else "."
    )
    return head + tail


def abstract_problems(text: str) -> list[str]:
    """What breaks the abstract's rules: more than ABSTRACT_WORDS words, a sentence of more than
    MAX_WORDS, a parenthesis inside another ([] for a text that keeps them)."""
    out = []
    n = len(text.split())
    if n > ABSTRACT_WORDS:
        out.append(f"{n} words, more than {ABSTRACT_WORDS}")
    for sentence in re.split(r"(?<=[.;?!])\s+(?=[A-Z\\])", text.strip()):
        words = sentence.split()
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


def _pct(x: float) -> str:
    return amount(x, "%").replace(" %", r"\,\%")


def _row_label(r) -> str:
    mark = r"$^\S$" if _s(r.confounded_by) else ""
    return (
        rf"\texttt{{{escape(r.source)}}} \texttt{{{escape(r.subject)}}}: "
        rf"{escape(WORKLOAD.get(r.metric, r.metric))}{mark}"
    )


def _coords(rows: pd.DataFrame, value: str, low: str, high: str) -> tuple[str, str]:
    """Two pgfplots coordinate lists (clean, confounded) with explicit asymmetric error bars,
    one row per y position from the top."""
    clean_pts, mixed_pts = [], []
    n = len(rows)
    for i, r in enumerate(rows.itertuples()):
        v, lo, hi = _f(getattr(r, value)), _f(getattr(r, low)), _f(getattr(r, high))
        lo, hi = (v, v) if not (math.isfinite(lo) and math.isfinite(hi)) else (lo, hi)
        pt = f"({v:.6g},{n - 1 - i}) += ({hi - v:.6g},0) -= ({v - lo:.6g},0)"
        (mixed_pts if _s(r.confounded_by) else clean_pts).append(pt)
    return " ".join(clean_pts), " ".join(mixed_pts)


BOX_CM = (0.25, 0.4)  # an axis box's height: a margin and each row
GAP_CM = 1.8  # from one box's bottom to the next box's top: tick labels, x label, next title


def _axis(
    rows: pd.DataFrame, title: str, value, low, high, xlabel: str, extra: str = "", top=0.0
) -> str:
    if rows.empty:
        return ""
    labels = ",".join("{" + _row_label(r) + "}" for r in rows.itertuples())
    n = len(rows)
    ticks = ",".join(str(n - 1 - i) for i in range(n))
    solid, hollow = _coords(rows, value, low, high)
    plots = []
    bars = "error bars/.cd, x dir=both, x explicit"
    if solid:
        plots.append(rf"\addplot+[only marks, mark=*, black, {bars}] coordinates {{{solid}}};")
    if hollow:
        plots.append(rf"\addplot+[only marks, mark=o, gray, {bars}] coordinates {{{hollow}}};")
    return "\n".join(
        [
            r"\begin{axis}[",
            rf"  title={{{title}}}, xlabel={{{xlabel}}}, width=0.55\textwidth,",
            rf"  scale only axis, anchor=north west, at={{(0,{-top:.2f}cm)}},",
            rf"  height={BOX_CM[0] + BOX_CM[1] * n:.2f}cm, ymin=-0.6, ymax={n - 0.4:.1f},",
            rf"  ytick={{{ticks}}}, yticklabels={{{labels}}}, yticklabel style={{font=\small}},",
            r"  xmajorgrids, title style={font=\small\bfseries}, label style={font=\small},",
            f"  scaled x ticks=false{extra}]",
            *plots,
            r"\end{axis}",
        ]
    )


def figure(t: pd.DataFrame) -> str:
    """Figure 1: two panels, one above the other: the extra time per call into another library
    (ABI and switch together; a confounded contrast hollow and marked), and the own-code
    workloads' time against hybrid (confounded contrasts left out: the table lists them)."""
    board = t[t.e10_per_call_ns.notna()].assign(
        per_call_ns=lambda x: x.e10_per_call_ns,
        per_call_low_ns=lambda x: x.e10_low_ns,
        per_call_high_ns=lambda x: x.e10_high_ns,
    )  # E10 on a board: the same quantity, measured directly
    calls = pd.concat([board, crossing(t)]) if len(board) else crossing(t)
    own = clean(own_code(t))  # a confounded own-code ratio (-O2 against -O0) would set the scale
    if calls.empty and own.empty:
        return "No source in this run has workloads whose calls per iteration are known.\n"
    top = _axis(
        calls,
        "Calls into another library",
        "per_call_ns",
        "per_call_low_ns",
        "per_call_high_ns",
        r"extra time per call (\si{\nano\second}), ABI and switch together",
    )
    below = _axis(
        own,
        "Code that calls no other library",
        "ratio",
        "ci95_low",
        "ci95_high",
        "time against hybrid (ratio)",
        extra=r", extra description/.code={\draw[dashed] (axis cs:1,\pgfkeysvalueof{/pgfplots/ymin}) -- (axis cs:1,\pgfkeysvalueof{/pgfplots/ymax});}",  # noqa: E501
        top=BOX_CM[0] + BOX_CM[1] * len(calls) + GAP_CM if len(calls) else 0.0,
    )
    parts = [r"\begin{tikzpicture}", *(x for x in (top, below) if x)]
    parts.append(r"\end{tikzpicture}")
    return "\n".join(parts) + "\n"


def _cycles(r) -> str:
    if math.isfinite(_f(r.per_call_cycles)):
        return amount(_f(r.per_call_cycles), "cycles", tex=True)
    return "not recorded"


def _e10(r) -> str:
    if math.isfinite(_f(r.e10_per_call_ns)):
        return amount_interval(r.e10_per_call_ns, r.e10_low_ns, r.e10_high_ns)
    return escape(_s(r.e10_note) or "not run")


def latex_table(t: pd.DataFrame) -> str:
    """One row per source, contrast and workload: its calls per iteration (with where they come
    from in the footnote), the estimate from the data with its spread and the timer's bound, in
    cycles where the clock is recorded, and E10's direct estimate beside it."""
    rag = r">{\raggedright\arraybackslash}p"
    widths = (0.2, 0.17, 0.17, 0.11, 0.08, 0.14)  # of the text width, with the gaps: within it
    spec = "".join(f"{rag}{{{w}\\textwidth}}" for w in widths)
    lines = [
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        r"Source, variant: workload & Calls / iteration & Extra per call (per iteration "
        r"without a call), \si{\nano\second} & Timer bound & Cycles & E10 direct, "
        r"\si{\nano\second} \\",
        r"\midrule",
    ]
    if t.empty:
        lines.append(r"\multicolumn{6}{l}{No source in this run has calls per iteration.} \\")
    for r in t.itertuples():
        if r.kind == "target":
            cells = [_row_label(r), "1 (E10)", "--", "--", _cycles(r), _e10(r)]
        else:
            n = int(r.calls_per_iteration)
            names = escape(_s(r.calls)).replace(" x", r"\,$\times$")  # 'rand x1023'
            calls = f"{n} ({names})" if n else "0"
            cost = amount_interval(r.per_call_ns, r.per_call_low_ns, r.per_call_high_ns, covers="")
            cells = [_row_label(r), calls, cost, timer_bound(r.timer_bound_ns), _cycles(r), _e10(r)]
        lines.append(" & ".join(cells) + r" \\")
    confounded = t[t.confounded_by.fillna("") != ""]
    mixed = [
        rf"\texttt{{{escape(s)}}} \texttt{{{escape(v)}}}, "
        + ", ".join(escape(WORKLOAD.get(m, m)) for m in dict.fromkeys(rows.metric))
        + f": {escape(c)}"
        for (s, v, c), rows in confounded.groupby(
            ["source", "subject", "confounded_by"], sort=False
        )
    ]
    if mixed:
        lines += [
            r"\midrule",
            r"\multicolumn{6}{p{0.95\textwidth}}{$^\S$ the contrast also differs in: "
            + "; ".join(mixed)
            + r".} \\",
        ]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def beside(t: pd.DataFrame, published: pd.DataFrame) -> str:
    """The paragraph that sets the estimate beside Morello's published performance work."""
    r, _ = answer(t)

    def pub(configuration: str, microarchitecture: str) -> str:
        x = published[
            (published.configuration == configuration)
            & published.microarchitecture.str.startswith(microarchitecture)
        ]
        return _pct(float(x.value.iloc[0])) if len(x) else "not published"

    ours = (
        f"The {amount(r.per_call_ns)} per call that the study's data give"
        if r is not None and math.isfinite(_f(r.per_call_ns))
        else "A cost per call"
    )
    return (
        f"{ours} is the purecap ABI's and the compartment switch's together, an upper bound on "
        "the switch alone. Morello's early "
        "performance report~\\cite{morello-early-performance} names one cost of the ABI's "
        "own that falls on exactly such calls: Morello's branch predictor does not predict the "
        "bounds of the program-counter capability, so a call into another library, which "
        "changes them, stalls the instructions that depend on them. It measured SPECint 2006 "
        f"on an FPGA model of the shipped Morello at {pub('Purecap ABI', 'unmodified')} "
        "geometric-mean overhead against hybrid with the purecap ABI, and "
        f"{pub('Benchmark ABI', 'unmodified')} with the "
        "benchmark ABI, which keeps the program counter's bounds global to avoid that stall; "
        "two fixes to the microarchitecture brought it to "
        f"{pub('Benchmark ABI', 'data-dependent exception fix and')} "
        "(published/morello\\_performance\\_2023.csv gives each figure's file and line). "
        "These are whole-program overheads, not costs per call, and none of them includes a "
        "compartment switch; we know of no published cost per call of \\ctn."
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--per-call", required=True, type=Path, help="results/per_call.csv")
    ap.add_argument("--published", required=True, type=Path)
    cfg.add_arguments(ap)
    ap.add_argument("--table", required=True, type=Path)
    ap.add_argument("--figure", required=True, type=Path)
    ap.add_argument("--macros", required=True, type=Path)
    a = ap.parse_args(argv)
    t = pd.read_csv(a.per_call)
    config = exp.config_from_arguments(a)
    releases = {m["name"]: m.get("release", m["name"]) for m in cfg.datasets(config or {})}
    published = pd.read_csv(a.published)
    write_text_atomic(a.table, latex_table(t))
    write_text_atomic(a.figure, figure(t))
    text = "% Generated by c18n_ae.report.call_cost from results/per_call.csv; do not edit.\n"
    text += newcommand("PerCallFinding", finding(t, releases))
    text += newcommand("PerCallBeside", beside(t, published))
    write_text_atomic(a.macros, text)


if __name__ == "__main__":
    main()
