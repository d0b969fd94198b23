"""Strict reading of raw benchmark CSV files: every problem names the file and line."""

from __future__ import annotations

import csv
import math
from pathlib import Path

STARTED = "started_unix_ns"  # first column of every benchmark row: when its unit started


class RawDataError(ValueError):
    pass


def read_rows(path: Path, expected_header: tuple[str, ...] | None = None) -> list[tuple[int, dict]]:
    """Returns (line number, row) pairs; every row must be full. expected_header: the header must
    match it exactly; None: the file's own header, as the program that wrote it describes it."""
    path = Path(path)
    if not path.exists():
        raise RawDataError(f"{path}: file not found")
    with open(path, newline="") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            raise RawDataError(
                f"{path}: empty file, expected header {','.join(expected_header)}"
            ) from None
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
            rows.append((line, dict(zip(expected_header, (c.strip() for c in cells)))))
    return rows


def number(path: Path, line: int, column: str, text: str, *, allow_empty: bool = False) -> float:
    if text == "":
        if allow_empty:
            return math.nan
        raise RawDataError(f"{path}:{line}: column {column}: empty, a number is required")
    try:
        value = float(text)
    except ValueError:
        raise RawDataError(f"{path}:{line}: column {column}: {text!r} is not a number") from None
    if math.isnan(value) or math.isinf(value):
        raise RawDataError(f"{path}:{line}: column {column}: {text!r} is not a finite number")
    return value
