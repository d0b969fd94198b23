"""E2 memory: malloc, write, read and free of large blocks."""

from __future__ import annotations

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.latex import escape, fmt, gen_name, newcommand, quantity
from c18n_ae.common.lazy import np, pd
from c18n_ae.experiments import Experiment, Headline
from c18n_ae.experiments.layouts import TIMES, TRIAL, Layout
from c18n_ae.experiments.outputs import Column, Figure, Inputs, Panel, Series, StudyRows, Table
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import Program
from c18n_ae.experiments.rows import (
    NS_PER,
    by_target,
    cell,
    quote,
    quote_ratio,
    series,
    wide_tidy,
)

BYTES_PER_MIB = 1024 * 1024
METRICS = {"malloc_ns": "ns", "write_ns": "ns", "read_ns": "ns", "free_ns": "ns"}


def tidy_rows(raw, rows):
    return wide_tidy(raw, rows, "block_mib", METRICS, statuses=("ok", "alloc_failed"))


def derive(df: pd.DataFrame, consume: bool = False) -> pd.DataFrame:
    """Adds per-trial bandwidth: bytes per ns is GB/s (10^9 bytes per second)."""
    extra = []
    for phase in ("write", "read"):
        part = df[df["metric"] == f"{phase}_ns"]
        part["value"] = part["parameter_value"] * BYTES_PER_MIB / part["value"]
        # one name a row as a category: a board's 10^7 trials hold no string per row
        part["metric"] = pd.Categorical.from_codes(np.zeros(len(part), "i1"), [f"{phase}_GBps"])
        part["unit"] = pd.Categorical.from_codes(np.zeros(len(part), "i1"), ["GB/s"])
        extra.append(part)
    return concat_frames([df, *extra], owned=len(extra) + consume)


COLUMNS = [
    ("malloc_ns", "us", r"\texttt{malloc}"),
    ("write_ns", "ms", "write"),
    ("read_ns", "ms", "read"),
    ("free_ns", "ms", r"\texttt{free}"),
]


CAPTION = (
    r"E2 memory: mean $\pm$ standard deviation per trial; bandwidth is block size over mean "
    r"time per trial, in \si{\giga\byte\per\second}. \emph{invalid}: the data set's own "
    r"limits say the loop did no stores or loads."
)


def table(data: Inputs) -> Table:
    """Mean ± sd per block size and variant, every target and variant that ran."""
    summary = data.summary
    groups = []
    for target, variant in series(summary):
        mine = summary[(summary.source == target) & (summary.variant == variant)]
        groups.append(
            [
                [escape(target), escape(variant), f"{block:.0f}"]
                + [cell(summary, target, variant, m, block, NS_PER[u]) for m, u, _ in COLUMNS]
                + [
                    cell(summary, target, variant, f"{p}_GBps", block, with_sd=False)
                    for p in ("write", "read")
                ]
                for block in sorted(mine.parameter_value.unique())
            ]
        )
    columns = [Column("Source", align="l"), Column("Variant", align="l")]
    columns += [Column("Block", "MiB", "l")] + [Column(label, u) for _, u, label in COLUMNS]
    return Table((*columns, Column("write", "GB/s"), Column("read", "GB/s")), groups, CAPTION)


