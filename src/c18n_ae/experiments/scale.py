"""E1 compartments at scale: how many instances of a compartmentalised workload fit in memory."""

from __future__ import annotations

from c18n_ae.common import student_t
from c18n_ae.common.latex import (
    amount,
    escape,
    fmt,
    gen_name,
    listed,
    newcommand,
    quantity,
)
from c18n_ae.common.lazy import np, pd
from c18n_ae.common.names import short_release
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment
from c18n_ae.experiments.layouts import TIMES, Layout
from c18n_ae.experiments.outputs import Column, Figure, Inputs, Panel, Series, Table
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import INTEGRATION
from c18n_ae.experiments.rows import (
    by_target,
    series,
)

REASONS = ("memory_fraction", "budget", "max_instances")
REASON_TEXT = {
    "memory_fraction": "memory fraction reached",
    "budget": "added-memory budget reached",
    "max_instances": "instance cap reached",
    "": "did not stop",
}


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        if row["status"] != "ok":
            raise RawDataError(
                f"{raw}:{line}: column status: unexpected {row['status']!r} (allowed: ok)"
            )
        if row["stop_reason"] not in ("",) + REASONS:
            raise RawDataError(
                f"{raw}:{line}: column stop_reason: unexpected {row['stop_reason']!r} "
                f"(allowed: {', '.join(REASONS)})"
            )
        n = number(raw, line, "instances", row["instances"])
        out.append(
            (
                int(n),
                "instances",
                n,
                "memory_used_mib",
                number(raw, line, "memory_used_mib", row["memory_used_mib"]),
                "MiB",
                "ok",
            )
        )
        out.append(
            (
                int(n),
                "instances",
                n,
                "instances_rss_mib",
                number(raw, line, "instances_rss_mib", row["instances_rss_mib"]),
                "MiB",
                "ok",
            )
        )
        out.append(
            (
                int(n),
                "instances",
                n,
                "elapsed_ms",
                number(raw, line, "elapsed_ms", row["elapsed_ms"]),
                "ms",
                "ok",
            )
        )
        for r in REASONS:
            if row["stop_reason"] == r:
                out.append((int(n), "instances", n, f"stopped_by_{r}", 1.0, "flag", "ok"))
    return out


# A slope is quoted only where a straight line fits (issue 23.6): memory that rises and then
# stops growing is two segments, and the slope of one line through both averages them.
MIN_SEGMENT = 10  # points in each of two segments
SEGMENT_GAIN = 0.5  # two segments replace one line when they leave under this share of its SSE
KNEE_SHARE = 0.2  # a second segment rising at under this share of the first: growth stopped
AUTOCORRELATED = 0.5  # lag-1 autocorrelation of residuals above which OLS gives no interval


