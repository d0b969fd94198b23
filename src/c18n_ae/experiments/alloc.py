"""E9 allocation under threads: throughput and mean allocation/release latency of a 48-byte
object for 1 to 128 worker threads; beside the published normal vs SGX enclave figures (2023)."""

from __future__ import annotations

from c18n_ae.common.latex import escape, gen_name, newcommand
from c18n_ae.common.lazy import pd
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment
from c18n_ae.experiments.outputs import (
    Column,
    Figure,
    Inputs,
    Panel,
    Related,
    Series,
    Table,
    pair,
    three_figures,
)
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import Program
from c18n_ae.experiments.rows import by_target, quote, series, stat

METRICS = ("throughput_ops_per_s", "alloc_ns", "free_ns")  # the table's
SCALES = (1e6, 1.0, 1.0)  # each in the unit it reads in: throughput in millions a second
PUBLISHED = "sgx_alloc_2023"  # published/sgx_alloc_2023.csv, beside our table


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


CAPTION = (
    r"E9 allocation: throughput (millions of allocations and releases a second) and mean "
    r"latency per thread count; below, the SGX study's published figures, for scale only."
)


def table(data: Inputs) -> Table:
    summary, pub = data.summary, data.published[PUBLISHED]
    groups = [
        [
            [f"{escape(target)}/{escape(variant)}", f"{n:.0f}"]
            + [
                three_figures(stat(summary, target, variant, m, n) / scale)
                for m, scale in zip(METRICS, SCALES)
            ]
            for n in sorted(pd.to_numeric(summary.parameter_value).unique())
        ]
        for target, variant in series(summary)
    ]
    groups.append([])
    for mode in ("normal", "enclave"):
        p = pub[pub["mode"] == mode]
        for n in sorted(p.workers.unique()):
            v = p[p.workers == n].set_index("metric")["value"]
            groups[-1].append(
                [f"published SGX 2023, {mode}", f"{n}"]
                + [
                    three_figures(v.get(m, float("nan")) / scale)
                    for m, scale in zip(("throughput", "latency_new", "latency_delete"), SCALES)
                ]
            )
    columns = (Column("Source", align="l"), Column("Threads"), Column("Throughput", "M ops/s"))
    return Table((*columns, Column("allocate", "ns"), Column("release", "ns")), groups, CAPTION)


def count(x: float) -> str:
    return f"{x:.0f}"


def macros(summary: pd.DataFrame, references: dict) -> str:
    ns = sorted(pd.to_numeric(summary.parameter_value).unique())
    most = [
        newcommand(gen_name("Alloc", "threads most", t, v), f"{ns[-1]:.0f}")
        for t, v in series(summary)
    ]
    return "".join(
        [
            # in millions a second ('15.6'), never a raw count of eight figures
            *(
                quote(
                    summary, "Alloc", [(f"throughput {q}", METRICS[0])], at, 1e6, form=three_figures
                )
                for q, at in (("one", ns[0]), ("most", ns[-1]))
            ),
            quote(summary, "Alloc", [("trials one", METRICS[0])], ns[0], field="n", form=count),
            *most,
        ]
    )


def figure(data: Inputs) -> Figure:
    """Our throughput per target (one panel each) with the SGX study's published curves in every
    panel."""
    summary, pub = data.valid, data.published[PUBLISHED]
    ns = sorted(pd.to_numeric(summary.parameter_value).unique())
    published = [
        Series(f"SGX {mode} (published)", list(p.workers), list(p.value), style="dashed")
        for mode in ("normal", "enclave")
        for p in [pub[(pub["mode"] == mode) & (pub.metric == "throughput")]]
    ]
    panels = [
        Panel(
            t,
            [
                Series(f"{v} (ours)", ns, [stat(summary, t, v, METRICS[0], n) for n in ns])
                for v in vs
            ]
            + published,
        )
        for t, vs in by_target(summary)
    ]
    return Figure(
        "lines",
        "E9 allocation under threads",
        panels,
        "throughput (ops/s)",
        "worker threads",
        ylog=True,
        xlog_base=2,
    )


def related_pairs(df: pd.DataFrame) -> list[dict]:
    """The SGX study's throughput and latencies at 1, 8 and 128 workers beside ours."""
    ours = {"throughput": METRICS[0], "latency_new": "alloc_ns", "latency_delete": "free_ns"}
    units = {"throughput": "ops/s", "latency_new": "ns", "latency_delete": "ns"}
    return [
        pair(
            f"{r.mode}, {r.metric.replace('_', ' ')}, {r.workers} workers", r.value, units[r.metric]
        )
        | {"metric": ours[r.metric], "parameter": "threads", "at": r.workers}
        for r in df[df.workers.isin([1, 8, 128])].itertuples(index=False)
    ]


EXPERIMENT = Experiment(
    name="alloc",
    means_over_calls=("alloc_ns", "free_ns"),  # summed clock intervals over ops
    measures=("throughput and latency of 48-byte allocations with 1 to 128 threads"),
    part="beside",
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
            0.1,  # the quick profile's local run is a functional check: a tenth of a second will do
            "duration of one trial",
            exclusive_minimum=0,
            flag="millis",
            to_arg=lambda s: str(int(s * 1000)),
        ),
        Param("trials", 3, 1, minimum=1),
        time_limit(1800, 120),
    ),
    title="E9 allocation under threads",
    programs=(Program("alloc_threads", ("alloc_threads.c",), libs=("-pthread",)),),
    trials=lambda p: len(p["threads"]) * p["trials"],
    published=(PUBLISHED,),
    related=Related(
        "new/delete inside Intel SGX enclaves, 2023",
        related_pairs,
        "an Intel processor with SGX, its model not named in the transcription",
    ),
)
