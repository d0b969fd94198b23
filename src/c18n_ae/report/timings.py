"""Prints the time and disk each run took (from meta.json and the run directory) as a Markdown
table, for the README's full-reproduction section."""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def rows(results: Path) -> list[dict]:
    out = []
    for meta_path in sorted(results.glob("*/*/*/meta.json")):
        m = json.loads(meta_path.read_text())
        start, end = (datetime.fromisoformat(m[k]) for k in ("started_at", "finished_at"))
        out.append(
            {
                "experiment": m["experiment"],
                "target": m["target"],
                "variant": m["variant"],
                "seconds": (end - start).total_seconds(),
                "bytes": du(meta_path.parent),
            }
        )
    return out


def size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def markdown(rs: list[dict]) -> str:
    lines = ["| experiment | target/variant | time | disk |", "|---|---|---|---|"]
    total_s = total_b = 0
    for r in sorted(rs, key=lambda r: (r["experiment"], r["target"], r["variant"])):
        total_s += r["seconds"]
        total_b += r["bytes"]
        lines.append(
            f"| {r['experiment']} | {r['target']}/{r['variant']} | {r['seconds'] / 60:.1f} min | "
            f"{size(r['bytes'])} |"
        )
    lines.append(f"| all runs | | {total_s / 60:.1f} min | {size(total_b)} |")
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
