"""E3 CPU-bound work: math, int, float and array workloads; CPU and wall time."""

from __future__ import annotations

import math

from c18n_ae.common.latex import comparison_text, escape, fmt, gen_name, newcommand
from c18n_ae.common.lazy import pd
from c18n_ae.common.rawcsv import number
from c18n_ae.experiments import Experiment, Headline
from c18n_ae.experiments.layouts import TIMES, TRIAL, Layout
from c18n_ae.experiments.outputs import Column, Figure, Inputs, StudyRows, Table
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import Program
from c18n_ae.experiments.rows import (
    allowed,
    bar_panels,
    cell,
    confounds,
    lookup,
    pick,
    quote,
    quote_ratio,
    ratio_bars,
    series,
    stat,
)

WORKLOADS = ("math", "int", "float", "array")


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        allowed(raw, line, row, "workload", WORKLOADS)
        allowed(raw, line, row, "status", ("ok", "alloc_failed"))
        trial = int(number(raw, line, "trial", row["trial"]))
        n = number(raw, line, "iterations", row["iterations"])
        for clock in ("cpu", "wall"):
            value = number(raw, line, f"{clock}_ns", row[f"{clock}_ns"])
            if row["status"] != "ok":
                value = math.nan
            out.append(
                (
                    trial,
                    "work_items",
                    n,
                    f"{row['workload']}_{clock}_ns",
                    value,
                    "ns",
                    row["status"],
                )
            )
    return out


def _ratio(summary, target, variant, ref, metric):
    if not ref:
        return math.nan
    return stat(summary, target, variant, metric) / stat(summary, target, ref, metric)


def overhead(data: Inputs, target, variant, workload) -> str:
    """CPU time against the target's reference variant, with the 95 % interval of that ratio."""
    ref = data.references.get(target)
    if variant == ref:
        return "reference"
    if data.comparisons is None or not ref:
        return fmt(_ratio(data.summary, target, variant, ref, f"{workload}_cpu_ns"))
    rows = lookup(data.comparisons, target, variant, ref, f"{workload}_cpu_ns")
    return comparison_text(rows.iloc[0], covers=False) if len(rows) else "--"


CAPTION = (
    r"E3 CPU: CPU time per trial (mean $\pm$ sd), wall time (mean) and the ratio of mean "
    r"CPU time to the target's reference variant with its 95\,\% interval."
)


def table(data: Inputs) -> Table:
    """Every variant with its CPU time and its overhead against the target's reference variant."""
    s = data.summary
    groups = [
        [
            [escape(t), escape(v), w, cell(s, t, v, f"{w}_cpu_ns", scale=1e6)]
            + [cell(s, t, v, f"{w}_wall_ns", scale=1e6, with_sd=False), overhead(data, t, v, w)]
            for w in WORKLOADS
            if pick(s, t, v, f"{w}_cpu_ns") is not None
        ]
        for t, v in series(s)
    ]
    columns = [Column("Source", align="l"), Column("Variant", align="l")]
    columns += [Column("Workload", align="l"), Column("CPU time", "ms"), Column("wall time", "ms")]
    return Table(
        (*columns, Column(r"CPU time against reference [95\,\% CI]", align="l")), groups, CAPTION
    )


def macros(summary: pd.DataFrame, references: dict) -> str:
    first = summary[summary.metric == "math_cpu_ns"]
    out = [quote(summary, "Cpu", [(f"{w} ms", f"{w}_cpu_ns") for w in WORKLOADS], scale=1e6)]
    out.append(
        quote_ratio(summary, references, "Cpu", [(f"{w} ratio", f"{w}_cpu_ns") for w in WORKLOADS])
    )
    if len(first):
        out.append(newcommand("CpuTrials", str(int(first.eval("n + n_excluded").max()))))
    # a data set may not record its work items ("as published")
    items = first.assign(items=pd.to_numeric(first.parameter_value, errors="coerce")).dropna(
        subset=["items"]
    )
    out += [
        newcommand(gen_name("Cpu", "work items", r.source, r.variant), f"{r.items:.0f}")
        for r in items.itertuples()
    ]
    return "".join(out)


def figure(data: Inputs) -> Figure:
    """Each variant's CPU time against its target's reference, per workload, with the 95 %
    interval (linear axis: a +51 % difference must be visible)."""
    metrics = [f"{w}_cpu_ns" for w in WORKLOADS]
    bars, plus, minus = ratio_bars(data.comparisons, data.references, metrics)
    # a contrast that differs in more than ABI and compartments (an optimisation level) is
    # drawn, hatched and named, never as a plain bar: the body quotes none of them
    mixed = confounds(data.comparisons, data.references, metrics)
    return Figure(
        "bars",
        "E3 CPU: ratio of mean CPU time to the target's reference variant, 95 % CI",
        bar_panels(list(WORKLOADS), bars, plus, minus, mixed),
        "CPU time against reference (×)",
        unit_line=True,
    )


def _printed(r) -> tuple[str, str]:
    workload = {"maths": "math"}.get(r.parameter_value, r.parameter_value)
    return f"{workload}_cpu_ns", workload


STUDY = StudyRows("ms", "ms", metric=_printed, shown=lambda r: True)  # every workload


WORKLOAD_NAMES = {
    "maths": "math",
    "math": "math",
    "int": "int",
    "integer": "int",
    "float": "float",
    "array": "array",
}


def _study_rows(c):
    ops = c.text("operation").str.lower().map(WORKLOAD_NAMES)
    c.check(ops.notna(), "operation", "allowed: math, int, float, array")
    metrics = (ops + "_cpu_ns").to_numpy(dtype=object)
    return [(c.num("trial"), "work_items", "as published", metrics, c.ns("cpu"), "ns", "ok")]


LAYOUT = Layout(  # the study's files: trial, workload and CPU time
    "cpu",
    {
        "trial": (TRIAL, None, "TrialNum"),
        "operation": (("operation", "testtype", "workload", "op", "type"), None, "Operation"),
        "cpu": (("cputime", "time"), TIMES, "CPU Time (ms)"),
    },
    rows=_study_rows,
    text=("operation",),
)


EXPERIMENT = Experiment(
    layouts=(LAYOUT,),
    name="cpu",
    measures=("CPU and wall time of math, int, float, array workloads"),
    part="cost",
    number=3,
    params=(
        Param("trials", 100, 5, minimum=1),
        Param(
            "iterations",
            100_000_000,
            1_000_000,
            "loop iterations of math, int and float",
            minimum=1,
        ),
        Param("array_size", 100_000_000, 1_000_000, "ints in the array workload", minimum=1),
        time_limit(14400, 300),
    ),
    title="E3 CPU-bound work",
    programs=(Program("cpu", ("cpu.c",), libs=("-lm",)),),
    trials=lambda p: 4 * p["trials"],
    study=STUDY,
    headline=(
        Headline("math_cpu_ns", "the math workload's CPU time", "libm"),
        Headline("int_cpu_ns", "the int workload's CPU time"),
        Headline("float_cpu_ns", "the float workload's CPU time"),
        Headline("array_cpu_ns", "the array workload's CPU time"),
    ),
)
