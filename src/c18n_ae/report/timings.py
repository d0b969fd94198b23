"""`c18n-ae timings`: the README's full-reproduction table, from meta.json and the run directories:
one line per run unit (an experiment's variants, run interleaved, on one target), in the paper's
order, with its runs and why they stopped, wall time, disk and the machine's load while it ran;
then each experiment's total over its targets, all units together, and the span from the first
start to the last end. Each variant's meta.json spans the whole unit, so a unit is counted once:
from its first variant's start to its last variant's end. The load is the 1-minute load average
each benchmark process recorded as it ended (meta.json segments), its mean and maximum; runs made
before segments recorded it say "not recorded"."""

from __future__ import annotations

import argparse
import json
import statistics
from datetime import datetime
from pathlib import Path

from c18n_ae import experiments as exp

HEADER = (
    "| experiment | target | variants | runs | wall time | disk | load (1-min, mean / max) |",
    "|---|---|---|---|---|---|---|",
)


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def rows(results: Path) -> list[dict]:
    """One row per run unit (experiment, target): its variants, wall time, disk, runs, loads."""
    units: dict[tuple[str, str], dict] = {}
    for meta_path in sorted(results.glob("*/*/*/meta.json")):
        m = json.loads(meta_path.read_text())
        start, end = (datetime.fromisoformat(m[k]) for k in ("started_at", "finished_at"))
        unit = units.setdefault(
            (m["experiment"], m["target"]),
            {
                "experiment": m["experiment"],
                "target": m["target"],
                "variants": [],
                "bytes": 0,
                "loads": [],
                "cores": m.get("host", {}).get("cpu_count"),
            },
        )
        unit["variants"].append(m["variant"])
        unit["start"] = min(start, unit.get("start", start))
        unit["end"] = max(end, unit.get("end", end))
        unit["bytes"] += du(meta_path.parent)
        unit["loads"] += [s["load"] for s in m.get("segments", []) if s.get("load") is not None]
        unit.setdefault("stopped", m.get("stopped"))
    for unit in units.values():
        unit["seconds"] = (unit.pop("end") - unit["start"]).total_seconds()
    return list(units.values())


def size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"


def load_text(loads: list[float]) -> str:
    return f"{statistics.fmean(loads):.1f} / {max(loads):.1f}" if loads else "not recorded"


def runs_text(stopped: dict | None) -> str:
    """The unit's runs and why they stopped (meta.json stopped), or "" for an older run."""
    if not stopped:
        return ""
    why = {"count": "the count", "precision": "precision", "budget": "budget"}
    return f"{stopped['runs']}, {why.get(stopped['reason'], stopped['reason'])}"


def label(name: str) -> str:
    """An experiment as the README names it: its name and E-number."""
    try:
        return f"{name} (E{exp.get(name).number})"
    except KeyError:
        return name


def order(name: str) -> int:
    try:
        return exp.get(name).number
    except KeyError:
        return 1 << 30


def markdown(rs: list[dict]) -> str:
    """Each unit, each experiment's total over its targets, all units together and the span."""
    lines = list(HEADER)
    by_experiment: dict[str, list[dict]] = {}
    for r in sorted(rs, key=lambda r: (order(r["experiment"]), r["experiment"], r["target"])):
        by_experiment.setdefault(r["experiment"], []).append(r)
        variants = ", ".join(sorted(r["variants"]))
        lines.append(
            f"| {label(r['experiment'])} | {r['target']} | {variants} | "
            f"{runs_text(r.get('stopped'))} | {minutes(r['seconds'])} | {size(r['bytes'])} | "
            f"{load_text(r.get('loads', []))} |"
        )
    for name, units in by_experiment.items():
        if len(units) > 1:
            seconds, disk = sum(u["seconds"] for u in units), sum(u["bytes"] for u in units)
            loads = [x for u in units for x in u.get("loads", [])]
            lines.append(
                f"| {label(name)}, all targets | | | | {minutes(seconds)} | {size(disk)} | "
                f"{load_text(loads)} |"
            )
    total = sum(r["seconds"] for r in rs)
    loads = [x for r in rs for x in r.get("loads", [])]
    lines.append(
        f"| all runs, each unit once | | | | {minutes(total)} | "
        f"{size(sum(r['bytes'] for r in rs))} | {load_text(loads)} |"
    )
    if rs:
        span = max(r["start"].timestamp() + r["seconds"] for r in rs) - min(
            r["start"].timestamp() for r in rs
        )
        lines.append(f"| first start to last end | | | | {minutes(span)} | | |")
        cores = sorted({str(r["cores"]) for r in rs if r.get("cores")})
        if cores:
            lines.append("")
            lines.append(f"Cores: {', '.join(cores)} (a load above the cores is work waiting).")
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--results",
        type=Path,
        action="append",
        help="results directory (repeatable; default results)",
    )
    dirs = ap.parse_args(argv).results or [Path("results")]
    print(markdown([r for d in dirs for r in rows(d)]), end="")


if __name__ == "__main__":
    main()
