"""LaTeX helpers shared by tables, macros and figures: number format, escaping, macro names."""

from __future__ import annotations

import math
import re
from decimal import Decimal

_DIGITS = "Zero One Two Three Four Five Six Seven Eight Nine".split()


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
        # the plain-text number forms (tex=False) in math mode: as text they would come from the
        # TS1 companion font, which this TeX has only as bitmaps (Type 3 fonts in the PDF)
        "×": r"$\times$",
        "±": r"$\pm$",
        "µ": r"$\mu$",
        "→": r"$\rightarrow$",
        "⟨": r"$\langle$",
        "⟩": r"$\rangle$",
        "∞": r"$\infty$",
        "−": r"$-$",  # a minus sign written in plain text
    }
    # microseconds as siunitx prints them everywhere else (an upright µ; math's \mu is italic)
    parts = str(text).split("µs")
    return r"\si{\micro\second}".join("".join(repl.get(c, c) for c in p) for p in parts)


def first_upper(text: str) -> str:
    """The text with its first letter upper-case, as a sentence opens ('if neither …' -> 'If
    neither …'); the rest as it is."""
    return text[:1].upper() + text[1:]


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


def newcommand(name: str, value: str, key: str = "") -> str:
    """One generated value; key, when given, says which row of its file it comes from (a comment
    on the same line, which report.numbers reads into results/numbers.csv)."""
    return f"\\newcommand{{\\{name}}}{{{value}}}" + (f"% key: {key}" if key else "") + "\n"


def from_file(path) -> str:
    """A comment saying which file the generated values after it come from (report.numbers)."""
    return f"% file: {path}\n"


def _sig(x: float, digits: int) -> str:
    """Significant figures with trailing zeros kept and never an exponent (1234.5 -> 1230 in
    three: no more figures than asked; -4.94e-05 -> -0.0000494)."""
    if x == 0 or not math.isfinite(x):
        return f"{x:#.{digits}g}".rstrip(".")
    rounded = float(f"{x:.{digits - 1}e}")  # 9.996 -> 10.0: the magnitude after rounding
    decimals = digits - 1 - math.floor(math.log10(abs(rounded)))
    return f"{rounded:.{max(decimals, 0)}f}"


def ratio_figures(x: float, digits: int = 3) -> str:
    """A ratio or an end of its interval (_ratio_text's point and ends; the timer's range keeps
    its own figures): `digits` significant figures, but between 0.1 and 1 two decimals, as a
    ratio just above 1 carries ('0.97×' beside '1.08×', never '0.969×': cold
    readers took the third figure of a ratio below 1 for false precision; 0.998 prints 1.00)."""
    if math.isfinite(x) and 0.1 <= abs(x) < 1:
        text = f"{x:.2f}"
        # never onto 1 from below: an interval's end at 0.998 read as 1.00 hides that the
        # interval holds 1 (a review: the free claim, inconclusive, printed [1.00, 1.02])
        return text if abs(float(text)) < 1 else _sig(x, digits)
    return _sig(x, digits)


def _one_figure(x: float) -> str:
    """A half-width: one significant figure, never an exponent (0.0001, 0.02, 3)."""
    if x <= 0 or not math.isfinite(x):
        return "0"
    x = float(f"{x:.0e}")  # 9.99999e-05 -> 0.0001
    return f"{x:.{max(0, -math.floor(math.log10(x)))}f}"


WIDE_FACTOR = 10  # an interval whose ends differ by more than this factor reads as a range only
MAX_DIGITS = 3  # a ratio never prints more significant figures than this
TICKS_SHOWN = 20  # a statistic within this many timer steps prints its step count
_TIME_UNITS = (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1.0))
_SI = {"s": r"\si{\second}", "ms": r"\si{\milli\second}", "µs": r"\si{\micro\second}"}
_SI |= {"ns": r"\si{\nano\second}", "MB": r"\si{\mega\byte}"}
_IN_NS = {"s": 1e9, "ms": 1e6, "us": 1e3, "µs": 1e3}  # a time unit in ns


