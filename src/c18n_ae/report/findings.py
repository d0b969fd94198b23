"""The paper's c18n findings, one generated paragraph per experiment (E1 to E4), from the Morello
data present: a board's own runs first, else a shipped data set; each sentence names where and by
whom the numbers were measured, gives every ratio with its 95 % interval, and carries the data
set's stated limits beside the number. A source without the data says so instead of a number."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from c18n_ae.analysis.comparisons import lookup
from c18n_ae.common.config import add_arguments as cfg_args
from c18n_ae.common.config import add_experiment_arguments, experiment_files
from c18n_ae.common.config import from_arguments as cfg_load
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, fmt, newcommand, ratio_text

EXPERIMENTS = {"scale": "Scale", "memory": "Memory", "cpu": "Cpu", "pipe": "Pipe"}
METRICS = {
    "memory": [
        ("malloc_ns", r"a \texttt{malloc}"),
        ("write_ns", "a write"),
        ("read_ns", "a read"),
        ("free_ns", r"a \texttt{free}"),
    ],
    "cpu": [
        (f"{w}_cpu_ns", rf"the \emph{{{w}}} workload's CPU time")
        for w in ("math", "int", "float", "array")
    ],
    "pipe": [
        ("write_ns", "a pipe write"),
        ("read_ns", "a pipe read"),
        ("total_ns", "a whole transfer"),
        ("roundtrip_ns", "a batched round trip"),
    ],
}


def source_text(source: dict) -> str:
    """Where and by whom: a board target of this package, or a data set."""
    if source["kind"] == "dataset":
        h = source["host"]
        return (
            f"the data set \\texttt{{{escape(source['name'])}}}, {escape(source['title'])}, "
            f"measured by "
            f"{escape(source['measured_by'])} in {escape(source['measured_when'])} on a "
            f"{escape(h['model'])} "
            f"running {escape(h['os'])}"
        )
    return f"this package's own runs on the board \\texttt{{{escape(source['name'])}}}" + (
        f" ({escape(source['description'])})" if source.get("description") else ""
    )


def pairs(
    variants: dict[str, bool], reference: str, present: list[str]
) -> list[tuple[str, str, str]]:
    """(subject, baseline, what it measures): every compartment variant against no compartment,
    against a purecap build without compartments, and against the compartment variants before it."""
    out = []
    c18n = [v for v in present if variants.get(v)]
    plain = [v for v in present if not variants.get(v) and v != reference]
    for i, v in enumerate(c18n):
        if reference in present and not variants.get(reference):
            out.append((v, reference, "compartment against no compartment"))
        out += [(v, p, "compartment against the same ABI without compartment") for p in plain]
        out += [(v, w, "one compartment ABI against another") for w in c18n[:i]]
    return out


def _largest(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Rows at the largest parameter value (numeric) of each comparison, or all when not numeric."""
    p = pd.to_numeric(comparisons.parameter_value, errors="coerce")
    if p.isna().all():
        return comparisons
    return comparisons[p == p.max()]


def ratio_sentences(
    experiment: str,
    source: str,
    variants: dict,
    reference: str,
    summary: pd.DataFrame,
    comparisons: pd.DataFrame,
) -> list[str]:
    ran = set(summary[summary.target == source].variant)
    present = [v for v in variants if v in ran]  # the order the config or dataset.yaml gives
    out = []
    for subject, baseline, what in pairs(variants, reference, present):
        parts = []
        at = ""
        for metric, label in METRICS[experiment]:
            rows = _largest(lookup(comparisons, source, subject, baseline, metric))
            rows = rows[rows.ratio.notna()]
            if rows.empty:
                continue
            r = rows.iloc[0]
            if experiment == "memory":
                at = f" for a {fmt(float(r.parameter_value))}\\,MiB block"
            parts.append(f"{label} {ratio_text(r.ratio, r.ci95_low, r.ci95_high)}")
        if parts:
            out.append(
                f"With \\texttt{{{escape(subject)}}} against \\texttt{{{escape(baseline)}}} "
                f"({what}){at}, " + "; ".join(parts) + "."
            )
    return out


