"""The one renderer of experiment figures: a Figure (c18n_ae.experiments.outputs) as a pgfplots
source, a matplotlib preview drawn from the same data, and a CSV of every point (the figure
draws long series decimated, the CSV keeps them whole)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape
from c18n_ae.common.names import Names
from c18n_ae.experiments.outputs import Figure
from c18n_ae.experiments.rows import CONFOUNDED, decimate

# a confounded contrast's bars: grey and hatched, apart from every other series (tikz patterns)
CONFOUNDED_BARS = "draw=gray, fill=white, pattern=north east lines, pattern color=gray"


def tex_label(text: str) -> str:
    """A plain-text axis label in LaTeX (units as siunitx writes them)."""
    return escape(text).replace("µs", r"\si{\micro\second}").replace("×", r"$\times$")


def points_csv(figure: Figure) -> str:
    """Every point of every series, long: panel, series, x, y and the error bar's halves (one
    frame a series: linear in the points)."""
    columns = ["panel", "series", "x", "y", "minus", "plus"]
    frames = [
        pd.DataFrame(
            {
                "panel": p.title,
                "series": s.label,
                "x": s.x,
                "y": s.y,
                "minus": s.minus,
                "plus": s.plus,
            }
        )
        for p in figure.panels
        for s in p.series
    ]
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
    return frame.reindex(columns=columns).to_csv(index=False, na_rep="nan")


def _number(v) -> str:
    return "nan" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.6g}"


def _plot(figure: Figure, s, names: Names) -> str:
    """One \\addplot with its coordinates inline (bars with their error bars; lying bars with
    the category on y)."""
    if figure.kind == "lines":
        xs, ys = decimate(s.x, s.y)
        marks = "mark size=1.2pt" if len(xs) <= 200 else "no marks"
        style = ", ".join(x for x in (s.style, marks) if x)
        points = " ".join(f"({_number(a)},{_number(b)})" for a, b in zip(xs, ys))
        return f"\\addplot+[{style}] coordinates {{{points}}};"
    lying = sideways(figure)
    options, points = "", []
    for i, (x, y) in enumerate(zip(s.x, s.y)):
        if not _drawn(y):  # no bar, and no category of its own (_categories)
            continue
        x = _category(names, x)
        point = f"({_number(y)},{x})" if lying else f"({x},{_number(y)})"
        if s.plus is not None:
            low = s.minus[i] if s.minus is not None else 0.0
            up, down = _number(s.plus[i] or 0.0), _number(low or 0.0)
            point += f" += ({up},0) -= ({down},0)" if lying else f" += (0,{up}) -= (0,{down})"
        points.append(point)
    style = [CONFOUNDED_BARS] if s.style == CONFOUNDED else []
    if s.plus is not None:
        direction = "both" if s.minus is not None else "plus"
        axis = "x" if lying else "y"
        style.append(f"error bars/.cd, {axis} dir={direction}, {axis} explicit")
    options = f"+[{', '.join(style)}]" if style else ""
    return f"\\addplot{options} coordinates {{{' '.join(points)}}};"


def _category(names: Names, x) -> str:
    """A bar's category as the paper names it, safe in a pgfplots coordinate list."""
    return escape(names.text(str(x))).replace(",", "{,}")


def _drawn(y) -> bool:
    return y is not None and not (isinstance(y, float) and math.isnan(y))


def _categories(panel) -> list[str]:
    """A panel's categories that have a bar: a metric its target did not measure takes no
    room (the board's pipe panel has no round trip)."""
    return list(dict.fromkeys(str(x) for s in panel.series for x, y in zip(s.x, s.y) if _drawn(y)))


# bar labels stand side by side under the bars when their characters are fewer than this over
# the number of categories (a column-wide panel holds about 40 characters of small tick labels
# in a row); longer ones lie the bars down, each label on a line of its own left of its bars
ROW_CHARACTERS = 40


def sideways(figure: Figure) -> bool:
    """Whether the bars lie down (categories on y, read left to right): asked for, or labels too
    long to stand side by side without running into each other (set at an angle they would
    run into each other or the legend)."""
    if figure.kind != "bars":
        return False
    return figure.slanted or any(
        names and max(map(len, names)) > ROW_CHARACTERS / len(names)
        for names in map(_categories, figure.panels)
    )


