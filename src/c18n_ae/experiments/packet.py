"""E7 packet processing: plugin (shared library, pointer, no copy) vs ipc (UDP listener) vs
none (noise floor). Latency per packet is timed the same way in every mode, one packet at a
time from its production to the end of its consumer's checksum; adjusted latency is a mode's
minus none's. Throughput (packets per second, sent back to back), CPU utilisation and lost packets
come from a separate phase. Beside the published CHERI packet-processing study (Pytilia, 2023)."""

from __future__ import annotations

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.latex import escape, fmt, gen_name, newcommand
from c18n_ae.common.lazy import pd
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment
from c18n_ae.experiments.outputs import Column, Figure, Inputs, Related, Table, pair
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import Program
from c18n_ae.experiments.rows import (
    quote,
    series,
    setting_figure,
    stat,
)

MODES = ("none", "plugin", "ipc")
SHOWN = (  # the table's measured columns
    "plugin_adjusted_latency_us",
    "ipc_adjusted_latency_us",
    "plugin_cpu_utilisation",
    "ipc_cpu_utilisation",
    "ipc_lost",
)
PUBLISHED = "pytilia_packet_2023"  # published/pytilia_packet_2023.csv, beside our table


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        if row["mode"] not in MODES or row["sweep"] not in ("count", "size"):
            raise RawDataError(
                f"{raw}:{line}: unexpected sweep/mode {row['sweep']!r}/{row['mode']!r}"
            )
        if row["status"] != "ok":
            raise RawDataError(
                f"{raw}:{line}: column status: {row['status']!r} (the listener's sum did not match)"
            )
        n = number(raw, line, "packets", row["packets"])
        size = number(raw, line, "packet_bytes", row["packet_bytes"])
        wall = number(raw, line, "wall_ns", row["wall_ns"])
        cpu = number(raw, line, "producer_cpu_ns", row["producer_cpu_ns"]) + number(
            raw, line, "consumer_cpu_ns", row["consumer_cpu_ns"]
        )
        param, value = ("packets", n) if row["sweep"] == "count" else ("packet_bytes", size)
        trial = int(number(raw, line, "repeat", row["repeat"]))
        m = row["mode"]
        timed = number(raw, line, "latency_packets", row["latency_packets"])
        if timed < 1:
            raise RawDataError(
                f"{raw}:{line}: column latency_packets: no packet completed the latency phase"
            )
        latency = number(raw, line, "latency_ns_sum", row["latency_ns_sum"]) / timed
        out += [
            (trial, param, value, f"{m}_latency_us", latency / 1e3, "us", "ok"),
            (
                trial,
                param,
                value,
                f"{m}_throughput_packets_per_s",
                n / wall * 1e9,
                "packets/s",
                "ok",
            ),
            (trial, param, value, f"{m}_cpu_utilisation", cpu / wall, "ratio", "ok"),
            (
                trial,
                param,
                value,
                f"{m}_lost",
                number(raw, line, "lost", row["lost"]),
                "count",
                "ok",
            ),
        ]
    return out


def derive(df: pd.DataFrame, consume: bool = False) -> pd.DataFrame:
    """Adjusted latency: each mode's latency minus that of 'none' in the same run and repeat."""
    lat = df[df.metric.str.endswith("_latency_us")]
    keys = ["source", "variant", "run", "trial", "parameter", "parameter_value"]
    none = lat[lat.metric == "none_latency_us"].set_index(keys)["value"]
    extra = []
    for m in ("plugin", "ipc"):
        part = lat[lat.metric == f"{m}_latency_us"].copy()
        part["value"] = (
            part["value"].to_numpy() - none.reindex(part.set_index(keys).index).to_numpy()
        )
        part["metric"] = f"{m}_adjusted_latency_us"
        extra.append(part)
    return concat_frames([df, *extra], owned=len(extra) + 1 if consume else 0)


def published() -> pd.DataFrame:
    return pd.read_csv(PUBLISHED)


CAPTION = (
    r"E7 packets: mean adjusted latency per packet, CPU utilisation and lost packets, per "
    r"count and size; below ours, the 2023 CHERI study's (Pytilia) published latencies."
)


