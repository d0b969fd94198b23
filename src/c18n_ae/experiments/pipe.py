"""E4 pipe communication: one 1 KiB message per trial, parent write and child read, and a
batched round trip; the first trial of each process is kept as warm-up and reported with and
without.

The study's program timed other things under other names (its files' columns, mapped by LAYOUT):
its "Write Time" is the child's write() of one message, a write like ours, though its timed region
also holds the return from one clock_gettime() and the call into the next, under c18n two more
calls into libc; its "Read Time" is the parent's blocking read(), whose clock starts only after the
parent has logged and printed the previous message, so it measures how long the parent waited for
a message the child (a malloc, 1,023 rand() calls, two writes and a free per message) had not yet
written: about the child's time per message less the parent's, or nothing where the child runs
ahead (message_wait_ns: the child's production showing through when it is the slower side, never
a read, and no headline metric: against hybrid's wait of about one clock tick, its child mostly
ahead, its ratio is the other wait counted in such ticks, not a ratio of the children's work);
its "Total Time" adds the child's write time to that wait, which already contains the write
(write_plus_wait_ns; the data set declares it invalid with its evidence)."""

from __future__ import annotations

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.latex import escape, fmt, gen_name, newcommand, tick_note
from c18n_ae.common.lazy import np, pd
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
    means_by_target,
    quote,
    quote_ratio,
    series,
)

# this package's program: the parent's write and the child's read of a message already written,
# each timed in its own process, their sum (two processes' times added: no latency) and the
# batched round trip
METRICS = ("write_ns", "read_ns", "write_plus_read_ns", "roundtrip_ns")
STUDY_METRICS = ("write_ns", "message_wait_ns", "write_plus_wait_ns")  # the study's columns
# the table's columns, those a source has: short labels
SHOWN = {
    "write_ns": "write",
    "read_ns": "read",
    "message_wait_ns": "wait",
    "write_plus_read_ns": "write+read",
    "write_plus_wait_ns": "write+wait",
}


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        allowed(raw, line, row, "status", ("ok",))
        allowed(raw, line, row, "warmup", ("0", "1"))
        status = "warmup" if row["warmup"] == "1" else "ok"
        trial = int(number(raw, line, "trial", row["trial"]))
        size = number(raw, line, "message_bytes", row["message_bytes"])
        for m in METRICS:
            out.append(
                (trial, "message_bytes", size, m, number(raw, line, m, row[m]), "ns", status)
            )
    return out


def derive(df: pd.DataFrame, consume: bool = False) -> pd.DataFrame:
    """Adds each metric again over all trials, warm-up included (named *_incl_warmup_ns); the
    study's invalid sum is left out."""
    extra = df[df.metric.isin((*METRICS, "message_wait_ns"))].copy()
    extra["metric"] = extra["metric"].str.replace("_ns", "_incl_warmup_ns", regex=False)
    extra["status"] = "ok"
    return concat_frames([df, extra], owned=2 if consume else 0)


CAPTION = (
    r"E4 pipe: trials 1--4 and the last, in the original study's shape, then mean $\pm$ sd "
    r"without and with the warm-up trials, and the mean of the batched round trips. A data "
    r"set's wait is the study's Read Time, the parent's wait for the child's next message; its "
    r"write+wait is the study's Total Time, invalid (the data set says why: it adds the child's "
    r"write to a wait that already contains it), so each of its trials reads invalid. The round "
    r"trip is this package's own program's, in its own column."
)


def table(data: Inputs) -> Table:
    """The study's shape (trials 1-4 and the last, in µs), then summary rows per series."""
    summary, tidy, groups = data.summary, data.tidy, []
    shown = [m for m in SHOWN if m in set(tidy.metric)]
    trip = int("roundtrip_ns" in set(tidy.metric))  # our program's own column
    for target, variant in series(summary):
        mine = tidy[(tidy.source == target) & (tidy.variant == variant)]
        has = set(summary[(summary.source == target) & (summary.variant == variant)].metric)
        mine = mine[mine.run == mine.run.min()]  # the trials of the first run (trials restart)
        last = int(mine.trial.max())
        head, rows = [escape(target), escape(variant)], []
        bad = set(
            summary[(summary.source == target) & (summary.variant == variant)]
            .query("invalid")
            .metric
        )
        for t in sorted({1, 2, 3, 4, last} & set(mine.trial)):
            vals = mine[mine.trial == t].set_index("metric")["value"]
            label = f"{t} (warm-up)" if t == 1 else str(t)
            rows.append(
                [*head, label]
                + [
                    "invalid" if m in bad else fmt(vals[m] / 1e3) if m in vals else ""
                    for m in shown
                ]
                + [""] * trip
            )
        for suffix, first in (("_ns", 2), ("_incl_warmup_ns", 1)):
            rows.append(
                [*head, f"trials {first}--{last}"]
                + [  # empty where this series has no such metric (ours or the study's)
                    cell(summary, target, variant, m.replace("_ns", suffix), scale=1e3)
                    if m.replace("_ns", suffix) in has
                    else ""
                    for m in shown
                ]
                + [""] * trip
            )
        roundtrip = cell(summary, target, variant, "roundtrip_ns", scale=1e3)
        if "roundtrip_ns" in set(mine.metric):
            rows.append([*head, "round trip"] + [""] * len(shown) + [roundtrip])
        groups.append(rows)
    columns = [Column("Source", align="l"), Column("Variant", align="l"), Column("Trial")]
    columns += [Column(SHOWN[m], "us") for m in shown]
    columns += [Column("round trip", "us")] * trip
    return Table(tuple(columns), groups, CAPTION, "footnotesize")


