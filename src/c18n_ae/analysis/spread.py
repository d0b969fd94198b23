"""Spread between machines: for every variant that ran on two or more targets (several boards),
the range of the targets' means for each metric, relative to their average."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae.common import config
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, fmt

# The metrics the paper's table shows (all go to the CSV): experiment -> (metric, which parameter
# value)
HEADLINE = {
    "memory": [("write_ns", "largest"), ("read_ns", "largest"), ("malloc_ns", "largest")],
    "cpu": [
        ("math_cpu_ns", None),
        ("int_cpu_ns", None),
        ("float_cpu_ns", None),
        ("array_cpu_ns", None),
    ],
    "pipe": [("roundtrip_ns", None), ("write_ns", None), ("read_ns", None)],
}
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


def spread(summaries: dict[str, pd.DataFrame]) -> pd.DataFrame:
    rows = []
    for name, s in summaries.items():
        for (variant, param, metric, unit), g in s.groupby(
            ["variant", "parameter_value", "metric", "unit"]
        ):
            g = g.dropna(subset=["mean"])
            if g.target.nunique() < 2:
                continue
            avg = g["mean"].mean()
            rows.append(
                {
                    "experiment": name,
                    "variant": variant,
                    "parameter_value": param,
                    "metric": metric,
                    "unit": unit,
                    "targets": " ".join(sorted(g.target)),
                    "n_targets": g.target.nunique(),
                    "min_mean": g["mean"].min(),
                    "max_mean": g["mean"].max(),
                    "mean_of_means": avg,
                    "spread_pct": 100 * (g["mean"].max() - g["mean"].min()) / avg
                    if avg
                    else float("nan"),
                }
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def latex_table(sp: pd.DataFrame) -> str:
    lines = [
        r"\begin{tabular}{lllrrrr}",
        r"\toprule",
        r"Experiment & Variant & Metric & Targets & Lowest mean & Highest mean & Spread "
        r"(\si{\percent}) \\",
        r"\midrule",
    ]
    shown = 0
    for exp, metrics in HEADLINE.items():
        for metric, which in metrics:
            part = sp[(sp.experiment == exp) & (sp.metric == metric)]
            if which == "largest" and len(part):
                part = part[
                    pd.to_numeric(part.parameter_value) == pd.to_numeric(part.parameter_value).max()
                ]
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
    config.add_experiment_arguments(ap, "summary")
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--tex", required=True, type=Path)
    a = ap.parse_args(argv)
    sp = spread({k: pd.read_csv(v) for k, v in config.experiment_files(a, "summary").items()})
    write_text_atomic(a.csv, sp.to_csv(index=False))
    write_text_atomic(a.tex, latex_table(sp))


if __name__ == "__main__":
    main()
