"""Helpers the experiment modules share: wide raw rows to tidy rows, summary look-ups, cells."""

from __future__ import annotations

import math
from pathlib import Path

from c18n_ae.common.latex import fmt, gen_name, newcommand, tick_note
from c18n_ae.common.lazy import pd
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments.outputs import Figure, Panel, Series

NS_PER = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
UNIT_TEX = {
    "ns": r"\si{\nano\second}",
    "us": r"\si{\micro\second}",
    "ms": r"\si{\milli\second}",
    "s": r"\si{\second}",
    "GB/s": r"\si{\giga\byte\per\second}",
    "MB": r"\si{\mega\byte}",
    "MiB": r"\si{\mebi\byte}",
    "B": r"\si{\byte}",
    "ops/s": r"ops/\si{\second}",
    "M ops/s": r"M ops/\si{\second}",  # millions a second: a rate of eight figures reads short
    "%": r"\si{\percent}",
}


def allowed(raw: Path, line: int, row: dict, column: str, values, default=None) -> str:
    """The row's value of column (default where the file has no such column), or an error naming
    file, line, column and what is allowed."""
    value = row[column] if default is None else row.get(column, default)
    if value not in values:
        raise RawDataError(
            f"{raw}:{line}: column {column}: unexpected {value!r} (allowed: {', '.join(values)})"
        )
    return value


def setting_figure(summary: pd.DataFrame, named: dict[str, str], title: str, ylabel: str):
    """Bars of each named metric's mean at each parameter value, one bar per variant and name, one
    panel per target, on a logarithmic axis (the settings differ by orders of magnitude)."""
    values = sorted(pd.to_numeric(summary.parameter_value).unique())
    bars = {}
    for t, v in series(summary):
        for name, metric in named.items():
            bars.setdefault(t, {})[f"{v} {name}"] = [stat(summary, t, v, metric, x) for x in values]
    panels = bar_panels([f"{x:.0f}" for x in values], bars)
    return Figure("bars", title, panels, ylabel, ylog=True)


def wide_tidy(raw: Path, rows, parameter: str, metrics: dict[str, str], statuses=("ok",)):
    """One tidy row per metric of each raw row; the swept parameter is a raw column."""
    out = []
    for line, row in rows:
        status = allowed(raw, line, row, "status", statuses, default="ok")
        param = number(raw, line, parameter, row[parameter])
        trial = int(number(raw, line, "trial", row["trial"]))
        for metric, unit in metrics.items():
            value = number(raw, line, metric, row[metric], allow_empty=status != "ok")
            out.append((trial, parameter, param, metric, value, unit, status))
    return out


# At most this many points of one series go into a figure: a column-wide axis is about 200 pt
# (1/72 in) wide, so each of its 200 buckets of x is about a point, a pixel on screen at 100 %,
# with its lowest and highest y. Every point drawn costs pgfplots time in each LaTeX pass
# (E1's figure: 0.2 s a pass more at 1,000 points a series).
DISPLAY_POINTS = 400


