"""Rows that cannot be measurements: a duration below zero, a key (run, setting, trial, metric)
that appears twice, an E1 instance count that does not rise from one row to the next. Reading a
run or a data set's file stops at the first such row with its file and line, as a malformed
number does, unless the data set declares the row (dataset.yaml declared_rows: why, and whether
it is kept, marked with status 'declared' so the statistics leave it out, or excluded)."""

from __future__ import annotations

import csv
from array import array
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae.analysis.tidy import DURATIONS
from c18n_ae.common import datasets
from c18n_ae.common.rawcsv import RawDataError

# E1 starts one more instance per row: its instance count must rise along a file (or a run)
RISING = {"scale": "instances"}
TREATMENTS = ("kept", "marked", "excluded")
# a data set file's tidy rows as the importer gives them
COLUMNS = ["trial", "parameter", "parameter_value", "metric", "value", "unit", "status"]


def codes(column: pd.Series) -> tuple[pd.Index, np.ndarray]:
    """(distinct values, each row's index into them): a category column's own, no copy."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.categories, column.cat.codes.to_numpy()
    found, distinct = pd.factorize(column)
    return pd.Index(distinct), found


def repeated(columns: list[pd.Series]) -> np.ndarray:
    """Rows whose values in all these columns appear on an earlier row: the columns' codes
    folded into one integer where it fits (one small hash table), else pandas' own check."""
    key, size = np.zeros(len(columns[0]), dtype=np.int64), 1
    for column in columns:
        if pd.api.types.is_integer_dtype(column.dtype) and len(column):  # a trial: its own code
            low = int(column.min())
            distinct, code = range(int(column.max()) - low + 1), column.to_numpy() - low
        else:
            distinct, code = codes(column)
        size *= len(distinct) + 1
        if size >= 2**62:
            return pd.DataFrame({i: c for i, c in enumerate(columns)}).duplicated().to_numpy()
        key = key * (len(distinct) + 1) + code + 1  # a missing value (code -1) is 0
    return pd.Series(key).duplicated(keep="first").to_numpy()


def problems(tidy: pd.DataFrame, experiment: str) -> pd.Series:
    """What is impossible about each row that is, by position in the frame's order (a row with
    nothing wrong is left out: a board's 10^7 rows carry no text each)."""
    value = np.asarray(tidy["value"], dtype=float)
    units, unit = codes(tidy["unit"])
    negative = np.isin(unit, np.flatnonzero(units.isin(DURATIONS))) & (value < 0)
    found = {i: f"a duration below zero ({value[i]:g})" for i in np.flatnonzero(negative)}
    key = [c for c in ("run", "parameter", "parameter_value", "trial") if c in tidy]
    again = np.zeros(len(tidy), dtype=bool)
    metrics, metric = codes(tidy["metric"])
    for code in range(len(metrics)):
        # a metric at a time: a key repeats only within one, and the hash table stays small
        at = np.flatnonzero(metric == code)
        again[at] = repeated([tidy[c].iloc[at] for c in key])
    again &= ~negative
    key = [*key[:-1], "metric", "trial"]
    for i in np.flatnonzero(again):
        r = tidy[key].iloc[i]
        found[i] = "a key that appears on an earlier line too (" + ", ".join(map(str, r)) + ")"
    rising = RISING.get(experiment)
    if rising:
        mine = tidy[(tidy["parameter"] == rising).to_numpy() & ~negative & ~again]
        by = ["run", "metric"] if "run" in mine else ["metric"]
        position = pd.Series(np.arange(len(tidy)), index=tidy.index)
        for _, g in mine.groupby(by, observed=True, sort=False):
            v = pd.to_numeric(g["parameter_value"], errors="coerce").to_numpy()
            at = position[g.index].to_numpy()
            for i in np.where(np.diff(v) <= 0)[0] + 1:
                found[at[i]] = f"{rising} {v[i]:g} does not rise from {v[i - 1]:g}"
    return pd.Series(found, dtype=object).sort_index()