def macros(summary: pd.DataFrame, references: dict) -> str:
    blocks = sorted(summary.parameter_value.unique())
    at = blocks[-1]  # the text quotes the largest block
    writes = summary[summary.metric == "write_ns"]
    failed = writes.groupby(["source", "variant"], sort=False).n_excluded.sum()
    return "".join(
        [
            # configured settings, exact: printed alike ('16 to 128', never '16.0 to 128')
            newcommand(gen_name("Mem", "block min MiB"), f"{blocks[0]:g}", "smallest block_mib"),
            newcommand(gen_name("Mem", "block max MiB"), f"{at:g}", "largest block_mib"),
            newcommand(gen_name("Mem", "block count"), str(len(blocks)), "block_mib values"),
            newcommand(
                gen_name("Mem", "trials per block"),
                str(int(writes.eval("n + n_excluded").max())),
                "metric=write_ns; column=n + n_excluded, the most of any row",
            ),
            quote(summary, "Mem", [("write GBps", "write_GBps"), ("read GBps", "read_GBps")], at),
            quote(
                summary, "Mem", [(f"{m} ms", f"{m}_ns") for m in ("write", "read", "free")], at, 1e6
            ),
            quote(summary, "Mem", [("malloc median us", "malloc_ns")], at, 1e3, "median"),
            *(
                newcommand(
                    gen_name("Mem", "failed allocs", *k),
                    str(int(n)),
                    f"source={k[0]}; variant={k[1]}; metric=write_ns; column=n_excluded, summed",
                )
                for k, n in failed.items()
            ),
            quote_ratio(
                summary,
                references,
                "Mem",
                [("write ratio", "write_ns"), ("read ratio", "read_ns")],
                at,
            ),
        ]
    )


def figure(data: Inputs) -> Figure:
    """Write and read bandwidth against block size, one panel per target or data set."""
    summary = data.valid
    panels = []
    for target, variants in by_target(summary):
        lines = []
        for variant in variants:
            for phase, style in (("write", ""), ("read", "dashed")):
                s = summary[
                    (summary.source == target)
                    & (summary.variant == variant)
                    & (summary.metric == f"{phase}_GBps")
                ].sort_values("parameter_value")
                if len(s):  # left out: not a valid measurement there
                    x, y = list(s.parameter_value), list(s["mean"])
                    lines.append(Series(f"{variant} {phase}", x, y, style=style))
        if lines:
            panels.append(Panel(target, lines))
    return Figure(
        "lines",
        "E2 memory: mean bandwidth per block size",
        panels,
        "mean bandwidth (GB/s)",
        "block size (MiB)",
    )


# A crossing into libc costs the same whatever the block: an extra time over the reference that
# grows with the block is the allocator's (or the kernel's unmapping), not the compartment's.
GROWS = 3.0  # the extra median at the largest block is at least this many times the smallest's


def _medians(summary: pd.DataFrame, source: str, variant: str, metric: str) -> pd.Series:
    s = summary[
        (summary.source == source) & (summary.variant == variant) & (summary.metric == metric)
    ]
    return s.set_index(s.parameter_value.astype(float))["median"].sort_index()


def _reference_and_runs(source: str) -> tuple[str | None, dict]:
    """A data set's reference variant and each variant's heap revocation for the memory
    experiment's free (dataset.yaml variants.<v>.runtime); (None, {}) for a board target."""
    from c18n_ae.common import datasets

    if not (datasets.directory(source) / "dataset.yaml").exists():
        return None, {}
    meta = datasets.load(source)
    runs = {
        v: r["revocation"]
        for v, spec in meta["variants"].items()
        for r in spec.get("runtime", [])
        if "memory" in r["experiments"] and "free_ns" in r.get("metrics", ["free_ns"])
    }
    return meta["reference_variant"], runs


def findings(source: str, summary: pd.DataFrame, verdicts=None) -> list[str]:
    """A data set's malloc or free whose extra median time over the reference variant's grows
    with the block (the section says what that means), with each side's heap revocation."""
    reference, runs = _reference_and_runs(source)
    if reference is None:
        return []
    out = []
    variants = [v for v in dict.fromkeys(summary[summary.source == source].variant)]
    for metric, call in (("malloc_ns", "malloc"), ("free_ns", "free")):
        base, parts = _medians(summary, source, reference, metric), []
        for v in (v for v in variants if v != reference):
            extra = (_medians(summary, source, v, metric) - base).dropna()
            if len(extra) < 3 or not extra.iloc[0] > 0 or extra.iloc[-1] < GROWS * extra.iloc[0]:
                continue
            revocation = f", heap revocation {runs[v]}" if v in runs else ""
            first, last = (
                quantity(x, "ns", tex=True).replace(" ", "\\,")
                for x in (extra.iloc[0], extra.iloc[-1])
            )
            parts.append(  # '20 µs', never '20.0 µs': three figures at most, no trailing zero
                f"by {first} at {extra.index[0]:.0f}\\,MiB and {last} at "
                f"{extra.index[-1]:.0f}\\,MiB in \\texttt{{{escape(v)}}}{revocation}"
            )
        if parts:
            own = f" (heap revocation {runs[reference]})" if reference in runs else ""
            out.append(
                f"On \\texttt{{{escape(source)}}}, the median {call} took longer than "
                f"\\texttt{{{escape(reference)}}}'s{own} {'; and '.join(parts)}: an extra "
                "time that grows with the block."
            )
    return out