def _sse(n, sx, sy, sxx, sxy, syy):
    """Squared residuals of the least-squares line through points with these sums (arrays)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        vxx, vxy, vyy = sxx - sx * sx / n, sxy - sx * sy / n, syy - sy * sy / n
        return np.where(vxx > 0, vyy - vxy * vxy / vxx, vyy)


def line(x: np.ndarray, y: np.ndarray) -> dict:
    """Least-squares slope with its 95 % interval (Student's t), unless the residuals are
    autocorrelated (lag-1 correlation r1 above AUTOCORRELATED: neighbouring points share their
    error, and the OLS interval would claim a precision the series does not have)."""
    if len(x) < 3 or np.ptp(x) == 0:
        slope = float(np.polyfit(x, y, 1)[0]) if len(x) >= 2 and np.ptp(x) > 0 else np.nan
        return {"slope": slope, "low": np.nan, "high": np.nan, "r1": np.nan}
    slope, intercept, stderr = _linregress(np.asarray(x), np.asarray(y))
    res = y - (intercept + slope * x)
    r1 = float(np.corrcoef(res[:-1], res[1:])[0, 1]) if res.std() > 0 and len(x) > 3 else np.nan
    half = student_t.quantile(len(x) - 2, 0.975) * stderr  # scipy.stats.t.ppf's value
    if r1 > AUTOCORRELATED:
        half = np.nan
    return {"slope": float(slope), "low": slope - half, "high": slope + half, "r1": r1}


def _linregress(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Slope, intercept and the slope's standard error of scipy.stats.linregress, by its own
    operations (the same values to the last bit), for 3 or more points of differing x: importing
    scipy.stats takes half a second, in each job that prints E1 (its table, macros, findings)."""
    ssxm, ssxym, _, ssym = np.cov(x, y, bias=1).flat
    if ssxm == 0.0 or ssym == 0.0:
        r = np.asarray(np.nan if ssxym == 0 else 0.0)[()]
    else:
        r = min(max(ssxym / np.sqrt(ssxm * ssym), -1.0), 1.0)
    slope = ssxym / ssxm
    intercept = np.mean(y, None) - slope * np.mean(x, None)
    return slope, intercept, np.sqrt((1 - r**2) * ssym / ssxm / (len(x) - 2))


PEAK_SHARE = 1.05  # a peak this far above the level memory settled at is said
PEAK_BEFORE = 0.8  # ... and reached before this share of the run after the knee (not a late creep)


def _peaked(f: dict, shown) -> bool:
    """Whether memory in use rose well past the level it settled at after its knee, early enough
    to have settled after it, and prints apart from that level (shown: the printed form)."""
    peak, level = f.get("peak_mib", np.nan), f["plateau_mib"]
    return bool(
        peak > PEAK_SHARE * level
        and f.get("peak_at", np.nan) < PEAK_BEFORE
        and shown(peak) != shown(level)
    )


def _after_knee(f: dict, shown, flat: str) -> str:
    """What memory in use did after its knee, in shown's figures: 'peaked near 14 GiB and
    settled near 13 GiB' where it peaked (_peaked; a cold read met 'levelled off near 13 GiB'
    beside a figure that rises to 14.5 GiB first), else flat ('levelled off') near its level."""
    level = shown(f["plateau_mib"]).removeprefix("about ")
    if _peaked(f, shown):
        return f"peaked near {shown(f['peak_mib']).removeprefix('about ')} and settled near {level}"
    return f"{flat} near {level}"


def segments(x, y) -> dict:
    """One line, or two segments where they fit much better (their squared residuals under
    SEGMENT_GAIN of the line's, each at least MIN_SEGMENT points; the split found over every
    point at once from prefix sums: linear in the points). The quoted slope is the first
    segment's (the rise); `knee` is the first x of the second segment, and where it rises at
    under KNEE_SHARE of the first, `plateau` is its mean level (where growth stopped)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    out = {"knee": np.nan, "after": np.nan, "plateau": np.nan, "saturated": False}
    out |= {"peak": np.nan, "peak_at": np.nan}
    n = len(x)
    if n >= 2 * MIN_SEGMENT:
        sums = [np.concatenate([[0.0], np.cumsum(v)]) for v in (x, y, x * x, x * y, y * y)]
        k = np.arange(MIN_SEGMENT, n - MIN_SEGMENT + 1)
        left = _sse(k, *(c[k] for c in sums))
        right = _sse(n - k, *(c[n] - c[k] for c in sums))
        best = int(np.argmin(left + right))
        whole = float(_sse(n, *(c[n] for c in sums)))
        if whole > 0 and (left + right)[best] < SEGMENT_GAIN * whole:
            cut = int(k[best])
            first, second = line(x[:cut], y[:cut]), line(x[cut:], y[cut:])
            out.update(first, knee=x[cut], after=second["slope"])
            if first["slope"] > 0 and second["slope"] < KNEE_SHARE * first["slope"]:
                tail = y[cut:]
                out.update(
                    plateau=float(tail.mean()),
                    saturated=True,
                    peak=float(tail.max()),
                    peak_at=float(np.argmax(tail) / len(tail)),  # share of the tail before it
                )
            return out
    return {**out, **line(x, y)}


def fit(summary: pd.DataFrame, target: str, variant: str) -> dict:
    """Instances, memory added, and per instance: memory in use (segments: the rise, where it
    stops growing, its plateau), the instances' own memory and the time elapsed."""
    s = summary[(summary.source == target) & (summary.variant == variant)]
    mem = s[s.metric == "memory_used_mib"].sort_values("parameter_value")
    ela = s[s.metric == "elapsed_ms"].sort_values("parameter_value")
    rss = s[s.metric == "instances_rss_mib"].sort_values("parameter_value")
    x = mem.parameter_value.astype(float).to_numpy()
    stopped = s[s.metric.str.startswith("stopped_by_")]
    reason = stopped.metric.iloc[0].removeprefix("stopped_by_") if len(stopped) else ""
    memory = segments(x, mem["mean"].to_numpy())
    time = segments(
        ela[ela.parameter_value > 0].parameter_value.astype(float),
        ela[ela.parameter_value > 0]["mean"],
    )
    return {
        "variant": variant,
        "instances": int(x.max()) if len(x) else 0,
        "mib_per_instance": memory["slope"],
        "mib_low": memory["low"],
        "mib_high": memory["high"],
        "mib_r1": memory["r1"],
        "knee": memory["knee"],
        "plateau_mib": memory["plateau"],
        "peak_mib": memory["peak"],
        "peak_at": memory["peak_at"],
        "saturated": memory["saturated"],
        "mib_after": memory["after"],
        "rss_mib_per_instance": segments(
            rss.parameter_value.astype(float).to_numpy(), rss["mean"].to_numpy()
        )["slope"],
        "ms_per_instance": time["slope"],
        "ms_knee": time["knee"],
        "ms_after": time["after"],
        "added_mib": float(mem["mean"].iloc[-1] - mem["mean"].iloc[0])
        if len(mem)
        else float("nan"),
        "reason": reason,
    }


def memory(mib: float) -> str:
    """Memory in prose: three significant figures, in GiB from 1 GiB on ('13.1\\,GiB', never
    '13386\\,MiB')."""
    if abs(mib) >= 1024:
        return amount(mib / 1024, "GiB").replace(" ", "\\,")
    return amount(mib, "MiB").replace(" ", "\\,")


def milliseconds(ms: float) -> str:
    """A time per instance in its natural unit, three figures ('514 ms', '2.58 s')."""
    return quantity(ms, "ms", tex=True).replace(" ", "\\,")


def slope_change(f: dict) -> str:
    """Where the rise of memory in use changes: '2621, then flat at 13400' (MiB), '241, then 26.4
    each' (MiB per instance), or '--' where one line fits."""
    if np.isnan(f["knee"]):
        return "--"
    if f["saturated"]:
        return f"{int(f['knee'])}, then flat at {memory(f['plateau_mib'])}"
    return f"{int(f['knee'])}, then {fmt(f['mib_after'])} each"


def ms_cell(f: dict, unit: str = "") -> str:
    """Time per instance, and where a second segment starts: '514 to instance 198, then 530'
    (with unit: '514\\,ms ...')."""
    u = f"\\,{unit}" if unit else ""
    if np.isnan(f["ms_knee"]):
        return fmt(f["ms_per_instance"]) + u
    return (
        f"{fmt(f['ms_per_instance'])}{u} to instance {int(f['ms_knee'])}, "
        f"then {fmt(f['ms_after'])}{u}"
    )


def interval(f: dict) -> str:
    """The memory slope's interval, or why it has none."""
    if np.isnan(f["mib_low"]):
        if f["mib_r1"] > AUTOCORRELATED:  # the correlation itself is in the HTML report's table
            return "no interval: neighbouring points' errors go together"
        return "no interval"
    return f"95\\,\\% interval [{fmt(f['mib_low'])}, {fmt(f['mib_high'])}]"


CAPTION = (
    r"E1 scale: instances started, memory added (MiB, $2^{20}$ bytes, the study's MB included), "
    r"memory and elapsed time per instance (least-squares slopes, and where a slope changes), "
    r"and what stopped the run. The time per instance includes the pause after each start "
    r"(the study's script sleeps 0.5\,s, ours \texttt{interval\_s}); the study's count is of "
    r"the processes its script started, none checked to be running."
)


def table(data: Inputs) -> Table:
    summary, rows = data.summary, []
    for target, variant in series(summary):
        f = fit(summary, target, variant)
        # a data set may record neither the instances' own memory nor why it stopped
        recorded = (
            (summary.source == target)
            & (summary.variant == variant)
            & (summary.metric == "instances_rss_mib")
        ).any()
        rows.append(
            [escape(target), escape(variant), str(f["instances"]), fmt(f["added_mib"])]
            + [fmt(f["mib_per_instance"]), slope_change(f)]
            + [fmt(f["rss_mib_per_instance"]) if recorded else "not recorded"]
            + [ms_cell(f), REASON_TEXT[f["reason"]] if recorded else "not recorded"]
        )
    columns = (
        Column("Source", align="l"),
        Column("Variant", align="l"),
        Column("Instances"),
        Column("Added", "MiB"),
        Column(r"\si{\mebi\byte} per instance (system)"),
        Column(r"Slope changes at instance (\si{\mebi\byte})", align=r"p{2.2cm}"),
        Column(r"\si{\mebi\byte} per instance (RSS)"),
        Column(r"\si{\milli\second} per instance, with the pause", align=r"p{2.4cm}"),
        Column("Stopped by", align="l"),
    )
    return Table(columns, [rows], CAPTION)


def macros(summary: pd.DataFrame, references: dict) -> str:
    out = []
    for target, variant in series(summary):
        f = fit(summary, target, variant)
        quoted = {
            "instances": str(f["instances"]),
            "mib per instance": fmt(f["mib_per_instance"]),
            "slope changes at": slope_change(f),
            "rss mib per instance": fmt(f["rss_mib_per_instance"]),
            "ms per instance": fmt(f["ms_per_instance"]),
            "stopped by": REASON_TEXT[f["reason"]],
        }
        out += [newcommand(gen_name("Scale", q, target, variant), v) for q, v in quoted.items()]
    return "".join(out)


def figure(data: Inputs) -> Figure:
    """Memory in use against instances, one panel per target or data set (elapsed time: table)."""
    summary = data.valid
    mem = summary[summary.metric == "memory_used_mib"].sort_values("parameter_value")
    panels = [
        Panel(
            target,
            [
                Series(variant, list(s.parameter_value), list(s["mean"]))
                for variant in variants
                for s in [mem[(mem.source == target) & (mem.variant == variant)]]
            ],
        )
        for target, variants in by_target(summary)
    ]
    return Figure(
        "lines",
        "E1 scale: memory in use against instances",
        panels,
        "memory in use (MiB)",
        "instances started",
    )


def _study_script(source: str) -> bool:
    """The source is a data set: the study's script started its instances (its pause after each
    start and its count, dataset.yaml timing.scale)."""
    from c18n_ae.common import datasets

    return (datasets.directory(source) / "dataset.yaml").exists()


def _about(x: float, unit: str) -> str:
    """A slope with no interval (one run, autocorrelated residuals) in prose: two significant
    figures after 'about', milliseconds of a second or more in seconds ('about 2.6\\,s')."""
    if unit == "ms" and abs(x) >= 1000:
        x, unit = x / 1000, "s"
    if unit == "MiB" and abs(x) >= 1024:
        x, unit = x / 1024, "GiB"
    text = (
        f"{x:#.2g}".rstrip(".") if abs(x) < 100 else f"{round(x, -int(np.log10(abs(x))) + 1):.0f}"
    )
    return f"about {text}\\,{unit}"


def _where(source: str, study: bool) -> str:
    """A data set by its release ('the 24.05 data'), a target by its name."""
    if study:
        from c18n_ae.common import datasets

        release = datasets.load(source).get("release", "")
        if release:
            return f"the {escape(short_release(release))} data"
    return f"\\texttt{{{escape(source)}}}"


def _two(x: float) -> str:
    """A slope in two significant figures, without 'about' or unit ('15', '4.6')."""
    return _about(x, "MiB").removeprefix("about ").split("\\,")[0]


def _fits(source: str, summary: pd.DataFrame) -> list[dict]:
    """Each variant's fit on the source, where a slope per instance could be fitted."""
    fits = [
        fit(summary, source, v) for v in dict.fromkeys(summary[summary.source == source].variant)
    ]
    return [f for f in fits if f["instances"] >= 3 and not np.isnan(f["mib_per_instance"])]


def _about_range(slopes: list[float]) -> str:
    """'about 15\\,MiB' or 'about 25 to 26\\,MiB': slopes in MiB per instance, in two figures."""
    low, high = _two(min(slopes)), _two(max(slopes))
    return f"about {low}\\,MiB" if low == high else f"about {low} to {high}\\,MiB"


def _one_per_variant(fits: list[dict]) -> str:
    """', one run per variant' where several runs are counted: whose counts they are."""
    return ", one run per variant" if len(fits) > 1 else ""


def _compartments_only(source: str, summary: pd.DataFrame) -> bool:
    """Every variant the data set ran E1 with is in compartments (dataset.yaml's c18n): no
    baseline to take the compartments' share of an instance's memory from."""
    from c18n_ae.common import datasets

    variants = datasets.load(source).get("variants", {})
    ran = dict.fromkeys(summary[summary.source == source].variant)
    return bool(ran) and all((variants.get(v) or {}).get("c18n") is True for v in ran)


def _other_slopes(source: str, summary: pd.DataFrame) -> list[tuple[str, float]]:
    """(data set, 4.6) for each other study data set: its lowest first slope in MiB per instance,
    in the two figures its own sentence prints, to compare with this one's."""
    out = []
    for other in dict.fromkeys(summary.source):
        if other == source or not _study_script(other):
            continue
        slopes = [float(_two(f["mib_per_instance"])) for f in _fits(other, summary)]
        if slopes:
            out.append((other, min(slopes)))
    return out


def findings(source: str, summary: pd.DataFrame, verdicts=None) -> list[str]:
    """The body's E1 sentence on a study's data set: what it shows first (each instance costs
    memory; the instances at which the script's memory limit stopped it; with compartments alone,
    not how much of it they take; the gap to another data set's slope unexplained), in one or two
    numbers (the memory per instance, the instances reached); where memory in use levels off,
    where it does and that the script's later count is of processes started. Each variant's
    slopes, segments and elapsed time are the appendix's (details). A target's run: details'
    sentences."""
    if not _study_script(source):
        return details(source, summary, verdicts)
    fits = _fits(source, summary)
    where = _where(source, True)
    out = []
    # in the order of their counts, so that the variants named and the counts pair (A147)
    rising = sorted((f for f in fits if not f["saturated"]), key=lambda f: f["instances"])
    if rising:
        first = [f["mib_per_instance"] for f in rising]
        later = [f["mib_after"] for f in rising if np.isfinite(f.get("mib_after", np.nan))]
        slopes = first + later
        # the slope at first, then after its knee: a cold read took '15 to 26 MiB' for a range
        # over variants
        each = f"{_about_range(first)} of memory in use"
        if later:
            each += f" at first and {_about_range(later)} later in the run"
        spans = len(rising) > 1 and " to " in each  # a range over the variants' slopes
        if spans:  # whose the range is (a reader of round 120),
            # by the variants' names (round 141: 'its two variants' had no referent)
            named = listed([f"\\texttt{{{escape(f['variant'])}}}" for f in rising])
            each += f", across {named}"
        counts = sorted({int(f["instances"]) for f in rising})
        reached = (
            f"{counts[0]}"
            if len(counts) == 1
            else f"{counts[0]} and {counts[1]}"
            if len(counts) == 2
            else f"{counts[0]} to {counts[-1]}"
        )
        paired = ", respectively" if spans and len(counts) == len(rising) == 2 else ""
        out.append(
            # the findings are this section's own (Appendix A.6), so no reference to it
            f"On {where}, each instance added {each}. The study's script stops "
            "at a set share of the board's memory; its runs got "
            f"there at {reached} instances{paired}{_one_per_variant(rising)}."
        )
        if _compartments_only(source, summary):
            out.append(
                # launched so: whether in compartments is not recorded (compartments_seen)
                # E1's variants, not the data set's (a reader of round 110 set it against
                # Section 2's 'c18n for all but hybrid')
                "Every variant that ran E1 in these data had c18n enabled, so they cannot say "
                "how much of each instance's memory the compartments take."
            )
        # a rising data set's gap to another rising one, said once (by the one that says the
        # larger slope); a data set that levels off compares itself in its own sentence below
        for other, theirs in _other_slopes(source, summary):
            if theirs < min(slopes) and not any(f["saturated"] for f in _fits(other, summary)):
                named = _where(other, True)
                out.append(
                    f"{named[0].upper()}{named[1:]} give a smaller slope; nothing recorded "
                    "explains why."
                )
    for f in fits:
        if f["saturated"]:
            mine = float(_two(f["mib_per_instance"]))
            others = _other_slopes(source, summary)
            # a data set that levels off says the gap to each other one, either way, as the
            # rising one leaves it to this sentence
            # the gap after the knee, not between 'added' and 'until' (round 106: read as a
            # garden path)
            than = "".join(
                f", {word} than on {listed([_where(o, True) for o in named])} for reasons nothing "
                "recorded shows"
                for word, named in (
                    ("less", [o for o, theirs in others if theirs > mine]),
                    ("more", [o for o, theirs in others if theirs < mine]),
                )
                if named
            )
            then = _after_knee(f, lambda x: _about(x, "MiB"), "levelled off")
            out.append(
                f"On {where}, each instance added {_about(f['mib_per_instance'], 'MiB')} "
                f"until instance {int(f['knee'])}{than}. Memory in use then {then}, and from "
                # 'may': nothing checked that they ran (Appendix A.6; a reader of round 124)
                "then on the script's count may be of processes started, not of processes "
                "running. "
                # where it ended, as a run that levels off need not reach the script's stop
                # (two cold reads of rounds 90 and 91 asked why it stopped)
                f"The file ends at instance {int(f['instances'])}; nothing recorded says what "
                "ended the run."
            )
    return out


def details(source: str, summary: pd.DataFrame, verdicts=None) -> list[str]:
    """Instances reached and memory per instance: the slope of the rise, where it changes or
    stops (segments), with its interval where the residuals allow one and in two figures after
    'about' where they do not; for the study's script, the elapsed time per instance too (the
    appendix's account; findings gives the body's)."""
    out = []
    study = _study_script(source)
    where = _where(source, study)
    for variant in dict.fromkeys(summary[summary.source == source].variant):
        f = fit(summary, source, variant)
        if f["instances"] < 3 or np.isnan(f["mib_per_instance"]):
            continue
        loose = np.isnan(f["mib_low"])  # no interval: two figures after 'about'
        mib = (lambda x: _about(x, "MiB")) if loose else memory  # noqa: E731
        text = (
            f"On {where}, \\texttt{{{escape(variant)}}} reached {f['instances']} instances; "
            f"memory in use rose by {mib(f['mib_per_instance'])} per instance"
        )
        if f["saturated"]:
            text += f" up to instance {int(f['knee'])}, then {_after_knee(f, mib, 'stayed')}"
        elif not np.isnan(f["knee"]):
            text += f" up to instance {int(f['knee'])}, then by {mib(f['mib_after'])} each"
        if not loose:
            text += f" ({interval(f)})"
        if study:  # the elapsed time's slope: mostly the script's own pause after each start
            # three figures, as the table gives them: mostly the script's 0.5 s pause, so that
            # two figures made 512 and 516 ms read as 510 against 520 (two readers of rounds 131
            # and 132 took it for a difference between the variants)
            ms = f"about {milliseconds(f['ms_per_instance'])}"
            text += f"; elapsed time rose by {ms} per instance"
            after = f["ms_after"]
            # the second segment however close to the first: without it the first segment's
            # slope read as the whole run's (every round of cold reads 157 to 176 refitted the
            # whole run and met 512 and 513 ms against the 514 and 516 printed)
            if not np.isnan(f["ms_knee"]) and not np.isnan(after):
                text += (
                    f" up to instance {int(f['ms_knee'])}, then by about {milliseconds(after)} each"
                )
        # the script's pause in the elapsed time, and its count of processes started where memory
        # levels off, are said once: by the appendix's method paragraph and the body (findings)
        out.append(text + ".")
    return out


LAYOUT = Layout(  # the study's files: instances, memory in use and elapsed time
    "scale",
    {
        "instances": (
            ("numberofprocesses", "processes", "numberofcompartments", "instances"),
            None,
            "Number of Processes",
        ),
        # labelled MB, but psutil's bytes over 1024 * 1024: MiB (cheri-cap-experiment.py:75)
        "memory": (("memoryused", "memory", "memoryinuse"), ("mb",), "Memory Used (MB)"),
        "elapsed": (("timeelapsed", "elapsedtime", "elapsed"), TIMES, "Time Elapsed (ms)"),
    },
    rows=lambda c: [
        (
            c.num("instances"),
            "instances",
            c.num("instances"),
            "memory_used_mib",
            c.num("memory"),
            "MiB",
            "ok",
        ),
        (
            c.num("instances"),
            "instances",
            c.num("instances"),
            "elapsed_ms",
            c.ns("elapsed") / 1e6,
            "ms",
            "ok",
        ),
    ],
)


EXPERIMENT = Experiment(
    layouts=(LAYOUT,),
    name="scale",
    measures=("instances of a compartmentalised workload that fit in memory"),
    part="compartments",
    number=1,
    params=(
        # instances start interval_s apart until memory in use passes 90 % of total (the study's
        # criterion on a 16 GB board); on a shared machine the added-memory budget (2 GiB) and the
        # instance cap stop it first: raise them on a dedicated board
        Param("interval_s", 0.5, 0.1, "pause after each instance starts", minimum=0),
        Param(
            "memory_fraction",
            0.9,
            help="stop when memory in use passes this fraction of total",
            exclusive_minimum=0,
            maximum=1,
        ),
        Param(
            "budget_mib",
            2048,
            help="stop when the memory added since the start passes this (MiB)",
            exclusive_minimum=0,
        ),
        Param("max_instances", 500, 8, "stop at this many instances", minimum=1),
        time_limit(1800, 120),
    ),
    title="E1 compartments at scale",
    details=details,
    programs=(INTEGRATION,),
    driver="c18n_ae.experiments.drivers.scale",
    probe_args=("--idle",),
    trials=lambda p: p["max_instances"],
)
