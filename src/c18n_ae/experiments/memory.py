"""E2 memory: malloc, write, read and free of large blocks."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, fmt, macro_name, newcommand
from c18n_ae.experiments import Experiment, Headline, Param
from c18n_ae.experiments.common import (
    NS_PER,
    UNIT_TEX,
    by_target,
    cell,
    group_pgfplots,
    ratio,
    series,
    stat,
    wide_tidy,
)

BYTES_PER_MIB = 1024 * 1024
RAW = ("block_mib", "trial", "status", "malloc_ns", "write_ns", "read_ns", "free_ns", "checksum")
METRICS = {"malloc_ns": "ns", "write_ns": "ns", "read_ns": "ns", "free_ns": "ns"}


def tidy_rows(raw, rows):
    return wide_tidy(raw, rows, "block_mib", METRICS, statuses=("ok", "alloc_failed"))


def derive(df: pd.DataFrame) -> pd.DataFrame:
    """Adds per-trial bandwidth: bytes per ns is GB/s (10^9 bytes per second)."""
    extra = []
    for phase in ("write", "read"):
        part = df[df["metric"] == f"{phase}_ns"].copy()
        part["value"] = part["parameter_value"] * BYTES_PER_MIB / part["value"]
        part["metric"] = f"{phase}_GBps"
        part["unit"] = "GB/s"
        extra.append(part)
    return concat_frames([df, *extra])


COLUMNS = [
    ("malloc_ns", "us", r"\texttt{malloc}"),
    ("write_ns", "ms", "write"),
    ("read_ns", "ms", "read"),
    ("free_ns", "ms", r"\texttt{free}"),
]


def table(summary: pd.DataFrame, tidy: pd.DataFrame, references: dict, comparisons=None) -> str:
    """Mean ± sd per block size and variant, every target and variant that ran."""
    head = " & ".join(
        ["Target", "Variant", r"Block (\si{\mebi\byte})"]
        + [f"{label} ({UNIT_TEX[u]})" for _, u, label in COLUMNS]
        + [f"write ({UNIT_TEX['GB/s']})", f"read ({UNIT_TEX['GB/s']})"]
    )
    lines = [r"\begin{tabular}{lllrrrrrr}", r"\toprule", head + r" \\", r"\midrule"]
    for i, (target, variant) in enumerate(series(summary)):
        if i:
            lines.append(r"\midrule")
        mine = summary[(summary.target == target) & (summary.variant == variant)]
        for block in sorted(mine.parameter_value.unique()):
            cells = [escape(target), escape(variant), f"{block:.0f}"]
            cells += [cell(summary, target, variant, m, block, NS_PER[u]) for m, u, _ in COLUMNS]
            cells += [
                cell(summary, target, variant, f"{p}_GBps", block, with_sd=False)
                for p in ("write", "read")
            ]
            lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def macros(summary: pd.DataFrame, references: dict) -> str:
    blocks = sorted(summary.parameter_value.unique())
    largest = blocks[-1]
    writes = summary[summary.metric == "write_ns"]
    out = [
        newcommand("MemBlockMinMiB", fmt(blocks[0])),
        newcommand("MemBlockMaxMiB", fmt(largest)),
        newcommand("MemBlockCount", str(len(blocks))),
        newcommand("MemTrialsPerBlock", str(int((writes["n"] + writes["n_excluded"]).max()))),
    ]
    for target, variant in series(summary):
        name = macro_name(target, variant)
        for phase in ("write", "read"):
            out.append(
                newcommand(
                    f"Mem{phase.title()}GBps{name}",
                    fmt(stat(summary, target, variant, f"{phase}_GBps", largest)),
                )
            )
            out.append(
                newcommand(
                    f"Mem{phase.title()}Ms{name}",
                    fmt(stat(summary, target, variant, f"{phase}_ns", largest) / 1e6),
                )
            )
        out.append(
            newcommand(
                f"MemMallocMedianUs{name}",
                fmt(stat(summary, target, variant, "malloc_ns", largest, "median") / 1e3),
            )
        )
        out.append(
            newcommand(
                f"MemFreeMs{name}", fmt(stat(summary, target, variant, "free_ns", largest) / 1e6)
            )
        )
        failed = int(
            writes[(writes.target == target) & (writes.variant == variant)]["n_excluded"].sum()
        )
        out.append(newcommand(f"MemFailedAllocs{name}", str(failed)))
        ref = references.get(target)
        if ref and ref != variant:
            for phase in ("write", "read"):
                out.append(
                    newcommand(
                        f"Mem{phase.title()}Ratio{name}",
                        fmt(ratio(summary, target, variant, ref, f"{phase}_ns", largest)),
                    )
                )
    return "".join(out)


PANELS = [
    ("malloc_ns", 1e3, "malloc (µs)"),
    ("write_ns", 1e6, "write (ms)"),
    ("read_ns", 1e6, "read (ms)"),
    ("free_ns", 1e6, "free (ms)"),
]


def preview(summary: pd.DataFrame, pdf: Path, png: Path) -> None:
    """One row of four panels (malloc, write, read, free) per target or data set."""
    from c18n_ae.experiments.plotting import plt, save

    panels = by_target(summary)
    fig, axes = plt.subplots(
        len(panels), 4, figsize=(12, 2.8 * len(panels)), constrained_layout=True, squeeze=False
    )
    for row, (target, variants) in zip(axes, panels):
        for ax, (metric, scale, label) in zip(row, PANELS):
            for variant in variants:
                s = summary[
                    (summary.target == target)
                    & (summary.variant == variant)
                    & (summary.metric == metric)
                ]
                s = s.sort_values("parameter_value")
                err = [(s["mean"] - s["ci95_low"]) / scale, (s["ci95_high"] - s["mean"]) / scale]
                ax.errorbar(
                    s["parameter_value"],
                    s["mean"] / scale,
                    yerr=err,
                    marker="o",
                    ms=3,
                    capsize=2,
                    label=variant,
                )
            ax.set_xlabel("block size (MiB)")
            ax.set_ylabel(f"mean {label}")
            ax.set_title(target, fontsize=9)
            ax.grid(alpha=0.3)
        row[0].legend(fontsize=8)
    fig.suptitle("E2 memory: mean time per trial, 95 % CI, one row per target or data set")
    save(fig, pdf, png)


def pgfplots(summary: pd.DataFrame, series_csv: Path, data: str) -> str:
    """A wide CSV (block size, one column per series and metric) and one panel per target or data
    set."""
    cols, panels = {}, []
    for target, variants in by_target(summary):
        plots = []
        for variant in variants:
            wide = summary[(summary.target == target) & (summary.variant == variant)].pivot(
                index="parameter_value", columns="metric", values="mean"
            )
            key = f"{target}-{variant}"
            for phase, style in (("write", "solid"), ("read", "dashed")):
                if f"{phase}_GBps" not in wide:  # left out: not a valid measurement there
                    continue
                cols[f"{phase}_GBps-{key}"] = wide[f"{phase}_GBps"]
                plots.append(
                    f"\\addplot+[{style}, mark size=1.2pt] table[x=block_mib, "
                    f"y={phase}_GBps-{key}, col sep=comma] {{{data}}};\n"
                    f"\\addlegendentry{{{escape(variant)} {phase}}}"
                )
        if plots:
            panels.append((escape(target), "\n".join(plots)))
    frame = pd.DataFrame(cols).sort_index()
    frame.index.name = "block_mib"
    write_text_atomic(series_csv, frame.to_csv(na_rep="nan"))
    return group_pgfplots(
        panels,
        "xlabel={block size (MiB)}, ylabel={mean bandwidth (GB/s)}, ymin=0, unbounded coords=jump",
    )


EXPERIMENT = Experiment(
    name="memory",
    number=2,
    params=(
        # the study's blocks: 100 MB to 1000 MB in steps of 100 MB (MB taken as MiB, 2^20 bytes)
        Param(
            "block_sizes_mib",
            list(range(100, 1001, 100)),
            [16, 32, 64, 128],
            minimum=1,
            maximum=65536,
            flag="sizes-mib",
        ),
        Param("trials", 100, 5, "trials per block", minimum=1),
        Param("timeout_s", 14400, 600, "the run's time limit", exclusive_minimum=0, flag=""),
    ),
    title="E2 memory",
    programs=("memory",),
    raw_columns=RAW,
    trials=lambda p: len(p["block_sizes_mib"]) * p["trials"],
    tidy_rows=tidy_rows,
    derive=derive,
    table=table,
    macros=macros,
    preview=preview,
    pgfplots=pgfplots,
    headline=(
        Headline("malloc_ns", "a malloc of the largest block", "libc"),
        Headline("write_ns", "writing the largest block"),
        Headline("read_ns", "reading the largest block"),
        Headline("free_ns", "a free of the largest block", "libc"),
    ),
)
