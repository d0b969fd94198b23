"""matplotlib set up for the experiments' previews: no display, TrueType fonts (ACM rejects
Type 3), and one way to save a figure as PDF and PNG."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams.update({"pdf.fonttype": 42, "ps.fonttype": 42})
import matplotlib.pyplot as plt  # noqa: E402  (after the back end is chosen)

__all__ = ["plt", "save"]


def save(fig, pdf: Path, png: Path) -> None:
    pdf.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(pdf)
    fig.savefig(png, dpi=120)
    plt.close(fig)