def quantity(value: float, unit: str, tex: bool = False) -> str:
    """A step or amount in its unit, times in the largest unit that keeps it >= 1 ('1 µs',
    '7.81 ms'); three significant figures. tex: the unit as siunitx prints it."""
    if unit in _IN_NS:  # '0.001 us' reads '1 ns': one unit spelling, µs never 'us'
        value, unit = value * _IN_NS[unit], "ns"
    if unit == "ns":
        unit, scale = next(((n, f) for n, f in _TIME_UNITS if abs(value) >= f), ("ns", 1.0))
        value /= scale
    text = _sig(value, 3)
    unit = _SI.get(unit, escape(unit)) if tex else unit
    return f"{text.rstrip('0').rstrip('.') if '.' in text else text} {unit}".strip()


_DURATION_UNITS = (("h", 3600.0), ("min", 60.0), ("s", 1.0))


def duration(seconds: float, tex: bool = False, digits: int = 2) -> str:
    """A wall-clock duration in the largest unit that keeps it >= 1 (seconds, minutes, hours), two
    significant figures: a run's time is no finer than that ('17 s', '4.7 min', '3.2 h'; below a
    second, quantity's units: '250 ms'). tex: number and unit kept on one line."""
    if seconds is None or not math.isfinite(seconds):
        return "--"
    if abs(seconds) < 1:
        return quantity(float(_sig(seconds * 1e9, digits)), "ns", tex)
    i = next(i for i, (_, f) in enumerate(_DURATION_UNITS) if abs(seconds) >= f)
    text = _sig(seconds / _DURATION_UNITS[i][1], digits)
    if i and float(text) >= 60:  # 59.6 s rounds to 60 s: 1.0 min
        text = _sig(float(text) * _DURATION_UNITS[i][1] / _DURATION_UNITS[i - 1][1], digits)
        i -= 1
    return f"{text}{'~' if tex else ' '}{_DURATION_UNITS[i][0]}"


def ticks(x: float, resolution: float) -> str:
    """x as a count of timer steps: '3 ticks', '1 tick', '2.2 ticks', '216 ticks'."""
    t = x / resolution
    text = f"{t:.1f}".rstrip("0").rstrip(".") if abs(t) < 10 else f"{t:.0f}"
    return f"{text} tick" + ("" if text == "1" else "s")


def resolution_digits(sides, resolution: float) -> int:
    """The significant figures a ratio of two statistics on a grid of this step can carry: the
    smaller side measured in steps, one figure per power of ten (1 to 9 steps: 1 figure;
    5,985 steps: 4)."""
    small = min(abs(s) for s in sides)
    if not resolution > 0 or not small > 0:
        return 1 if resolution > 0 else MAX_DIGITS
    return max(1, math.floor(math.log10(small / resolution)) + 1)


NUMBER_WORDS = "no one two three four five six seven eight nine ten".split()


def in_words(n: int) -> str:
    """A count in words up to ten ('four'), in figures above ('1023')."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def listed(items: list[str], conj: str = "and") -> str:
    """'a, b and c', or with conj 'or' 'a, b or c' (one item: itself; none: '')."""
    if not items:
        return ""
    return ", ".join(items[:-1]) + (f" {conj} " if len(items) > 1 else "") + items[-1]


# a name's unit suffix ('_mb': the study's own name of its block sizes, in its printed tables)
SETTING_UNITS = {"_mib": "MiB", "_mb": "MB", "_bytes": "bytes", "_s": "s", "_ns": "ns"}


def setting(parameter: str, value) -> str:
    """A parameter's value as prose: '800 MiB' for block_mib 800 (the unit its name ends in),
    'threads 8' where the name has no unit."""
    shown = fmt(value, tex=False) if isinstance(value, float) else str(value)
    for suffix, unit in SETTING_UNITS.items():
        if parameter.endswith(suffix):
            return f"{shown} {unit}"
    return f"{parameter} {shown}"


def fmt(x: float, resolution: float = math.nan, unit: str = "", tex: bool = True) -> str:
    """Three significant figures without exponent or thousands separators (pdftotext-friendly).
    resolution (the metric's timer step, in x's unit) and unit: a value within TICKS_SHOWN steps
    also gives its step count, '3.20 (3.2 ticks of 1 µs)'."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "--"
    ax = abs(x)
    if ax >= 100:
        text = f"{x:.0f}"
    elif ax >= 10:
        text = f"{x:.1f}"
    elif ax >= 1:
        text = f"{x:.2f}"
    elif ax == 0:
        text = "0"
    else:
        text = f"{x:.{min(6, 2 - math.floor(math.log10(ax)))}f}"
    return text + tick_note(x, resolution, unit, tex)


