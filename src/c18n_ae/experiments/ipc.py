"""E8 IPC round trip by message size over a pipe pair and a Unix-domain socket pair; beside the
published Flask/Fluke IPC measurements (1999)."""

from __future__ import annotations

from c18n_ae.common.latex import escape, fmt
from c18n_ae.common.lazy import pd
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment
from c18n_ae.experiments.outputs import (
    Column,
    Figure,
    Inputs,
    Related,
    Table,
    if_enough_trials,
    pair,
)
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import Program
from c18n_ae.experiments.rows import (
    quote,
    series,
    setting_figure,
    stat,
)

TRANSPORTS = ("pipe", "unix_socket")
PUBLISHED = "flask_ipc_1999"  # published/flask_ipc_1999.csv, beside our table
LABELS = {
    8: "Null",
    16: "16-byte",
    128: "128-byte",
    1024: "1k-byte",
    4096: "4k-byte",
    8192: "8k-byte",
    65536: "64k-byte",
}
BYTES = {label: size for size, label in LABELS.items()}  # "Null" -> 8


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        if row["transport"] not in TRANSPORTS:
            raise RawDataError(f"{raw}:{line}: column transport: unexpected {row['transport']!r}")
        if row["status"] != "ok":
            raise RawDataError(f"{raw}:{line}: column status: {row['status']!r}")
        out.append(
            (
                int(number(raw, line, "sample", row["sample"])),
                "message_bytes",
                number(raw, line, "message_bytes", row["message_bytes"]),
                f"{row['transport']}_roundtrip_us",
                number(raw, line, "roundtrip_ns", row["roundtrip_ns"]) / 1e3,
                "us",
                "ok",
            )
        )
    return out


CAPTION = (
    r"E8 IPC: mean round trip (\si{\micro\second}) for the reference variant, overhead (\%) "
    r"for the others; published Fluke times and Flask (naive) overheads, 1999, from other "
    r"hardware. \textsuperscript{f}~Fewer than \ClaimMinTrials{} samples: a functional check, "
    r"and no overhead is computed from it."
)


def table(data: Inputs) -> Table:
    """Published shape: absolute µs for the reference variant, % over it for the others; Fluke and
    Flask (naive) beside."""
    summary = data.summary
    pub2 = data.published[PUBLISHED][lambda p: p.table == "Table 2"]
    cols = []
    for target, variant in series(summary):
        ref = data.references.get(target, variant)
        cols += [(target, variant, ref, tr) for tr in TRANSPORTS]
    cols.sort(key=lambda c: (c[0], c[1] != c[2]))  # each target's reference variant first
    rows = []
    for size in sorted(pd.to_numeric(summary.parameter_value).unique()):
        cells = [f"{LABELS.get(int(size), int(size))} ({size:.0f} B)"]
        for t, v, ref, tr in cols:
            m = f"{tr}_roundtrip_us"
            sides = [stat(summary, t, x, m, size, "n") for x in {v, ref}]
            if any(x != x for x in sides):  # a side not measured at this size
                cells.append("--")
                continue
            n = int(min(sides))
            few = rf"functional check ($n={n}$)"  # below the claims' minimum: no overhead
            if v == ref:
                mean = fmt(stat(summary, t, v, m, size))
                cells.append(if_enough_trials(n, mean, rf"{mean}\textsuperscript{{f}}"))
            else:
                pct = 100 * (stat(summary, t, v, m, size) / stat(summary, t, ref, m, size) - 1)
                cells.append(if_enough_trials(n, ("+" if pct >= 0 else "") + fmt(pct), few))
        p = pub2[pub2.message_size == LABELS.get(int(size), "")].set_index("configuration")["value"]
        rows.append([*cells, fmt(p.get("Fluke")), fmt(p.get("naive"))])
    columns = [Column("Size", align="l")] + [
        Column(
            f"{escape(t)}/{escape(v)} {tr.replace('_', ' ')}" + ("" if v == ref else r" (\%)"),
            "us" if v == ref else None,
        )
        for t, v, ref, tr in cols
    ]
    return Table((*columns, Column("Fluke", "us"), Column(r"Flask naive (\%)")), [rows], CAPTION)


def macros(summary: pd.DataFrame, references: dict) -> str:
    null = [(f"{tr} null us", f"{tr}_roundtrip_us") for tr in TRANSPORTS]
    largest = [(f"{tr} sixty four k us", f"{tr}_roundtrip_us") for tr in TRANSPORTS]
    samples = [(f"{tr} null trials", f"{tr}_roundtrip_us") for tr in TRANSPORTS]
    return (
        quote(summary, "Ipc", null, 8)
        + quote(summary, "Ipc", largest, 65536)
        + quote(summary, "Ipc", samples, 8, field="n", form=lambda n: f"{n:.0f}")
    )


def figure(data: Inputs) -> Figure:
    """Round trip per message size, one panel per target."""
    named = {t.replace("_", " "): f"{t}_roundtrip_us" for t in TRANSPORTS}
    return setting_figure(
        data.valid, named, "E8 IPC: round trip by message size (B)", "round trip (µs)"
    )


def related_pairs(df: pd.DataFrame) -> list[dict]:
    """Fluke's round trips beside ours over each transport, at the same message size."""
    fluke = df[(df.table == "Table 2") & (df.configuration == "Fluke")]
    return [
        pair(f"Fluke {r.message_size} vs our {tr.replace('_', ' ')}", r.value, "us")
        | {
            "metric": f"{tr}_roundtrip_us",
            "parameter": "message_bytes",
            "at": BYTES[r.message_size],
        }
        for r in fluke.itertuples(index=False)
        for tr in ("pipe", "unix_socket")
    ]


EXPERIMENT = Experiment(
    name="ipc",
    means_over_calls=("*_roundtrip_us",),  # one clock interval over round_trips
    measures=("round trip by message size (8 B to 64 KiB) over a pipe pair and a Unix socket pair"),
    part="beside",
    number=8,
    params=(
        # the Flask/Fluke sizes (Null = 8 bytes)
        Param(
            "sizes",
            [8, 16, 128, 1024, 4096, 8192, 65536],
            [8, 1024, 65536],
            "message sizes (bytes)",
            minimum=1,
            maximum=1048576,
            max_items=32,
        ),
        Param("samples", 50, 3, minimum=1),
        Param("round_trips", 1000, 100, "round trips per sample", minimum=1),
        time_limit(1800, 120),
    ),
    title="E8 IPC round trip by message size",
    programs=(Program("ipc", ("ipc.c",)),),
    trials=lambda p: 2 * len(p["sizes"]) * p["samples"],
    published=(PUBLISHED,),
    related=Related(
        "Flask/Fluke IPC operations (USENIX Security), 1999",
        related_pairs,
        "a machine of 1999, not named in the transcription",
    ),
)
