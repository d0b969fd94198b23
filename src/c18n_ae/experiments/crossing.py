"""E10 the cost of a compartment crossing: a tight loop of calls into a function of a second shared
library, against the same loop calling the same arithmetic in the program; a call that passes a
buffer, and one that calls back into the program."""

from __future__ import annotations

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.latex import escape, fmt, gen_name, newcommand
from c18n_ae.common.lazy import pd
from c18n_ae.common.rawcsv import number
from c18n_ae.experiments import Experiment, Headline
from c18n_ae.experiments.outputs import Column, Figure, Inputs, Table
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import Program
from c18n_ae.experiments.rows import allowed, bar_panels, pick, row_key, series

KINDS = {  # the program's kinds of call -> how the paper names them
    "local": "plain call in the program",
    "library": "call into another library",
    "buffer": "the same, passing a 16-byte buffer",
    "callback": "call that calls back into the program",
}
EXTRA = "crossing_extra_ns"  # a library call minus a plain call, per trial
# Where the target counts them, the board check records (meta.json checks.board.variants.<v>) a
# library call's crossings as CheriBSD's run-time linker counts them (crossings.per_library_call,
# LD_COMPARTMENT_SWITCH_COUNT) and pmcstat's cycles per nanosecond of the same program
# (counters.cycles_per_ns); without them the table says so instead of a number.
NOT_COUNTED = "not counted on this target"
SIMULATED = " (simulated)"  # a count from the tests' simulated CheriBSD target, never a board's


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        allowed(raw, line, row, "kind", tuple(KINDS))
        allowed(raw, line, row, "status", ("ok",))
        trial = int(number(raw, line, "trial", row["trial"]))
        calls = number(raw, line, "calls", row["calls"])
        value = number(raw, line, "ns_per_call", row["ns_per_call"])
        out.append((trial, "calls", calls, f"{row['kind']}_call_ns", value, "ns", "ok"))
    return out


def derive(df: pd.DataFrame, consume: bool = False) -> pd.DataFrame:
    """The extra time of a call into another library over a plain call, paired by trial (both
    loops run in the same trial, in its random order)."""
    keys = ["source", "variant", "experiment", "run", "trial", "parameter", "parameter_value"]
    plain = df[df.metric == "local_call_ns"].set_index(keys)["value"]
    library = df[df.metric == "library_call_ns"].set_index(keys)["value"]
    extra = (library - plain).dropna().rename("value").reset_index()
    extra = extra.assign(metric=EXTRA, unit="ns", status="ok")[df.columns]
    return concat_frames([df, extra], owned=2 if consume else 0)


def _interval(row) -> str:
    return f"{fmt(row['mean'])} [{fmt(row['ci95_low'])}, {fmt(row['ci95_high'])}]"


CAPTION = (
    r"E10 crossing: mean time of one call (95\,\% interval), median, ratio to a plain call; a "
    r"call into the other library minus a plain call, paired by trial, and where counted, per "
    r"crossing and in cycles."
)
CAPTION_SIMULATED = (
    r" Values marked (simulated) were counted on the tests' simulated CheriBSD target (stand-ins "
    r"for the run-time linker's count and pmcstat), not on a board."
)


def table(data: Inputs) -> Table:
    """Per variant: each kind's mean time of one call with its interval, the median, and the
    ratio to the plain call; then the extra time of a crossing, paired by trial."""
    s, groups = data.summary, []
    for target, variant in series(s):
        plain = pick(s, target, variant, "local_call_ns")
        rows = []
        for kind, label in KINDS.items():
            row = pick(s, target, variant, f"{kind}_call_ns")
            if row is not None:
                ratio = fmt(row["mean"] / plain["mean"]) if plain is not None else "--"
                cells = [label, _interval(row), fmt(row["median"]), ratio]
                rows.append([escape(target), escape(variant), *cells])
        rows = [[*r, "", ""] for r in rows]
        extra = pick(s, target, variant, EXTRA)
        if extra is not None:
            cells = ["library call minus plain call", _interval(extra), fmt(extra["median"]), ""]
            counted = per_counted_crossing(extra["mean"], data.boards.get((target, variant), {}))
            rows.append([escape(target), escape(variant), *cells, *counted])
        groups.append(rows)
    simulated = any(SIMULATED in c for g in groups for r in g for c in r[-2:])
    columns = (Column("Source", align="l"), Column("Variant", align="l"), Column("Call", align="l"))
    columns += (Column(r"mean [95\,\% CI]", "ns"), Column("median", "ns"))
    columns += (Column(r"against a plain call ($\times$)"),)
    columns += (Column("per counted crossing", "ns", align="l"), Column("cycles", align="l"))
    return Table(columns, groups, CAPTION + (CAPTION_SIMULATED if simulated else ""))


