"""The experiment registry: what each experiment builds, runs, collects and reports, the programs
and their commands, and the drivers. May import common only. Importing this package needs the
standard library only: the drivers below it run on boards whose Python has nothing else.

Each experiment is one module in this package exposing EXPERIMENT (see README, "Adding an
experiment"); the registry finds them, in the order of their E-numbers (the paper's order)."""

from __future__ import annotations

import dataclasses
import difflib
import fnmatch
import functools
import importlib
import pkgutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # their modules need more than the standard library (see the docstring)
    from c18n_ae.experiments.layouts import Layout
    from c18n_ae.experiments.outputs import Related, StudyRows
    from c18n_ae.experiments.parameters import Param
    from c18n_ae.experiments.programs import Program

# The parts of the paper that hold experiments' sections (paper/main.tex), in its order: what a
# compartment costs, what compartments at scale and in isolation show, and the experiments beside
# other isolation mechanisms.
PARTS = ("cost", "compartments", "beside")


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
    """One experiment, declared as EXPERIMENT in its own module of this package; the registry
    attaches the module's functions named as HOOKS to the fields left None. The smallest complete
    one is templates/experiment/ (README, "Adding an experiment"). The six fields without a
    default are required, and so are tidy_rows, table, figure and macros (module functions)."""

    name: str  # its config key, results/ folder and rule name: lower case, unique
    number: int  # E-number, 1 to N without gaps or repeats: the order of the paper's sections
    title: str  # its section's and table's heading ("E11 Clock reads")
    measures: str  # what it measures, for the README's list of experiments (Markdown)
    # the programs built per target and variant (src/benchmarks/); the first is the one started
    programs: tuple[Program, ...]
    # settings -> the trials one run makes (progress bars, the plan's time limit, checks)
    trials: Callable[[dict], int]
    # the settings, each with the full and quick profiles' values, its range and program option.
    # time_limit(full_s, quick_s) is one of them (timeout_s, never passed to the program): the
    # seconds one run's worth of trials may take in each profile (time_limit(3600, 120): an hour
    # on the full profile, two minutes on the quick one); the plan scales it to all runs, and a
    # run past it stops with the rows it has (kept; the next run resumes from them)
    params: tuple[Param, ...] = ()
    driver: str | None = None  # driver experiments: module run as python -m, writing --out itself
    # driver experiments: the arguments that start its first program as the driver does and keep
    # it alive until ended, so that a board check can see its compartments (running.board_check)
    probe_args: tuple[str, ...] = ()
    # The module's functions of these names (HOOKS), which the registry attaches:
    # (raw path, [(line, row)]) -> [(trial, parameter, value, metric, value, unit, status)]
    tidy_rows: Callable | None = None
    table: Callable | None = None  # Inputs -> outputs.Table (rendered by report.render_table)
    figure: Callable | None = None  # Inputs -> outputs.Figure (rendered by report.render_figure)
    macros: Callable | None = None  # (summary of this package's runs, references) -> \newcommand
    # (tidy, consume=False) -> tidy with derived per-trial metrics (optional); consume: the table
    # is the caller's last use of it, its columns dropped as they are joined (a board's table
    # is not held beside the joined one)
    derive: Callable | None = None
    # its table or figure reads the tidy table (outputs.Inputs.tidy, else None): the report job
    # reads a board's 4 x 10^7 tidy rows only where they are shown
    reads_tidy: bool = False
    headline: tuple[Headline, ...] = ()  # the metrics of the headline table, in its order
    part: str = "cost"  # where its section sits: one of PARTS
    claims: tuple[dict, ...] = ()  # its own claims, as in config/claims.yaml (no experiment key)
    # (source, summary, verdicts) -> sentences of \Findings<Name>: what a data set or board says
    findings: Callable | None = None  # (optional)
    # the same, for its appendix section only (\Findings<Name>Detail): numbers the body leaves out
    details: Callable | None = None
    published: tuple[str, ...] = ()  # published/<name>.csv its table or figure reads
    study: StudyRows | None = None  # how the original study's printed rows read into ours
    related: Related | None = None  # the first published table, set beside ours in the appendix
    layouts: tuple[Layout, ...] = ()  # the original study's raw file layouts it reads
    # metrics (names or fnmatch patterns, "*_call_ns") whose value is a clock interval, or a sum
    # of them, divided by the calls it timed: a mean over many calls, on a grid finer than the
    # clock's step by design, so the analysis does not warn that its grid is finer
    # (analysis.stats.grid_steps); its resolution stays the clock's step
    means_over_calls: tuple[str, ...] = ()

    def mean_over_calls(self, metric: str) -> bool:
        return any(fnmatch.fnmatchcase(metric, p) for p in self.means_over_calls)

    def published_files(self) -> list[str]:
        """The published tables its table or figure reads, relative to the project."""
        return [f"published/{name}.csv" for name in self.published]

    def command(
        self, params: dict, bin_dir: Path, recipe: dict, out: Path, python: str | None = None
    ) -> list[str]:
        """The command the runner starts; it writes out.partial row by row, then renames it to
        out."""
        from c18n_ae.experiments.parameters import arguments

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
            str(bin_dir / self.programs[0].output),
            *arguments(self.params, params),
            "--out",
            str(out),
        ]


