"""The tidy table every experiment is collected into (one row per trial and metric): its columns,
how its frames are joined, its schema check and the rows it refuses. The readers of raw runs
(collect) and of the study's files (imports) both build it."""

from __future__ import annotations

import numpy as np
import pandas as pd

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.rawcsv import RawDataError

TIDY_COLUMNS = [
    "source",
    "variant",
    "experiment",
    "run",  # which separate run (process, boot) of the variant measured the row: 1, 2, ...
    "trial",
    "parameter",
    "parameter_value",
    "metric",
    "value",
    "unit",
    "status",
]
RUN = "run"  # also the raw column of a run's index (c18n_ae.running.unit writes it last)
# Columns of few distinct values, held as categories in memory (one byte a row, not a pointer)
CATEGORICAL = ("source", "variant", "experiment", "parameter", "metric", "unit", "status")
UNIT_SUFFIX = {
    "ns": "_ns",
    "GB/s": "_GBps",
    "MiB": "_mib",
    "MB": "_mb",
    "ms": "_ms",
    "us": "_us",
    "bytes": "_bytes",
    "count": "",
    "flag": "",
    "ratio": "",
    "ops/s": "_ops_per_s",
    "packets/s": "_packets_per_s",
}
DURATIONS = ("ns", "us", "ms")  # units of a time a region took: never below zero


def constant(value: str, n: int) -> pd.Categorical:
    """A column of one repeated text value, at one byte a row."""
    return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), [value])


def concat_tidy(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Tidy frames joined, their text columns as categories (c18n_ae.common.frames)."""
    if not frames:
        return pd.DataFrame(columns=TIDY_COLUMNS)
    first = frames[0]
    frames = [f.astype({c: "category" for c in CATEGORICAL if c in f}) for f in frames]
    if len(frames) == 1:  # nothing to join: no copy of a board's table
        return frames[0]
    return concat_frames(frames)[list(first.columns)]


def _pairs(a: pd.Series, b: pd.Series) -> list[tuple]:
    """The distinct (a, b) pairs; of two category columns from their codes, without a copy of
    the two columns (a board's table has 10^7 rows)."""
    if not all(isinstance(x.dtype, pd.CategoricalDtype) for x in (a, b)):
        return list(pd.DataFrame({"a": a, "b": b}).drop_duplicates().itertuples(index=False))
    ca, cb = a.cat.categories, b.cat.categories
    codes_a, codes_b = a.cat.codes.to_numpy(), b.cat.codes.to_numpy()
    out = []
    for i, name in enumerate(ca):  # a metric at a time: a mask and its units, a byte a row
        seen = np.flatnonzero(np.bincount(codes_b[codes_a == i] + 1, minlength=1))
        out += [(name, cb[j - 1]) for j in seen if j > 0]
    return out


def check_tidy(df: pd.DataFrame, source: str = "tidy table") -> pd.DataFrame:
    """The tidy-table schema: fixed columns, numeric values, a unit on every row that the metric
    name states."""
    if list(df.columns) != TIDY_COLUMNS:
        raise RawDataError(f"{source}: columns {list(df.columns)} differ from {TIDY_COLUMNS}")
    if df["parameter_value"].isna().any():
        raise RawDataError(f"{source}: a row has no parameter value")
    for col in ("run", "trial", "value"):  # parameter_value may be a category (a workload, a role)
        if not pd.api.types.is_numeric_dtype(df[col]):
            raise RawDataError(f"{source}: column {col} must be numeric")
    if df["unit"].isna().any() or (df["unit"] == "").any():
        raise RawDataError(f"{source}: a row has no unit")
    for metric, unit in _pairs(df["metric"], df["unit"]):
        suffix = UNIT_SUFFIX.get(unit)
        if suffix is None or not metric.endswith(suffix):
            raise RawDataError(f"{source}: metric {metric!r} does not name its unit {unit!r}")
    if ((df["status"] == "ok") & df["value"].isna()).any():
        raise RawDataError(f"{source}: a successful trial has no value")
    return df