def scale_sentences(source: str, summary: pd.DataFrame) -> list[str]:
    """Instances reached and memory per instance (least-squares slope with its 95 % interval)."""
    from scipy import stats

    out = []
    for variant in dict.fromkeys(summary[summary.target == source].variant):
        s = summary[
            (summary.target == source)
            & (summary.variant == variant)
            & (summary.metric == "memory_used_mb")
        ]
        s = s.sort_values("parameter_value")
        if len(s) < 3:
            continue
        fit = stats.linregress(s.parameter_value.astype(float), s["mean"])
        half = stats.t.ppf(0.975, len(s) - 2) * fit.stderr
        out.append(
            f"\\texttt{{{escape(variant)}}} reached {int(s.parameter_value.max())} instances, "
            f"each adding "
            f"{fmt(fit.slope)}\\,MB [{fmt(fit.slope - half)}, {fmt(fit.slope + half)}] of memory "
            f"in use "
            f"(least-squares slope, 95\\,\\% interval), from {fmt(float(s['mean'].iloc[0]))} to "
            f"{fmt(float(s['mean'].iloc[-1]))}\\,MB."
        )
    return out


def paragraph(
    experiment: str,
    sources: list[dict],
    summary: pd.DataFrame | None,
    comparisons: pd.DataFrame | None,
) -> str:
    """The findings of one experiment from the first source that has its data."""
    for source in sources:
        if summary is None or source["name"] not in set(summary.target):
            continue
        name = source["name"]
        if experiment == "scale":
            body = scale_sentences(name, summary)
        else:
            body = ratio_sentences(
                experiment,
                name,
                source["variants"],
                source["reference_variant"],
                summary,
                comparisons if comparisons is not None else pd.DataFrame(columns=["target"]),
            )
        if not body:
            continue
        text = f"On Morello, from {source_text(source)}: " + " ".join(body)
        limit = source.get("limitations", {}).get(experiment)
        if limit:
            text += f" Limits of these data: {escape(' '.join(limit.split()))}"
        if experiment != "scale":
            text += (
                " Ratios are of means, each with its 95\\,\\% bootstrap confidence interval"
                " over the trials."
            )
        if source["kind"] == "dataset":
            text += " This package re-analysed the files; it did not measure them."
        return text
    names = ", ".join(s["name"] for s in sources) or "none"
    return (
        f"No Morello measurements of this experiment were included in this run (board targets and "
        f"data "
        f"sets searched: {escape(names)}); the compartment findings need a board's runs or a data "
        f"set "
        f"(config key \\texttt{{datasets}})."
    )


def sources_of(config: dict) -> list[dict]:
    """Where Morello findings may come from, as the config lists them: board targets and data
    sets."""
    from c18n_ae.common import config as cfg

    boards = [
        {
            "kind": "morello",
            "name": t["name"],
            "description": t.get("description", ""),
            "reference_variant": t["reference_variant"],
            "variants": {v["name"]: bool(v.get("c18n")) for v in t["variants"]},
        }
        for t in config["targets"]
        if t["kind"] == "morello"
    ]
    keys = (
        "name",
        "title",
        "measured_by",
        "measured_when",
        "host",
        "reference_variant",
        "limitations",
    )
    sets = [
        {
            "kind": "dataset",
            **{k: d[k] for k in keys if k in d},
            "variants": {v: bool(s.get("c18n")) for v, s in d["variants"].items()},
        }
        for d in cfg.datasets(config)
    ]
    return boards + sets


def sources_from(config_sources: list[dict]) -> list[dict]:
    """Board targets first (config order), then data sets (config order)."""
    return [s for s in config_sources if s["kind"] == "morello"] + [
        s for s in config_sources if s["kind"] == "dataset"
    ]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    cfg_args(ap)
    add_experiment_arguments(ap, "summary", "comparisons")
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    sources = sources_from(sources_of(cfg_load(a) or {"targets": []}))
    summaries = {k: pd.read_csv(v) for k, v in experiment_files(a, "summary").items()}
    comps = {k: pd.read_csv(v) for k, v in experiment_files(a, "comparisons").items()}
    text = (
        "% Generated by c18n_ae.report.findings from the summaries and comparisons; do not edit.\n"
    )
    for e, macro in EXPERIMENTS.items():
        text += newcommand(
            f"Findings{macro}", paragraph(e, sources, summaries.get(e), comps.get(e))
        )
    headline = next(
        (s for s in sources if any(s["name"] in set(df.target) for df in summaries.values())), None
    )
    text += newcommand(
        "MorelloSource", source_text(headline) if headline else "no Morello data (none included)"
    )
    write_text_atomic(a.out, text)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