LEGEND_BELOW_CM = 0.9  # from the axis box's bottom to its legend: tick labels and the x label
CHARACTER_CM = 0.17  # a tick label's character, about, at the body's size


def panel_height_cm(figure: Figure, panel) -> float:
    """A panel's height: 4 cm, or for lying bars room for each category's bars."""
    if not sideways(figure):
        return 4.0
    rows = len(_categories(panel)) * max(1, len(panel.series))
    return 1.2 + 0.32 * rows


def log_ticks(panel) -> list[str]:
    """The 1, 2, 5 steps of each decade a log axis's values span ('0.2', '0.5', '1', '2', '5'),
    so that a panel spanning a decade or two still has ticks to read (every step, where 1, 2
    and 5 leave fewer than two among the values); none where no value is
    positive or the values span more than two decades (pgfplots' powers of ten read well there,
    and fixed-point labels of many digits would not fit)."""
    values = [v for s in panel.series for v in s.y if isinstance(v, (int, float)) and v > 0]
    if not values:
        return []
    low, high = min(values), max(values)
    if high / low > 100:
        return []
    decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
    for steps in ((1, 2, 5), tuple(range(1, 10))):  # every step where 1, 2, 5 leave too few
        ticks = [m * 10.0**k for k in decades for m in steps]
        if sum(low <= t <= high for t in ticks) >= 2:
            break
    return [f"{t:g}" for t in ticks if low / 2.5 <= t <= high * 2.5]


def _axis_options(figure: Figure, panel, names: Names) -> str:
    lying = sideways(figure)
    value, category = ("x", "y") if lying else ("y", "x")
    opts = [f"{value}label={{{tex_label(figure.ylabel)}}}", "unbounded coords=jump"]
    if figure.xlabel and not lying:
        opts.append(f"xlabel={{{tex_label(figure.xlabel)}}}")
    if figure.kind == "bars":
        categories = [_category(names, c) for c in _categories(panel)]
        opts += [
            "xbar" if lying else "ybar",
            "bar width=4pt",
            f"symbolic {category} coords={{{','.join(categories)}}}",
            f"{category}tick=data",
            f"enlarge {category} limits={0.5 / max(1, len(categories)) + 0.1:.2f}",
        ]
        if lying:
            # the axis box alone is sized, leaving the column's rest to the labels on its left
            room = 0.4 + CHARACTER_CM * max(map(len, _categories(panel)), default=0)
            opts += [
                "y dir=reverse",
                "scale only axis",
                f"width=\\columnwidth-{room:.1f}cm",
                f"height={panel_height_cm(figure, panel) - 1.2:.1f}cm",
            ]
            opts.append("legend style={at={(0.5,0)}, anchor=north, "
                        f"yshift=-{LEGEND_BELOW_CM}cm}}")  # fmt: skip
    if figure.ylog:
        opts.append(f"{value}mode=log, log origin=infty")
        ticks = log_ticks(panel)
        if ticks:  # a panel within one decade would show a single power of ten, or none
            opts.append(f"{value}tick={{{','.join(ticks)}}}, log ticks with fixed point")
    else:
        opts.append(f"{value}min=0")
    if figure.xlog_base:
        opts.append(f"xmode=log, log basis x={figure.xlog_base}")
    if figure.unit_line:
        line = "grid=major, grid style={black}"
        opts.append(f"extra {value} ticks={{1}}, extra {value} tick style={{{line}}}")
    return ", ".join(opts)