def data_lines(path: Path) -> np.ndarray:
    """The line of each data row of a study's file, in order (as its readers count them: blank
    lines and the 'Total execution time' footer are not rows)."""
    out = array("q")  # 8 bytes a line
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
        reader = csv.reader(f)
        next(reader, None)
        for cells in reader:
            if not cells or all(not c.strip() for c in cells):
                continue
            if cells[0].startswith("Total execution time"):
                break
            out.append(reader.line_num)
    return np.frombuffer(out, dtype=np.int64) if out else np.zeros(0, dtype=np.int64)


def declared(path: Path) -> list[dict]:
    """The declared_rows of the data set holding this file, for this file."""
    path = Path(path).resolve()
    for parent in path.parents:
        if (parent / "dataset.yaml").exists():
            rel = path.relative_to(parent.resolve()).as_posix()
            rows = datasets.load(str(parent)).get("declared_rows", [])
            return [d for d in rows if d["file"] == rel]
    return []


def check_dataset_file(path: Path, rows, experiment: str):
    """A data set file's tidy rows (a frame, or tuples without source, variant and experiment),
    checked: each data row of the file gives one tidy row per part, in order. A row its
    dataset.yaml declares is kept, marked (status 'declared') or excluded; any other impossible
    row stops with its line."""
    path = Path(path)
    if path.is_dir():
        return rows  # a folder of logs: no rows of numbers
    tidy = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(rows, columns=COLUMNS)
    lines = data_lines(path)
    if not len(lines) or len(tidy) % len(lines):
        raise RawDataError(f"{path}: {len(tidy)} tidy rows do not follow {len(lines)} data rows")
    tidy = tidy.reset_index(drop=True)
    found = problems(tidy, experiment)  # by position; a part's rows follow the file's lines
    bad_lines = lines[found.index.to_numpy(dtype=np.int64) % len(lines)]
    mine = declared(path)
    treatment = {d["line"]: d["treatment"] for d in mine}
    for at, text in zip(bad_lines, found):
        if at not in treatment:
            raise RawDataError(
                f"{path}:{at}: {text}; if the row is as measured, declare it under "
                "declared_rows in the data set's dataset.yaml (file, line, why, treatment: "
                f"{', '.join(TREATMENTS)})"
            )
    flagged = set(bad_lines.tolist())
    for d in mine:
        if d["line"] not in flagged:
            raise RawDataError(
                f"{path}:{d['line']}: declared under declared_rows, but nothing on the line is "
                "impossible (a duration below zero, a repeated key, an instance count that "
                "does not rise)"
            )
    if not mine:
        return tidy
    parts = len(tidy) // len(lines)
    on = np.tile(np.array([treatment.get(x, "") for x in lines.tolist()], dtype=object), parts)
    if (on == "marked").any():
        status = tidy["status"].astype(object).to_numpy().copy()
        status[on == "marked"] = "declared"
        tidy = tidy.assign(status=status)
    return tidy[on != "excluded"].reset_index(drop=True)


def check_run(raw: Path, tidy: pd.DataFrame, rows: list[tuple[int, dict]], tidy_rows) -> None:
    """A run's raw file: any impossible row stops with its line (a run declares nothing).
    tidy_rows: the experiment's reader, asked again row by row only to find the line."""
    found = problems(tidy, str(tidy["experiment"].iloc[0]) if len(tidy) else "")
    if found.empty:
        return
    i = found.index[0]
    found = found.reset_index(drop=True)
    want = tidy.iloc[i]
    seen = 0
    for line, row in rows:
        if "run" in row and "run" in tidy and str(want["run"]) != row["run"].strip():
            continue
        for t in tidy_rows(raw, [(line, row)]):
            if (t[0], t[3]) == (want["trial"], want["metric"]) and str(t[2]) == str(
                want["parameter_value"]
            ):
                seen += 1
                if seen == 1 + found.iloc[0].startswith("a key"):
                    raise RawDataError(f"{raw}:{line}: {found.iloc[0]}")
    raise RawDataError(f"{raw}: {found.iloc[0]}")