def tick_note(x: float, resolution: float, unit: str, tex: bool = True) -> str:
    """' (3.2 ticks of 1 µs)' for a value within TICKS_SHOWN steps of the timer's grid (x and
    resolution in `unit`), else ''."""
    try:
        near = resolution > 0 and abs(x) < TICKS_SHOWN * resolution
    except TypeError:
        return ""
    return f" ({ticks(x, resolution)} of {quantity(resolution, unit, tex)})" if near else ""


def tick_bounds(sides, resolution: float) -> tuple[tuple[float, float] | None, int]:
    """What a ratio of two statistics on a grid can be when each is off by up to one step (a
    mean's or a median's rounding to the grid is at most one step): the two ends and the figures
    that tell them apart (1.0588, 1.0940: 3, printed [1.06, 1.09]); (None, 0) where the divisor
    is within a step of zero."""
    a, b = sides
    if not (b - resolution > 0 and a - resolution >= 0):
        return None, 0
    low, high = (a - resolution) / (b + resolution), (a + resolution) / (b - resolution)
    for digits in range(2, 7):
        ends = _sig(low, digits), _sig(high, digits)
        if ends[0] != ends[1]:
            return (low, high), digits
    return None, 0


BARE_WORDS = (
    # what is true of it, no more (round 114: 'precise to its last digit' overclaimed for an
    # interval that straddles a rounding boundary)
    "a ratio without brackets: its interval is narrower than one unit of its last digit"
)


def bare(text: str) -> bool:
    """Whether a printed ratio is its point alone ('1.51×', '0.97×†'): an interval or a timer
    range narrower than the point's last digit prints no brackets (_ratio_text); a legend
    defines that form (BARE_WORDS) only where a cell uses it."""
    return "×" in text and not any(c in text for c in "[⟨→–(")


FEW_TICKS = 10  # a metric whose sides are both shorter than this prints in time first
# a few ticks whose timer's range covers 1: that their difference lies within one or two of the
# timer's ticks, in place of the ratio (cold readers met "equal to within a tick either way"
# beside an 8 % drop and asked why; later ones counted "not resolved: −0.43 µs, ..." as one
# more notation beside the two times that already show the difference)
UNRESOLVED = "within {ticks} timer tick{s}"
UNRESOLVED_SAID = re.compile(r"\(within (?:one|two) timer ticks?\)")  # in a printed cell


def notation(tex: bool = True) -> dict[str, str]:
    """The marks of the one ratio notation (ratio_text), for a legend that defines them once:
    times, the timer's brackets, a range's dash, the few ticks' arrow."""
    if tex:
        return {
            "times": r"$\times$",
            "open": r"$\langle$",
            "close": r"$\rangle$",
            "dash": "--",
            "arrow": r"$\rightarrow$",
            "pm": r"$\pm$",
            "infinity": r"$\infty$",
        }
    return {
        "times": "×",
        "open": "⟨",
        "close": "⟩",
        "dash": "–",
        "arrow": "→",
        "pm": "±",
        "infinity": "∞",
    }


