"""The setup table: one column per target that ran and per data set."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import config, datasets
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, fmt


def dataset_column(meta: dict) -> dict:
    """A data set's dataset.yaml in the shape of a target's provenance, for the setup table."""
    h = meta["host"]
    flags = "; ".join(
        f"{v}: "
        + ", ".join(  # each build: its experiments, compiler, flags (variants.<v>.builds)
            " ".join(["/".join(b["experiments"]), b["compiler"], *b.get("cflags", [])])
            + (
                f" ({b['optimisation']})"
                if b["optimisation"].startswith("-O")
                and b["optimisation"] not in b.get("cflags", [])
                else ""
            )
            for b in s.get("builds", [])
        )
        + (f", ABI {s['abi']} (as the study describes it)" if s.get("abi") else "")
        + (f", run with {' '.join(s['launcher'])}" if s.get("launcher") else "")
        for v, s in meta["variants"].items()
    )
    compilers = sorted(
        {b["compiler"] for s in meta["variants"].values() for b in s.get("builds", [])}
        - {"not recorded"}
    )
    # each experiment's clock and how its times were written (dataset.yaml timing)
    timers = "; ".join(
        f"{e}: {t['clock'].split(',')[0]}, {t['written'].split(',')[0]}"
        for e, t in meta.get("timing", {}).items()
    )
    return {
        "target": meta["name"],
        "os": h.get("os"),
        "kernel": "not recorded",
        "model": h.get("model"),
        "arch": h.get("arch"),
        "cpu_model": h.get("cpu_model"),
        "cpu_count": h.get("cpu_count"),
        "memory_text": h.get("memory"),
        "compilers": {c: c for c in compilers},
        "timer_text": timers or "not recorded",
        "variants_text": flags,
        "measured_by": f"{meta['measured_by']}, {meta['measured_when']}",
        "source_text": f"{meta['source']['repository']} at {meta['source']['commit'][:12]} "
        f"({meta['source']['license']})",
    }


def setup_table(provenance: list[dict], metas: list[dict], datasets: list[dict] = ()) -> str:
    """One column per target that ran and per data set, from the description collected from each
    target (or the data set's dataset.yaml)."""
    columns = sorted(provenance, key=lambda p: p["target"]) + [dataset_column(d) for d in datasets]
    timers, variants = {}, {}
    for m in metas:
        res = m.get("program", {}).get("timer_resolution_ns")
        if res is not None:
            timers.setdefault(m["target"], set()).add(str(res))
        variants.setdefault(m["target"], {})[m["variant"]] = (
            f"{m['variant']}: {' '.join(m.get('cflags', []))}"
            + (f", ABI {m['abi']}" if m.get("abi") else "")
            + (f", run with {' '.join(m['launcher'])}" if m.get("launcher") else "")
        )
    rows = [
        ("Operating system", lambda p: p.get("os")),
        ("Kernel", lambda p: p.get("kernel")),
        ("Machine or board", lambda p: p.get("model") or "not reported"),
        ("Architecture", lambda p: p.get("arch")),
        ("CPU", lambda p: p.get("cpu_model")),
        ("CPU cores", lambda p: str(p.get("cpu_count"))),
        (
            r"Memory (\si{\gibi\byte})",
            lambda p: p.get("memory_text") or fmt(p["mem_total_bytes"] / 2**30),
        ),
        ("Compiler", lambda p: "; ".join(p.get("compilers", {}).values())),
        (
            "Variants (flags, ABI, launcher)",
            lambda p: p.get("variants_text") or "; ".join(variants[p["target"]].values()),
        ),
        (
            r"Timer resolution (\si{\nano\second})",
            lambda p: (
                p.get("timer_text") or ", ".join(sorted(timers.get(p["target"], {"unknown"})))
            ),
        ),
        ("Measured by", lambda p: p.get("measured_by") or "this package's run"),
        ("Source", lambda p: p.get("source_text") or "this run"),
    ]
    width = f"{0.8 / max(1, len(columns)):.2f}"
    spec = "l" + f"p{{{width}\\textwidth}}" * len(columns)
    lines = [
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(["Property"] + [escape(p["target"]) for p in columns]) + r" \\",
        r"\midrule",
    ]
    for label, get in rows:
        vals = []
        for p in columns:
            try:
                vals.append(escape(get(p)))
            except (KeyError, TypeError):
                vals.append("unknown")
        lines.append(" & ".join([label] + vals) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--results", type=Path, default=Path("results"))
    ap.add_argument("--provenance", action="append", default=[], type=Path)
    ap.add_argument("--dataset", action="append", default=[], help="a data set's name or folder")
    ap.add_argument("meta", nargs="*", type=Path)
    config.add_arguments(ap)
    a = ap.parse_args(argv)
    cfg = exp.config_from_arguments(a)
    # with --config: every run's provenance and metadata, and the data sets the run includes
    runs = (
        [(t, v, e) for e in config.enabled_experiments(cfg) for t, v in config.runs(cfg, e)]
        if cfg
        else []
    )
    metas = a.meta or [a.results / t / v / e / "meta.json" for t, v, e in runs]
    provenance = a.provenance or [
        a.results / t / "provenance.json" for t in dict.fromkeys(t for t, _, _ in runs)
    ]
    sets = [datasets.load(d) for d in a.dataset] or (config.datasets(cfg) if cfg else [])
    write_text_atomic(
        a.out,
        setup_table(
            [json.loads(p.read_text()) for p in provenance],
            [json.loads(p.read_text()) for p in metas],
            sets,
        ),
    )


if __name__ == "__main__":
    main()