def table(data: Inputs) -> Table:
    summary, groups = data.summary, []
    for target, variant in series(summary):
        rows = []
        for param in ("packets", "packet_bytes"):
            s = summary[
                (summary.source == target)
                & (summary.variant == variant)
                & (summary.parameter == param)
            ]
            for v in sorted(pd.to_numeric(s.parameter_value).unique()):
                rows.append(
                    [f"{escape(target)}/{escape(variant)}"]
                    + ["count" if param == "packets" else "size (B)", f"{v:.0f}"]
                    + [fmt(stat(s, target, variant, m, v)) for m in SHOWN]
                )
        groups.append(rows)
    pub, published = data.published[PUBLISHED], []
    for param, label in (("packet_count", "count"), ("packet_size_bytes", "size (B)")):
        p = pub[pub.parameter == param]
        for v in sorted(p.parameter_value.unique()):
            row = p[p.parameter_value == v].set_index("mode")["value"]
            published.append(
                ["published (Pytilia 2023)", label, f"{v:.0f}"]
                + [fmt(row.get("CHERI")), fmt(row.get("IPC")), "--", "--", "--"]
            )
    columns = (Column("Source", align="l"), Column("Sweep", align="l"), Column("Value"))
    columns += (Column("plugin adj.", "us"), Column("ipc adj.", "us"), Column("plugin CPU"))
    return Table(
        (*columns, Column("ipc CPU"), Column("ipc lost")),
        [*groups, published],
        CAPTION,
        "scriptsize",
    )


def macros(summary: pd.DataFrame, references: dict) -> str:
    """The smallest packet size of the size sweep, and the lost packets of every run."""
    sizes = summary[summary.parameter == "packet_bytes"]
    lost = summary[summary.metric == "ipc_lost"].groupby(["source", "variant"], sort=False)["mean"]
    out = [newcommand(gen_name("Packet", "ipc lost", *k), fmt(n)) for k, n in lost.sum().items()]
    for (target, variant), s in sizes.groupby(["source", "variant"], sort=False):
        v = pd.to_numeric(s.parameter_value).min()
        out.append(newcommand(gen_name("Packet", "size bytes", target, variant), f"{v:.0f}"))
        adjusted = [(f"{m} adj us", f"{m}_adjusted_latency_us") for m in ("plugin", "ipc")]
        out.append(quote(s, "Packet", adjusted, v))
        repeats = [("repeats", "plugin_adjusted_latency_us")]
        out.append(quote(s, "Packet", repeats, v, field="n", form=lambda n: f"{n:.0f}"))
    return "".join(out)


def figure(data: Inputs) -> Figure:
    """Latency minus the no-consumer floor by packet size, one panel per target."""
    sizes = data.valid[data.valid.parameter == "packet_bytes"]
    named = {m: f"{m}_adjusted_latency_us" for m in ("plugin", "ipc")}
    title = "E7 packets: latency minus the no-consumer floor, by packet size (B)"
    return setting_figure(sizes, named, title, "adjusted latency (µs)")


def related_pairs(df: pd.DataFrame) -> list[dict]:
    """The published latencies beside our adjusted latencies of the same sweep."""
    ours = {"CHERI": "plugin_adjusted_latency_us", "IPC": "ipc_adjusted_latency_us"}
    sweep = {"packet_count": "packets", "packet_size_bytes": "packet_bytes"}
    return [
        pair(f"{r.mode}, {r.parameter.replace('_', ' ')} {r.parameter_value}", r.value, "us")
        | {"metric": ours[r.mode], "parameter": sweep[r.parameter], "at": r.parameter_value}
        for r in df.itertuples(index=False)
    ]


EXPERIMENT = Experiment(
    name="packet",
    means_over_calls=("*_latency_us",),  # latency_ns_sum over latency_packets
    measures=(
        "per-packet latency, from production to the end of the consumer's checksum, one "
        "packet at a time, of a plugin in a shared library (pointer, no copy) vs a UDP "
        "listener process vs no consumer; throughput, CPU utilisation and lost packets "
        "when sent back to back"
    ),
    part="beside",
    number=7,
    params=(
        # Pytilia's sweeps: counts 20,000 to 200,000 at 512 B; sizes 512 B to 8 KiB at 100,000
        Param(
            "counts",
            list(range(20000, 200001, 20000)),
            [2000, 4000],
            "packet counts of the count sweep",
            minimum=1,
            max_items=32,
        ),
        Param(
            "count_size",
            512,
            help="packet size (bytes) of the count sweep",
            minimum=16,
            maximum=65000,
        ),
        Param(
            "sizes",
            [512, 1024, 2048, 4096, 8192],
            [512, 2048],
            "packet sizes (bytes) of the size sweep",
            minimum=16,
            maximum=65000,
            max_items=32,
        ),
        Param("size_count", 100000, 2000, "packets per run of the size sweep", minimum=1),
        Param("repeats", 5, 2, minimum=1),
        time_limit(3600, 120),
    ),
    title="E7 packet processing",
    programs=(
        Program("packet", ("packet.c",), links=("packet_plugin",)),
        Program("packet_plugin", ("packet_plugin.c",), shared=True),
    ),
    trials=lambda p: (len(p["counts"]) + len(p["sizes"])) * 3 * p["repeats"],
    published=(PUBLISHED,),
    related=Related(
        "Pytilia, CHERI packet processing (DSbD Cohort 2), 2023",
        related_pairs,
        "not named in the transcription",
    ),
)