def ratio_text(ratio: float, low: float, high: float, tex: bool = True, *args, **grid) -> str:
    """The one printed form of a ratio, _ratio_text's; a metric only a few ticks long (both
    sides under FEW_TICKS steps of its timer) prints its two values first, baseline then
    subject, and the ratio after them with its interval or range: '1.63 → 3.01 µs (1.85× [1.2,
    2.7])', the point beside its interval one figure finer, as the printed values divide; a
    range with no point prints as the range, '1.00 → 9.00 µs (1.2–40×)'; where a tick either way
    on each side could make the two equal, how many ticks hold their difference stands for the
    ratio (tick_unresolved): '5.17 → 4.74 µs (within one timer tick)'."""
    sides, resolution = grid.get("sides"), grid.get("resolution", math.nan)
    few = (
        sides is not None
        and resolution > 0
        and all(math.isfinite(x) for x in sides)
        and max(abs(x) for x in sides) < FEW_TICKS * resolution
        and ratio is not None
        and math.isfinite(ratio)
    )
    full = _ratio_text(ratio, low, high, tex, *args, **grid).replace("$$", "")  # $\langle\pm$
    if not few:
        return full
    mark = notation(tex)
    # the point, or the range where no point is printed: what precedes a bracket or a comma
    point = full.split(" [")[0].split(f" {mark['open']}")[0].split(",")[0].split(" (")[0]
    covers = grid.get("covers", "")
    after = f", {covers_words(covers, tex)}" if covers else ""  # as the other forms say it
    shown = few_ticks(*sides, grid.get("unit", "") or "ns", tex)
    # the ratio after the values keeps its interval or the timer's range, as every ratio does
    # (a cold read: '1.6 → 3.0 µs (1.9×)' dropped the interval the paper promises); what the
    # interval covers follows only an interval (a timer's range or a point covers nothing); a
    # ratio without one says so without brackets of its own, which would nest
    tail = after if after and full.endswith(after) else ""
    ratio_part = full.removesuffix(tail)
    bounds = timer_range(
        ratio, low, high, sides, grid.get("spreads"), resolution, grid.get("median", False)
    )
    # the timer's range where it stands for the interval (timer_range: tick_bounds' own), else
    # where the interval leaves the two times as alike as a tick could make them
    ticks, _ = tick_bounds(sides, resolution)
    if ticks and ticks[0] <= 1 <= ticks[1] and (bounds or low <= 1 <= high):
        # a tick either way on each side could make the two times equal, and neither the
        # timer's range nor the trials' interval sets them apart: said in words, which need no
        # notation of their own (three cold reads asked why the malloc's ⟨⟩ and the pipe's []
        # differ; three more why 5.50 -> 5.48 us printed a ratio where 5.17 -> 4.74 us did not)
        return f"{shown} ({tick_unresolved(*sides, resolution, grid.get('unit', '') or 'ns')})"
    if "(no interval)" in ratio_part:
        ratio_part = f"{point}, no interval"
    figures = re.match(r"[\d.]+", point)
    if figures and point == figures[0] + mark["times"]:  # a point, not a range
        # the point one figure finer where the printed times would divide to another one (cold
        # reads divided 3.01 by 1.63, got 1.85 and met 1.9), never past MAX_DIGITS; not always
        # three: a point alone says its interval is narrower than its last digit (BARE_WORDS),
        # and a side a tick or two long carries fewer figures (resolution_digits). Beside its
        # interval, one figure finer always, as the printed times divide (two pipe writes of
        # like times printed 1.85× and 1.8× under the first rule alone: two cold reads), where
        # that point lies within its interval and is no ratio below 1 (ratio_figures' two
        # decimals); a timer's range says the ticks allow no finer point
        digits = len(figures[0].replace(".", "").lstrip("0"))
        given = float(_sig(sides[0], MAX_DIGITS)) / float(_sig(sides[1], MAX_DIGITS))
        finer = _sig(given, digits + 1)
        beside = (
            ratio_part[len(point) :].lstrip().startswith("[")
            and given >= 1
            and low <= float(finer) <= high
        )
        if beside and digits < MAX_DIGITS:
            ratio_part = finer + ratio_part[len(figures[0]) :]
        elif _sig(given, digits) != figures[0] and digits < MAX_DIGITS:
            ratio_part = _sig(ratio, digits + 1) + ratio_part[len(figures[0]) :]
    return f"{shown} ({ratio_part}){tail}"


