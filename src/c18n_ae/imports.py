"""Reads the original study's raw CSV layouts into the project's tidy rows, units made explicit.

Files go in results/imported/<name>/<variant>/*.csv; <name> becomes the target column (so the
data show up beside ours in every table and figure) and <variant> the variant. The layout is
recognised by its header. Times labelled (ms) are converted to ns as labelled; a file
results/imported/<name>/import.yaml with `time_unit: us` says the labels are wrong and the
values are microseconds (as the study's memory tables suggest), and the conversion follows it."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import yaml

from .rawcsv import RawDataError, number

NS = {"ms": 1e6, "us": 1e3, "ns": 1.0}

LAYOUTS = {
    "Block Size (MB),Trial Num,Allocation Time (ms),Write Time (ms),Read Time (ms),Free Time (ms)": "memory",
    "TrialNum,Operation,CPU Time (ms)": "cpu",
    "Test,Message Size (Bytes),Write Time (ms),Read Time (ms),Total Time (ms)": "pipe",
    "Number of Processes,Memory Used (MB),Time Elapsed (ms)": "scale",
}


def layout_of(path: Path) -> str | None:
    with open(path, newline="", encoding="utf-8-sig") as f:
        header = f.readline().strip()
    return LAYOUTS.get(",".join(h.strip() for h in header.split(",")))


def time_unit(directory: Path) -> str:
    cfg = directory / "import.yaml"
    if not cfg.exists():
        return "ms"
    unit = (yaml.safe_load(cfg.read_text()) or {}).get("time_unit", "ms")
    if unit not in NS:
        raise RawDataError(f"{cfg}: time_unit: {unit!r} is not allowed; allowed: {', '.join(NS)}")
    return unit


def _rows(path: Path, ncols: int):
    """(line, cells) for data rows; blank lines and a 'Total execution time' footer end the data."""
    footer = None
    out = []
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        next(reader)
        for cells in reader:
            line = reader.line_num
            if not cells or all(not c.strip() for c in cells):
                continue
            if cells[0].startswith("Total execution time"):
                footer = cells[0].strip()
                continue
            if footer is not None:
                raise RawDataError(f"{path}:{line}: data after the 'Total execution time' footer")
            out.append((line, [c.strip() for c in cells], len(cells) == ncols))
    return out, footer


def _n(path, line, col, text):
    return number(path, line, col, text)


def import_file(path: Path, target: str, variant: str, unit: str = "ms") -> tuple[str, list[tuple], dict]:
    """Returns (experiment, tidy rows without target/variant/experiment, metadata)."""
    experiment = layout_of(path)
    if experiment is None:
        raise RawDataError(f"{path}:1: header matches none of the original study's layouts: {' | '.join(LAYOUTS)}")
    scale = NS[unit]
    width = len(next(k for k, v in LAYOUTS.items() if v == experiment).split(","))
    rows, footer = _rows(path, width)
    out = []
    for line, c, full in rows:
        if experiment == "memory":
            if len(c) >= 2 and any(x == "Allocation failed" for x in c):
                trial = int(_n(path, line, "Trial Num", c[1])) if len(c) > 1 and c[1] else line
                for m in ("malloc_ns", "write_ns", "read_ns", "free_ns"):
                    out.append((trial, "block_mb", _n(path, line, "Block Size (MB)", c[0]), m, math.nan, "ns", "alloc_failed"))
                continue
            if not full:
                raise RawDataError(f"{path}:{line}: expected {width} fields, found {len(c)}")
            block, trial = _n(path, line, "Block Size (MB)", c[0]), int(_n(path, line, "Trial Num", c[1]))
            for m, col, text in zip(("malloc_ns", "write_ns", "read_ns", "free_ns"),
                                    ("Allocation Time (ms)", "Write Time (ms)", "Read Time (ms)", "Free Time (ms)"), c[2:]):
                out.append((trial, "block_mb", block, m, _n(path, line, col, text) * scale, "ns", "ok"))
        elif not full:
            raise RawDataError(f"{path}:{line}: expected {width} fields, found {len(c)}")
        elif experiment == "cpu":
            op = {"maths": "math"}.get(c[1], c[1])
            if op not in ("math", "int", "float", "array"):
                raise RawDataError(f"{path}:{line}: column Operation: unexpected {c[1]!r} (allowed: math, int, float, array)")
            out.append((int(_n(path, line, "TrialNum", c[0])), "work_items", "as published", f"{op}_cpu_ns",
                        _n(path, line, "CPU Time (ms)", c[2]) * scale, "ns", "ok"))
        elif experiment == "pipe":
            trial = int(_n(path, line, "Test", c[0]))
            size = _n(path, line, "Message Size (Bytes)", c[1])
            for m, col, text in zip(("write_ns", "read_ns", "total_ns"),
                                    ("Write Time (ms)", "Read Time (ms)", "Total Time (ms)"), c[2:]):
                out.append((trial, "message_bytes", size, m, _n(path, line, col, text) * scale, "ns",
                            "warmup" if trial == 1 else "ok"))
        elif experiment == "scale":
            n = _n(path, line, "Number of Processes", c[0])
            out.append((int(n), "instances", n, "memory_used_mb", _n(path, line, "Memory Used (MB)", c[1]), "MB", "ok"))
            out.append((int(n), "instances", n, "elapsed_ms", _n(path, line, "Time Elapsed (ms)", c[2]), "ms", "ok"))
    meta = {"file": str(path), "layout": experiment, "time_unit_assumed": unit, "footer": footer}
    return experiment, out, meta


def discover(root: Path = Path("results/imported")) -> dict[str, list[Path]]:
    """Imported CSV files by experiment, from results/imported/<name>/<variant>/*.csv."""
    found: dict[str, list[Path]] = {}
    for path in sorted(root.glob("*/*/*.csv")):
        exp = layout_of(path)
        if exp:
            found.setdefault(exp, []).append(path)
    return found
