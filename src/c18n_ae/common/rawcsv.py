"""Strict reading of raw benchmark CSV files: every problem names the file and line."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import BinaryIO

STARTED = "started_unix_ns"  # first column of every benchmark row: when its unit started


MAX_LINE = 1 << 16  # characters in a line of a CSV file; a longer one is refused, not read whole
# cells that a float() would take but no program or study file writes: not a number, infinite,
# hexadecimal, or an exponent that may overflow
ODD_NUMBER = re.compile(
    r"(?:^|,)\s*[-+]?(?:nan|inf(?:inity)?|0x[0-9a-f]*|[0-9.]+e[-+]?[0-9]{3,})\s*(?=,|$)", re.I
)


# the only numbers a CSV file may hold: ASCII digits, an optional sign, point and exponent. float()
# also reads 46_757, Arabic-Indic and full-width digits and ' 1\u2009'; no program writes them
PLAIN_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


class RawDataError(ValueError):
    pass


def text_lines(path: Path, f: BinaryIO):
    """The lines of a CSV file opened in binary, as text, each checked before it is parsed: UTF-8
    (a UTF-16 or binary file is named as such), no NUL byte, at most MAX_LINE characters (read in
    bounded pieces), ending in a newline (a file cut in the middle of a row is refused)."""
    n = 0
    while line := f.readline(MAX_LINE + 2):
        n += 1
        if len(line) > MAX_LINE:
            raise RawDataError(f"{path}:{n}: line longer than {MAX_LINE} characters")
        if b"\0" in line:
            raise RawDataError(f"{path}:{n}: a NUL byte; not a text file")
        try:
            text = line.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError:
            raise RawDataError(f"{path}:{n}: not UTF-8 text (a UTF-16 or binary file?)") from None
        if not line.endswith(b"\n"):
            raise RawDataError(f"{path}:{n}: the file ends in the middle of a row (no newline)")
        yield text


def odd_number(path: Path, line: int, text: str) -> None:
    """Refuses a cell that reads as a number no measurement writes (nan, inf, 0x10, 1e400)."""
    m = ODD_NUMBER.search(text)
    if m is None:
        return
    cell = m.group(0).strip(" ,\t")
    try:
        odd = not math.isfinite(float(cell))
    except ValueError:
        odd = "x" in cell.lower()  # hexadecimal; anything else is left to the column's check
    if odd:
        raise RawDataError(f"{path}:{line}: {cell!r} is not a finite decimal number")


def read_rows(path: Path, expected_header: tuple[str, ...] | None = None) -> list[tuple[int, dict]]:
    """Returns (line number, row) pairs; every row must be full. expected_header: the header must
    match it exactly; None: the file's own header, as the program that wrote it describes it."""
    path = Path(path)
    if not path.exists():
        raise RawDataError(f"{path}: file not found")
    with open(path, "rb") as f:
        reader = csv.reader(text_lines(path, f))
        try:
            header = next(reader)
        except StopIteration:
            wanted = f", expected header {','.join(expected_header)}" if expected_header else ""
            raise RawDataError(f"{path}: empty file{wanted}") from None
        if expected_header is None:
            expected_header = tuple(h.strip() for h in header)
        # a benchmark's rows start with the time their unit started; drivers' rows may not
        if header and header[0].strip() == STARTED and tuple(expected_header[:1]) != (STARTED,):
            expected_header = (STARTED, *expected_header)
        if tuple(h.strip() for h in header) != expected_header:
            raise RawDataError(
                f"{path}:1: header {','.join(header)!r} does not match expected "
                f"{','.join(expected_header)!r}"
            )
        rows = []
        for cells in reader:
            line = reader.line_num
            if not cells:
                continue
            if len(cells) != len(expected_header):
                raise RawDataError(
                    f"{path}:{line}: expected {len(expected_header)} fields, found {len(cells)}"
                )
            row = dict(zip(expected_header, (c.strip() for c in cells)))
            if row.get("status", "ok") == "ok":  # a failed trial may write nan (cpu's checksum)
                odd_number(path, line, ",".join(cells))
            rows.append((line, row))
    return rows


def plain(text: str) -> str:
    """What a cell that is no plain number fails to be: a number at all, or only a plain one."""
    try:
        float(text)
    except ValueError:
        return "a number"
    return "a plain ASCII decimal number (digits 0-9, a sign, a point, an exponent)"


def number(path: Path, line: int, column: str, text: str, *, allow_empty: bool = False) -> float:
    if text == "":
        if allow_empty:
            return math.nan
        raise RawDataError(f"{path}:{line}: column {column}: empty, a number is required")
    if not PLAIN_NUMBER.fullmatch(text):
        raise RawDataError(f"{path}:{line}: column {column}: {text!r} is not {plain(text)}")
    value = float(text)
    if math.isnan(value) or math.isinf(value):
        raise RawDataError(f"{path}:{line}: column {column}: {text!r} is not a finite number")
    return value