PRINTED = {"allocation": "malloc_ns", "write": "write_ns", "read": "read_ns", "free": "free_ns"}


def study_macros(pub: pd.DataFrame) -> str:
    """The study's 100 MB hybrid write as printed, and what it would mean in either unit."""
    w = pub[
        (pub.variant == "hybrid")
        & (pub.metric == "write_ns")
        & (pub.parameter_value == "100")
        & (pub.statistic == "mean")
    ].iloc[0]
    key = "variant=hybrid; metric=write_ns; block_mib=100; statistic=mean; column=published"
    return "".join(
        [
            newcommand("PubMemWriteHybridHundredPrinted", f"{w.published:g}", key),
            newcommand("PubMemWriteHybridHundredSecondsIfMs", fmt(w.published / 1e3)),
            newcommand("PubMemWriteHybridHundredMBpsIfMs", fmt(100 / (w.published / 1e3))),
            newcommand("PubMemWriteHybridHundredMsIfUs", fmt(w.published / 1e3)),
        ]
    )


# The study's memory tables print "ms", but the values only make sense as microseconds (a 100 MB
# write of 282584 ms would be 4.7 minutes, 0.35 MB/s): they are read as microseconds.
STUDY = StudyRows(
    "ms",
    "us",
    metric=lambda r: (PRINTED[r.metric], r.parameter_value),
    shown=lambda r: r.parameter_value in ("100", "1000"),
    ours_at_parameter=True,
    macros=study_macros,
)


TIME = "Time (ms)"
# The study's files: block size, trial and the four times, a failed allocation a row of its own.
LAYOUT = Layout(
    "memory",
    {
        "block": (("blocksize", "block", "size"), ("mb", "mib"), "Block Size (MB)"),
        "trial": (TRIAL, None, "Trial Num"),
        "malloc": (
            ("allocationtime", "alloctime", "malloctime", "allocation"),
            TIMES,
            "Allocation " + TIME,
        ),
        "write": (("writetime", "write"), TIMES, "Write " + TIME),
        "read": (("readtime", "read"), TIMES, "Read " + TIME),
        "free": (("freetime", "free", "deallocationtime"), TIMES, "Free " + TIME),
    },
    rows=lambda c: [
        (
            c.num("trial"),
            "block_mib",
            c.num("block"),
            f"{r}_ns",
            np.where(c.status == "ok", c.ns(r), np.nan),
            "ns",
            c.status,
        )
        for r in ("malloc", "write", "read", "free")
    ],
    failure=("Allocation failed", "alloc_failed"),
)


EXPERIMENT = Experiment(
    layouts=(LAYOUT,),
    name="memory",
    measures=("`malloc`, write, read, `free` of large blocks"),
    part="cost",
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
        time_limit(14400, 600),
    ),
    title="E2 memory",
    programs=(Program("memory", ("memory.c",)),),
    trials=lambda p: len(p["block_sizes_mib"]) * p["trials"],
    study=STUDY,
    headline=(
        Headline("malloc_ns", "a malloc of the largest block", "libc"),
        Headline("write_ns", "writing the largest block"),
        Headline("read_ns", "reading the largest block"),
        Headline("free_ns", "a free of the largest block", "libc"),
    ),
)
