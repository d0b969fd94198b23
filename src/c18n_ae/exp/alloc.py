"""E9 allocation under threads: throughput and mean allocation/release latency of a 48-byte
object for 1 to 128 worker threads; beside the published normal vs SGX enclave figures (2023)."""

from __future__ import annotations

import pandas as pd

from .. import PROJECT_ROOT
from ..latex import escape, fmt, macro_name, newcommand
from ..rawcsv import RawDataError, number
from . import Experiment
from .common import series, stat

RAW = ("threads", "trial", "status", "duration_ns", "operations", "throughput_ops_per_s", "alloc_ns", "free_ns", "cores")
PUBLISHED = PROJECT_ROOT / "results" / "published" / "sgx_alloc_2023.csv"


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        if row["status"] not in ("ok", "alloc_failed"):
            raise RawDataError(f"{raw}:{line}: column status: unexpected {row['status']!r}")
        n = number(raw, line, "threads", row["threads"])
        trial = int(number(raw, line, "trial", row["trial"]))
        for metric, col, unit in (("throughput_ops_per_s", "throughput_ops_per_s", "ops/s"),
                                  ("alloc_ns", "alloc_ns", "ns"), ("free_ns", "free_ns", "ns")):
            out.append((trial, "threads", n, metric, number(raw, line, col, row[col]), unit, row["status"]))
    return out


def table(summary: pd.DataFrame, tidy: pd.DataFrame, references: dict) -> str:
    pub = pd.read_csv(PUBLISHED)
    lines = [r"\begin{tabular}{lrrrr}", r"\toprule",
             r"Source & Threads & Throughput (ops/\si{\second}) & allocate (\si{\nano\second}) & release (\si{\nano\second}) \\",
             r"\midrule"]
    for target, variant in series(summary):
        for n in sorted(pd.to_numeric(summary.parameter_value).unique()):
            lines.append(" & ".join([f"{escape(target)}/{escape(variant)}", f"{n:.0f}",
                                     fmt(stat(summary, target, variant, "throughput_ops_per_s", n)),
                                     fmt(stat(summary, target, variant, "alloc_ns", n)),
                                     fmt(stat(summary, target, variant, "free_ns", n))]) + r" \\")
        lines.append(r"\midrule")
    for mode in ("normal", "enclave"):
        p = pub[pub["mode"] == mode]
        for n in sorted(p.workers.unique()):
            v = p[p.workers == n].set_index("metric")["value"]
            lines.append(" & ".join([f"published SGX 2023, {mode}", f"{n}", fmt(v.get("throughput")),
                                     fmt(v.get("latency_new")), fmt(v.get("latency_delete"))]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def macros(summary: pd.DataFrame, references: dict) -> str:
    out = []
    for target, variant in series(summary):
        name = macro_name(target, variant)
        ns = sorted(pd.to_numeric(summary.parameter_value).unique())
        out += [newcommand(f"AllocThroughputOne{name}", fmt(stat(summary, target, variant, "throughput_ops_per_s", ns[0]))),
                newcommand(f"AllocThroughputMost{name}", fmt(stat(summary, target, variant, "throughput_ops_per_s", ns[-1]))),
                newcommand(f"AllocThreadsMost{name}", f"{ns[-1]:.0f}")]
    return "".join(out)


def _series_values(summary):
    ns = sorted(pd.to_numeric(summary.parameter_value).unique())
    return ns, {f"{t}/{v}": [stat(summary, t, v, "throughput_ops_per_s", n) for n in ns] for t, v in series(summary)}


def preview(summary, pdf, png):
    from ..figures import plt, save
    ns, vals = _series_values(summary)
    pub = pd.read_csv(PUBLISHED)
    fig, ax = plt.subplots(figsize=(6, 3.5), constrained_layout=True)
    for label, ys in vals.items():
        ax.plot(ns, ys, marker="o", label=f"{label} (ours)")
    for mode in ("normal", "enclave"):
        p = pub[(pub["mode"] == mode) & (pub.metric == "throughput")].sort_values("workers")
        ax.plot(p.workers, p.value, ls="--", marker="x", label=f"SGX 2023 {mode} (published)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("worker threads")
    ax.set_ylabel("throughput (ops/s)")
    ax.legend(fontsize=7)
    ax.set_title("E9 allocation under threads")
    save(fig, pdf, png)


def pgfplots(summary, series_csv, data):
    from ..fsutil import write_text_atomic
    ns, vals = _series_values(summary)
    pub = pd.read_csv(PUBLISHED)
    cols = {"threads": ns}
    keys = []
    for i, (label, ys) in enumerate(vals.items()):
        cols[f"s{i}"] = ys
        keys.append((f"s{i}", f"{label} (ours)", "solid"))
    for mode in ("normal", "enclave"):
        p = pub[(pub["mode"] == mode) & (pub.metric == "throughput")].set_index("workers")["value"]
        cols[f"pub_{mode}"] = [p.get(int(n), float("nan")) for n in ns]
        keys.append((f"pub_{mode}", f"SGX 2023 {mode} (published)", "dashed"))
    write_text_atomic(series_csv, pd.DataFrame(cols).to_csv(index=False, na_rep="nan"))
    plots = "\n".join(f"\\addplot+[{style}] table[x=threads, y={k}, col sep=comma] {{{data}}};\n\\addlegendentry{{{escape(l)}}}"
                      for k, l, style in keys)
    return ("\\begin{tikzpicture}\n\\begin{axis}[width=\\columnwidth, height=5.5cm, xmode=log, log basis x=2, ymode=log,\n"
            "  xlabel={worker threads}, ylabel={throughput (ops/s)}, unbounded coords=jump,\n"
            "  legend style={font=\\tiny, at={(0.5,-0.25)}, anchor=north}, legend columns=2, grid=major, grid style={gray!25}]\n"
            + plots + "\n\\end{axis}\n\\end{tikzpicture}\n")


EXPERIMENT = Experiment(
    name="alloc",
    title="E9 allocation under threads",
    programs=("alloc_threads",),
    args=lambda p: ["--threads", ",".join(map(str, p["threads"])), "--millis", str(int(p["seconds"] * 1000)),
                    "--trials", str(p["trials"])],
    raw_columns=RAW,
    trials=lambda p: len(p["threads"]) * p["trials"],
    tidy_rows=tidy_rows,
    table=table,
    macros=macros,
    preview=preview,
    pgfplots=pgfplots,
)