def per_counted_crossing(extra_ns: float, board: dict) -> list[str]:
    """The extra time of a library call divided by the crossings the run-time linker counted per
    library call, and the extra time in cycles at the cycles per nanosecond pmcstat counted, both
    from the board check of the variant's run (board: its checks.board.variants entry, with the
    check's `simulated`); "not counted on this target" where the target gives no count."""
    crossings = (board.get("crossings") or {}).get("per_library_call")
    rate = (board.get("counters") or {}).get("cycles_per_ns")
    mark = SIMULATED if board.get("simulated") else ""
    per = fmt(extra_ns / crossings) + mark if crossings else NOT_COUNTED
    return [per, NOT_COUNTED if rate is None else fmt(extra_ns * rate) + mark]


def figure(data: Inputs) -> Figure:
    """Mean time of one call per kind, one bar per variant, one panel per target."""
    s, bars, plus, minus = data.valid, {}, {}, {}
    for target, variant in series(s):
        rows = [pick(s, target, variant, f"{k}_call_ns") for k in KINDS]
        bars.setdefault(target, {})[variant] = [r["mean"] for r in rows]
        plus.setdefault(target, {})[variant] = [r["ci95_high"] - r["mean"] for r in rows]
        minus.setdefault(target, {})[variant] = [r["mean"] - r["ci95_low"] for r in rows]
    return Figure(
        "bars",
        "E10: mean time of one call, 95 % CI of the mean",
        bar_panels(list(KINDS), bars, plus, minus),
        "time per call (ns)",
    )


def extra_says(row) -> str:
    """What a variant's library call minus plain call says, from its 95 % interval: a difference
    only where the interval excludes 0 (the paper's rule), else no detectable difference."""
    mean, low, high = (float(row[k]) for k in ("mean", "ci95_low", "ci95_high"))
    numbers = f"{fmt(mean)}\\,ns a call, 95\\,\\% interval {fmt(low)} to {fmt(high)}\\,ns"
    if low > 0:
        return f"the call into the other library took longer ({numbers})"
    if high < 0:
        return f"the call into the other library was faster ({numbers})"
    return f"the two calls show no detectable difference ({numbers})"


def macros(summary: pd.DataFrame, references: dict) -> str:
    out = []
    for target, variant in series(summary):
        for metric in ("local_call_ns", "library_call_ns", "callback_call_ns", EXTRA):
            row = pick(summary, target, variant, metric)
            if row is not None:
                what = metric.removeprefix("crossing_").removesuffix("_ns").removesuffix("_call")
                quantity = f"{what} ns"  # CrossingLibraryNs..., CrossingExtraNs...
                name = gen_name("crossing", quantity, target, variant)
                out.append(newcommand(name, fmt(row["mean"]), row_key(row, "mean")))
        extra = pick(summary, target, variant, EXTRA)
        if extra is not None:  # the sentence and its trials (below the claims' minimum: none)
            key = row_key(extra, "mean, ci95_low, ci95_high")
            says = gen_name("crossing", "extra says", target, variant)
            out.append(newcommand(says, extra_says(extra), key))
            trials = gen_name("crossing", "extra trials", target, variant)
            out.append(newcommand(trials, str(int(extra["n"])), row_key(extra, "n")))
    plain = summary[summary.metric == "local_call_ns"]
    if len(plain):
        calls, trials = f"{plain.parameter_value.max():.0f}", str(int(plain.n.max()))
        key = "metric=local_call_ns; column={}, the largest of any row"
        out.append(newcommand(gen_name("crossing", "calls"), calls, key.format("parameter_value")))
        out.append(newcommand(gen_name("crossing", "trials"), trials, key.format("n")))
    return "".join(out)


EXPERIMENT = Experiment(
    name="crossing",
    means_over_calls=("*_call_ns", EXTRA),  # one clock interval over calls
    number=10,
    title="E10 cost of a compartment crossing",
    measures=(
        "time of one call into another shared library (under c18n a compartment crossing) "
        "against a plain call in the program; a call passing a buffer; a call that calls back"
    ),
    part="cost",
    programs=(
        Program("crossing", ("crossing.c",), links=("crossing_callee",)),
        Program("crossing_callee", ("crossing_callee.c",), shared=True),
    ),
    params=(
        Param("calls", 10_000_000, 200_000, "calls timed together in one loop", minimum=1),
        Param("trials", 100, 10, "loops of each kind", minimum=2),
        Param("seed", 1, help="seed of each trial's random order of the kinds", minimum=0),
        time_limit(3600, 120),
    ),
    trials=lambda p: len(KINDS) * p["trials"],
    headline=(
        Headline("library_call_ns", "a call into another library", "libcrossing_callee"),
        Headline("callback_call_ns", "a call that calls back", "libcrossing_callee"),
        Headline("local_call_ns", "a plain call in the program"),
    ),
    claims=(
        {
            "id": "crossing-costs-more",
            "text": "Inside a compartment, a call into another library costs more than a plain "
            "call in the program.",
            "kind": "metrics",
            "statistic": "mean",
            "metric": "library_call_ns",
            "baseline_metric": "local_call_ns",
            "c18n": True,
            "op": ">",
            "threshold": 1,
            "restates": "none: E10 is this package's own experiment",
        },
    ),
)