HOOKS = ("tidy_rows", "derive", "table", "figure", "macros", "findings")


def misspelt_hooks(module) -> list[str]:
    """Functions a module defines whose names are close to a hook's but not one: a misspelt hook
    would otherwise be silently ignored (the experiment would lose its table or figure)."""
    own = [
        n
        for n, f in vars(module).items()
        if callable(f) and f.__module__ == module.__name__ and n not in HOOKS and n[0] != "_"
    ]
    found = []
    for name in own:
        close = difflib.get_close_matches(name, HOOKS, n=1, cutoff=0.86)
        if close:
            found.append(f"{module.__name__}.{name}: not a hook; did you mean {close[0]}?")
    return found


@functools.cache
def registry() -> dict[str, Experiment]:
    """name -> Experiment, every module of this package that declares one, by E-number, with the
    module's functions named as HOOKS attached."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        e = getattr(module, "EXPERIMENT", None)
        if isinstance(e, Experiment):
            if wrong := misspelt_hooks(module):
                raise ImportError("; ".join(wrong))
            hooks = {h: getattr(module, h, None) for h in HOOKS if getattr(e, h) is None}
            e = dataclasses.replace(e, **{h: f for h, f in hooks.items() if f})
            found.append((module.__name__, e))
    found.sort(key=lambda m_e: m_e[1].number)
    if wrong := numbering(found):
        raise ImportError(wrong)
    return {e.name: e for _, e in found}


def numbering(found: list[tuple[str, Experiment]]) -> str:
    """What is wrong with the E-numbers of (module, experiment) sorted by number (they run 1 to
    N, each once: the paper's order), naming the modules; "" when nothing is."""
    where: dict[int, list[str]] = {}
    for module, e in found:
        where.setdefault(e.number, []).append(f"{module} (E{e.number})")
    for number, modules in where.items():
        if len(modules) > 1:
            return f"E{number} is declared twice: by {' and by '.join(modules)}"
    for expected, (module, e) in enumerate(found, 1):
        if e.number != expected:
            return (
                f"{module} declares E{e.number} but no experiment declares E{expected}: E-numbers "
                f"run from 1 to {len(found)} without gaps (renumber it E{expected})"
            )
    return ""


def names() -> tuple[str, ...]:
    return tuple(registry())


def get(name: str) -> Experiment:
    if name not in registry():
        raise KeyError(f"unknown experiment {name!r}; known: {', '.join(registry())}")
    return registry()[name]


def resolved_config(config: dict) -> dict:
    """A config checked against the schema, each experiment's settings filled in."""
    from c18n_ae.experiments import parameters

    return parameters.resolved(config, registry())


def load_config(*paths: Path) -> dict:
    from c18n_ae.experiments import parameters

    return parameters.load(registry(), *paths)


def config_from_arguments(a) -> dict | None:
    """The config named by --config FILE... (common.config.add_arguments), or None."""
    from c18n_ae.common.config import ConfigError

    if not a.config:
        return None
    try:
        return load_config(*a.config)
    except ConfigError as e:
        raise SystemExit(f"error: {e}") from None
