"""E1 compartments at scale: how many instances of a compartmentalised workload fit in memory."""

from __future__ import annotations

import numpy as np
import pandas as pd

from c18n_ae.common.latex import escape, fmt, gen_name, newcommand
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment
from c18n_ae.experiments.layouts import TIMES, Layout
from c18n_ae.experiments.outputs import Column, Figure, Inputs, Panel, Series, Table
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import INTEGRATION
from c18n_ae.experiments.rows import (
    by_target,
    series,
)

REASONS = ("memory_fraction", "budget", "max_instances")
REASON_TEXT = {
    "memory_fraction": "memory fraction reached",
    "budget": "added-memory budget reached",
    "max_instances": "instance cap reached",
    "": "did not stop",
}


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        if row["status"] != "ok":
            raise RawDataError(
                f"{raw}:{line}: column status: unexpected {row['status']!r} (allowed: ok)"
            )
        if row["stop_reason"] not in ("",) + REASONS:
            raise RawDataError(
                f"{raw}:{line}: column stop_reason: unexpected {row['stop_reason']!r} "
                f"(allowed: {', '.join(REASONS)})"
            )
        n = number(raw, line, "instances", row["instances"])
        out.append(
            (
                int(n),
                "instances",
                n,
                "memory_used_mb",
                number(raw, line, "memory_used_mb", row["memory_used_mb"]),
                "MB",
                "ok",
            )
        )
        out.append(
            (
                int(n),
                "instances",
                n,
                "instances_rss_mb",
                number(raw, line, "instances_rss_mb", row["instances_rss_mb"]),
                "MB",
                "ok",
            )
        )
        out.append(
            (
                int(n),
                "instances",
                n,
                "elapsed_ms",
                number(raw, line, "elapsed_ms", row["elapsed_ms"]),
                "ms",
                "ok",
            )
        )
        for r in REASONS:
            if row["stop_reason"] == r:
                out.append((int(n), "instances", n, f"stopped_by_{r}", 1.0, "flag", "ok"))
    return out


def fit(summary: pd.DataFrame, target: str, variant: str) -> dict:
    s = summary[(summary.source == target) & (summary.variant == variant)]
    mem = s[s.metric == "memory_used_mb"].sort_values("parameter_value")
    ela = s[s.metric == "elapsed_ms"].sort_values("parameter_value")
    rss = s[s.metric == "instances_rss_mb"].sort_values("parameter_value")
    x = mem.parameter_value.astype(float).to_numpy()
    stopped = s[s.metric.str.startswith("stopped_by_")]
    reason = stopped.metric.iloc[0].removeprefix("stopped_by_") if len(stopped) else ""
    started = x[x > 0]
    slope = lambda xs, ys: float(np.polyfit(xs, ys, 1)[0]) if len(xs) >= 2 else float("nan")  # noqa: E731
    return {
        "instances": int(x.max()) if len(x) else 0,
        "mb_per_instance": slope(x, mem["mean"].to_numpy()),
        "rss_mb_per_instance": slope(
            rss.parameter_value.astype(float).to_numpy(), rss["mean"].to_numpy()
        ),
        "ms_per_instance": slope(started, ela[ela.parameter_value > 0]["mean"].to_numpy()),
        "added_mb": float(mem["mean"].iloc[-1] - mem["mean"].iloc[0]) if len(mem) else float("nan"),
        "reason": reason,
    }


CAPTION = (
    r"E1 scale: instances started, memory added, slopes of memory and elapsed time per "
    r"instance, and the condition that stopped the run."
)


def table(data: Inputs) -> Table:
    summary, rows = data.summary, []
    for target, variant in series(summary):
        f = fit(summary, target, variant)
        # a data set may record neither the instances' own memory nor why it stopped
        recorded = (
            (summary.source == target)
            & (summary.variant == variant)
            & (summary.metric == "instances_rss_mb")
        ).any()
        rows.append(
            [escape(target), escape(variant), str(f["instances"]), fmt(f["added_mb"])]
            + [fmt(f["mb_per_instance"])]
            + [fmt(f["rss_mb_per_instance"]) if recorded else "not recorded"]
            + [fmt(f["ms_per_instance"]), REASON_TEXT[f["reason"]] if recorded else "not recorded"]
        )
    columns = (
        Column("Source", align="l"),
        Column("Variant", align="l"),
        Column("Instances"),
        Column("Added", "MB"),
        Column(r"\si{\mega\byte} per instance (system)"),
        Column(r"\si{\mega\byte} per instance (RSS)"),
        Column(r"\si{\milli\second} per instance"),
        Column("Stopped by", align="l"),
    )
    return Table(columns, [rows], CAPTION)


