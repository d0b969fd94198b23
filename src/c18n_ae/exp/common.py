"""Helpers the experiment modules share: wide raw rows to tidy rows, and summary look-ups."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from ..latex import fmt
from ..rawcsv import RawDataError, number

NS_PER = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
UNIT_TEX = {"ns": r"\si{\nano\second}", "us": r"\si{\micro\second}", "ms": r"\si{\milli\second}",
            "s": r"\si{\second}", "GB/s": r"\si{\giga\byte\per\second}", "MB": r"\si{\mega\byte}",
            "MiB": r"\si{\mebi\byte}", "B": r"\si{\byte}", "ops/s": r"ops/\si{\second}", "%": r"\si{\percent}"}


def wide_tidy(raw: Path, rows, parameter: str, metrics: dict[str, str], statuses=("ok",)):
    """One tidy row per metric of each raw row; the swept parameter is a raw column."""
    out = []
    for line, row in rows:
        status = row.get("status", "ok")
        if status not in statuses:
            raise RawDataError(f"{raw}:{line}: column status: unexpected {status!r} (allowed: {', '.join(statuses)})")
        param = number(raw, line, parameter, row[parameter])
        trial = int(number(raw, line, "trial", row["trial"]))
        for metric, unit in metrics.items():
            value = number(raw, line, metric, row[metric], allow_empty=status != "ok")
            out.append((trial, parameter, param, metric, value, unit, status))
    return out


def pick(summary: pd.DataFrame, target, variant, metric, parameter_value=None) -> pd.Series | None:
    s = summary[(summary.target == target) & (summary.variant == variant) & (summary.metric == metric)]
    if parameter_value is not None:
        s = s[s.parameter_value == parameter_value]
    return s.iloc[0] if len(s) else None


def stat(summary, target, variant, metric, parameter_value=None, field="mean") -> float:
    row = pick(summary, target, variant, metric, parameter_value)
    return float(row[field]) if row is not None else math.nan


def cell(summary, target, variant, metric, parameter_value=None, scale=1.0, with_sd=True) -> str:
    """'mean ± sd' in the given scale, 'not run' or 'failed' (no successful trial)."""
    row = pick(summary, target, variant, metric, parameter_value)
    if row is None:
        return "not run"
    if row["n"] == 0:
        return "failed"
    text = fmt(row["mean"] / scale)
    if with_sd and pd.notna(row["sd"]):
        text += r" $\pm$ " + fmt(row["sd"] / scale)
    return text


def series(summary: pd.DataFrame) -> list[tuple[str, str]]:
    return list(summary[["target", "variant"]].drop_duplicates().itertuples(index=False))


def ratio(summary, target, variant, reference, metric, parameter_value=None) -> float:
    return stat(summary, target, variant, metric, parameter_value) / stat(summary, target, reference, metric, parameter_value)
