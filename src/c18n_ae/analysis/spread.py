"""Spread between machines: for every variant that ran on two or more targets (several boards),
the range of the targets' means for each metric, relative to their average."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae.common import config
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, fmt
from c18n_ae.experiments import config_from_arguments, registry

COLUMNS = [
    "experiment",
    "variant",
    "parameter_value",
    "metric",
    "unit",
    "targets",
    "n_targets",
    "min_mean",
    "max_mean",
    "mean_of_means",
    "spread_pct",
]


def spread(summaries: dict[str, pd.DataFrame], exclude: set[str] = frozenset()) -> pd.DataFrame:
    """One row per experiment, variant, parameter value and metric measured on two or more
    targets. exclude: data sets (other releases, not other machines). One grouped aggregation:
    linear in the summary rows."""
    keys = ["variant", "parameter_value", "metric", "unit"]
    frames = []
    for name, s in summaries.items():
        s = s[~s.source.isin(exclude)].dropna(subset=["mean"])
        if s.empty:
            continue
        g = s.groupby(keys, sort=True)
        agg = g.agg(
            n_targets=("source", "nunique"),
            min_mean=("mean", "min"),
            max_mean=("mean", "max"),
            mean_of_means=("mean", "mean"),
        ).reset_index()
        agg = agg[agg.n_targets >= 2]
        if agg.empty:
            continue
        names = g.source.apply(lambda t: " ".join(sorted(t))).rename("targets").reset_index()
        agg = agg.merge(names, on=keys)
        agg["spread_pct"] = (
            100 * (agg.max_mean - agg.min_mean) / agg.mean_of_means.where(agg.mean_of_means != 0)
        )
        frames.append(agg.assign(experiment=name))
    return (
        pd.concat(frames, ignore_index=True)[COLUMNS] if frames else pd.DataFrame(columns=COLUMNS)
    )


def latex_table(sp: pd.DataFrame) -> str:
    lines = [
        r"\begin{tabular}{lllrrrr}",
        r"\toprule",
        r"Experiment & Variant & Metric & Targets & Lowest mean & Highest mean & Spread "
        r"(\si{\percent}) \\",
        r"\midrule",
    ]
    shown = 0
    # the paper's table: each experiment's headline metrics at its largest setting (the CSV: all)
    for exp, metric in ((e.name, h.metric) for e in registry().values() for h in e.headline):
        part = sp[(sp.experiment == exp) & (sp.metric == metric)]
        if len(part):
            values = pd.to_numeric(part.parameter_value, errors="coerce")
            part = part[values.isna() | (values == values.max())]
        for r in part.itertuples(index=False):
            lines.append(
                " & ".join(
                    [
                        exp,
                        escape(r.variant),
                        escape(metric),
                        escape(r.targets),
                        fmt(r.min_mean),
                        fmt(r.max_mean),
                        fmt(r.spread_pct),
                    ]
                )
                + r" \\"
            )
            shown += 1
    if not shown:  # an empty table says nothing: the paper leaves it out
        return "% No variant ran on two or more targets in this edition: no spread to show.\n"
    lines += [r"\bottomrule", r"\end{tabular}"]
    return (
        "\\begin{table*}[!tp]\n\\caption{Spread between targets for the same variant: lowest and "
        "highest mean (ns) and (highest $-$ lowest) / average of the means.}\n"
        "\\label{tab:spread}\n\\small\n" + "\n".join(lines) + "\n\\end{table*}\n"
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    config.add_arguments(ap)  # its data sets are not machines: left out
    config.add_experiment_arguments(ap, "summary")
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--tex", required=True, type=Path)
    ap.add_argument("--exclude", action="append", default=[], help="a data set: not a machine")
    a = ap.parse_args(argv)
    loaded = config_from_arguments(a)
    exclude = set(a.exclude) | set(loaded.get("datasets", []) if loaded else [])
    sp = spread(
        {k: pd.read_csv(v) for k, v in config.experiment_files(a, "summary").items()}, exclude
    )
    write_text_atomic(a.csv, sp.to_csv(index=False))
    write_text_atomic(a.tex, latex_table(sp))


if __name__ == "__main__":
    main()
