"""What an experiment's table and figure are, as data: the experiment's module makes them from its
results (Inputs), and c18n_ae.report renders them once (booktabs LaTeX; pgfplots source and a
matplotlib preview from the same Figure)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from c18n_ae.common.latex import fmt
from c18n_ae.common.lazy import pd


@dataclass(frozen=True)
class Inputs:
    """Everything an experiment's table, figure and macros may read, loaded by the job from the
    paths its rule names."""

    summary: pd.DataFrame  # with the column invalid (a data set's measurement that is not valid)
    tidy: pd.DataFrame | None = None
    comparisons: pd.DataFrame | None = None
    references: dict = field(default_factory=dict)  # target -> its reference variant
    published: dict = field(default_factory=dict)  # a published study's name -> its table
    # (source, variant) -> what a board check saw of that variant's runs (meta.json
    # checks.board.variants: compartments, counters, ...); empty off boards
    boards: dict = field(default_factory=dict)

    @property
    def valid(self) -> pd.DataFrame:
        """The summary without invalid measurements: figures never draw them."""
        return self.summary[~self.summary.invalid].reset_index(drop=True)


@dataclass(frozen=True)
class Column:
    label: str  # LaTeX
    unit: str | None = None  # a key of UNIT_TEX, printed after the label
    align: str = "r"


@dataclass(frozen=True)
class Table:
    """A booktabs table: its columns, and its rows in groups (a rule between groups); each row is
    one cell of LaTeX per column."""

    columns: tuple[Column, ...]
    groups: list[list[list[str]]]
    caption: str = ""  # the appendix's caption (LaTeX)
    size: str = "small"  # its font size


@dataclass(frozen=True)
class Series:
    label: str
    x: list  # numbers (lines) or category names (bars)
    y: list
    minus: list | None = None  # the lower half of each error bar
    plus: list | None = None  # the upper half
    style: str = ""  # "dashed" or "" (solid)


@dataclass(frozen=True)
class Panel:
    title: str  # the target or data set (plain text)
    series: list[Series]


@dataclass(frozen=True)
class Figure:
    """One figure of the paper: bars (x are categories) or lines, one panel per target or data
    set; labels in plain text with units."""

    kind: str  # "bars" or "lines"
    title: str  # the preview's title
    panels: list[Panel]
    ylabel: str
    xlabel: str = ""
    ylog: bool = False
    xlog_base: int | None = None
    unit_line: bool = False  # a black grid line at y = 1 (figures of ratios)
    slanted: bool = False  # long category names: the bars lie down, each label left of its bars


def pair(label: str, value: float, unit: str) -> dict:
    """A published figure of a Related study: its label, value and unit (the metric, parameter and
    parameter value of ours that measure the same thing are added with |)."""
    return {"label": label, "value": value, "unit": unit}


@dataclass(frozen=True)
class Related:
    """A published study set beside an experiment in the appendix: its title, the pairs of
    a published figure and the metric and parameter value of ours that measure the same thing
    (published table -> [{label, value, unit, metric, parameter, at}]), and its hardware as far
    as the transcription names it."""

    title: str
    pairs: Callable
    hardware: str  # what the transcription (published/TRANSCRIPTION.md) says of its machine


@dataclass(frozen=True)
class StudyRows:
    """How the original study's printed rows of an experiment (published/
    morello_c18n_2024.csv) read into our metric names and units, for the table beside ours."""

    printed_unit: str  # the unit the study printed
    read_unit: str  # the unit its values make sense in (said in every table that shows them)
    metric: Callable  # a printed row -> (our metric, our parameter value)
    shown: Callable  # a row as read -> whether the table sets it beside ours
    ours_at_parameter: bool = False  # our mean at the printed parameter value (not over all)
    single_trials: bool = False  # the study printed single trials: a data set's same trial
    macros: Callable | None = None  # its rows as read -> \newcommand lines the prose quotes


def if_enough_trials(n: int, enough: str, few: str) -> str:
    """LaTeX that prints `enough` where n reaches the claims' minimum of trials per side
    (\\ClaimMinTrials, config/claims.yaml, defined by the macros rule) and `few` below it: a
    table or sentence states no comparison from fewer trials than a claim would need."""
    return rf"\ifnum{int(n)}<\ClaimMinTrials\relax {few}\else {enough}\fi{{}}"


def three_figures(x: float) -> str:
    """At most three significant figures (13101242 -> 13100000): one run's mean of a rate, quoted
    beside published figures, claims no more precision than that."""
    if x is None or not math.isfinite(x) or x == 0:
        return fmt(x)
    return fmt(round(x, 2 - math.floor(math.log10(abs(x)))))
