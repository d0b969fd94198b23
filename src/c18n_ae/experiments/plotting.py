"""matplotlib set up for the experiments' previews: no display, TrueType fonts (ACM rejects
Type 3), and one way to save a figure as PDF and PNG. matplotlib is imported on first use, not
when the registry loads this package's modules (every job does); its Figure is made directly,
without pyplot (no figure manager or back end to choose: 0.05 s less a job)."""

from __future__ import annotations

import functools
from pathlib import Path


@functools.cache
def _figure_class():
    import matplotlib

    matplotlib.rcParams.update({"pdf.fonttype": 42, "ps.fonttype": 42})
    from matplotlib.figure import Figure

    return Figure


def figure(rows: int, **options):
    """A figure of one column of `rows` axes: (figure, axes as a rows x 1 array)."""
    fig = _figure_class()(**options)
    return fig, fig.subplots(rows, 1, squeeze=False)


def save(fig, pdf: Path, png: Path) -> None:
    """The PDF, then the PNG at the layout the PDF's drawing found: the constrained layout is
    computed once (a third of a drawing), its positions kept for the second format."""
    pdf.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(pdf)
    fig.set_layout_engine("none")
    fig.savefig(png, dpi=120)
