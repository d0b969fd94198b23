"""Small file helpers: every output is written whole or not at all."""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path


def write_text_atomic(path: Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_csv_atomic(path: Path, frame) -> None:
    """A DataFrame as CSV, written to the file as pandas makes it (a board's table is not first
    made into one string in memory)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            frame.to_csv(f, index=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def rows_csv(rows: list[dict], columns: list[str] | None = None) -> str:
    """Rows of text (dicts) as CSV, as pandas' to_csv writes them (quoted where needed, \n line
    ends), for a job that needs no pandas (a quarter of a second to import); columns: default the
    first row's keys."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns or (list(rows[0]) if rows else []), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def write_json_atomic(path: Path, data) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
