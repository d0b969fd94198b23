"""The original study's raw CSV layouts, as the experiments' modules declare them: each column a
role with the synonyms of its name and the units it may be in, and how a file's columns become
tidy rows. c18n_ae.analysis.imports recognises a layout by meaning and reads files with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from c18n_ae.common.lazy import np, pd

NS = {"ms": 1e6, "us": 1e3, "µs": 1e3, "ns": 1.0, "s": 1e9}
TIMES = tuple(NS)  # the units a time column may state
TRIAL = ("trialnum", "trialnumber", "trial", "testnumber", "testnum", "test", "testno", "run")


class LayoutCheck(Exception):
    """A value a layout does not allow: (row index, column role, what is allowed)."""


@dataclass(frozen=True)
class Layout:
    name: str  # as a data set's dataset.yaml declares it
    # role -> (synonyms of the column's name, units it may state (None: any), shown as)
    columns: dict
    rows: Callable | None = None  # Columns -> [(trial, parameter, value, metric, values, unit,
    # status)], each a column (an array) or one value for all rows
    recognised: bool = True  # told apart by its header (False: only where declared)
    text: tuple[str, ...] = ()  # roles read as text, not numbers
    failure: tuple[str, str] | None = None  # (a cell's text, its status): a row that failed
    folder: Callable | None = None  # reads a folder instead: path -> (tidy rows, metadata)

    def expected(self) -> str:
        return ", ".join(shown for _, _, shown in self.columns.values())


@dataclass
class Columns:
    """A file's columns by role: numbers, times in ns (from the unit each header states), text,
    and each row's status (ok, or a failure the layout names)."""

    frame: pd.DataFrame  # one column per role
    units: dict  # role -> unit as the header states it
    status: np.ndarray

    def num(self, role: str) -> np.ndarray:
        return self.frame[role].to_numpy(dtype=float)

    def ns(self, role: str) -> np.ndarray:
        return self.num(role) * NS[self.units[role]]

    def text(self, role: str) -> pd.Series:
        return self.frame[role].astype(str).str.strip()

    def check(self, ok, role: str, allowed: str) -> None:
        ok = np.asarray(ok, dtype=bool)
        if not ok.all():
            raise LayoutCheck(int(np.argmin(ok)), role, allowed)
