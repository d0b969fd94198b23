"""Reads the original study's raw CSV layouts into the project's tidy rows, units made explicit.

A layout is recognised by the meaning of its columns, not by exact header text: each column is a
name and a unit in parentheses ("Write Time (ms)"), the name is compared without case, spaces or
underscores against the synonyms below (the study's older CheriBSD release says "Test Number" for
"Trial Num" and "Test Type" for "Operation"), and times are converted from the unit their header
states. A header that maps to no layout is an error listing the columns each layout expects."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import numpy as np

from c18n_ae.common import datasets
from c18n_ae.common.rawcsv import RawDataError, number

NS = {"ms": 1e6, "us": 1e3, "µs": 1e3, "ns": 1.0, "s": 1e9}
TRIAL = ("trialnum", "trialnumber", "trial", "testnumber", "testnum", "test", "testno", "run")

# experiment -> role -> (synonyms of the column name, units allowed (None: any), shown as)
LAYOUTS: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...] | None, str]]] = {
    "memory": {
        "block": (("blocksize", "block", "size"), ("mb", "mib"), "Block Size (MB)"),
        "trial": (TRIAL, None, "Trial Num"),
        "malloc": (
            ("allocationtime", "alloctime", "malloctime", "allocation"),
            tuple(NS),
            "Allocation Time (ms)",
        ),
        "write": (("writetime", "write"), tuple(NS), "Write Time (ms)"),
        "read": (("readtime", "read"), tuple(NS), "Read Time (ms)"),
        "free": (("freetime", "free", "deallocationtime"), tuple(NS), "Free Time (ms)"),
    },
    "cpu": {
        "trial": (TRIAL, None, "TrialNum"),
        "operation": (("operation", "testtype", "workload", "op", "type"), None, "Operation"),
        "cpu": (("cputime", "time"), tuple(NS), "CPU Time (ms)"),
    },
    "pipe": {
        "trial": (TRIAL, None, "Test"),
        "size": (("messagesize", "size", "messagebytes"), ("bytes", "b"), "Message Size (Bytes)"),
        "write": (("writetime", "write"), tuple(NS), "Write Time (ms)"),
        "read": (("readtime", "read"), tuple(NS), "Read Time (ms)"),
        "total": (("totaltime", "total"), tuple(NS), "Total Time (ms)"),
    },
    "scale": {
        "instances": (
            ("numberofprocesses", "processes", "numberofcompartments", "instances"),
            None,
            "Number of Processes",
        ),
        "memory": (("memoryused", "memory", "memoryinuse"), ("mb",), "Memory Used (MB)"),
        "elapsed": (("timeelapsed", "elapsedtime", "elapsed"), tuple(NS), "Time Elapsed (ms)"),
    },
}
# A file's layout (declared in dataset.yaml, or recognised from its header) -> its experiment. The
# study's two-library program (E6) wrote its pipe timings in the pipe layout; its logs are a folder.
LAYOUT_EXPERIMENT = {
    "memory": "memory",
    "cpu": "cpu",
    "pipe": "pipe",
    "scale": "scale",
    "isolation-pipe": "isolation",
    "isolation-logs": "isolation",
}
CSV_LAYOUT = {"isolation-pipe": "pipe"}  # layouts that read another layout's columns
WORKLOAD_NAMES = {
    "maths": "math",
    "math": "math",
    "int": "int",
    "integer": "int",
    "float": "float",
    "array": "array",
}


def _split(cell: str) -> tuple[str, str]:
    """'Write Time (ms)' -> ('writetime', 'ms'); the unit is '' when the header gives none."""
    m = re.fullmatch(r"\s*(.*?)\s*(?:\(([^)]*)\))?\s*", cell)
    name, unit = m.group(1), (m.group(2) or "")
    return re.sub(r"[\s_\-]+", "", name.lower()), unit.strip().lower().replace("μ", "µ")


def expected_columns() -> str:
    return "; ".join(
        f"{e}: {', '.join(r[2] for r in roles.values())}" for e, roles in LAYOUTS.items()
    )


def map_header(header: list[str]) -> tuple[str, dict[str, tuple[int, str]]] | None:
    """(experiment, role -> (column index, unit)) when every column has one meaning in one
    layout."""
    cells = [_split(h) for h in header]
    found = []
    for experiment, roles in LAYOUTS.items():
        mapping: dict[str, tuple[int, str]] = {}
        for i, (name, unit) in enumerate(cells):
            role = next(
                (
                    r
                    for r, (names, units, _) in roles.items()
                    if r not in mapping and name in names and (units is None or unit in units)
                ),
                None,
            )
            if role is None:
                break
            mapping[role] = (i, unit)
        else:
            if set(mapping) == set(roles):
                found.append((experiment, mapping))
    return found[0] if len(found) == 1 else None


def closest_layout(header: list[str]) -> str:
    """The layout that names most of these columns, with the columns it expects."""
    cells = [_split(h) for h in header]

    def score(roles):
        return sum(any(name in names for names, _, _ in roles.values()) for name, _ in cells)

    best = max(LAYOUTS, key=lambda e: score(LAYOUTS[e]))
    return f"{best} ({', '.join(r[2] for r in LAYOUTS[best].values())})"


def layout_of(path: Path) -> str | None:
    with open(path, newline="", encoding="utf-8-sig") as f:
        header = next(csv.reader(f), [])
    m = map_header(header)
    return m[0] if m else None


def _rows(path: Path, ncols: int):
    """(line, cells, full) for data rows; blank lines and a 'Total execution time' footer end the
    data."""
    footer = None
    out = []
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader, [])
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
    return header, out, footer


def import_file(path: Path, layout: str | None = None) -> tuple[str, list[tuple], dict]:
    """Returns (experiment, tidy rows without target/variant/experiment, metadata). layout: as
    dataset.yaml declares it; None: recognised from the header (the metadata says which)."""
    path = Path(path)
    if not path.exists():
        raise RawDataError(f"{path}: file not found")
    if layout == "isolation-logs":
        from c18n_ae.analysis.isolation_logs import import_logs

        rows, meta = import_logs(path)
        return "isolation", rows, meta
    header, rows, footer = _rows(path, 0)
    mapped = map_header(header)
    wanted = CSV_LAYOUT.get(layout, layout)
    if mapped is None or (wanted and mapped[0] != wanted):
        expected = (
            f"declared layout {layout}: columns {', '.join(r[2] for r in LAYOUTS[wanted].values())}"
            if wanted
            else f"closest layout: {closest_layout(header)}"
        )
        raise RawDataError(
            f"{path}:1: header {','.join(header)!r} matches "
            + ("not its declared layout" if wanted else "none of the original study's layouts")
            + f"; {expected} (any order; names may vary in case and spacing, 'Test Number' may "
            "stand for 'Trial Num', 'Test Type' for 'Operation')"
        )
    experiment, cols = mapped
    width = len(header)
    fast = _fast_rows(path, experiment, cols, layout, width)
    if fast is not None:
        return (
            LAYOUT_EXPERIMENT[layout or experiment],
            fast,
            _meta(path, layout, experiment, cols, header, fast.attrs["footer"]),
        )

    def get(c, line, role):
        i, _ = cols[role]
        return number(path, line, header[i].strip(), c[i])

    def ns(c, line, role):
        return get(c, line, role) * NS[cols[role][1]]

    out = []
    for line, c, _ in rows:
        if experiment == "memory" and any(x == "Allocation failed" for x in c):
            i = cols["trial"][0]
            trial = (
                int(number(path, line, header[i].strip(), c[i])) if len(c) > i and c[i] else line
            )
            block = get(c, line, "block")
            for m in ("malloc_ns", "write_ns", "read_ns", "free_ns"):
                out.append((trial, "block_mib", block, m, math.nan, "ns", "alloc_failed"))
            continue
        if len(c) != width:
            raise RawDataError(f"{path}:{line}: expected {width} fields, found {len(c)}")
        if experiment == "memory":
            block, trial = get(c, line, "block"), int(get(c, line, "trial"))
            for role in ("malloc", "write", "read", "free"):
                out.append((trial, "block_mib", block, f"{role}_ns", ns(c, line, role), "ns", "ok"))
        elif experiment == "cpu":
            text = c[cols["operation"][0]]
            op = WORKLOAD_NAMES.get(text.lower())
            if op is None:
                raise RawDataError(
                    f"{path}:{line}: column {header[cols['operation'][0]].strip()}: unexpected "
                    f"{text!r} (allowed: math, int, float, array)"
                )
            out.append(
                (
                    int(get(c, line, "trial")),
                    "work_items",
                    "as published",
                    f"{op}_cpu_ns",
                    ns(c, line, "cpu"),
                    "ns",
                    "ok",
                )
            )
        elif experiment == "pipe":
            trial = int(get(c, line, "trial"))
            size = get(c, line, "size")
            prefix = "pipe_" if layout == "isolation-pipe" else ""  # E6's names for them
            for role in ("write", "read", "total"):
                out.append(
                    (
                        trial,
                        "message_bytes",
                        size,
                        f"{prefix}{role}_ns",
                        ns(c, line, role),
                        "ns",
                        "warmup" if trial == 1 else "ok",
                    )
                )
        else:  # scale
            n = get(c, line, "instances")
            out.append(
                (int(n), "instances", n, "memory_used_mb", get(c, line, "memory"), "MB", "ok")
            )
            out.append(
                (int(n), "instances", n, "elapsed_ms", ns(c, line, "elapsed") / 1e6, "ms", "ok")
            )
    meta = _meta(path, layout, experiment, cols, header, footer)
    return LAYOUT_EXPERIMENT[layout or experiment], out, meta


def _meta(path, layout, experiment, cols, header, footer) -> dict:
    return {
        "file": str(path),
        "layout": layout or experiment,
        "declared": layout is not None,
        "footer": footer,
        "units": {r: u for r, (_, u) in cols.items() if u},
        "columns": {r: header[i].strip() for r, (i, _) in cols.items()},
    }


# metric names of each layout's time columns; E6's pipe timings carry a prefix
TIMES = {
    "memory": ("malloc", "write", "read", "free"),
    "pipe": ("write", "read", "total"),
}


def _fast_rows(path: Path, experiment: str, cols: dict, layout: str | None, width: int):
    """The tidy rows of a clean file as one DataFrame, read column-wise (linear, a few bytes per
    value: a board's 10^6 trials fit in memory). None when the file needs the row-by-row reader:
    a failed allocation, a short or long row, a value that is not a number, data after the
    footer; that reader then names the file and line."""
    import io

    import pandas as pd

    data = path.read_bytes()
    body, _, last = data.rstrip().rpartition(b"\n")
    footer = None
    if last.strip().startswith(b"Total execution time"):  # the study's footer: the last line
        footer, data = last.strip().decode("utf-8", "replace"), body
    text_columns = {cols["operation"][0]} if "operation" in cols else set()
    try:  # numbers parsed as numbers: a few bytes a value, no text object per cell
        raw = pd.read_csv(
            io.BytesIO(data),
            header=None,
            skiprows=1,
            dtype={i: (str if i in text_columns else float) for i in range(width)},
            keep_default_na=False,
            skip_blank_lines=True,
            names=range(width),
            encoding="utf-8-sig",
        )
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError):
        return None
    del data
    if raw.empty or raw.isna().any().any():
        return None

    def num(role):
        return raw[cols[role][0]].to_numpy(dtype=float)

    def ns(role):
        values = num(role)
        return None if values is None else values * NS[cols[role][1]]

    frames = []
    if experiment in TIMES:
        trial, param = num("trial"), num("block" if experiment == "memory" else "size")
        if trial is None or param is None:
            return None
        prefix = "pipe_" if layout == "isolation-pipe" else ""
        status = (
            np.where(trial == 1, "warmup", "ok")
            if experiment == "pipe"
            else np.full(len(raw), "ok")
        )
        parameter = "block_mib" if experiment == "memory" else "message_bytes"
        for role in TIMES[experiment]:
            value = ns(role)
            if value is None:
                return None
            frames.append((trial, parameter, param, f"{prefix}{role}_ns", value, "ns", status))
    elif experiment == "cpu":
        trial, value = num("trial"), ns("cpu")
        ops = raw[cols["operation"][0]].str.strip().str.lower().map(WORKLOAD_NAMES)
        if trial is None or value is None or ops.isna().any():
            return None
        frames.append(
            (trial, "work_items", "as published", ops.to_numpy() + "_cpu_ns", value, "ns", "ok")
        )
    else:  # scale
        n, memory, elapsed = num("instances"), num("memory"), ns("elapsed")
        if n is None or memory is None or elapsed is None:
            return None
        frames.append((n, "instances", n, "memory_used_mb", memory, "MB", "ok"))
        frames.append((n, "instances", n, "elapsed_ms", elapsed / 1e6, "ms", "ok"))

    def text(value, n):  # a category column: one byte a row
        if isinstance(value, str):
            return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), [value])
        return pd.Categorical(value)

    parts = []
    for t, p, v, m, x, u, st in frames:
        n = len(x)
        parts.append(
            pd.DataFrame(
                {
                    "trial": np.asarray(t, dtype=int),
                    "parameter": text(p, n),
                    "parameter_value": v if not isinstance(v, str) else np.full(n, v, dtype=object),
                    "metric": text(m, n),
                    "value": x,
                    "unit": text(u, n),
                    "status": text(st, n),
                }
            )
        )
    from c18n_ae.analysis.collect import concat_tidy  # the one way tidy frames are joined

    out = concat_tidy(parts)
    out.attrs["footer"] = footer
    return out


# The files of a shipped data set (c18n_ae.common.datasets), each with the layout its header shows.
def dataset_files(meta: dict) -> list[tuple[str, str, Path]]:
    """(experiment, variant, path) of each file: the experiment of its declared layout, else of
    the layout its header line shows (only that line is read)."""
    d = Path(meta["directory"])
    out = []
    for f in meta["files"]:
        p = d / f["path"]
        layout = f.get("layout") or layout_of(p)
        if layout is None:
            with open(p, newline="", encoding="utf-8-sig") as fh:
                header = next(csv.reader(fh), [])
            raise RawDataError(
                f"{p}:1: header matches none of the original study's layouts; closest layout: "
                f"{closest_layout(header)}; or declare it (layout: in {d / 'dataset.yaml'})"
            )
        out.append((LAYOUT_EXPERIMENT[layout], f["variant"], p))
    return out


def dataset_files_by_experiment(names: list[str]) -> dict[str, list[str]]:
    """experiment -> [path of each data set file], for the workflow's inputs."""
    out: dict[str, list[str]] = {}
    for name in names:
        for experiment, _, p in dataset_files(datasets.load(name)):
            out.setdefault(experiment, []).append(str(p))
    return out
