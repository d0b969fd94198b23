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


def gen_name(experiment: str, quantity: str, target="", variant="", parameter="") -> str:
    """The one way a generated value is named: experiment, quantity (what and its unit), then
    the target, variant and parameter it is about, e.g. ("crossing", "library ns", "local", "O2")
    -> CrossingLibraryNsLocalOTwo. Every \\gen{...} of the paper resolves to such a name (a test
    checks it after a run)."""
    return macro_name(experiment, quantity, target, variant, str(parameter))


def newcommand(name: str, value: str) -> str:
    return f"\\newcommand{{\\{name}}}{{{value}}}\n"


def _sig(x: float, digits: int) -> str:
    """Significant figures with trailing zeros kept and never an exponent."""
    if abs(x) >= 10**digits:  # 1234.5 -> 1230: no more figures than asked, and no exponent
        return f"{round(x, digits - 1 - math.floor(math.log10(abs(x)))):.0f}"
    return f"{x:#.{digits}g}".rstrip(".")


def _ends_differ(f, low: float, high: float) -> bool:
    return math.isnan(low) or f(low) != f(high)


WIDE_FACTOR = 10  # an interval whose ends differ by more than this factor reads as a range only


def ratio_text(
    ratio: float, low: float, high: float, tex: bool = True, digits: int | None = 3
) -> str:
    """The one format of a ratio with its 95 % interval: '1.51× [1.51, 1.52]'.

    An interval that contains 1 reads as 'no detectable difference (ratio between a and b)', and
    one wider than a factor of WIDE_FACTOR as a range with no point estimate. digits: significant
    figures (prose: 3); None gives at least 3 and more when the interval's ends would print alike
    (tables and the appendix)."""
    if ratio is None or math.isnan(ratio):
        return "--"
    times = r"$\times$" if tex else "×"
    if digits is None:
        for d in range(3, 8):
            f = lambda x, d=d: _sig(x, d)  # noqa: E731
            if _ends_differ(f, low, high):
                break
    else:
        f = lambda x: _sig(x, digits)  # noqa: E731
    if math.isnan(low) or math.isnan(high):
        return f"{f(ratio)}{times} (no interval)"
    if low <= 1 <= high:
        return f"no detectable difference (ratio between {f(low)} and {f(high)})"
    if low > 0 and high / low > WIDE_FACTOR:
        return f"ratio between {f(low)} and {f(high)}, too uncertain for a point estimate"
    return f"{f(ratio)}{times} [{f(low)}, {f(high)}]"


def ratio_point(ratio: float, tex: bool = True) -> str:
    """A ratio without its interval ('1.51×'), where a sentence gives a range of estimates."""
    if ratio is None or math.isnan(ratio):
        return "--"
    return _sig(ratio, 3) + (r"$\times$" if tex else "×")


def interval_text(ratio: float, low: float, high: float) -> str:
    """The plain-text form of ratio_text (CSV and Markdown), with the digits tables use."""
    return ratio_text(ratio, low, high, tex=False, digits=None)
