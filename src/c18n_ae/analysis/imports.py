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
import warnings
from array import array
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae import experiments as exp
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


FOOTER = "Total execution time"  # the study's last line, kept in the metadata


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
    header = header_of(path)
    wanted = known[layout][1] if layout else None
    mapped = map_header(header, [wanted] if wanted else None)
    if mapped is None:
        _no_data(path)  # a header alone says so first
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
        tidy = _slow_rows(path, chosen, cols, header)
    return experiment, tidy, _meta(path, layout, name, cols, header, tidy.attrs["footer"])


def _no_data(path: Path) -> None:
    with open(path, "rb") as f:
        reader = csv.reader(text_lines(path, f))
        next(reader, None)
        if not any(c and any(x.strip() for x in c) for c in reader):
            raise RawDataError(f"{path}: a header and no rows of data")


def _columns(cols: dict, values: dict, status) -> Columns:
    frame = pd.DataFrame(values, copy=False)
    return Columns(frame, {r: u for r, (_, u) in cols.items()}, status)


def _slow_rows(path: Path, layout: Layout, cols: dict, header: list[str]) -> pd.DataFrame:
    """Row by row, streamed: each cell checked, a failure row (e.g. 'Allocation failed') kept with
    its status, every problem named by file and line. Numbers go into typed arrays (8 bytes a
    value) and each distinct text is held once, so a board's file is not held as text objects."""
    values = {r: (array("d") if r not in layout.text else []) for r in cols}
    once: dict[str, str] = {}  # each distinct text one object: a pointer a row
    status, lines = [], array("q")
    footer = None
    with open(path, "rb") as f:
        reader = csv.reader(text_lines(path, f))
        next(reader, None)
        for cells in reader:
            line = reader.line_num
            if not cells or all(not c.strip() for c in cells):
                continue
            if cells[0].startswith(FOOTER):
                footer = cells[0].strip()
                continue
            if footer is not None:
                raise RawDataError(f"{path}:{line}: data after the '{FOOTER}' footer")
            c = [x.strip() for x in cells]
            failed = layout.failure is not None and any(x == layout.failure[0] for x in c)
            if not failed and len(c) != len(header):
                raise RawDataError(f"{path}:{line}: expected {len(header)} fields, found {len(c)}")
            for role, (i, _) in cols.items():
                cell = c[i] if i < len(c) else ""
                if role in layout.text:
                    values[role].append(once.setdefault(cell, cell))
                elif failed and not re.fullmatch(r"[-+0-9.eE]+", cell):
                    values[role].append(line if role == "trial" else float("nan"))
                else:
                    values[role].append(number(path, line, header[i].strip(), cell))
            status.append(layout.failure[1] if failed else "ok")
            lines.append(line)
    if not lines:
        raise RawDataError(f"{path}: a header and no rows of data")
    arrays = {
        r: np.frombuffer(v, dtype=float) if isinstance(v, array) else np.asarray(v, dtype=object)
        for r, v in values.items()
    }
    try:
        parts = layout.rows(_columns(cols, arrays, np.asarray(status, dtype=object)))
    except LayoutCheck as bad:
        index, role, allowed = bad.args
        column = header[cols[role][0]].strip()
        raise RawDataError(
            f"{path}:{lines[index]}: column {column}: unexpected "
            f"{values[role][index]!r} ({allowed})"
        ) from None
    return _tidy(parts, len(lines), footer)


def _meta(path, layout, name, cols, header, footer) -> dict:
    return {
        "file": str(path),
        "layout": layout or name,
        "declared": layout is not None,
        "footer": footer,
        "units": {r: u for r, (_, u) in cols.items() if u},
        "columns": {r: header[i].strip() for r, (i, _) in cols.items()},
    }


class _Head(io.RawIOBase):
    """The first `size` bytes of a file, read in the caller's pieces: the study's footer left out
    without a copy of the file in memory."""

    def __init__(self, f, size: int):
        self.f, self.left = f, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self.f.readinto(memoryview(buffer)[: min(len(buffer), self.left)])
        self.left -= n
        return n


def _body_and_footer(path: Path) -> tuple[int, str | None]:
    """Bytes before the footer (the study's last line), and the footer; read from the file's
    end only."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        f.seek(max(0, size - 4096))
        tail = f.read()
    body, _, last = tail.rstrip().rpartition(b"\n")
    if last.strip().startswith(FOOTER.encode()):
        return size - len(tail) + len(body) + 1, last.strip().decode("utf-8", "replace")
    return size, None


def _fast_rows(path: Path, layout: Layout, cols: dict, width: int):
    """The tidy rows of a clean file as one DataFrame, read column-wise from the file (typed
    columns, text as categories: a few bytes per value). None when the file needs the row-by-row
    reader: a failure row, a short or long row, a value that is not a plain number, data after
    the footer."""
    end, footer = _body_and_footer(path)
    text_columns = {cols[r][0] for r in layout.text}
    try:  # numbers parsed as numbers: a few bytes a value, no text object per cell
        with open(path, "rb") as f, warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)  # a long row: row by row
            raw = pd.read_csv(
                io.BufferedReader(_Head(f, end), 1 << 20),
                header=None,
                skiprows=1,
                dtype={i: ("category" if i in text_columns else float) for i in range(width)},
                keep_default_na=False,
                skip_blank_lines=True,
                names=range(width),
                index_col=False,
                encoding="utf-8-sig",
            )
    except (pd.errors.ParserError, pd.errors.ParserWarning, UnicodeDecodeError, ValueError):
        return None
    if raw.empty or len(raw.columns) != width:
        return None
    for i in range(width):
        column = raw[i]
        if i in text_columns:
            if (column.cat.categories == "").any() or column.isna().any():
                return None
        elif not np.isfinite(column.to_numpy()).all():
            return None
    values = {r: raw[i] for r, (i, _) in cols.items()}
    parts = layout.rows(_columns(cols, values, np.full(len(raw), "ok", dtype=object)))
    del values
    return _tidy(parts, len(raw), footer)


def _text_codes(parts: list, k: int, n: int) -> pd.Categorical:
    """Column k of every part, one below the other, as one category column (one byte a row)."""
    pieces = []
    for part in parts:
        value = part[k]
        if isinstance(value, str):
            pieces.append(pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), [value]))
        else:
            pieces.append(pd.Categorical(np.asarray(value, dtype=object)))
    return pd.api.types.union_categoricals(pieces, sort_categories=True, ignore_order=True)


def _filled(parts: list, k: int, n: int, dtype) -> np.ndarray:
    """Column k of every part, one below the other, written into one array (no frame a part)."""
    out = np.empty(n * len(parts), dtype=dtype)
    for j, part in enumerate(parts):
        out[j * n : (j + 1) * n] = part[k]
    return out


def _tidy(parts: list, n: int, footer: str | None) -> pd.DataFrame:
    """The layout's parts (trial, parameter, parameter value, metric, values, unit, status: each a
    column or one value) as one tidy frame, part after part, built column by column."""
    values = [p[2] for p in parts]
    numeric = all(not isinstance(v, str) and np.asarray(v).dtype.kind in "iuf" for v in values)
    out = pd.DataFrame(
        {
            "trial": _filled(parts, 0, n, np.int64),
            "parameter": _text_codes(parts, 1, n),
            "parameter_value": _filled(parts, 2, n, float if numeric else object),
            "metric": _text_codes(parts, 3, n),
            "value": _filled(parts, 4, n, float),
            "unit": _text_codes(parts, 5, n),
            "status": _text_codes(parts, 6, n),
        },
        copy=False,
    )
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
