"""matplotlib set up for the experiments' previews: no display, TrueType fonts (ACM rejects
Type 3), and one way to save a figure as PDF and PNG. matplotlib is imported on first use of
`plt`, not when the registry loads this package's modules (every job does)."""

from __future__ import annotations

import functools
from pathlib import Path


@functools.cache
def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"pdf.fonttype": 42, "ps.fonttype": 42})
    import matplotlib.pyplot  # after the back end is chosen

    return matplotlib.pyplot


def __getattr__(name: str):
    if name == "plt":
        return _pyplot()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def save(fig, pdf: Path, png: Path) -> None:
    pdf.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(pdf)
    fig.savefig(png, dpi=120)
    _pyplot().close(fig)
