"""Rows that cannot be measurements: a duration below zero, a key (run, setting, trial, metric)
that appears twice, an E1 instance count that does not rise from one row to the next. Reading a
run or a data set's file stops at the first such row with its file and line, as a malformed
number does, unless the data set declares the row (dataset.yaml declared_rows: why, and whether
it is kept, marked with status 'declared' so the statistics leave it out, or excluded)."""

from __future__ import annotations

import csv
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


def problems(tidy: pd.DataFrame, experiment: str) -> pd.Series:
    """Per tidy row, what is impossible about it ('' when nothing), in the frame's order."""
    out = pd.Series("", index=tidy.index, dtype=object)
    value = pd.to_numeric(tidy["value"], errors="coerce")
    negative = tidy["unit"].astype(str).isin(DURATIONS) & (value < 0)
    out[negative] = [f"a duration below zero ({x:g})" for x in value[negative]]
    key = [c for c in ("run", "parameter", "parameter_value", "metric", "trial") if c in tidy]
    again = tidy.duplicated(key, keep="first") & (out == "")
    out[again] = [
        "a key that appears on an earlier line too (" + ", ".join(map(str, r)) + ")"
        for r in tidy.loc[again, key].itertuples(index=False)
    ]
    rising = RISING.get(experiment)
    if rising:
        mine = tidy[(tidy["parameter"] == rising) & (out == "")]
        by = ["run", "metric"] if "run" in mine else ["metric"]
        for _, g in mine.groupby(by, observed=True, sort=False):
            v = pd.to_numeric(g["parameter_value"], errors="coerce").to_numpy()
            bad = np.where(np.diff(v) <= 0)[0] + 1
            out[g.index[bad]] = [f"{rising} {v[i]:g} does not rise from {v[i - 1]:g}" for i in bad]
    return out


def data_lines(path: Path) -> list[int]:
    """The line of each data row of a study's file, in order (as its readers count them: blank
    lines and the 'Total execution time' footer are not rows)."""
    out = []
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
        reader = csv.reader(f)
        next(reader, None)
        for cells in reader:
            if not cells or all(not c.strip() for c in cells):
                continue
            if cells[0].startswith("Total execution time"):
                break
            out.append(reader.line_num)
    return out


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
    lines = np.asarray(data_lines(path))
    if not len(lines) or len(tidy) % len(lines):
        raise RawDataError(f"{path}: {len(tidy)} tidy rows do not follow {len(lines)} data rows")
    tidy = tidy.reset_index(drop=True)
    line = lines[np.arange(len(tidy)) % len(lines)]
    found = problems(tidy, experiment).to_numpy()
    mine = declared(path)
    treatment = {d["line"]: d["treatment"] for d in mine}
    bad = found != ""
    for i in np.where(bad & ~np.isin(line, list(treatment)))[0][:1]:
        raise RawDataError(
            f"{path}:{line[i]}: {found[i]}; if the row is as measured, declare it under "
            "declared_rows in the data set's dataset.yaml (file, line, why, treatment: "
            f"{', '.join(TREATMENTS)})"
        )
    flagged = set(line[bad].tolist())
    for d in mine:
        if d["line"] not in flagged:
            raise RawDataError(
                f"{path}:{d['line']}: declared under declared_rows, but nothing on the line is "
                "impossible (a duration below zero, a repeated key, an instance count that "
                "does not rise)"
            )
    on = np.array([treatment.get(x, "") for x in line.tolist()], dtype=object)
    if (on == "marked").any():
        status = tidy["status"].astype(object).to_numpy().copy()
        status[on == "marked"] = "declared"
        tidy = tidy.assign(status=status)
    return tidy[on != "excluded"].reset_index(drop=True)


def check_run(raw: Path, tidy: pd.DataFrame, rows: list[tuple[int, dict]], tidy_rows) -> None:
    """A run's raw file: any impossible row stops with its line (a run declares nothing).
    tidy_rows: the experiment's reader, asked again row by row only to find the line."""
    found = problems(tidy, str(tidy["experiment"].iloc[0]) if len(tidy) else "")
    bad = np.where(found != "")[0]
    if not len(bad):
        return
    i = bad[0]
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
                if seen == 1 + found.iloc[i].startswith("a key"):
                    raise RawDataError(f"{raw}:{line}: {found.iloc[i]}")
    raise RawDataError(f"{raw}: {found.iloc[i]}")