def pgfplots(figure: Figure, names: Names | None = None) -> str:
    """One groupplot panel per target or data set, each with its own range (a board and this
    machine differ by orders of magnitude) and its own categories; the legend below each panel.
    Panel titles, legends and categories in the paper's names (names.py), not the ids."""
    names = names or Names()
    lying = sideways(figure)
    # the next panel's title clears the legend (a panel is 4 cm high; a legend about 1.2 cm)
    sep = 2.6 if lying else 3.2
    body = "\n".join(
        f"\\nextgroupplot[title={{{escape(names.source(p.title))}}}, "
        f"{_axis_options(figure, p, names)}]\n"
        + "\n".join(
            f"{_plot(figure, s, names)}\n\\addlegendentry{{{escape(names.text(s.label))}}}"
            for s in p.series
        )
        for p in figure.panels
    )
    below = "" if lying else "\n  at={(0.5,-0.42)}, anchor=north},"
    return (
        "\\begin{tikzpicture}\n"
        f"\\begin{{groupplot}}[group style={{group size=1 by {max(1, len(figure.panels))}, "
        f"vertical sep={sep:.1f}cm}},\n"
        "  width=\\columnwidth, height=4cm,\n"
        "  title style={font=\\small}, legend style={font=\\scriptsize, cells={anchor=west},"
        + (below or "},")
        + " legend columns=2, grid=major, grid style={gray!25}]\n"
        + body
        + "\n\\end{groupplot}\n\\end{tikzpicture}\n"
    )


def preview(figure: Figure, pdf: Path, png: Path) -> None:
    from c18n_ae.experiments import plotting

    panels = figure.panels or []
    rows = max(1, len(panels))
    fig, axes = plotting.figure(rows, figsize=(7, 2.8 * rows), layout="constrained")
    for ax, panel in zip(axes[:, 0], panels):
        width = 0.8 / max(1, len(panel.series))
        for i, s in enumerate(panel.series):
            err = None if s.plus is None else [s.minus or [0.0] * len(s.y), s.plus]
            if figure.kind == "bars":
                x = np.arange(len(s.x))
                # a confounded contrast hatched and grey, as in the paper
                mixed = dict(color="white", edgecolor="gray", hatch="///")
                ax.bar(x + i * width, s.y, width, yerr=err, capsize=2, label=s.label,
                       **(mixed if s.style == CONFOUNDED else {}))  # fmt: skip
                ax.set_xticks(x + width * (len(panel.series) - 1) / 2, s.x, fontsize=7)
            else:
                xs, ys = decimate(s.x, s.y)
                ax.plot(xs, ys, ls="--" if s.style == "dashed" else "-", marker="o", ms=2,
                        label=s.label)  # fmt: skip
        ax.set_ylabel(figure.ylabel)
        ax.set_xlabel(figure.xlabel)
        if figure.ylog:
            ax.set_yscale("log")
        if figure.xlog_base:
            ax.set_xscale("log", base=figure.xlog_base)
        if figure.unit_line:
            ax.axhline(1, color="black", lw=0.8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        ax.set_title(panel.title, fontsize=9)
    fig.suptitle(figure.title)
    plotting.save(fig, pdf, png)


def without_capabilities(config: dict | None) -> set[str]:
    """The targets whose every variant runs without capabilities (ABI native): a development
    machine, whose runs check that the workflow works and say nothing about CHERI."""
    return {
        t["name"]
        for t in (config or {}).get("targets") or []
        if t.get("variants") and all(v.get("abi") == "native" for v in t["variants"])
    }


def paper_panels(figure: Figure, plain: set[str]) -> Figure:
    """The paper's panels: those of the data sets and of targets with capabilities, where there
    are any, leaving out the targets without (without_capabilities); a figure of those alone
    is kept whole. The HTML report's preview and the points keep every panel (R208, A208, A206,
    A205, B205, B203: the development machine's panels beside the study's data left a reader
    unsure whose numbers a figure shows)."""
    kept = [p for p in figure.panels if p.title not in plain]
    return dataclasses.replace(figure, panels=kept) if kept else figure


def render(
    figure: Figure,
    pgfplots_path: Path,
    series_csv: Path,
    pdf: Path,
    png: Path,
    name: str,
    names: Names | None = None,
    plain: set[str] | None = None,
):
    """The paper's figure in its names, without the panels of targets without capabilities
    where others are drawn (plain, paper_panels); the preview (the HTML report's) and the points
    keep every panel and the ids."""
    write_text_atomic(series_csv, points_csv(figure))
    write_text_atomic(
        pgfplots_path,
        f"% Generated by c18n_ae.report.render_figure from the {name} results; do not edit.\n"
        + pgfplots(paper_panels(figure, plain or set()), names),
    )
    preview(figure, pdf, png)
