"""Prints the wall time and disk of each run unit (an experiment on one target, its variants
run interleaved) from meta.json and the run directories, as a Markdown table for the README's
full-reproduction section. Each variant's meta.json spans the whole unit, so a unit is counted
once: from its first variant's start to its last variant's end."""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def rows(results: Path) -> list[dict]:
    """One row per run unit (experiment, target): its variants, wall time and disk."""
    units: dict[tuple[str, str], dict] = {}
    for meta_path in sorted(results.glob("*/*/*/meta.json")):
        m = json.loads(meta_path.read_text())
        start, end = (datetime.fromisoformat(m[k]) for k in ("started_at", "finished_at"))
        unit = units.setdefault(
            (m["experiment"], m["target"]),
            {"experiment": m["experiment"], "target": m["target"], "variants": [], "bytes": 0},
        )
        unit["variants"].append(m["variant"])
        unit["start"] = min(start, unit.get("start", start))
        unit["end"] = max(end, unit.get("end", end))
        unit["bytes"] += du(meta_path.parent)
    for unit in units.values():
        unit["seconds"] = (unit.pop("end") - unit["start"]).total_seconds()
    return list(units.values())


def size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"


def markdown(rs: list[dict]) -> str:
    """Each unit, each experiment's total over its targets, and all units together."""
    lines = ["| experiment | target | variants | wall time | disk |", "|---|---|---|---|---|"]
    by_experiment: dict[str, list[dict]] = {}
    for r in sorted(rs, key=lambda r: (r["experiment"], r["target"])):
        by_experiment.setdefault(r["experiment"], []).append(r)
        variants = ", ".join(r["variants"])
        lines.append(
            f"| {r['experiment']} | {r['target']} | {variants} | {minutes(r['seconds'])} | "
            f"{size(r['bytes'])} |"
        )
    for name, units in by_experiment.items():
        if len(units) > 1:
            seconds, disk = sum(u["seconds"] for u in units), sum(u["bytes"] for u in units)
            lines.append(f"| {name}, all targets | | | {minutes(seconds)} | {size(disk)} |")
    total = sum(r["seconds"] for r in rs)
    lines.append(
        f"| all runs, each unit once | | | {minutes(total)} | {size(sum(r['bytes'] for r in rs))} |"
    )
    if rs:
        span = max(r["start"].timestamp() + r["seconds"] for r in rs) - min(
            r["start"].timestamp() for r in rs
        )
        lines.append(f"| first start to last end | | | {minutes(span)} | |")
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