def macros(summary: pd.DataFrame, references: dict) -> str:
    out = []
    for target, variant in series(summary):
        f = fit(summary, target, variant)
        quoted = {
            "instances": str(f["instances"]),
            "mb per instance": fmt(f["mb_per_instance"]),
            "rss mb per instance": fmt(f["rss_mb_per_instance"]),
            "ms per instance": fmt(f["ms_per_instance"]),
            "stopped by": REASON_TEXT[f["reason"]],
        }
        out += [newcommand(gen_name("Scale", q, target, variant), v) for q, v in quoted.items()]
    return "".join(out)


def figure(data: Inputs) -> Figure:
    """Memory in use against instances, one panel per target or data set (elapsed time: table)."""
    summary = data.valid
    mem = summary[summary.metric == "memory_used_mb"].sort_values("parameter_value")
    panels = [
        Panel(
            target,
            [
                Series(variant, list(s.parameter_value), list(s["mean"]))
                for variant in variants
                for s in [mem[(mem.source == target) & (mem.variant == variant)]]
            ],
        )
        for target, variants in by_target(summary)
    ]
    return Figure(
        "lines",
        "E1 scale: memory in use against instances",
        panels,
        "memory in use (MB)",
        "instances running",
    )


def findings(source: str, summary: pd.DataFrame, verdicts=None) -> list[str]:
    """Instances reached and memory per instance (least-squares slope with its 95 % interval)."""
    from scipy import stats

    out = []
    for variant in dict.fromkeys(summary[summary.source == source].variant):
        s = summary[
            (summary.source == source)
            & (summary.variant == variant)
            & (summary.metric == "memory_used_mb")
        ].sort_values("parameter_value")
        if len(s) < 3:
            continue
        fit = stats.linregress(s.parameter_value.astype(float), s["mean"])
        half = stats.t.ppf(0.975, len(s) - 2) * fit.stderr
        out.append(
            f"On \\texttt{{{escape(source)}}}, \\texttt{{{escape(variant)}}} reached "
            f"{int(s.parameter_value.max())} instances, each adding {fmt(fit.slope)}\\,MB "
            f"[{fmt(fit.slope - half)}, {fmt(fit.slope + half)}] of memory in use "
            "(least-squares slope, 95\\,\\% interval)."
        )
    return out


LAYOUT = Layout(  # the study's files: instances, memory in use and elapsed time
    "scale",
    {
        "instances": (
            ("numberofprocesses", "processes", "numberofcompartments", "instances"),
            None,
            "Number of Processes",
        ),
        "memory": (("memoryused", "memory", "memoryinuse"), ("mb",), "Memory Used (MB)"),
        "elapsed": (("timeelapsed", "elapsedtime", "elapsed"), TIMES, "Time Elapsed (ms)"),
    },
    rows=lambda c: [
        (
            c.num("instances"),
            "instances",
            c.num("instances"),
            "memory_used_mb",
            c.num("memory"),
            "MB",
            "ok",
        ),
        (
            c.num("instances"),
            "instances",
            c.num("instances"),
            "elapsed_ms",
            c.ns("elapsed") / 1e6,
            "ms",
            "ok",
        ),
    ],
)


EXPERIMENT = Experiment(
    layouts=(LAYOUT,),
    name="scale",
    measures=("instances of a compartmentalised workload that fit in memory"),
    part="compartments",
    number=1,
    params=(
        # instances start interval_s apart until memory in use passes 90 % of total (the study's
        # criterion on a 16 GB board); on a shared machine the added-memory budget (2 GiB) and the
        # instance cap stop it first: raise them on a dedicated board
        Param("interval_s", 0.5, 0.1, "pause after each instance starts", minimum=0),
        Param(
            "memory_fraction",
            0.9,
            help="stop when memory in use passes this fraction of total",
            exclusive_minimum=0,
            maximum=1,
        ),
        Param(
            "budget_mb",
            2147,
            help="stop when the memory added since the start passes this (MB)",
            exclusive_minimum=0,
        ),
        Param("max_instances", 500, 8, "stop at this many instances", minimum=1),
        time_limit(1800, 120),
    ),
    title="E1 compartments at scale",
    programs=(INTEGRATION,),
    driver="c18n_ae.experiments.drivers.scale",
    trials=lambda p: p["max_instances"],
)