def _ratio_text(
    ratio: float,
    low: float,
    high: float,
    tex: bool = True,
    digits: int | None = MAX_DIGITS,
    *,
    counted: bool = True,  # kept for callers; the ticks print in the few-ticks form only
    sides: tuple[float, float] | None = None,
    spreads: tuple[float, float] | None = None,
    resolution: float = math.nan,
    unit: str = "",
    covers: str = "",
    median: bool = False,
) -> str:
    """The one format of a ratio with its interval (READ31's notation, defined once in Table 1's
    legend and Section 3, then used bare):

    - '1.51× [1.49, 1.53]': the interval (an interval that contains 1 prints alike);
    - '0.92× ⟨0.60, 1.4⟩': the range a tick of the timer either way allows (tick_bounds), in
      place of an interval the grid makes meaningless (_on_grid: a median, or a metric a few
      ticks long, on one or two grid points or finer than the grid lets a ratio be printed);
      '13× ⟨6.2, ∞⟩' where the divisor is within a tick of zero;
    - '1.51×': the point alone, where the interval or the timer's range is narrower than its
      last digit (brackets would only repeat the point, BARE_WORDS);
    - '4.2–130×': an interval wider than a factor of WIDE_FACTOR, too uncertain for a point.

    At most MAX_DIGITS significant figures (digits: fewer), never fewer than two for a point or
    an end (one figure would move 0.46 to 0.5, onto or past an end), and
    no more than the timer's resolution allows (sides: the two statistics the ratio divides, in
    `unit`; resolution: the grid their values sit on). covers: what the interval covers
    ('within one run', 'between runs'), said after it only where a caller asks (a legend says
    it once)."""
    if ratio is None or math.isnan(ratio):
        return "--"
    m = notation(tex)
    times = m["times"]
    digits = min(MAX_DIGITS, digits or MAX_DIGITS)
    gridded = sides is not None and resolution > 0 and all(math.isfinite(s) for s in sides)
    if gridded:
        digits = min(digits, resolution_digits(sides, resolution))
    # the figures the ratio carries decide the form; it prints in two at least: 1.17 printed as
    # 1 would read as an interval that reaches 1, 0.46 as 0.5 as a point on its interval's end
    carried = lambda x: _sig(x, digits)  # noqa: E731
    f = lambda x: ratio_figures(x, max(digits, 2))  # noqa: E731
    after = f", {covers_words(covers, tex)}" if covers else ""
    if math.isnan(low) or math.isnan(high):
        return f"{f(ratio)}{times} (no interval)"
    if carried(low) == carried(high) and _on_grid(
        ratio, low, high, sides, spreads, resolution, digits, median
    ):
        # the timer's range is no interval: nothing said of what an interval covers (a cold
        # read met '⟨1.33, 1.33⟩, the spread within one run' and took it for a contradiction)
        return _timer_text(ratio, sides, resolution, f, m)
    if f(low) == f(high):
        # the interval within the point's last digit: the point alone, never '[±0.00002]', and
        # nothing said of an interval that is not printed
        return f"{f(ratio)}{times}"
    if low > 0 and high / low > WIDE_FACTOR:
        return f"{_sig(low, 2)}{m['dash']}{_sig(high, 2)}{times}{after}"
    shown = len(f(ratio).replace(".", "").replace("-", "").lstrip("0"))  # figures printed
    if _touches(ratio, low, high, f) and shown < MAX_DIGITS:
        # an end printed as the point though they differ ('0.50× [0.40, 0.50]' reads as a point
        # on its interval's edge): one more figure for all three, never past MAX_DIGITS
        more = min(shown + 1, MAX_DIGITS)
        f = lambda x: _sig(x, more)  # noqa: E731
        if f(low) == f(high):  # alike at the finer figures too: the point alone
            return f"{f(ratio)}{times}"
    elif _touches(ratio, low, high, f) and high - low < _last_digit(f(ratio)):
        # at the figures prose carries, an interval narrower than the point's last digit that
        # only straddles a rounding edge ('1.07× [1.06, 1.07]', which cold reads took for an
        # error): the point alone, as BARE_WORDS says it
        return f"{f(ratio)}{times}"
    ends = [f(low), f(high)]
    if _touches(ratio, low, high, f):
        # at three figures an end still prints as the point though the interval is wider than
        # its last digit ('1.03× [1.02, 1.03]', which two readers of round 106 took for a point
        # on its edge): that end one unit of its last digit outward, so that the printed
        # interval still holds the computed one
        ends = [_outward(e, f(ratio), -1 if i == 0 else 1) for i, e in enumerate(ends)]
    return f"{f(ratio)}{times} [{ends[0]}, {ends[1]}]{after}"  # as many figures as its ends


