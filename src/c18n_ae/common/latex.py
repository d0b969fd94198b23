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
    repl = {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
    }
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


def _sig(x: float, digits: int) -> str:
    """Significant figures with trailing zeros kept and never an exponent."""
    return f"{x:.0f}" if abs(x) >= 10**digits else f"{x:#.{digits}g}".rstrip(".")


def _ends_differ(f, low: float, high: float) -> bool:
    return math.isnan(low) or f(low) != f(high)


def interval_text(ratio: float, low: float, high: float) -> str:
    """'1.0023 [1.0023, 1.0024]': three significant figures, more when the ends would print
    alike."""
    if ratio is None or math.isnan(ratio):
        return "--"
    for digits in range(3, 8):
        f = lambda x, d=digits: _sig(x, d)  # noqa: E731
        if _ends_differ(f, low, high):
            break
    return f(ratio) + (f" [{f(low)}, {f(high)}]" if not math.isnan(low) else " (no interval)")


def ratio_text(ratio: float, low: float, high: float, tex: bool = True) -> str:
    """A ratio with its 95 % interval: '+51.4 % [+51.3, +51.5]' near 1, '41.1x [23.6, 68.8]' far
    from it; more digits when the interval's ends would otherwise print alike."""
    if ratio is None or math.isnan(ratio):
        return "--"
    if not 0.5 <= ratio <= 2:
        times = r"$\times$" if tex else "x"
        text = interval_text(ratio, low, high)
        head, _, rest = text.partition(" ")
        return f"{head}{times} {rest}"
    pct = r"\,\%" if tex else " %"
    for digits in range(1, 5):
        f = lambda x, d=digits: f"{(x - 1) * 100:+.{d}f}"  # noqa: E731
        if _ends_differ(f, low, high):
            break
    return f(ratio) + pct + (f" [{f(low)}, {f(high)}]" if not math.isnan(low) else " (no interval)")
