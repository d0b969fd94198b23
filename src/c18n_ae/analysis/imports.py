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

from c18n_ae import experiments as exp
from c18n_ae.common import datasets
from c18n_ae.common.lazy import np, pd  # on first use: the workflow imports this while it loads
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
    its status, every problem named by file and line. Rows are gathered CHUNK_ROWS at a time in
    typed arrays and added to the tidy columns, so a board's file is never held as text."""
    once: dict[str, str] = {}  # each distinct text one object: a pointer a row
    chunk = _Chunk(layout, cols, header)
    table = None
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
                    chunk.values[role].append(once.setdefault(cell, cell))
                elif failed and not re.fullmatch(r"[-+0-9.eE]+", cell):
                    chunk.values[role].append(line if role == "trial" else float("nan"))
                else:
                    chunk.values[role].append(number(path, line, header[i].strip(), cell))
            chunk.status.append(layout.failure[1] if failed else "ok")
            chunk.lines.append(line)
            if len(chunk.lines) == CHUNK_ROWS:
                table = chunk.flush(path, table)
    if chunk.lines:
        table = chunk.flush(path, table)
    if table is None:
        raise RawDataError(f"{path}: a header and no rows of data")
    return table.frame(footer)


class _Chunk:
    """Rows read by the row-by-row reader and not yet added to the tidy columns."""

    def __init__(self, layout: Layout, cols: dict, header: list[str]):
        self.layout, self.cols, self.header = layout, cols, header
        self.values = {r: (array("d") if r not in layout.text else []) for r in cols}
        self.status, self.lines = [], array("q")

    def flush(self, path: Path, table):
        arrays = {
            r: np.frombuffer(v, dtype=float) if isinstance(v, array) else np.asarray(v, object)
            for r, v in self.values.items()
        }
        try:
            parts = self.layout.rows(
                _columns(self.cols, arrays, np.asarray(self.status, dtype=object))
            )
        except LayoutCheck as bad:
            index, role, allowed = bad.args
            column = self.header[self.cols[role][0]].strip()
            raise RawDataError(
                f"{path}:{self.lines[index]}: column {column}: unexpected "
                f"{self.values[role][index]!r} ({allowed})"
            ) from None
        if table is None:
            table = _Tidy(len(parts), _lines(path, path.stat().st_size))
        table.add(parts, len(self.lines))
        self.__init__(self.layout, self.cols, self.header)
        return table


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
    end only. -1: the file does not end in a newline."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        f.seek(max(0, size - 4096))
        tail = f.read()
    if not tail.endswith(b"\n"):
        return -1, None
    body, _, last = tail.rstrip().rpartition(b"\n")
    if last.strip().startswith(FOOTER.encode()):
        return size - len(tail) + len(body) + 1, last.strip().decode("utf-8", "replace")
    return size, None


CHUNK_ROWS = 1 << 16  # rows of a file parsed at a time: the parser's own buffers stay small


def _fast_rows(path: Path, layout: Layout, cols: dict, width: int):
    """The tidy rows of a clean file as one DataFrame, read column-wise from the file in chunks
    (typed columns, text as categories) into columns made once for the whole file: a few bytes a
    value and no copy of the table. None when the file needs the row-by-row reader: a failure
    row, a short or long row, a value that is not a plain number, data after the footer."""
    end, footer = _body_and_footer(path)
    if end < 0:
        return None  # cut in the middle of a row: the row-by-row reader says so
    text_columns = {cols[r][0] for r in layout.text}
    table = None
    try:  # numbers parsed as numbers: a few bytes a value, no text object per cell
        with open(path, "rb") as f, warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)  # a long row: row by row
            chunks = pd.read_csv(
                io.BufferedReader(_Head(f, end), 1 << 20),
                header=None,
                skiprows=1,
                dtype={i: ("category" if i in text_columns else float) for i in range(width)},
                keep_default_na=False,
                skip_blank_lines=True,
                names=range(width),
                index_col=False,
                encoding="utf-8-sig",
                chunksize=CHUNK_ROWS,
            )
            for raw in chunks:
                if not _clean(raw, text_columns, width):
                    return None
                values = {r: raw[i] for r, (i, _) in cols.items()}
                parts = layout.rows(_columns(cols, values, np.full(len(raw), "ok", dtype=object)))
                if table is None:
                    table = _Tidy(len(parts), _lines(path, end))
                table.add(parts, len(raw))
    except (pd.errors.ParserError, pd.errors.ParserWarning, UnicodeDecodeError, ValueError):
        return None
    return table.frame(footer) if table is not None and table.n else None


