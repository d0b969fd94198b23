"""Reads the original study's raw CSV layouts into the project's tidy rows, units made explicit.

A layout is recognised by the meaning of its columns, not by exact header text: each column is a
name and a unit in parentheses ("Write Time (ms)"), the name is compared without case, spaces or
underscores against the synonyms its experiment's module declares (the study's older CheriBSD
release says "Test Number" for "Trial Num" and "Test Type" for "Operation"), and times are
converted from the unit their header states. A header that maps to no layout is an error listing
the columns the closest layout expects."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.tidy import concat_tidy
from c18n_ae.common import datasets
from c18n_ae.common.rawcsv import RawDataError, number, text_lines
from c18n_ae.experiments.layouts import Columns, Layout, LayoutCheck


def layouts() -> dict[str, tuple[str, Layout]]:
    """layout name -> (its experiment, the layout), from the experiments' modules."""
    return {x.name: (e.name, x) for e in exp.registry().values() for x in e.layouts}


def _recognised() -> dict[str, Layout]:
    return {n: x for n, (_, x) in layouts().items() if x.recognised and x.columns}


def _split(cell: str) -> tuple[str, str]:
    """'Write Time (ms)' -> ('writetime', 'ms'); the unit is '' when the header gives none."""
    m = re.fullmatch(r"\s*(.*?)\s*(?:\(([^)]*)\))?\s*", cell)
    name, unit = m.group(1), (m.group(2) or "")
    return re.sub(r"[\s_\-]+", "", name.lower()), unit.strip().lower().replace("μ", "µ")


def map_header(header: list[str], candidates=None) -> tuple[str, dict] | None:
    """(layout, role -> (column index, unit)) when every column has one meaning in one layout of
    the candidates (default: every layout told apart by its header)."""
    cells = [_split(h) for h in header]
    found = []
    for layout_name, layout in (
        {c.name: c for c in candidates} if candidates else _recognised()
    ).items():
        roles = layout.columns
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
                found.append((layout_name, mapping))
    return found[0] if len(found) == 1 else None


def closest_layout(header: list[str]) -> str:
    """The layout that names most of these columns, with the columns it expects."""
    cells = [_split(h) for h in header]

    def score(roles):
        return sum(any(name in names for names, _, _ in roles.values()) for name, _ in cells)

    known = _recognised()
    best = max(known, key=lambda n: score(known[n].columns))
    return f"{best} ({known[best].expected()})"


def header_of(path: Path) -> list[str]:
    """The first line's cells; an empty file, or one that is not UTF-8 text, is refused."""
    with open(path, "rb") as f:
        header = next(csv.reader(text_lines(path, f)), None)
    if header is None:
        raise RawDataError(f"{path}: empty file")
    return header


def layout_of(path: Path) -> str | None:
    header = header_of(path)
    m = map_header(header)
    return m[0] if m else None


def _rows(path: Path, ncols: int):
    """(line, cells, full) for data rows; blank lines and a 'Total execution time' footer end the
    data."""
    footer = None
    out = []
    with open(path, "rb") as f:
        reader = csv.reader(text_lines(path, f))
        header = next(reader, None)
        if header is None:
            raise RawDataError(f"{path}: empty file")
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


def import_file(path: Path, layout: str | None = None) -> tuple[str, object, dict]:
    """Returns (experiment, tidy rows without target/variant/experiment, metadata). layout: as
    dataset.yaml declares it; None: recognised from the header (the metadata says which)."""
    path = Path(path)
    if not path.exists():
        raise RawDataError(f"{path}: file not found")
    known = layouts()
    if layout is not None and known[layout][1].folder is not None:
        rows, meta = known[layout][1].folder(path)
        return known[layout][0], rows, meta
    header, rows, footer = _rows(path, 0)
    if not rows:
        raise RawDataError(f"{path}: a header and no rows of data")
    wanted = known[layout][1] if layout else None
    mapped = map_header(header, [wanted] if wanted else None)
    if mapped is None:
        expected = (
            f"declared layout {layout}: columns {wanted.expected()}"
            if wanted
            else f"closest layout: {closest_layout(header)}"
        )
        raise RawDataError(
            f"{path}:1: header {','.join(header)!r} matches "
            + ("not its declared layout" if wanted else "none of the original study's layouts")
            + f"; {expected} (any order; names may vary in case and spacing, 'Test Number' may "
            "stand for 'Trial Num', 'Test Type' for 'Operation')"
        )
    name, cols = mapped
    experiment, chosen = known[name]
    try:
        tidy = _fast_rows(path, chosen, cols, len(header))
    except LayoutCheck:
        tidy = None  # the row-by-row reader names the line
    if tidy is None:
        tidy = _slow_rows(path, chosen, cols, header, rows)
    return experiment, tidy, _meta(path, layout, name, cols, header, footer)