def _outward(end: str, point: str, way: int) -> str:
    """A printed end that equals the printed point, moved one unit of its last digit away from
    it (way -1: the low end, +1: the high end); any other end as printed."""
    if end != point:
        return end
    d = Decimal(end)
    return str(d + way * Decimal(1).scaleb(d.as_tuple().exponent))


def _touches(ratio: float, low: float, high: float, f) -> bool:
    """Whether an end of the interval prints as the point (f: the figures printed) while the
    unrounded values differ."""
    return any(f(end) == f(ratio) and end != ratio for end in (low, high))


def _timer_text(ratio, sides, resolution, f, m) -> str:
    """The timer's range in its own brackets, '0.92× ⟨0.60, 1.4⟩'; the point alone, '1.51×',
    where the range is narrower than the point's last digit."""
    times, a, b = m["times"], m["open"], m["close"]
    bounds, figures = tick_bounds(sides, resolution)
    if not bounds:  # the divisor within a tick of zero: no upper end
        low = max(sides[0] - resolution, 0.0) / (sides[1] + resolution)
        return f"{f(ratio)}{times} {a}{_sig(low, 2)}, {m['infinity']}{b}"
    if _sig(bounds[0], MAX_DIGITS) == _sig(bounds[1], MAX_DIGITS) or (
        bounds[1] - bounds[0] < _last_digit(f(ratio)) / 2
    ):
        # ends apart only beyond three figures, which prose does not carry, or a range narrower
        # than half the point's last digit that only straddles a rounding edge (22.12's math
        # CPU time, 1.3250 to 1.3257 on a 7.81 ms tick, would print ⟨1.32, 1.33⟩ and read as a
        # tick near 100 ms): the point alone
        return f"{f(ratio)}{times}"
    figures = min(figures, MAX_DIGITS)
    lo, hi, point = (_sig(x, figures) for x in (*bounds, ratio))
    return f"{point}{times} {a}{lo}, {hi}{b}"


def ranged_text(ratio: float, low: float, high: float, tex: bool = True) -> str:
    """A ratio with a timer's range its caller derived, in two significant figures (a range
    wide enough for a caller to derive it is no finer): '0.50× ⟨0.22, 0.93⟩'; the point alone
    where the ends print alike."""
    m = notation(tex)
    f = lambda x: _sig(x, 2)  # noqa: E731
    if f(low) == f(high):
        return f"{f(ratio)}{m['times']}"
    return f"{f(ratio)}{m['times']} {m['open']}{f(low)}, {f(high)}{m['close']}"


def _last_digit(text: str) -> float:
    """The value of a printed number's last digit ('1.33' -> 0.01, '130' -> 1)."""
    return 10.0 ** -len(text.partition(".")[2])


def _on_grid(ratio, low, high, sides, spreads, resolution, digits=MAX_DIGITS, median=False) -> bool:
    """Whether ratio_text prints the timer's bound in place of the interval, only where the
    interval's ends round alike: every resample's statistic on the same point (a median of tied
    values), or a median (median) or a metric only a few ticks long (FEW_TICKS) whose values sit
    on one or two grid points or whose interval is finer than the grid lets a ratio be printed
    (the interval is the grid's, never a certainty, '± 0')."""
    gridded = sides is not None and resolution > 0 and all(math.isfinite(s) for s in sides)
    if not gridded or not (math.isfinite(low) and math.isfinite(high)):
        return False
    digits = min(digits, MAX_DIGITS, resolution_digits(sides, resolution))
    if _sig(low, digits) != _sig(high, digits):
        return False
    if high == low:  # every resample on one point: no interval at all
        return True
    # a metric only a few ticks long: how its program rounded to the grid can bias the ratio
    # itself, which the trials cannot average out. A longer one's trials start at random points
    # between ticks, so the grid averages out in their mean and the interval stands; a median
    # is one of the values, on the grid, and averages nothing out
    if not median and max(abs(s) for s in sides) >= FEW_TICKS * resolution:
        return False
    half = _one_figure(max(high - ratio, ratio - low))
    figures = len(half.partition(".")[2]) + (math.floor(math.log10(abs(ratio))) + 1 if ratio else 0)
    return (spreads is not None and min(spreads) < resolution) or figures > resolution_digits(
        sides, resolution
    )


