"""The one renderer of experiment figures: a Figure (c18n_ae.experiments.outputs) as a pgfplots
source, a matplotlib preview drawn from the same data, and a CSV of every point (the figure
draws long series decimated, the CSV keeps them whole)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape
from c18n_ae.experiments.outputs import Figure
from c18n_ae.experiments.rows import decimate


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


def _plot(figure: Figure, s) -> str:
    """One \\addplot with its coordinates inline (bars with their error bars)."""
    if figure.kind == "lines":
        xs, ys = decimate(s.x, s.y)
        marks = "mark size=1.2pt" if len(xs) <= 200 else "no marks"
        style = ", ".join(x for x in (s.style, marks) if x)
        points = " ".join(f"({_number(a)},{_number(b)})" for a, b in zip(xs, ys))
        return f"\\addplot+[{style}] coordinates {{{points}}};"
    options, points = "", []
    for i, (x, y) in enumerate(zip(s.x, s.y)):
        point = f"({x},{_number(y)})"
        if s.plus is not None:
            low = s.minus[i] if s.minus is not None else 0.0
            point += f" += (0,{_number(s.plus[i] or 0.0)}) -= (0,{_number(low or 0.0)})"
        points.append(point)
    if s.plus is not None:
        direction = "both" if s.minus is not None else "plus"
        options = f"+[error bars/.cd, y dir={direction}, y explicit]"
    return f"\\addplot{options} coordinates {{{' '.join(points)}}};"


def _categories(figure: Figure) -> list[str]:
    return list(dict.fromkeys(str(x) for p in figure.panels for s in p.series for x in s.x))


# a bar category's label fits under its bar when its characters are fewer than this over the
# number of categories (a column-wide panel holds about 32 characters of tick labels in a row)
ROW_CHARACTERS = 32


def slanted(figure: Figure) -> bool:
    """Whether the bar labels are set at an angle: asked for, or too long to stand side by side
    without running into each other."""
    names = _categories(figure) if figure.kind == "bars" else []
    return figure.slanted or bool(names) and max(map(len, names)) > ROW_CHARACTERS / len(names)


def legend_depth(figure: Figure) -> float:
    """How far below a panel its legend starts, in panel heights: under slanted labels, as far
    as the longest of them reaches (about 0.022 of a panel a character at 40 degrees)."""
    if not slanted(figure):
        return 0.42
    return 0.25 + 0.022 * max(map(len, _categories(figure)))


def _axis_options(figure: Figure) -> str:
    opts = [f"ylabel={{{tex_label(figure.ylabel)}}}", "unbounded coords=jump"]
    if figure.xlabel:
        opts.append(f"xlabel={{{tex_label(figure.xlabel)}}}")
    if figure.kind == "bars":
        categories = _categories(figure)
        opts += [
            "ybar",
            "bar width=4pt",
            f"symbolic x coords={{{','.join(categories)}}}",
            "xtick=data",
            "enlarge x limits=0.15",
        ]
        if slanted(figure):
            opts.append("x tick label style={rotate=40, anchor=north east, font=\\scriptsize}")
    opts.append("ymode=log, log origin=infty" if figure.ylog else "ymin=0")
    if figure.xlog_base:
        opts.append(f"xmode=log, log basis x={figure.xlog_base}")
    if figure.unit_line:
        opts.append("extra y ticks={1}, extra y tick style={grid=major, grid style={black}}")
    return ", ".join(opts)


def pgfplots(figure: Figure) -> str:
    """One groupplot panel per target or data set, each with its own y range (a board and this
    machine differ by orders of magnitude); the legend below each panel."""
    below = -legend_depth(figure)
    # the next panel's title clears the legend (a panel is 4 cm high; a legend about 1.2 cm)
    sep = max(3.2, 4 * (-below) + 1.6)
    body = "\n".join(
        f"\\nextgroupplot[title={{{escape(p.title)}}}, {_axis_options(figure)}]\n"
        + "\n".join(f"{_plot(figure, s)}\n\\addlegendentry{{{escape(s.label)}}}" for s in p.series)
        for p in figure.panels
    )
    return (
        "\\begin{tikzpicture}\n"
        f"\\begin{{groupplot}}[group style={{group size=1 by {max(1, len(figure.panels))}, "
        f"vertical sep={sep:.1f}cm}},\n"
        "  width=\\columnwidth, height=4cm,\n"
        "  title style={font=\\small}, legend style={font=\\scriptsize, cells={anchor=west},\n"
        f"  at={{(0.5,{below})}}, anchor=north}}, legend columns=2, grid=major, "
        "grid style={gray!25}]\n" + body + "\n\\end{groupplot}\n\\end{tikzpicture}\n"
    )


def preview(figure: Figure, pdf: Path, png: Path) -> None:
    from c18n_ae.experiments.plotting import plt, save

    panels = figure.panels or []
    fig, axes = plt.subplots(
        max(1, len(panels)), 1, figsize=(7, 2.8 * max(1, len(panels))), squeeze=False,
        constrained_layout=True,
    )  # fmt: skip
    for ax, panel in zip(axes[:, 0], panels):
        width = 0.8 / max(1, len(panel.series))
        for i, s in enumerate(panel.series):
            err = None if s.plus is None else [s.minus or [0.0] * len(s.y), s.plus]
            if figure.kind == "bars":
                x = np.arange(len(s.x))
                ax.bar(x + i * width, s.y, width, yerr=err, capsize=2, label=s.label)
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
    save(fig, pdf, png)


def render(figure: Figure, pgfplots_path: Path, series_csv: Path, pdf: Path, png: Path, name: str):
    write_text_atomic(series_csv, points_csv(figure))
    write_text_atomic(
        pgfplots_path,
        f"% Generated by c18n_ae.report.render_figure from the {name} results; do not edit.\n"
        + pgfplots(figure),
    )
    preview(figure, pdf, png)