def _columns(cols: dict, values: dict, status) -> Columns:
    frame = pd.DataFrame(values)
    return Columns(frame, {r: u for r, (_, u) in cols.items()}, np.asarray(status, dtype=object))


def _slow_rows(path: Path, layout: Layout, cols: dict, header: list[str], rows) -> list[tuple]:
    """Row by row: each cell checked, a failure row (e.g. 'Allocation failed') kept with its
    status, every problem named by file and line."""
    values = {r: [] for r in cols}
    status, lines = [], []
    for line, c, _ in rows:
        failed = layout.failure is not None and any(x == layout.failure[0] for x in c)
        if not failed and len(c) != len(header):
            raise RawDataError(f"{path}:{line}: expected {len(header)} fields, found {len(c)}")
        for role, (i, _) in cols.items():
            cell = c[i] if i < len(c) else ""
            if role in layout.text:
                values[role].append(cell)
            elif failed and not re.fullmatch(r"[-+0-9.eE]+", cell):
                values[role].append(line if role == "trial" else float("nan"))
            else:
                values[role].append(number(path, line, header[i].strip(), cell))
        status.append(layout.failure[1] if failed else "ok")
        lines.append(line)
    try:
        parts = layout.rows(_columns(cols, values, status))
    except LayoutCheck as bad:
        index, role, allowed = bad.args
        column = header[cols[role][0]].strip()
        raise RawDataError(
            f"{path}:{lines[index]}: column {column}: unexpected "
            f"{values[role][index]!r} ({allowed})"
        ) from None
    out = []
    for part in parts:
        columns = [x if isinstance(x, (np.ndarray, list, pd.Series)) else None for x in part]
        for k in range(len(lines)):
            row = [x if c is None else c[k] for x, c in zip(part, columns)]
            out.append((int(row[0]), *row[1:]))
    return out


def _meta(path, layout, name, cols, header, footer) -> dict:
    return {
        "file": str(path),
        "layout": layout or name,
        "declared": layout is not None,
        "footer": footer,
        "units": {r: u for r, (_, u) in cols.items() if u},
        "columns": {r: header[i].strip() for r, (i, _) in cols.items()},
    }


def _fast_rows(path: Path, layout: Layout, cols: dict, width: int):
    """The tidy rows of a clean file as one DataFrame, read column-wise (linear, a few bytes per
    value: a board's 10^6 trials fit in memory). None when the file needs the row-by-row reader:
    a failure row, a short or long row, a value that is not a number, data after the footer."""
    data = path.read_bytes()
    body, _, last = data.rstrip().rpartition(b"\n")
    footer = None
    if last.strip().startswith(b"Total execution time"):  # the study's footer: the last line
        footer, data = last.strip().decode("utf-8", "replace"), body
    text_columns = {cols[r][0] for r in layout.text}
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
    numbers = raw.select_dtypes("number")
    if raw.empty or raw.isna().any().any() or not np.isfinite(numbers.to_numpy()).all():
        return None
    values = {r: raw[i] for r, (i, _) in cols.items()}
    parts = layout.rows(_columns(cols, values, np.full(len(raw), "ok", dtype=object)))

    def text(value, n):  # a category column: one byte a row
        if isinstance(value, str):
            return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), [value])
        return pd.Categorical(value)

    frames = []
    for t, p, v, m, x, u, st in parts:
        n = len(x)
        frames.append(
            pd.DataFrame(
                {
                    "trial": np.asarray(t, dtype=int),
                    "parameter": text(p, n),
                    "parameter_value": v if not isinstance(v, str) else np.full(n, v, dtype=object),
                    "metric": text(m if isinstance(m, str) else np.asarray(m, dtype=object), n),
                    "value": x,
                    "unit": text(u, n),
                    "status": text(st if isinstance(st, str) else np.asarray(st, dtype=object), n),
                }
            )
        )
    out = concat_tidy(frames)
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
            header = header_of(p)
            raise RawDataError(
                f"{p}:1: header matches none of the original study's layouts; closest layout: "
                f"{closest_layout(header)}; or declare it (layout: in {d / 'dataset.yaml'})"
            )
        out.append((layouts()[layout][0], f["variant"], p))
    return out


def dataset_files_by_experiment(names: list[str]) -> dict[str, list[str]]:
    """experiment -> [path of each data set file], for the workflow's inputs."""
    out: dict[str, list[str]] = {}
    for name in names:
        for experiment, _, p in dataset_files(datasets.load(name)):
            out.setdefault(experiment, []).append(str(p))
    return out