def timer_range(ratio, low, high, sides=None, spreads=None, resolution=math.nan, median=False):
    """The timer's range (a tick either way) where ratio_text prints it in the interval's place,
    in angle brackets (_on_grid; median: the ratio is of medians); None where it prints the
    interval."""
    if _on_grid(ratio, low, high, sides, spreads, resolution, median=median):
        bounds, _ = tick_bounds(sides, resolution)
        return bounds
    return None


def shown_ends(ratio, low, high, sides=None, spreads=None, resolution=math.nan, median=False):
    """The two ends ratio_text gives a ratio: the timer's bound where it takes the interval's
    place (timer_range; printed in brackets, or as a difference in ticks where it holds 1), else the
    interval's; what a figure draws and a 'within N %' reads, so that neither says more than the
    tables."""
    return timer_range(ratio, low, high, sides, spreads, resolution, median) or (low, high)


def comparison_text(row, statistic: str = "mean", tex: bool = True, covers: bool = False) -> str:
    """ratio_text of a row of results/comparisons.csv (a namedtuple, Series or dict): its ratio
    of means or of medians (statistic), with the sides, spreads and resolution the row carries
    (a row without them prints as ratio_text alone); covers: also what its interval covers, which
    a legend or a paragraph otherwise says once (interval_words)."""
    get = row.get if hasattr(row, "get") else lambda k, d=None: getattr(row, k, d)
    pre = "median_" if statistic == "median" else ""
    side, ref = ("median", "reference_median") if pre else ("mean", "reference_mean")

    def num(key):
        value = get(key, math.nan)
        try:
            return float(value)
        except (TypeError, ValueError):
            return math.nan

    sides = (num(side), num(ref))
    spreads = (num("sd"), num("reference_sd"))
    how = get("interval_covers", "") if covers else ""
    return ratio_text(
        num(f"{pre}ratio"),
        num(f"{pre}ci95_low"),
        num(f"{pre}ci95_high"),
        tex=tex,
        median=bool(pre),
        sides=sides if all(math.isfinite(s) for s in sides) else None,
        spreads=spreads if all(math.isfinite(s) for s in spreads) else None,
        resolution=num("resolution"),
        unit=str(get("unit", "") or ""),
        covers=how if isinstance(how, str) else "",
    )


def ratio_point(ratio: float, tex: bool = True) -> str:
    """A ratio without its interval ('1.51×'), where a sentence gives a range of estimates."""
    if ratio is None or math.isnan(ratio):
        return "--"
    return ratio_figures(ratio) + (r"$\times$" if tex else "×")


def interval_text(ratio: float, low: float, high: float, **grid) -> str:
    """The plain-text form of ratio_text (CSV and Markdown); grid: ratio_text's keywords."""
    return ratio_text(ratio, low, high, tex=False, **grid)


# What an interval covers, said the same way in abstract, tables, body and conclusion: over one
# run's trials it is the spread within that run, never a 95 % interval of the effect.
COVERS_WORDS = {
    "within one run": "the spread within one run",
    "between runs": "95\\,\\% interval between runs",
}


def covers_words(covers: str, tex: bool = True) -> str:
    words = COVERS_WORDS.get(covers, covers)
    return words if tex else words.replace("\\,\\%", " %")


