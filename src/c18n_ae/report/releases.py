"""What changed between releases: each headline contrast (a variant against its data set's
reference) on every release that has it, and the ratio of a release's contrast to the first
release's, with intervals. Read from the comparisons (rows of kind "release" and "variant"); a
third data set joins every row and column without code."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.comparisons import lookup
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import (
    WIDE_FACTOR,
    comparison_text,
    escape,
    listed,
    newcommand,
    ranged_text,
    ratio_point,
    ratio_text,
    resolution_digits,
    timer_range,
)
from c18n_ae.common.names import from_config, release_labels, short_release
from c18n_ae.report.headline import DAGGER, MEDIAN_WORDS, largest_setting, rests_on_few, scoped
from c18n_ae.report.labels import named_together

# a ratio's two statistics with their intervals, as the comparisons name them
OWN = ["ratio", "ci95_low", "ci95_high", "median_ratio", "median_ci95_low", "median_ci95_high"]
COLUMNS = [
    "experiment",
    "metric",
    "label",
    "contrast",
    "release",
    "first",
    *(f"contrast_{k}" for k in OWN),  # the release's own contrast
    "ratio",
    "ci95_low",
    "ci95_high",
    "median_ratio",  # between releases, as ratio to ci95_high but of medians
    "median_ci95_low",
    "median_ci95_high",
    "confounded_by",
    "possibly_also",  # a difference of name alone: the ratio stands (analysis.contrasts)
    "tail_trials",  # the release's own contrast: whether its mean rests on a few trials, as
    "tail_share",  # Table 1 says it (headline.rests_on_few; 0 where Table 1 has no such row)
]
# what a release's own contrast prints with, as the headline prints it (comparison_text)
PRINTED = ["mean", "reference_mean", "median", "reference_median", "sd", "reference_sd"]
PRINTED += ["resolution", "unit"]


def rows(
    comparisons: dict[str, pd.DataFrame], invalid: dict = None, headline: pd.DataFrame = None
) -> pd.DataFrame:
    """One row per headline metric, contrast and release (the first release's own row has no
    ratio between releases). A metric that a release's own limits call invalid is left out.
    headline: Table 1's rows (results/headline.csv), whose statistic a release's own contrast
    quotes (the mean, or the median where the mean rests on a few trials)."""
    invalid = invalid or {}
    tails = {}
    if headline is not None:
        for h in headline.itertuples():
            tails[(h.source, h.subject, h.baseline, h.metric)] = (h.tail_trials, h.tail_share)
    out = []
    for e, comp in comparisons.items():
        rel = comp[comp.get("comparison", pd.Series(dtype=str)) == "release"]
        for h in exp.get(e).headline:
            mine = largest_setting(rel[rel.metric == h.metric])
            bad = {n for n, by in invalid.items() if h.metric in by.get(e, {})}
            mine = mine[~mine.source.isin(bad) & ~mine.reference_source.isin(bad)]
            for (contrast, first), group in mine.groupby(
                ["variant", "reference_source"], sort=False
            ):
                subject, baseline = contrast.split("/", 1)
                for release in [first, *dict.fromkeys(group.source)]:
                    own = largest_setting(lookup(comp, release, subject, baseline, h.metric))
                    if own.empty:
                        continue
                    r = own.iloc[0]
                    between = group[group.source == release]
                    b = between.iloc[0] if len(between) else None
                    out.append(
                        {
                            "experiment": e,
                            "metric": h.metric,
                            "label": h.label,
                            "contrast": contrast,
                            "release": release,
                            "first": first,
                            **{f"contrast_{k}": r.get(k) for k in OWN},
                            **{k: b.get(k) if b is not None else float("nan") for k in OWN},
                            "confounded_by": _text(b.get("confounded_by")) if b is not None else "",
                            "possibly_also": _text(b.get("possibly_also")) if b is not None else "",
                            **dict(
                                zip(
                                    ["tail_trials", "tail_share"],
                                    tails.get((release, subject, baseline, h.metric), (0, 0.0)),
                                )
                            ),
                            **{k: r.get(k) for k in PRINTED},
                        }
                    )
    table = pd.DataFrame(out, columns=COLUMNS + PRINTED)
    return table.drop_duplicates(["metric", "contrast", "release"])


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _contrast_text(x: pd.Series, medians: bool = False) -> str:
    """A release's own contrast as Table 1 prints it: the same statistic (the median, marked †,
    where the mean rests on a few trials), and its sides, spreads and timer step decide the
    figures and whether the interval is limited by the resolution. medians: a ratio between
    releases of this row divides medians, so a cell that quotes its mean gives its ratio of
    medians too, which that division uses (rounds 112 and 113: 0.50 could not be checked)."""
    row = {k: x.get(k) for k in PRINTED} | {k: x.get(f"contrast_{k}") for k in OWN}
    median = rests_on_few(x)
    said = comparison_text(row, "median" if median else "mean") + (DAGGER if median else "")
    own = x.get("contrast_median_ratio")
    if medians and not median and pd.notna(own):
        said += f"; median ratio {ratio_point(float(own))}"  # named, so unmarked
    return said


def _between_text(x: pd.Series, pair: pd.DataFrame, median: bool) -> str:
    """The ratio of a release's contrast to the first release's, of medians (marked †) where
    either release's own contrast quotes its median; no more figures than the four statistics'
    timer steps carry (pair: the two releases' own rows, resolution_digits)."""
    pre = "median_" if median else ""
    ends = x[[f"{pre}ratio", f"{pre}ci95_low", f"{pre}ci95_high"]]
    side, ref = ("median", "reference_median") if median else ("mean", "reference_mean")
    digits = [
        resolution_digits((float(y[side]), float(y[ref])), float(y.resolution))
        for _, y in pair.iterrows()
        if all(pd.notna(y[k]) for k in (side, ref, "resolution"))
    ]
    ranged = _timer_between(x, pair) if median else None
    if ranged:
        return ranged_text(float(ends.iloc[0]), *ranged) + DAGGER
    shown = ratio_text(*map(float, ends), True, min(digits, default=None))
    return shown + (DAGGER if median else "")


def _own_range(y: pd.Series) -> tuple[float, float] | None:
    """A release's own ratio of medians' timer range, as its table prints it (timer_range: a
    tick either way, where the grid limits the ratio); None where its interval is printed."""
    num = lambda k: float(y[k]) if pd.notna(y.get(k)) else math.nan  # noqa: E731
    return timer_range(
        num("contrast_median_ratio"),
        num("contrast_median_ci95_low"),
        num("contrast_median_ci95_high"),
        (num("median"), num("reference_median")),
        (num("sd"), num("reference_sd")),
        num("resolution"),
        median=True,
    )


def _timer_between(x: pd.Series, pair: pd.DataFrame) -> tuple[float, float] | None:
    """The range a ratio of medians between releases may take where both releases' own median
    ratios are limited by their timers (a tick either way): the later release's lowest end
    over the first's highest, and the reverse; None where either is not (its interval stands). A
    bootstrap of medians on a grid gives ends on the point ('0.50× [0.40, 0.50]'), which an
    interval's brackets would claim."""
    first = pair[pair.release == x["first"]]
    if first.empty or x["release"] == x["first"]:
        return None
    # both releases' ends a tick either way: their quotient is one too; a tick range over a
    # bootstrap interval would be neither, and prints as the bootstrap's
    mine, theirs = _own_range(x), _own_range(first.iloc[0])
    if not (mine and theirs) or not all(math.isfinite(v) and v > 0 for v in (*mine, *theirs)):
        return None
    (a, b), (c, d) = mine, theirs
    return a / d, b / c


def mixes(table: pd.DataFrame) -> str:
    """What the release contrasts mix beside the release (the comparisons' confounded_by): each
    source's facts once, and, for a fact only some rows carry (heap revocation: the timed
    regions that allocate or free), the rows it is for."""
    said = []  # each row's 'source: fact' parts
    for text in table.confounded_by.fillna(""):
        source, parts = "", []  # a part without its source belongs to the one before it
        for part in filter(None, (p.strip() for p in text.split(";"))):
            if ": " in part:
                source, part = part.split(": ", 1)
            parts.append(f"{source}: {part}" if source else part)
        said.append(parts)
    rows = len(table[table.confounded_by.fillna("") != ""].drop_duplicates(["metric", "label"]))
    known = set(table.release) | set(table["first"])
    sources: dict[str, list[str]] = {}  # a fact, scoped, once with every source that has it
    for part in scoped(said, list(table.label), rows):
        source, _, fact = part.partition(": ")
        if source not in known:
            source, fact = "", part
        sources.setdefault(fact, []).append(source)
    order = list(dict.fromkeys([*table["first"], *table.release]))  # the config's order
    return "; ".join(
        f"{listed(sorted(set(s), key=order.index))}: {fact}" if all(s) else fact
        for fact, s in sources.items()
    )


def possibly(table: pd.DataFrame) -> str:
    """What the release contrasts differ in by name alone, each once ('' if nothing)."""
    said = table.get("possibly_also", pd.Series(dtype=object)).fillna("")
    return "; ".join(dict.fromkeys(x for c in said for x in str(c).split("; ") if x))


BETWEEN_MEDIANS = "; a ratio between releases so marked divides the two releases' medians"


def latex_table(table: pd.DataFrame, names: dict[str, str]) -> str:
    if table.empty:
        return "% Fewer than two data sets share a contrast: no release comparison.\n"
    releases = list(dict.fromkeys(table.release))
    later = [r for r in releases if r != table["first"].iloc[0]]
    head = (
        ["Metric (largest setting)", "Contrast"]
        + [
            f"\\texttt{{{escape(r)}}}" + (f" ({escape(names[r])})" if names.get(r) else "")
            for r in releases
        ]
        + [f"\\texttt{{{escape(r)}}} / \\texttt{{{escape(table['first'].iloc[0])}}}" for r in later]
    )
    lines = [  # a column per data set: many data sets shrink the table to the page's width
        r"\begin{adjustbox}{max width=\textwidth}",
        r"\begin{tabular}{>{\raggedright\arraybackslash}p{0.18\textwidth}l"
        + r">{\raggedright\arraybackslash}p{0.17\textwidth}" * (len(releases) + len(later))
        + "}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
    ]
    betweens = []  # the ratios between releases, as printed
    for (metric, contrast), g in table.groupby(["metric", "contrast"], sort=False):
        cells = [escape(g.label.iloc[0]), f"\\texttt{{{escape(contrast)}}}"]
        first = g["first"].iloc[0]

        def divides_medians(r: str) -> bool:  # the ratio between r and the first, as printed
            return any(rests_on_few(y) for _, y in g[g.release.isin([r, first])].iterrows())

        for r in releases:
            x = g[g.release == r]
            # a ratio between releases that this cell enters divides medians
            medians = any(map(divides_medians, later)) if r == first else divides_medians(r)
            cells.append(_contrast_text(x.iloc[0], medians) if len(x) else "not measured")
        for r in later:
            x = g[g.release == r]
            mark = r"$^\S$" if len(x) and _text(x.confounded_by.iloc[0]) else ""
            pair = g[g.release.isin([r, first])]
            cells.append(
                _between_text(x.iloc[0], pair, divides_medians(r)) + mark if len(x) else "--"
            )
            betweens.append(cells[-1])
        lines.append(" & ".join(cells) + r" \\")
    notes = []
    if any(DAGGER in x for x in lines):
        # a ratio between releases of medians (marked) where a release's own cell may quote
        # its mean: said, so that no reader divides a mean by a median (0.92 / 2.0 is not 0.50)
        between = BETWEEN_MEDIANS if any(DAGGER in x for x in betweens) else ""
        notes.append(f"{DAGGER} {MEDIAN_WORDS}{between}.")
    if mixes(table):
        notes.append(
            r"$^\S$ the variants differ in more than ABI and compartments too, so the ratio "
            f"compares those differences as well as releases: {escape(mixes(table))}."
        )
    if possibly(table):
        notes.append(f"Possibly also (the ratios stand): {escape(possibly(table))}.")
    if notes:  # one row of notes, not a ruled row each (the appendix's pages are full)
        lines += [
            r"\midrule",
            rf"\multicolumn{{{2 + len(releases) + len(later)}}}{{p{{0.9\textwidth}}}}"
            rf"{{{' '.join(notes)}}} \\",
        ]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{adjustbox}"]
    return "\n".join(lines) + "\n"


def _data(source: str, labels: dict[str, str]) -> str:
    """A data set as the body names it: 'the 22.12 data' by its release, with its id beside it
    where another data set shares the release (labels: release_labels, copies of one release)."""
    label = short_release(labels.get(source, ""))
    return f"the {escape(label)} data" if label else f"\\texttt{{{escape(source)}}}"


def _within(ratios) -> str:
    """How far ratios between releases reach from 1, in whole per cent rounded up so that
    'within' stays true (0.929 -> '8 %')."""
    reach = max(abs(float(x) - 1) for x in ratios) * 100
    return f"{math.ceil(round(reach, 6))}" + r"\,\%"


def prose(table: pd.DataFrame, names: dict[str, str]) -> str:
    """Per later release and contrast, one plain sentence: the metric whose ratio moved most
    between releases, with its ratio on each release, and how close the other metrics' ratios
    stayed (over the metrics that mix nothing else and have a point estimate). The metrics that
    mix something else are left to the appendix's table, whose mark says what by kind (rounds
    110 and 111: 'heap revocation' here was an aside in the middle of the per-call argument)."""
    out = []
    labels = release_labels([{"name": n, "release": r} for n, r in names.items()])  # once
    later = table[table.release != table["first"]]
    for _, g in later.groupby(["release", "contrast"], sort=False):
        rows = g[g.ratio.notna()]
        if rows.empty:
            continue
        mixed = rows[rows.confounded_by.fillna("") != ""]
        clean = rows.drop(mixed.index)
        wide = (clean.ci95_high / clean.ci95_low > WIDE_FACTOR) | clean.ci95_low.isna()
        shown = clean[~wide]
        shown = shown.iloc[shown.ratio.map(lambda x: -abs(math.log(x))).argsort(kind="stable")]
        release, first = _data(g.release.iloc[0], labels), _data(g["first"].iloc[0], labels)
        subject, baseline = (escape(x) for x in g.contrast.iloc[0].split("/", 1))
        if len(shown):
            top = shown.iloc[0]
            own = table[
                (table.release == top["first"])
                & (table.metric == top.metric)
                & (table.contrast == top.contrast)
            ]
            said = (
                f"On {release}, {subject} against {baseline} gave "
                f"{ratio_point(top.contrast_ratio)} for {escape(top.label)}"
            )
            if len(own):
                said += f", against {ratio_point(own.contrast_ratio.iloc[0])} on {first}"
            rest = []
            if len(shown) > 1:
                # named, not counted: a reader counted the appendix table's rows, confounded
                # ones among them, against 'the other three metrics' (round 95)
                others = shown.iloc[1:].sort_index()  # in the table's order
                named = escape(named_together(list(others.label)))
                which = "ratios" if len(others) > 1 else "ratio"
                rest.append(
                    f"For {named}, the {which} agreed within about {_within(others.ratio)} "
                    "between releases."
                )
        else:
            said, rest = f"On {release}, {subject} against {baseline} gives no ratio to {first}", []
        out.append(" ".join([said + ".", *rest]))
    return " ".join(out) or "Fewer than two data sets share a contrast in this run."


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    cfg.add_arguments(ap)
    cfg.add_experiment_arguments(ap, "comparisons")
    ap.add_argument("--tex", required=True, type=Path)
    ap.add_argument("--macros", required=True, type=Path)
    ap.add_argument("--headline", type=Path, help="results/headline.csv: Table 1's statistics")
    a = ap.parse_args(argv)
    config = exp.config_from_arguments(a)
    names = {d["name"]: d.get("release", "") for d in cfg.datasets(config)}
    comps = {
        k: pd.read_csv(v)
        for k, v in cfg.experiment_files(a, "comparisons").items()
        if exp.get(k).headline
    }
    head = pd.read_csv(a.headline) if a.headline else None
    table = rows(comps, cfg.invalid_metrics(config), head)
    named = from_config(config).text  # the paper's names (names.py), not the ids
    write_text_atomic(a.tex, named(latex_table(table, names)))
    write_text_atomic(
        a.macros,
        "% Generated by c18n_ae.report.releases; do not edit.\n"
        + newcommand("ReleaseFindings", named(prose(table, names), prose=True)),
    )


if __name__ == "__main__":
    main()