def macros(summary: pd.DataFrame, references: dict) -> str:
    names = [
        ("write", "write_ns"),
        ("read", "read_ns"),
        ("write plus read", "write_plus_read_ns"),
        ("round trip", "roundtrip_ns"),
        ("message wait", "message_wait_ns"),
    ]
    rows = summary[summary.metric == "roundtrip_ns"]
    return "".join(
        [
            quote(summary, "Pipe", [(f"{q} us", m) for q, m in names], scale=1e3),
            quote(
                summary,
                "Pipe",
                [(f"{q} incl warmup us", m.replace("_ns", "_incl_warmup_ns")) for q, m in names],
                scale=1e3,
            ),
            quote(
                summary,
                "Pipe",
                [("message bytes", "roundtrip_ns")],
                field="parameter_value",
                form=lambda x: f"{x:.0f}",
            ),
            *(
                newcommand(
                    gen_name("Pipe", "trials", r.source, r.variant), str(int(r.n + r.n_excluded))
                )
                for r in rows.itertuples()
            ),
            quote_ratio(summary, references, "Pipe", [("round trip ratio", "roundtrip_ns")]),
        ]
    )


def figure(data: Inputs) -> Figure:
    """Mean time per operation without warm-up, the upper half of its 95 % interval as error."""
    metrics = ["write_ns", "read_ns", "message_wait_ns", "write_plus_read_ns", "roundtrip_ns"]
    metrics = [m for m in metrics if m in set(data.valid.metric)]
    categories = [SHOWN.get(m, "round trip") for m in metrics]
    bars, errs = means_by_target(data.valid, metrics, 1e3)
    return Figure(
        "bars",
        "E4 pipe: mean per operation without warm-up, 95 % CI",
        bar_panels(categories, bars, errs),
        "mean time (µs)",
        ylog=True,
    )


def findings(source: str, summary: pd.DataFrame, verdicts=None) -> list[str]:
    """The study's wait for the child's next message, per variant, in microseconds: where it sits
    on the clock's first tick the child had the message ready before the parent looked."""
    s = summary[(summary.source == source) & (summary.metric == "message_wait_ns")]
    if s.empty:
        return []
    parts = []
    for r in s.itertuples():
        step = getattr(r, "resolution", float("nan"))
        note = tick_note(r.median, step, "ns")
        if r.median <= step:  # one tick: the message was in the pipe when the parent looked
            note = note[:-1] + ": the message was ready)"
        parts.append(
            f"{fmt(r.median / 1e3)}\\,\\si{{\\micro\\second}}{note} in "
            f"\\texttt{{{escape(r.variant)}}}"
        )
    return [
        f"On \\texttt{{{escape(source)}}} the parent's median wait for the child's next message "
        f"was {'; '.join(parts)}."
    ]


# the study's printed names -> the metrics its columns map onto (LAYOUT)
PRINTED = {
    "write_time": "write_ns",
    "read_time": "message_wait_ns",
    "total_time": "write_plus_wait_ns",
}
# The study printed single trials (1 to 4 and 100); trial 100 is set beside our means.
STUDY = StudyRows(
    "ms",
    "ms",
    metric=lambda r: (PRINTED[r.metric], r.parameter_value),
    shown=lambda r: r.parameter_value == "100",
    single_trials=True,
)


def study_rows(c, prefix: str = ""):
    """The study's single trials, each column under the name of what it timed (the docstring at
    the top); trial 1 is the warm-up, as in our runs."""
    trial = c.num("trial")
    status = np.where(trial == 1, "warmup", "ok")
    return [
        (trial, "message_bytes", c.num("size"), f"{prefix}{m}", c.ns(role), "ns", status)
        for role, m in zip(("write", "wait", "sum"), STUDY_METRICS)
    ]


LAYOUT = Layout(  # the study's files: trial, message size and three times
    "pipe",
    {
        "trial": (TRIAL, None, "Test"),
        "size": (("messagesize", "size", "messagebytes"), ("bytes", "b"), "Message Size (Bytes)"),
        "write": (("writetime", "write"), TIMES, "Write Time (ms)"),
        # the parent's blocking read(): a wait for the child's next message
        "wait": (("readtime", "read"), TIMES, "Read Time (ms)"),
        # the child's write time plus that wait
        "sum": (("totaltime", "total"), TIMES, "Total Time (ms)"),
    },
    rows=study_rows,
)


EXPERIMENT = Experiment(
    reads_tidy=True,  # its table or figure reads single trials
    layouts=(LAYOUT,),
    name="pipe",
    means_over_calls=("roundtrip*_ns",),  # one clock interval over the batch
    measures=("parent write, child read, batched round trip"),
    part="cost",
    number=4,
    params=(
        Param("trials", 100, 20, minimum=2),
        Param(
            "message_bytes", 1024, help="size of the message", minimum=1, maximum=65536, flag="size"
        ),
        Param("batch", 1000, 200, "round trips per trial for the batched latency", minimum=1),
        time_limit(600, 120),
    ),
    title="E4 pipe communication",
    programs=(Program("pipe", ("pipe.c",)),),
    trials=lambda p: p["trials"],
    study=STUDY,
    headline=(
        Headline("write_ns", "a pipe write with its two clock calls", "libc"),
        Headline("read_ns", "a pipe read with its two clock calls", "libc"),
        Headline("write_plus_read_ns", "a write plus a read, each timed in its process", "libc"),
        # the study's wait for the child's next message is no headline metric: see the docstring
    ),
)
