"""LaTeX helpers shared by tables, macros and figures: number format, escaping, macro names."""

from __future__ import annotations

import math
import re

_DIGITS = "Zero One Two Three Four Five Six Seven Eight Nine".split()


def fmt(x: float) -> str:
    """Three significant figures without exponent or thousands separators (pdftotext-friendly)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "--"
    ax = abs(x)
    if ax >= 100:
        return f"{x:.0f}"
    if ax >= 10:
        return f"{x:.1f}"
    if ax >= 1:
        return f"{x:.2f}"
    if ax == 0:
        return "0"
    decimals = min(6, 2 - math.floor(math.log10(ax)))
    return f"{x:.{decimals}f}"


def escape(text: str) -> str:
    repl = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
    return "".join(repl.get(c, c) for c in str(text))


def macro_name(*parts: str) -> str:
    """Letters only, as TeX control words need: ('local', 'O2') -> 'LocalOTwo'."""
    out = []
    for part in parts:
        for word in re.split(r"[^A-Za-z0-9]+", str(part)):
            if not word:
                continue
            word = "".join(_DIGITS[int(c)] if c.isdigit() else c for c in word)
            out.append(word[0].upper() + word[1:])
    return "".join(out)


def newcommand(name: str, value: str) -> str:
    return f"\\newcommand{{\\{name}}}{{{value}}}\n"
