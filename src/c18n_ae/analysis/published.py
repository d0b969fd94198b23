"""The original study's published tables (published/morello_c18n_2024.csv) read into our
metric names and units, and shown beside our summaries for the same variant: a target's
measurement with its ratio to the printed value, a data set's file with whether it reproduces it.

Units are converted explicitly, never silently, as each experiment's module says (its study
rows): a unit the study printed that its values cannot be in is read as the one they make sense
in, and every table that shows them says so."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.common import config
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, fmt, from_file, quantity, setting
from c18n_ae.common.names import from_config
from c18n_ae.experiments.rows import UNIT_TEX

NS = {"ms": 1e6, "us": 1e3}
# the release the study's printed tables describe (published/README.md: both documents report
# CheriBSD 24.05); a data set of another release is not set beside them
PRINTED_RELEASE = "CheriBSD 24.05"


def _readings() -> dict:
    """experiment -> how the study's rows of it read (its module's study)."""
    return {e.name: e.study for e in exp.registry().values() if e.study}


def load(path: Path) -> pd.DataFrame:
    """One row per published number (duplicates across documents removed), in ns as read."""
    df = pd.read_csv(path)
    df = df.drop_duplicates(
        subset=["experiment", "variant", "parameter_value", "metric", "statistic"]
    )
    rows, reading = [], _readings()
    for r in df.itertuples(index=False):
        printed, read_as = reading[r.experiment].printed_unit, reading[r.experiment].read_unit
        if r.unit_as_published != printed:
            raise ValueError(
                f"{path}: {r.experiment} value in {r.unit_as_published!r}, expected {printed!r}"
            )
        metric, param = reading[r.experiment].metric(r)
        rows.append(
            {
                "experiment": r.experiment,
                "variant": r.variant,
                "parameter_name": str(r.parameter),  # what the value is: a block size or a trial
                "parameter_value": str(param),
                "metric": metric,
                "statistic": r.statistic,
                "published": r.value,
                "unit_as_published": printed,
                "unit_as_read": read_as,
                "value_ns": r.value * NS[read_as],
                "source": f"{r.table}, {r.source_doc}",
            }
        )
    return pd.DataFrame(rows)


def _ours(
    summary: pd.DataFrame | None,
    tidy: pd.DataFrame | None,
    variant: str,
    metric: str,
    parameter: str,
    experiment: str,
    datasets: set[str],
) -> list[tuple[str, float, str]]:
    """(target, value, what the value is) for the variant on every target that ran it: the mean
    (at the printed parameter value where the study's rows say so), except that where the study
    printed single trials a data set's value is the same trial as the printed one."""
    if summary is None:
        return []
    reading = _readings()[experiment]
    s = summary[(summary.variant == variant) & (summary.metric == metric)]
    if reading.ours_at_parameter:
        s = s[pd.to_numeric(s.parameter_value, errors="coerce") == float(parameter)]
    out = []
    for target, mean, n in zip(s.source, s["mean"].astype(float), s["n"]):
        if reading.single_trials and target in datasets and tidy is not None:
            t = tidy[
                (tidy.source == target)
                & (tidy.variant == variant)
                & (tidy.metric == metric)
                & (tidy.trial == int(parameter))
            ]
            if len(t):
                out.append((target, float(t.value.iloc[0]), f"trial {parameter}"))
            continue
        out.append(
            (
                target,
                mean,
                "mean of trials 2 on" if reading.single_trials else f"mean of {int(n)} trials",
            )
        )
    return out


def _decimals(value: float) -> int:
    text = f"{value:.10g}"
    return len(text.split(".")[1]) if "." in text else 0


def reproduces(published: float, ours_ns: float, unit_as_read: str) -> bool:
    """Our value, rounded as the study printed it, is the printed value."""
    d = _decimals(published)
    return round(ours_ns / NS[unit_as_read], d) == round(published, d)


def _trials_differing(
    pub: pd.DataFrame, tidy, experiment: str, target: str, variant: str, metric: str
) -> list[str]:
    """The printed single trials whose value the data set's file does not reproduce."""
    if tidy is None:
        return []
    out = []
    rows = pub[(pub.experiment == experiment) & (pub.variant == variant) & (pub.metric == metric)]
    for r in rows.itertuples(index=False):
        t = tidy[
            (tidy.source == target)
            & (tidy.variant == variant)
            & (tidy.metric == metric)
            & (tidy.trial == int(r.parameter_value))
        ]
        if len(t) and not reproduces(r.published, float(t.value.iloc[0]), r.unit_as_read):
            out.append(r.parameter_value)
    return out


def beside(
    pub: pd.DataFrame,
    summaries: dict[str, pd.DataFrame],
    tidies: dict[str, pd.DataFrame] | None = None,
    datasets: set[str] = frozenset(),
    releases: dict[str, str] | None = None,
) -> pd.DataFrame:
    """The published values each experiment's study rows show beside ours for the same variant,
    on every target and on each data set of the printed release (releases: data set -> release;
    a data set of another release is left out); a data set says whether its files reproduce the
    printed value."""
    tidies, reading = tidies or {}, _readings()
    other = {d for d in datasets if (releases or {}).get(d, PRINTED_RELEASE) != PRINTED_RELEASE}
    shown = [reading[r.experiment].shown(r) for r in pub.itertuples(index=False)]
    keep = pub[
        pub.statistic.isin(["mean", "value"]) & pd.Series(shown, index=pub.index, dtype=bool)
    ]
    rows = []
    for r in keep.itertuples(index=False):
        ours = _ours(
            summaries.get(r.experiment),
            tidies.get(r.experiment),
            r.variant,
            r.metric,
            r.parameter_value,
            r.experiment,
            datasets,
        )
        ours = [o for o in ours if o[0] not in other]
        base = {
            "experiment": r.experiment,
            "variant": r.variant,
            "parameter": r.parameter_value,
            "parameter_name": r.parameter_name,
            "metric": r.metric,
            "published": r.published,
            "unit_as_published": r.unit_as_published,
            "unit_as_read": r.unit_as_read,
            "published_ns": r.value_ns,
            "source": r.source,
        }
        if not ours:
            rows.append(
                {
                    **base,
                    "source": "",
                    "ours_ns": float("nan"),
                    "ours_is": "",
                    "ratio": float("nan"),
                    "reproduces": "",
                }
            )
        for target, value, what in ours:
            row = {
                **base,
                "source": target,
                "ours_ns": value,
                "ours_is": what,
                "ratio": value / r.value_ns,
                "reproduces": "",
            }
            if target in datasets:
                # the question is whether the printed number came from these files: no ratio
                row["ratio"] = float("nan")
                row["reproduces"] = "yes"
                if not reproduces(r.published, value, r.unit_as_read):
                    d = _decimals(r.published)
                    row["reproduces"] = (
                        f"no: the file's {what} gives {value / NS[r.unit_as_read]:.{d}f} "
                        f"{r.unit_as_read}"
                    )
                    if reading[r.experiment].single_trials:
                        differ = _trials_differing(
                            pub, tidies.get(r.experiment), r.experiment, target, r.variant, r.metric
                        )
                        row["reproduces"] += (
                            f"; printed trials {', '.join(differ)} differ from the file's: the "
                            "printed table and the published file disagree"
                        )
            rows.append(row)
    return pd.DataFrame(rows)


def printed(x: float) -> str:
    """A printed value to three significant figures (READ31), a large one as a power of ten in
    the unit it was printed in: 2825823 -> 2.83 x 10^6."""
    if abs(x) < 1000:
        return f"{x:.3g}"
    mantissa, exponent = f"{x:.2e}".split("e")
    return rf"${mantissa}\times10^{{{int(exponent)}}}$"


def _setting(name, value) -> str:
    """Table 3's Parameter cell: a size with its unit or a trial by name ('100 MB', 'trial 100');
    a value that names itself ('as published') as it is."""
    name = name if isinstance(name, str) else ""
    numeric = str(value).replace(".", "", 1).isdigit()
    return setting(name, value) if name and numeric else str(value)


def latex_table(b: pd.DataFrame) -> str:
    """Each printed value beside the same quantity of ours (the Ours cell says what: a mean, or
    the same single trial of a data set's file); the ratio ours / printed only where ours is a
    target's measurement (a column only when one exists), and for a data set whether its file,
    rounded as printed, gives the printed value. Every value at most three significant figures;
    read and ours in the largest time unit that keeps them >= 1 (283 ms, not 282584 µs)."""
    ratios = bool(b.ratio.notna().any())
    head = ["Experiment", "Variant", "Parameter", "Metric", "Printed", "Read as"]
    head += ["Ours (source, what)"] + (["Ours / printed"] if ratios else [])
    head += ["File reproduces printed value"]
    spec = "llllrrl" + ("r" if ratios else "") + r">{\raggedright\arraybackslash}p{0.2\textwidth}"
    lines = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule", " & ".join(head) + r" \\", r"\midrule"]
    for r in b.itertuples(index=False):
        ours = (
            "not run here"
            if not r.source
            else f"{quantity(r.ours_ns, 'ns', tex=True)} ({escape(r.source)}, {escape(r.ours_is)})"
        )
        cells = [
            r.experiment,
            escape(r.variant),
            # what the value is ('100 MB', 'trial 100'; A151: a bare 100 on the pipe rows read as
            # their message size)
            escape(_setting(getattr(r, "parameter_name", ""), r.parameter)),
            escape(r.metric.removesuffix("_ns")),
            f"{printed(r.published)} {UNIT_TEX[r.unit_as_published]}",
            quantity(r.published_ns, "ns", tex=True),
            ours,
        ]
        cells += [fmt(r.ratio)] if ratios else []
        cells.append(escape(r.reproduces or ("--" if r.source else "")))
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def macros(pub: pd.DataFrame) -> str:
    """Published numbers the prose quotes, as each experiment's study rows say."""
    return "".join(
        r.macros(pub[pub.experiment == name]) for name, r in _readings().items() if r.macros
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    config.add_arguments(ap)
    config.add_experiment_arguments(ap, "summary", "tidy")
    ap.add_argument("--dataset", action="append", default=[], help="a target that is a data set")
    ap.add_argument("--source", required=True, type=Path, help="the study's printed values")
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--tex", required=True, type=Path)
    ap.add_argument("--macros", required=True, type=Path)
    a = ap.parse_args(argv)
    summaries = {k: pd.read_csv(v) for k, v in config.experiment_files(a, "summary").items()}
    pub = load(a.source)
    tidies = {k: pd.read_csv(v) for k, v in config.experiment_files(a, "tidy").items()}
    cfg = exp.config_from_arguments(a)
    metas = config.datasets(cfg) if cfg else []
    datasets = set(a.dataset) | {d["name"] for d in metas}
    releases = {d["name"]: d.get("release", "") for d in metas}
    b = beside(pub, summaries, tidies, datasets, releases)
    write_text_atomic(a.csv, b.to_csv(index=False))
    write_text_atomic(a.tex, from_config(cfg).text(latex_table(b)))  # the paper's names
    head = "% Generated by c18n_ae.analysis.published; do not edit.\n" + from_file(a.source)
    write_text_atomic(a.macros, head + macros(pub))


if __name__ == "__main__":
    main()