def decimate(x, y, points: int = DISPLAY_POINTS) -> tuple[list, list]:
    """The points a figure draws of a long series (sorted by x): per bucket of x (about a point
    at print size) the lowest and the highest y, so no peak or dip disappears; short series are
    drawn whole. Cost linear in the series; the data files keep every point."""
    import numpy as np

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    if len(x) <= points:
        return list(x), list(y)
    span = x.max() - x.min() or 1.0
    bucket = np.minimum(((x - x.min()) / span * (points // 2)).astype(int), points // 2 - 1)
    frame = pd.DataFrame({"b": bucket, "y": y})
    chosen = np.union1d(frame.groupby("b").y.idxmin().to_numpy(), frame.groupby("b").y.idxmax())
    return list(x[chosen]), list(y[chosen])


def mark_invalid(summary: pd.DataFrame, invalid: dict) -> pd.DataFrame:
    """Adds the column invalid: True for the metrics a data set's own limits say are not what
    their names claim (c18n_ae.common.config.invalid_metrics). Figures leave them out; tables
    print 'invalid'."""
    bad = pd.Series(False, index=summary.index)
    for source, experiments in invalid.items():
        for experiment, metrics in experiments.items():
            bad |= (
                (summary.source == source)
                & (summary.experiment == experiment)
                & summary.metric.isin(list(metrics))
            )
    return summary.assign(invalid=bad)


def pick(summary: pd.DataFrame, target, variant, metric, parameter_value=None) -> pd.Series | None:
    """The first row of that target, variant, metric (and setting), or None. The row is taken by
    its position alone: filtering the whole frame first copied every column's matching rows (a
    table of a few hundred cells took a third of a second)."""
    match = (summary.source == target) & (summary.variant == variant) & (summary.metric == metric)
    if parameter_value is not None:
        match &= summary.parameter_value == parameter_value
    at = match.to_numpy().nonzero()[0]
    return summary.iloc[at[0]] if len(at) else None


def stat(summary, target, variant, metric, parameter_value=None, field="mean") -> float:
    row = pick(summary, target, variant, metric, parameter_value)
    return float(row[field]) if row is not None else math.nan


def cell(summary, target, variant, metric, parameter_value=None, scale=1.0, with_sd=True) -> str:
    """'mean ± sd' in the given scale, 'not run' or 'failed' (no successful trial)."""
    row = pick(summary, target, variant, metric, parameter_value)
    if row is None:
        ran = ((summary.source == target) & (summary.variant == variant)).any()
        return "not recorded" if ran else "not run"  # a data set may lack a metric our runs record
    if bool(row.get("invalid", False)):
        return "invalid"
    if row["n"] == 0:
        return "failed"
    text = fmt(row["mean"] / scale)
    if with_sd and pd.notna(row["sd"]):
        text += r" $\pm$ " + fmt(row["sd"] / scale)
    step = row.get("resolution", math.nan)
    if step / scale == 1:  # the column's unit is the tick: the value is its count already
        return text
    return text + tick_note(row["mean"], step, row.get("unit", ""))


def series(summary: pd.DataFrame) -> list[tuple[str, str]]:
    return list(summary[["source", "variant"]].drop_duplicates().itertuples(index=False))


def ratio(summary, target, variant, reference, metric, parameter_value=None) -> float:
    return stat(summary, target, variant, metric, parameter_value) / stat(
        summary, target, reference, metric, parameter_value
    )


def means_by_target(summary: pd.DataFrame, metrics: list[str], scale: float):
    """target -> variant -> the mean of each metric (divided by scale), and the upper half of each
    mean's 95 % interval: the bars and error bars of one panel per target."""
    bars, errs = {}, {}
    for target, variant in series(summary):
        means = [stat(summary, target, variant, m) for m in metrics]
        highs = [stat(summary, target, variant, m, field="ci95_high") for m in metrics]
        bars.setdefault(target, {})[variant] = [x / scale for x in means]
        errs.setdefault(target, {})[variant] = [(h - x) / scale for h, x in zip(highs, means)]
    return bars, errs


def by_target(summary: pd.DataFrame) -> list[tuple[str, list[str]]]:
    """(target, its variants) in the summary's order: one figure panel each."""
    return [(t, [v for tt, v in series(summary) if tt == t]) for t in dict.fromkeys(summary.source)]


def ratio_bars(comparisons, references: dict, metrics: list[str]):
    """target -> variant -> the ratio of each metric to the target's reference variant, with the
    two halves of its 95 % interval: the bars of a ratio figure (the reference itself is 1 and
    not drawn)."""
    bars, plus, minus = {}, {}, {}
    for target, ref in references.items():
        mine = comparisons[
            (comparisons.source == target) & (comparisons.reference_source == target)
        ]
        for variant in dict.fromkeys(mine.variant):
            if variant == ref:
                continue
            vals, hi, lo = [], [], []
            for m in metrics:
                rows = lookup(comparisons, target, variant, ref, m)
                r = rows.iloc[0] if len(rows) else None
                vals.append(math.nan if r is None else r.ratio)
                hi.append(math.nan if r is None else r.ci95_high - r.ratio)
                lo.append(math.nan if r is None else r.ratio - r.ci95_low)
            bars.setdefault(target, {})[variant] = vals
            plus.setdefault(target, {})[variant] = hi
            minus.setdefault(target, {})[variant] = lo
    return bars, plus, minus


def confounds(comparisons, references: dict, metrics: list[str]) -> dict:
    """target -> variant -> what else its contrast with the target's reference differs in
    (the comparisons' confounded_by, analysis.contrasts: an optimisation level, heap revocation,
    a board), for the variants whose contrast is confounded in any of metrics: the same flag the
    tables use, so that a figure can mark their bars."""
    out: dict[str, dict[str, str]] = {}
    if comparisons is None or "confounded_by" not in comparisons:
        return out
    for target, ref in references.items():
        mine = comparisons[
            (comparisons.source == target)
            & (comparisons.reference_source == target)
            & (comparisons.reference_variant == ref)
            & comparisons.metric.isin(metrics)
        ]
        for variant, said in zip(mine.variant, mine.confounded_by.fillna("").astype(str)):
            if said and variant != ref:
                out.setdefault(target, {}).setdefault(variant, said)
    return out


CONFOUNDED = "confounded"  # a Series style: bars of a confounded contrast, hatched and grey


def bar_label(variant: str, confounded_by: str = "") -> str:
    """A bar series' label: the variant, and where its contrast is confounded, by what
    ('benchmark-c18n, confounded: optimisation -O2 against -O0')."""
    return f"{variant}, confounded: {confounded_by}" if confounded_by else variant


def sent_found(values: tuple, metrics: tuple[str, str], what: str, title: str):
    """A figure hook: one panel per target, and in it per variant and parameter value
    (root/ordinary, parent/child) what was sent beside what a reader found, one bar pair each,
    labelled 'O0 root' (the panel's title names the target)."""

    def figure(data) -> Figure:
        summary = data.valid
        panels: dict[str, dict[str, list]] = {}
        for target, variant in series(summary):
            for value in values:
                s = summary[
                    (summary.source == target)
                    & (summary.variant == variant)
                    & (summary.parameter_value == value)
                ]
                if len(s):
                    mine = panels.setdefault(target, {"keys": [], "sent": [], "found": []})
                    mine["keys"].append(f"{variant} {value}")
                    mine["sent"].append(s[s.metric == metrics[0]]["mean"].iloc[0])
                    mine["found"].append(s[s.metric == metrics[1]]["mean"].iloc[0])
        shown = [
            Panel(
                target,
                [
                    Series(f"{what} sent", p["keys"], p["sent"]),
                    Series(f"{what} found", p["keys"], p["found"]),
                ],
            )
            for target, p in panels.items()
        ]
        return Figure("bars", title, shown, what)

    return figure


def lookup(
    comparisons: pd.DataFrame,
    target: str,
    variant: str,
    reference_variant: str,
    metric: str,
    reference_source: str | None = None,
) -> pd.DataFrame:
    """Rows for variant against reference_variant (inverted when only the reverse was computed)."""
    rt = reference_source or target
    c = comparisons

    def match(t, v, ref_t, ref_v):
        return c[
            (c.source == t)
            & (c.variant == v)
            & (c.reference_source == ref_t)
            & (c.reference_variant == ref_v)
            & (c.metric == metric)
        ]

    s = match(target, variant, rt, reference_variant)
    if len(s):
        return s
    r = match(rt, reference_variant, target, variant).copy()
    if r.empty:
        return r
    r["ratio"], r["ci95_low"], r["ci95_high"] = (
        1 / r["ratio"],
        1 / r["ci95_high"],
        1 / r["ci95_low"],
    )
    r["median_ratio"], r["median_ci95_low"], r["median_ci95_high"] = (
        1 / r["median_ratio"],
        1 / r["median_ci95_high"],
        1 / r["median_ci95_low"],
    )
    r["n"], r["n_reference"] = r["n_reference"], r["n"]
    r["source"], r["variant"], r["reference_source"], r["reference_variant"] = (
        target,
        variant,
        rt,
        reference_variant,
    )
    return r


def bar_panels(
    categories: list[str], bars: dict, plus: dict | None = None, minus=None, confounded=None
):
    """Panels of bars from target -> series label -> one value per category (and the halves of
    each error bar, when given); a label in confounded (target -> label -> what else differs,
    rows.confounds) is drawn hatched and grey, its legend saying by what."""
    confounded = confounded or {}
    return [
        Panel(
            target,
            [
                Series(
                    bar_label(label, confounded.get(target, {}).get(label, "")),
                    list(categories),
                    values,
                    None if minus is None else minus[target][label],
                    None if plus is None else plus.get(target, {}).get(label),
                    style=CONFOUNDED if label in confounded.get(target, {}) else "",
                )
                for label, values in by_label.items()
            ],
        )
        for target, by_label in bars.items()
    ]


def quote(summary, experiment: str, items, at=None, scale=1.0, field="mean", form=fmt) -> str:
    """The numbers the text quotes: one \\newcommand per target and variant for each (quantity,
    metric), the summary's field at parameter value `at` over scale, named by gen_name."""
    out = []
    for target, variant in series(summary):
        for quantity, metric in items:
            row = pick(summary, target, variant, metric, at)
            if row is not None:
                name = gen_name(experiment, quantity, target, variant)
                out.append(newcommand(name, form(row[field] / scale), row_key(row, field, scale)))
    return "".join(out)


def row_key(row, field: str, scale: float = 1.0) -> str:
    """Which summary row and column a quoted number is, for results/numbers.csv."""
    at = f"{row['parameter']}={row['parameter_value']}"
    return (
        f"source={row['source']}; variant={row['variant']}; metric={row['metric']}; {at}; "
        f"column={field}" + (f"; divided by {scale:g}" if scale != 1 else "")
    )


def quote_ratio(summary, references: dict, experiment: str, items, at=None) -> str:
    """Each variant's mean over its target's reference variant's, per (quantity, metric)."""
    return "".join(
        newcommand(
            gen_name(experiment, quantity, target, variant),
            fmt(ratio(summary, target, variant, references[target], metric, at)),
            f"source={target}; variant={variant} over {references[target]}; metric={metric}"
            + ("" if at is None else f"; at {at}")
            + "; column=mean, ratio of the two rows",
        )
        for target, variant in series(summary)
        if references.get(target) not in (None, variant)
        for quantity, metric in items
    )
