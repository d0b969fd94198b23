"""E4 pipe communication: one 1 KiB message per trial, parent write and child read, and a
batched round trip; trial 1 is kept as warm-up and reported with and without."""

from __future__ import annotations

import pandas as pd

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.latex import escape, fmt, macro_name, newcommand
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment, Headline, Param
from c18n_ae.experiments.common import (
    UNIT_TEX,
    bars_panels_pgfplots,
    cell,
    grouped_bars_preview_panels,
    means_by_target,
    pick,
    series,
    stat,
)

RAW = (
    "trial",
    "warmup",
    "message_bytes",
    "batch",
    "status",
    "write_ns",
    "read_ns",
    "total_ns",
    "roundtrip_ns",
)
METRICS = ("write_ns", "read_ns", "total_ns", "roundtrip_ns")


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        if row["status"] != "ok":
            raise RawDataError(
                f"{raw}:{line}: column status: unexpected {row['status']!r} (allowed: ok)"
            )
        if row["warmup"] not in ("0", "1"):
            raise RawDataError(
                f"{raw}:{line}: column warmup: expected 0 or 1, got {row['warmup']!r}"
            )
        status = "warmup" if row["warmup"] == "1" else "ok"
        trial = int(number(raw, line, "trial", row["trial"]))
        size = number(raw, line, "message_bytes", row["message_bytes"])
        for m in METRICS:
            out.append(
                (trial, "message_bytes", size, m, number(raw, line, m, row[m]), "ns", status)
            )
    return out


def derive(df: pd.DataFrame) -> pd.DataFrame:
    """Adds each metric again over all trials, warm-up included (named *_incl_warmup_ns)."""
    extra = df[df.metric.isin(METRICS)].copy()
    extra["metric"] = extra["metric"].str.replace("_ns", "_incl_warmup_ns", regex=False)
    extra["status"] = "ok"
    return concat_frames([df, extra])


def table(summary: pd.DataFrame, tidy: pd.DataFrame, references: dict, comparisons=None) -> str:
    """The study's shape (trials 1-4 and the last, in µs), then summary rows per series."""
    us = UNIT_TEX["us"]
    lines = [
        r"\begin{tabular}{llrrrr}",
        r"\toprule",
        f"Target & Variant & Trial & write ({us}) & read ({us}) & total ({us}) \\\\",
        r"\midrule",
    ]
    for i, (target, variant) in enumerate(series(summary)):
        if i:
            lines.append(r"\midrule")
        mine = tidy[(tidy.target == target) & (tidy.variant == variant)]
        last = int(mine.trial.max())
        for t in sorted({1, 2, 3, 4, last} & set(mine.trial)):
            vals = mine[mine.trial == t].set_index("metric")["value"]
            label = f"{t} (warm-up)" if t == 1 else str(t)
            lines.append(
                " & ".join(
                    [escape(target), escape(variant), label]
                    + [fmt(vals[m] / 1e3) for m in ("write_ns", "read_ns", "total_ns")]
                )
                + r" \\"
            )
        for suffix, label in (
            ("_ns", r"mean $\pm$ sd, 2..{}".format(last)),
            ("_incl_warmup_ns", r"mean $\pm$ sd, 1..{}".format(last)),
        ):
            lines.append(
                " & ".join(
                    [escape(target), escape(variant), label]
                    + [
                        cell(summary, target, variant, m.replace("_ns", suffix), scale=1e3)
                        for m in ("write_ns", "read_ns", "total_ns")
                    ]
                )
                + r" \\"
            )
        lines.append(
            " & ".join(
                [
                    escape(target),
                    escape(variant),
                    "round trip, mean of batch",
                    r"\multicolumn{3}{r}{"
                    + cell(summary, target, variant, "roundtrip_ns", scale=1e3)
                    + "}",
                ]
            )
            + r" \\"
        )
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def macros(summary: pd.DataFrame, references: dict) -> str:
    out = []
    for target, variant in series(summary):
        name = macro_name(target, variant)
        for m, label in (
            ("write_ns", "Write"),
            ("read_ns", "Read"),
            ("total_ns", "Total"),
            ("roundtrip_ns", "RoundTrip"),
        ):
            out.append(
                newcommand(f"Pipe{label}Us{name}", fmt(stat(summary, target, variant, m) / 1e3))
            )
            out.append(
                newcommand(
                    f"Pipe{label}InclWarmupUs{name}",
                    fmt(stat(summary, target, variant, m.replace("_ns", "_incl_warmup_ns")) / 1e3),
                )
            )
        row = pick(summary, target, variant, "roundtrip_ns")
        if row is not None:
            out.append(newcommand(f"PipeMessageBytes{name}", f"{row['parameter_value']:.0f}"))
            out.append(newcommand(f"PipeTrials{name}", str(int(row["n"] + row["n_excluded"]))))
        ref = references.get(target)
        if ref and ref != variant:
            out.append(
                newcommand(
                    f"PipeRoundTripRatio{name}",
                    fmt(
                        stat(summary, target, variant, "roundtrip_ns")
                        / stat(summary, target, ref, "roundtrip_ns")
                    ),
                )
            )
    return "".join(out)


CATEGORIES = ["write", "read", "total", "roundtrip"]


def _bars(summary):
    return means_by_target(summary, [f"{c}_ns" for c in CATEGORIES], 1e3)


def preview(summary, pdf, png):
    bars, errs = _bars(summary)
    grouped_bars_preview_panels(
        CATEGORIES,
        bars,
        errs,
        pdf,
        png,
        "mean time (µs)",
        "E4 pipe: mean per operation without warm-up, 95 % CI",
        log=True,
    )


def pgfplots(summary, series_csv, data):
    bars, errs = _bars(summary)  # error bars: the upper half of each mean's 95 % interval
    return bars_panels_pgfplots(
        CATEGORIES,
        bars,
        series_csv,
        data,
        r"mean time (\si{\micro\second})",
        ymode_log=True,
        errors=errs,
    )


EXPERIMENT = Experiment(
    name="pipe",
    number=4,
    params=(
        Param("trials", 100, 20, minimum=2),
        Param(
            "message_bytes", 1024, help="size of the message", minimum=1, maximum=65536, flag="size"
        ),
        Param("batch", 1000, 200, "round trips per trial for the batched latency", minimum=1),
        Param("timeout_s", 600, 120, "the run's time limit", exclusive_minimum=0, flag=""),
    ),
    title="E4 pipe communication",
    programs=("pipe",),
    raw_columns=RAW,
    trials=lambda p: p["trials"],
    tidy_rows=tidy_rows,
    derive=derive,
    table=table,
    macros=macros,
    preview=preview,
    pgfplots=pgfplots,
    headline=(
        Headline("write_ns", "a pipe write", "libc"),
        Headline("read_ns", "a pipe read", "libc"),
        Headline("total_ns", "a whole transfer", "libc"),
    ),
)