def _clean(raw: pd.DataFrame, text_columns: set, width: int) -> bool:
    if raw.empty or len(raw.columns) != width:
        return False
    for i in range(width):
        column = raw[i]
        if i in text_columns:
            if (column.cat.categories == "").any() or column.isna().any():
                return False
        elif not np.isfinite(column.to_numpy()).all():
            return False
    return True


def _lines(path: Path, end: int) -> int:
    """Data rows at most in the first `end` bytes (newlines, less the header's), counted in
    pieces."""
    n = 0
    with open(path, "rb") as f:
        while end > 0 and (piece := f.read(min(end, 1 << 24))):
            n += piece.count(b"\n")
            end -= len(piece)
    return max(n - 1, 1)


INT32_MAX = 2**31 - 1


class _Tidy:
    """A file's tidy rows, part after part (each part one tidy row per data row), in columns
    allocated once for at most `rows` data rows and filled chunk by chunk; text columns as codes
    into categories gathered along the way (one byte a row)."""

    TEXT = {1: "parameter", 3: "metric", 5: "unit", 6: "status"}

    def __init__(self, parts: int, rows: int):
        self.parts, self.rows, self.n = parts, rows, 0
        self.trial = np.empty(parts * rows, dtype=np.int32)  # widened if a trial needs it
        self.value = np.empty(parts * rows, dtype=float)
        self.setting = None  # the parameter's values: numbers, or text (a workload's name)
        self.codes = {k: np.empty(parts * rows, dtype=np.int8) for k in self.TEXT}
        self.categories: dict[int, dict] = {k: {} for k in self.TEXT}

    def _code(self, k: int, value):
        known = self.categories[k]
        if isinstance(value, str):
            return known.setdefault(value, len(known))
        c = pd.Categorical(np.asarray(value, dtype=object))
        return np.array([known.setdefault(x, len(known)) for x in c.categories])[c.codes]

    def add(self, parts: list, n: int) -> None:
        if self.setting is None:
            numeric = all(
                not isinstance(p[2], str) and np.asarray(p[2]).dtype.kind in "iuf" for p in parts
            )
            self.setting = np.empty(self.parts * self.rows, dtype=float if numeric else object)
        for j, part in enumerate(parts):
            at = slice(j * self.rows + self.n, j * self.rows + self.n + n)
            if np.abs(np.asarray(part[0], dtype=float)).max(initial=0) > INT32_MAX:
                self.trial = self.trial.astype(np.int64)
            self.trial[at] = part[0]
            self.setting[at] = part[2]
            self.value[at] = part[4]
            for k in self.TEXT:
                code = self._code(k, part[k])
                if len(self.categories[k]) > 127 and self.codes[k].dtype == np.int8:
                    self.codes[k] = self.codes[k].astype(np.int16)
                self.codes[k][at] = code
        self.n += n

    def frame(self, footer: str | None) -> pd.DataFrame:
        def take(a: np.ndarray) -> np.ndarray:
            """The parts' rows closed up in place where fewer rows came than lines were counted
            (blank lines, a footer): no second copy of a column."""
            for j in range(1, self.parts) if self.n < self.rows else ():
                a[j * self.n : (j + 1) * self.n] = a[j * self.rows : j * self.rows + self.n]
            return a[: self.parts * self.n]

        text = {}
        for k, name in self.TEXT.items():
            names = list(self.categories[k])
            order = np.argsort(np.argsort(np.array(names, dtype=object)))  # sorted, as joins are
            codes = take(self.codes[k])
            codes[:] = order.astype(codes.dtype)[codes]
            text[name] = pd.Categorical.from_codes(codes, sorted(names))
            del self.codes[k]
        out = pd.DataFrame(
            {
                "trial": take(self.trial),
                "parameter": text["parameter"],
                "parameter_value": take(self.setting),
                "metric": text["metric"],
                "value": take(self.value),
                "unit": text["unit"],
                "status": text["status"],
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
