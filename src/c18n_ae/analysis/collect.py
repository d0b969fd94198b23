"""Collects raw runs into one tidy long table per experiment (one row per trial and metric)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis import imports, impossible
from c18n_ae.analysis.tidy import RUN, TIDY_COLUMNS, check_tidy, concat_tidy, constant
from c18n_ae.common import datasets, schemas
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.rawcsv import RawDataError, number, read_rows


def tidy_run(raw: Path, target: str, variant: str, experiment: str) -> pd.DataFrame:
    e = exp.get(experiment)
    rows = read_rows(raw)  # the columns the program wrote (its --describe lists them)
    if not rows:
        raise RawDataError(f"{raw}: a header and no rows of data")
    tidy = []
    for run, part in runs_of(raw, rows).items():  # each run read on its own: trials restart
        try:
            tidy += [(target, variant, experiment, run, *r) for r in e.tidy_rows(raw, part)]
        except KeyError as missing:
            if part and missing.args[0] in part[0][1]:
                raise  # not a column the file lacks: a fault of the reader itself
            raise RawDataError(f"{raw}:1: header has no column {missing}") from None
    tidy = pd.DataFrame.from_records(tidy, columns=TIDY_COLUMNS)
    impossible.check_run(raw, tidy, rows, e.tidy_rows)  # a negative time, a repeated key, ...
    return tidy


def run_of(raw: Path) -> tuple[str, str]:
    """(target, variant) of a run, from the meta.json beside its raw.csv, checked."""
    path = raw.parent / "meta.json"
    if not path.is_file():
        raise RawDataError(f"{path}: file not found")
    if path.stat().st_size == 0:
        raise RawDataError(f"{path}: empty file")
    try:
        meta = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise RawDataError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise RawDataError(f"{path}:{e.lineno}: not valid JSON ({e.msg})") from None
    if not isinstance(meta, dict):
        raise RawDataError(f"{path}: expected a JSON object")
    for key in ("target", "variant"):
        if not schemas.is_name(meta.get(key)):
            raise RawDataError(f"{path}: {key}: {meta.get(key)!r} is not a name")
    return meta["target"], meta["variant"]


def runs_of(raw: Path, rows: list[tuple[int, dict]]) -> dict[int, list[tuple[int, dict]]]:
    """The rows of each run, by the raw column `run` (an integer from 1, the unit runner's last
    column); a file without it is one run, run 1."""
    if not rows or RUN not in rows[0][1]:
        return {1: rows}
    out: dict[int, list[tuple[int, dict]]] = {}
    for line, row in rows:
        run = number(raw, line, RUN, row[RUN])
        if run < 1 or run != int(run):
            raise RawDataError(f"{raw}:{line}: column {RUN}: {row[RUN]!r} is not a run >= 1")
        out.setdefault(int(run), []).append((line, row))
    return dict(sorted(out.items()))


def tidy_dataset_file(path: Path, experiment: str) -> pd.DataFrame:
    """A file of a shipped data set (datasets/<name>/): target <name>, variant from its
    dataset.yaml."""
    target, entry = datasets.file_entry(path)
    variant = entry["variant"]
    found, rows, meta = imports.import_file(path, entry.get("layout"))
    if found != experiment:
        raise RawDataError(f"{path}: holds {found} data, not {experiment}")
    rows = impossible.check_dataset_file(path, rows, experiment)  # or as dataset.yaml declares
    how = "declared" if entry.get("layout") else "recognised from its header"
    print(
        f"data set {target}, variant {variant}: {path}: layout {meta['layout']} ({how}): "
        f"{len(rows)} tidy rows, units {meta['units']}"
        + (f"; footer kept: {meta['footer']}" if meta["footer"] else ""),
        file=sys.stderr,
    )
    if isinstance(rows, pd.DataFrame):  # a clean file, read column-wise
        n = len(rows)
        return rows.assign(
            source=constant(target, n),
            variant=constant(variant, n),
            experiment=constant(experiment, n),
            run=np.ones(n, dtype=np.int8),  # a data set is one run per variant
        )[TIDY_COLUMNS]
    return pd.DataFrame.from_records(
        [(target, variant, experiment, 1, *r) for r in rows], columns=TIDY_COLUMNS
    )


def collect(
    experiment: str, runs: list[tuple[str, str, Path]], dataset_files: list[Path] = ()
) -> pd.DataFrame:
    frames = [tidy_run(raw, t, v, experiment) for t, v, raw in runs]
    frames += [tidy_dataset_file(p, experiment) for p in dataset_files]
    return check_tidy(concat_tidy(frames), f"collected {experiment}")


def collect_runs(experiment: str, raws: list[Path], dataset_files: list[Path]) -> pd.DataFrame:
    """collect() for the command line: each run named by the meta.json beside its raw.csv; bad
    input stops with its message."""
    try:
        runs = [(*run_of(raw), raw) for raw in raws]
        return collect(experiment, runs, dataset_files)
    except RawDataError as e:
        raise SystemExit(f"error: {e}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--experiment", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument(
        "--dataset-file",
        action="append",
        default=[],
        type=Path,
        help="a file of a data set, datasets/<name>/..., in one of the original study's layouts",
    )
    ap.add_argument(
        "raw", nargs="*", type=Path, help="results/<target>/<variant>/<experiment>/raw.csv"
    )
    a = ap.parse_args(argv)
    write_text_atomic(a.out, collect_runs(a.experiment, a.raw, a.dataset_file).to_csv(index=False))


if __name__ == "__main__":
    main()
