"""The Python twin of bench.h for experiments driven from Python: rows go to PATH.partial,
flushed one by one, and the file is renamed into place only when the run is complete; progress
lines have the same shape as the C programs' (trial i of N, elapsed, estimate)."""

from __future__ import annotations

import csv
import os
import sys
import time
from pathlib import Path


class RowWriter:
    def __init__(self, path: Path, columns: tuple[str, ...], name: str, total: int):
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.columns, self.name, self.total, self.done = columns, name, total, 0
        self.start = time.monotonic()
        self.file = open(self.partial, "w", newline="")
        self.writer = csv.DictWriter(self.file, fieldnames=columns)
        self.writer.writeheader()
        self.file.flush()

    def row(self, **values) -> None:
        self.writer.writerow({c: values.get(c, "") for c in self.columns})
        self.file.flush()
        os.fsync(self.file.fileno())

    def progress(self, done: int | None = None) -> None:
        self.done = self.done + 1 if done is None else done
        elapsed = time.monotonic() - self.start
        left = elapsed * (self.total - self.done) / self.done if self.done else 0.0
        print(
            f"progress: {self.name} trial {self.done} of {self.total}, elapsed {elapsed:.1f} s, "
            f"estimated {left:.1f} s left",
            file=sys.stderr,
            flush=True,
        )

    def commit(self) -> None:
        self.file.close()
        os.replace(self.partial, self.path)

    def abandon(self) -> None:
        """Keeps the .partial file (rows measured so far) for inspection."""
        if not self.file.closed:
            self.file.close()

    def __enter__(self) -> "RowWriter":
        return self

    def __exit__(self, exc_type, *_) -> bool:
        """Complete: rename into place. Failed or interrupted: keep the rows in .partial."""
        if exc_type is None:
            self.commit()
        else:
            self.abandon()
        return False