def amount(x: float, unit: str = "ns", tex: bool = True, digits: int = MAX_DIGITS) -> str:
    """An amount in prose: at most three significant figures and its unit ('60.1 ns'; digits=2
    where a single run's figure is quoted in prose, '60 ns'); signed where it is a difference
    that went down ('-0.258 ns')."""
    if x is None or not math.isfinite(x):
        return "--"
    text = _sig(abs(x), digits)
    text = text.rstrip("0").rstrip(".") if "." in text and abs(x) >= 10**digits else text
    minus = ("$-$" if tex else "-") if x < 0 else ""
    # a tie in LaTeX: a figure and its unit never part at a line's end ('60' / 'ns', round 168)
    if tex and unit in _SI:
        return f"{minus}{text}~{_SI[unit]}"
    return f"{minus}{text} {unit}"


def figures_of(said: str) -> str:
    """An amount's figures without its unit ('60~\\si{…}' or '60 cycles' -> '60'): amount ties
    a unit it typesets with '~' and leaves others after a space."""
    return re.split(r"[ ~]", said, maxsplit=1)[0]


def amount_interval(
    x: float, low: float, high: float, unit: str = "ns", covers: str = "", tex: bool = True
) -> str:
    """The one form of an amount with its interval: '60.1 ns [60.0, 60.1], the spread within one
    run' (covers: what the interval covers, COVERS_WORDS); '60.1 ns' alone where the interval
    is narrower than its last digit."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return amount(x, unit, tex)
    said = f", {covers_words(covers, tex)}" if covers else ""
    ends = [figures_of(amount(v, unit, tex)) for v in (low, high)]
    if ends[0] == ends[1]:  # narrower than the last figure prose carries: the amount alone
        return amount(x, unit, tex)
    return f"{amount(x, unit, tex)} [{', '.join(ends)}]{said}"


def timer_bound(bound: float, unit: str = "ns", tex: bool = True) -> str:
    """A bound from the timer's resolution, in its own notation, never an interval's brackets:
    'timer step ±0.0391 ns'."""
    if bound is None or not math.isfinite(bound):
        return "--"
    pm = r"$\pm$" if tex else "±"
    return f"timer step {pm}{amount(bound, unit, tex)}"


def _few_tick_parts(a: float, b: float, unit: str) -> tuple[str, str, str, float]:
    """A few-tick pair as it prints: (baseline's value, subject's value, unit, the unit's size in
    the values' unit), three significant figures each; a time in ns prints in the unit of the
    larger side, so the arrow joins like with like; any other unit as it is."""
    scale = 1.0
    if unit == "ns":
        unit, scale = next(((n, f) for n, f in _TIME_UNITS if max(abs(a), abs(b)) >= f), ("ns", 1))
    return _sig(b / scale, MAX_DIGITS), _sig(a / scale, MAX_DIGITS), unit, scale


def few_ticks(a: float, b: float, unit: str = "ns", tex: bool = True) -> str:
    """A metric only a few ticks long, in its unit: the baseline's value, then the subject's,
    three significant figures, the most a figure prints (a mean over many trials resolves less
    than a tick): '1.63 → 3.01 µs' (a, b: subject and baseline in `unit`; the tick is the
    legend's to say). Always three, so that one side's value prints alike beside every
    partner (hybrid's pipe write is 1.63 µs in Table 1 and in Table 9), and the ratio printed
    after them follows from them."""
    before, after, unit, _ = _few_tick_parts(a, b, unit)
    shown = _SI.get(unit, escape(unit)) if tex else unit
    return f"{before} {notation(tex)['arrow']} {after} {shown}"


def tick_unresolved(a: float, b: float, resolution: float, unit: str = "ns") -> str:
    """A few-tick pair the timer cannot tell apart (ratio_text), in the ratio's place: how many
    of the timer's ticks hold the difference of the two values as few_ticks prints them (so a
    reader's subtraction agrees): 'within one timer tick'. A pair whose timer's range holds 1
    differs by at most two ticks (tick_bounds: (a - t)/(b + t) <= 1 <= (a + t)/(b - t) is
    |a - b| <= 2t)."""
    before, after, unit, scale = _few_tick_parts(a, b, unit)
    d = float(after) - float(before)
    # counted on the printed difference, the one a reader sees (1.00 µs is one tick of 1 µs)
    n = 1 if abs(d) * scale <= resolution * (1 + 1e-9) else 2
    return UNRESOLVED.format(ticks=("one", "two")[n - 1], s="s" * (n > 1))
