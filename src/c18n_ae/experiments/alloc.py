"""E9 allocation under threads: throughput and mean allocation/release latency of a 48-byte
object for 1 to 128 worker threads; beside the published normal vs SGX enclave figures (2023)."""

from __future__ import annotations

import pandas as pd

from c18n_ae import PROJECT_ROOT
from c18n_ae.common.latex import escape, fmt, macro_name, newcommand
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment, Param
from c18n_ae.experiments.common import by_target, group_pgfplots, series, stat

RAW = (
    "threads",
    "trial",
    "status",
    "duration_ns",
    "operations",
    "throughput_ops_per_s",
    "alloc_ns",
    "free_ns",
    "cores",
)
PUBLISHED = PROJECT_ROOT / "results" / "published" / "sgx_alloc_2023.csv"


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        if row["status"] not in ("ok", "alloc_failed"):
            raise RawDataError(f"{raw}:{line}: column status: unexpected {row['status']!r}")
        n = number(raw, line, "threads", row["threads"])
        trial = int(number(raw, line, "trial", row["trial"]))
        for metric, col, unit in (
            ("throughput_ops_per_s", "throughput_ops_per_s", "ops/s"),
            ("alloc_ns", "alloc_ns", "ns"),
            ("free_ns", "free_ns", "ns"),
        ):
            out.append(
                (trial, "threads", n, metric, number(raw, line, col, row[col]), unit, row["status"])
            )
    return out


def table(summary: pd.DataFrame, tidy: pd.DataFrame, references: dict, comparisons=None) -> str:
    pub = pd.read_csv(PUBLISHED)
    lines = [
        r"\begin{tabular}{lrrrr}",
        r"\toprule",
        r"Source & Threads & Throughput (ops/\si{\second}) & allocate (\si{\nano\second}) & "
        r"release (\si{\nano\second}) \\",
        r"\midrule",
    ]
    for target, variant in series(summary):
        for n in sorted(pd.to_numeric(summary.parameter_value).unique()):
            lines.append(
                " & ".join(
                    [
                        f"{escape(target)}/{escape(variant)}",
                        f"{n:.0f}",
                        fmt(stat(summary, target, variant, "throughput_ops_per_s", n)),
                        fmt(stat(summary, target, variant, "alloc_ns", n)),
                        fmt(stat(summary, target, variant, "free_ns", n)),
                    ]
                )
                + r" \\"
            )
        lines.append(r"\midrule")
    for mode in ("normal", "enclave"):
        p = pub[pub["mode"] == mode]
        for n in sorted(p.workers.unique()):
            v = p[p.workers == n].set_index("metric")["value"]
            lines.append(
                " & ".join(
                    [
                        f"published SGX 2023, {mode}",
                        f"{n}",
                        fmt(v.get("throughput")),
                        fmt(v.get("latency_new")),
                        fmt(v.get("latency_delete")),
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
        ns = sorted(pd.to_numeric(summary.parameter_value).unique())
        out += [
            newcommand(
                f"AllocThroughputOne{name}",
                fmt(stat(summary, target, variant, "throughput_ops_per_s", ns[0])),
            ),
            newcommand(
                f"AllocThroughputMost{name}",
                fmt(stat(summary, target, variant, "throughput_ops_per_s", ns[-1])),
            ),
            newcommand(f"AllocThreadsMost{name}", f"{ns[-1]:.0f}"),
        ]
    return "".join(out)


def _series_values(summary):
    """thread counts, and target -> variant -> throughput per thread count: one panel per target."""
    ns = sorted(pd.to_numeric(summary.parameter_value).unique())
    return ns, {
        t: {v: [stat(summary, t, v, "throughput_ops_per_s", n) for n in ns] for v in vs}
        for t, vs in by_target(summary)
    }


def _published(ns):
    pub = pd.read_csv(PUBLISHED)
    return {
        mode: pub[(pub["mode"] == mode) & (pub.metric == "throughput")].set_index("workers")[
            "value"
        ]
        for mode in ("normal", "enclave")
    }


def preview(summary, pdf, png):
    from c18n_ae.experiments.plotting import plt, save

    ns, vals = _series_values(summary)
    fig, axes = plt.subplots(
        len(vals), 1, figsize=(6, 3 * len(vals)), constrained_layout=True, squeeze=False
    )
    for ax, (target, series_) in zip(axes[:, 0], vals.items()):
        for label, ys in series_.items():
            ax.plot(ns, ys, marker="o", label=f"{label} (ours)")
        for mode, p in _published(ns).items():
            ax.plot(p.index, p.values, ls="--", marker="x", label=f"SGX 2023 {mode} (published)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("worker threads")
        ax.set_ylabel("throughput (ops/s)")
        ax.legend(fontsize=7)
        ax.set_title(target, fontsize=9)
    fig.suptitle("E9 allocation under threads")
    save(fig, pdf, png)


def pgfplots(summary, series_csv, data):
    """Our throughput per target (one panel each) with the SGX study's published curves in every
    panel."""
    from c18n_ae.common.fsutil import write_text_atomic

    ns, vals = _series_values(summary)
    cols = {"threads": ns}
    for mode, p in _published(ns).items():
        cols[f"pub_{mode}"] = [p.get(int(n), float("nan")) for n in ns]
    panels = []
    for t_i, (target, series_) in enumerate(vals.items()):
        plots = []
        for v_i, (label, ys) in enumerate(series_.items()):
            cols[f"t{t_i}v{v_i}"] = ys
            plots.append(
                f"\\addplot+[solid] table[x=threads, y=t{t_i}v{v_i}, col sep=comma] {{{data}}};\n"
                f"\\addlegendentry{{{escape(label)} (ours)}}"
            )
        for mode in ("normal", "enclave"):
            plots.append(
                f"\\addplot+[dashed] table[x=threads, y=pub_{mode}, col sep=comma] {{{data}}};\n"
                f"\\addlegendentry{{SGX 2023 {mode} (published)}}"
            )
        panels.append((escape(target), "\n".join(plots)))
    write_text_atomic(series_csv, pd.DataFrame(cols).to_csv(index=False, na_rep="nan"))
    return group_pgfplots(
        panels,
        "xmode=log, log basis x=2, ymode=log, xlabel={worker threads}, "
        "ylabel={throughput (ops/s)}, unbounded coords=jump",
    )


EXPERIMENT = Experiment(
    name="alloc",
    number=9,
    params=(
        # the SGX study's: 1 to 128 workers, 10 s each
        Param(
            "threads",
            [1, 2, 4, 8, 16, 32, 64, 128],
            [1, 2, 8],
            "worker thread counts",
            minimum=1,
            maximum=4096,
            max_items=16,
        ),
        Param(
            "seconds",
            10,
            0.2,
            "duration of one trial",
            exclusive_minimum=0,
            flag="millis",
            to_arg=lambda s: str(int(s * 1000)),
        ),
        Param("trials", 3, 1, minimum=1),
        Param("timeout_s", 1800, 120, "the run's time limit", exclusive_minimum=0, flag=""),
    ),
    title="E9 allocation under threads",
    programs=("alloc_threads",),
    raw_columns=RAW,
    trials=lambda p: len(p["threads"]) * p["trials"],
    tidy_rows=tidy_rows,
    table=table,
    macros=macros,
    preview=preview,
    pgfplots=pgfplots,
)
