"""The experiment registry: what each experiment builds, runs, collects and reports, the programs
and their commands, and the drivers. May import common only.

Each experiment is one module in this package exposing EXPERIMENT; adding one means a module
here, its programs in src/benchmarks/ (listed in c18n_ae.experiments.programs) and its schema
properties."""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

NAMES = (
    "scale",
    "memory",
    "cpu",
    "pipe",
    "trust",
    "isolation",
    "packet",
    "ipc",
    "alloc",
)  # order of sections in the paper


@dataclass(frozen=True)
class Headline:
    """A metric of the paper's headline table ("What a compartment costs"), at the experiment's
    largest parameter value. crosses: the library a measured call goes into (under c18n, a
    compartment boundary), or "" when the timed work stays inside the program's own code."""

    metric: str
    label: str
    crosses: str = ""


@dataclass(frozen=True)
class Experiment:
    name: str
    title: str
    programs: tuple[str, ...]  # built per target and variant (see c18n_ae.experiments.programs)
    raw_columns: tuple[str, ...]
    trials: Callable[[dict], int]  # params -> trials the run will make (for progress and checks)
    # (raw path, [(line, row)]) -> [(trial, parameter, value, metric, value, unit, status)]
    tidy_rows: Callable
    table: Callable  # (summary, tidy, references, comparisons) -> booktabs tabular
    macros: Callable  # (summary, references) -> \newcommand lines
    preview: Callable  # (summary, pdf path, png path) -> None
    pgfplots: (
        Callable  # (summary, series csv path, path of that csv as LaTeX sees it) -> tikzpicture
    )
    args: Callable[[dict], list[str]] | None = (
        None  # program experiments: params -> arguments before --out
    )
    driver: str | None = None  # driver experiments: module run as python -m, writing --out itself
    derive: Callable | None = None  # tidy -> tidy with derived per-trial metrics
    headline: tuple[Headline, ...] = ()  # the metrics of the headline table, in its order

    def command(
        self, params: dict, bin_dir: Path, recipe: dict, out: Path, python: str | None = None
    ) -> list[str]:
        """The command the runner starts; it writes out.partial row by row, then renames it to
        out."""
        if self.driver:
            import json

            return [
                python or sys.executable,
                "-m",
                self.driver,
                "--bin-dir",
                str(bin_dir),
                "--recipe",
                json.dumps(recipe),
                "--params",
                json.dumps(params),
                "--out",
                str(out),
            ]
        return [
            *recipe.get("launcher", []),
            str(bin_dir / self.programs[0]),
            *self.args(params),
            "--out",
            str(out),
        ]


def get(name: str) -> Experiment:
    if name not in NAMES:
        raise KeyError(f"unknown experiment {name!r}; known: {', '.join(NAMES)}")
    return importlib.import_module(f"{__name__}.{name}").EXPERIMENT
