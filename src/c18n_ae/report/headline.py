"""The headline table, "What a compartment costs": one row per experiment, headline metric and
contrast (a variant with compartments against one without), one column group per target or data
set that has a compartment variant. Every number is read from the comparisons, summaries and
claims the workflow already computed; nothing is recomputed here. Writes results/headline.csv
(every field, read by the findings' prose) and the paper's table."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis import contrasts as named
from c18n_ae.analysis.claim_type import Claim
from c18n_ae.analysis.claims import load
from c18n_ae.analysis.comparisons import COLUMNS as comparisons_columns
from c18n_ae.analysis.comparisons import PRINTED, lookup
from c18n_ae.common import config as cfg
from c18n_ae.common.datasets import invalid_metrics
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import comparison_text, covers_words, escape, listed
from c18n_ae.report.claim_tables import agrees, other_statistic

# the comparison fields each headline row carries over
FROM_COMPARISONS = ["parameter", "parameter_value"] + [
    c for c in comparisons_columns if c.startswith(("ratio", "ci95", "median", "n")) or c in PRINTED
]
COLUMNS = [
    "source",
    "experiment",
    "metric",
    "label",
    "crosses",
    "subject",
    "baseline",
    "contrast",
    "confounded_by",
    "possibly_also",  # a difference of name alone: the ratio stands (analysis.contrasts)
    "share",
    *FROM_COMPARISONS,
    "tail_trials",
    "tail_n",
    "tail_share",
    "invalid",
    "claims",
]
TAIL_SHARE = 0.5  # a mean "rests on a few trials" when they make at least half of the total


def sources_of(config: dict) -> list[dict]:
    """Board targets, then data sets, that have a variant in compartments: {name, kind, reference,
    variants: {name: {c18n, abi, description}}, release}."""
    out = []
    for t in config["targets"]:
        variants = {
            v["name"]: {"c18n": bool(v.get("c18n")), "abi": v.get("abi", v["name"])}
            for v in t["variants"]
        }
        out.append(
            {
                "name": t["name"],
                "kind": "target",
                "reference": t["reference_variant"],
                "variants": variants,
                "release": t.get("description", ""),
            }
        )
    for d in cfg.datasets(config):
        variants = {
            v: {"c18n": bool(s.get("c18n")), "abi": s.get("abi", v)}
            for v, s in d["variants"].items()
        }
        out.append(
            {
                "name": d["name"],
                "kind": "dataset",
                "reference": d["reference_variant"],
                "variants": variants,
                "release": d.get("release", d["host"].get("os", "")),
            }
        )
    return [s for s in out if any(v["c18n"] for v in s["variants"].values())]


def contrasts(source: dict) -> list[tuple[str, str, str]]:
    """(subject, baseline, share): each compartment variant against the reference without
    compartments ("total"); where the same ABI also ran without compartments, the total splits
    into the ABI's share (that variant against the reference) and the compartments' share."""
    v, ref = source["variants"], source["reference"]
    out = []
    for name, s in v.items():
        if not s["c18n"] or v[ref]["c18n"]:
            continue
        out.append((name, ref, "total"))
        for plain, p in v.items():
            if not p["c18n"] and p["abi"] == s["abi"] and plain != ref:
                out += [(plain, ref, "ABI share"), (name, plain, "compartment share")]
    return list(dict.fromkeys(out))


def largest_setting(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows at the largest numeric parameter value (all of them when it is not numeric)."""
    p = pd.to_numeric(rows.parameter_value, errors="coerce")
    return rows if p.isna().all() else rows[p == p.max()]


def _tail(summary: pd.DataFrame, source: str, variant: str, metric: str, value) -> tuple:
    s = summary[
        (summary.source == source)
        & (summary.variant == variant)
        & (summary.metric == metric)
        & (summary.parameter_value.astype(str) == str(value))
    ]
    if s.empty or "tail_trials" not in s:
        return 0, 0, 0.0
    r = s.iloc[0]
    return int(r.tail_trials), int(r.n), float(r.tail_share)


def _claims_on(claims: list[Claim], verdicts: pd.DataFrame, source, e, metric, subject, baseline):
    ids = [
        c.id
        for c in claims
        if (c.experiment, c.metric, c.subject, c.baseline) == (e, metric, subject, baseline)
    ]
    out = []
    for cid in ids:
        v = verdicts[(verdicts.claim == cid) & (verdicts.source == source)]
        if len(v):
            r = v.iloc[0]
            other = other_statistic(r.statistic)
            note = "" if agrees(r.statistics_agree) else f" ({other}: {r[f'{other}_result']})"
            at = r.get("decided_at", "")
            where = f", decided at {at}" if isinstance(at, str) and at else ""
            out.append(f"{cid}: {r.result}{where}{note}")
    return "; ".join(out)


def rows(
    config: dict,
    comparisons: dict[str, pd.DataFrame],
    summaries: dict[str, pd.DataFrame],
    claims: list[Claim],
    verdicts: pd.DataFrame,
) -> pd.DataFrame:
    invalid = invalid_metrics(cfg.datasets(config))
    known = named.variants_of(config)
    out = []
    for source in sources_of(config):
        name = source["name"]
        for e, comp in comparisons.items():
            summary = summaries.get(e, pd.DataFrame(columns=["source"]))
            for h in exp.get(e).headline:
                for subject, baseline, share in contrasts(source):
                    r = largest_setting(lookup(comp, name, subject, baseline, h.metric))
                    if r.empty:
                        continue
                    r = r.iloc[0]
                    tail = _tail(summary, name, subject, h.metric, r.parameter_value)
                    out.append(
                        {
                            "source": name,
                            "experiment": e,
                            "metric": h.metric,
                            "label": h.label,
                            "crosses": h.crosses,
                            "subject": subject,
                            "baseline": baseline,
                            "contrast": named.contrast_name(
                                known, name, subject, baseline, e, h.metric
                            ),
                            "confounded_by": _text(r.get("confounded_by", "")),
                            "possibly_also": _text(r.get("possibly_also", "")),
                            "share": share,
                            **{k: r[k] for k in FROM_COMPARISONS},
                            "tail_trials": tail[0],
                            "tail_n": tail[1],
                            "tail_share": tail[2],
                            "invalid": invalid.get(name, {}).get(e, {}).get(h.metric, ""),
                            "claims": _claims_on(
                                claims, verdicts, name, e, h.metric, subject, baseline
                            ),
                        }
                    )
    return pd.DataFrame(out, columns=COLUMNS)


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def is_confounded(r) -> bool:
    """The row's contrast differs in more than ABI and compartments: not a compartment cost."""
    return bool(_text(getattr(r, "confounded_by", "")))


def rests_on_few(r) -> bool:
    """The mean depends on a few trials: some trials above 10x the median make half the total."""
    return r.tail_trials > 0 and r.tail_share >= TAIL_SHARE


def tail_text(r) -> str:
    return (
        f"{int(r.tail_trials)} of {int(r.tail_n)} trials make {r.tail_share * 100:.0f}\\,\\% "
        "of the total time"
    )


def _cells(r) -> list[str]:
    if r.invalid:
        return [r"\multicolumn{2}{p{\hw}}{invalid measurement$^\ddagger$}", escape(r.claims)]
    mean = comparison_text(r, covers=False)  # what the intervals cover: the table's last row
    if rests_on_few(r):
        mean += r"$^\dagger$"
    if is_confounded(r):
        mean += r"$^\S$"  # what it mixes: listed once below the table
    median = comparison_text(r, "median", covers=False)
    return [mean, median, escape(r.claims) or "--"]


def latex_table(table: pd.DataFrame, expected=()) -> str:
    """Rows: experiment, metric, contrast; a column group (mean, median, claims) per source;
    an experiment of expected (those with headline metrics that ran) without a row says why."""
    sources = list(dict.fromkeys(table.source))
    if not sources:
        return (
            "\\begin{tabular}{l}\\toprule\nNo target or data set with a compartment variant "
            "was included in this run.\\\\\n\\bottomrule\\end{tabular}\n"
        )
    # p columns take 0.83 of the text width; the Crosses column and the gaps between columns
    # (3pt each side) the rest, so the table stays within the text width
    width = 0.6 / len(sources)
    spec = (
        r">{\raggedright\arraybackslash}p{0.13\textwidth}l>{\raggedright\arraybackslash}"
        r"p{0.1\textwidth}"
        + "".join(
            rf">{{\raggedright\arraybackslash}}p{{{width * 0.36:.3f}\textwidth}}" * 2
            + rf">{{\raggedright\arraybackslash}}p{{{width * 0.28:.3f}\textwidth}}"
            for _ in sources
        )
    )
    half = f"{width * 0.7:.3f}"
    lines = [
        rf"\newlength{{\hw}}\setlength{{\hw}}{{{half}\textwidth}}\setlength{{\tabcolsep}}{{3pt}}",
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(
            ["", "", ""] + [rf"\multicolumn{{3}}{{c}}{{\texttt{{{escape(s)}}}}}" for s in sources]
        )
        + r" \\",
        "".join(rf"\cmidrule(lr){{{4 + 3 * i}-{6 + 3 * i}}}" for i in range(len(sources))),
        " & ".join(
            ["Metric (largest setting)", "Crosses", "Contrast"]
            + ["Mean ratio", "Median ratio", "Claims"] * len(sources)
        )
        + r" \\",
    ]
    last_e = None
    keys = ["experiment", "metric", "subject", "baseline"]
    groups = list(table.groupby(keys, sort=False))
    # a row whose every cell is confounded goes apart, condensed below; a confounded cell in a
    # row kept is marked
    mixed = {k for k, g in groups if all(is_confounded(x) for x in g.itertuples())}
    width_all = 3 + 3 * len(sources)
    for (e, _, subject, baseline), mine in [x for x in groups if x[0] not in mixed]:
        if e != last_e:
            lines.append(r"\midrule")
            title = escape(exp.get(e).title)
            lines.append(rf"\multicolumn{{{width_all}}}{{l}}{{\textbf{{{title}}}}} \\")
            last_e = e
        first = mine.iloc[0]
        cells = [
            escape(first.label),
            escape(first.crosses) if first.crosses else "no",
            rf"\texttt{{{escape(subject)}}} / \texttt{{{escape(baseline)}}}",
        ]
        for s in sources:
            r = mine[mine.source == s]
            cells += _cells(r.iloc[0]) if len(r) else ["not measured", "", ""]
        lines.append(" & ".join(cells) + r" \\")
    for e in [e for e in expected if e not in set(table.experiment)]:
        lines += [
            r"\midrule",
            rf"\multicolumn{{{width_all}}}{{l}}{{\textbf{{{escape(exp.get(e).title)}}}: not run "
            r"on a target or data set with a compartment variant} \\",
        ]
    apart = table[[tuple(x) in mixed for x in table[keys].itertuples(index=False)]]
    if len(apart):
        lines += [
            r"\midrule",
            rf"\multicolumn{{{width_all}}}{{p{{0.95\textwidth}}}}{{\textbf{{Confounded "
            r"contrasts$^\S$:} the two variants differ in more than ABI and compartments, so "
            r"these mean ratios are not compartment costs.} \\",
        ]
        for (source, e, subject, baseline), rows in apart.groupby(
            ["source", "experiment", "subject", "baseline"], sort=False
        ):
            valid = rows[rows.invalid.fillna("") == ""]
            said = "; ".join(_apart_text(x) for x in valid.itertuples())
            claims = "; ".join(c for c in dict.fromkeys(rows.claims.fillna("")) if c)
            lines.append(
                rf"\multicolumn{{{width_all}}}{{p{{0.95\textwidth}}}}{{"
                rf"{escape(exp.get(e).title)}, \texttt{{{escape(subject)}}} / "
                rf"\texttt{{{escape(baseline)}}} on \texttt{{{escape(source)}}}: "
                + (said or "no valid measurement")
                + (f"; claims: {escape(claims)}" if claims else "")
                + r".} \\"
            )
    # what the intervals cover, once: sources alike said together ('the spread within one run
    # on morello-2024 and cheribsd-22.12')
    by_source = table.dropna(subset=["interval_covers"]).groupby("source", sort=False)
    alike: dict[str, list[str]] = {}
    for s, c in by_source.interval_covers.first().items():
        alike.setdefault(c, []).append(rf"\texttt{{{escape(s)}}}")
    covers = "; ".join(f"{covers_words(c)} on {listed(s)}" for c, s in alike.items())
    if covers:
        lines += [
            r"\midrule",
            rf"\multicolumn{{{width_all}}}{{p{{0.95\textwidth}}}}{{Intervals: {covers}.}} \\",
        ]
    maybe = possibly_notes(table)
    if maybe:
        lines += [
            r"\midrule",
            rf"\multicolumn{{{width_all}}}{{p{{0.95\textwidth}}}}{{Possibly also, a name alone or "
            "a board recorded on one side only; the ratios stand: " + "; ".join(maybe) + r".} \\",
        ]
    mixes = confound_notes(table)
    if mixes:
        lines += [
            r"\midrule",
            rf"\multicolumn{{{width_all}}}{{p{{0.95\textwidth}}}}{{$^\S$ what else differs: "
            + "; ".join(mixes)
            + r".} \\",
        ]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def _apart_text(x) -> str:
    """A confounded row below the table: its mean ratio, or, where a few trials carry the mean,
    its median ratio first, marked as the table marks such a mean."""
    mean = comparison_text(x, covers=False)
    if not rests_on_few(x):
        return f"{escape(x.label)} {mean}"
    median = comparison_text(x, "median", covers=False)
    return f"{escape(x.label)} {median} (median$^\\dagger$; mean {mean})"


def confound_notes(table: pd.DataFrame) -> list[str]:
    """Per source and contrast, once: each fact that also differs, and where it differs for some
    of the contrast's rows only (heap revocation: the metrics whose timed region frees or
    allocates), for which ('heap revocation on against off, for a malloc of the largest block
    and a free of the largest block')."""
    out = []
    for (source, subject, baseline), rows in table.groupby(
        ["source", "subject", "baseline"], sort=False
    ):
        said = [[x.strip() for x in _text(c).split(";") if x.strip()] for c in rows.confounded_by]
        if not any(said):
            continue
        facts = scoped(said, list(rows.label), len(rows))
        out.append(
            rf"\texttt{{{escape(source)}}}, \texttt{{{escape(subject)}}} / "
            rf"\texttt{{{escape(baseline)}}}: " + ", ".join(map(escape, facts))
        )
    return out


def possibly_notes(table: pd.DataFrame) -> list[str]:
    """Per source and contrast, once: what else differs in name alone (possibly_also)."""
    if "possibly_also" not in table:
        return []
    out = []
    for (source, subject, baseline), rows in table.groupby(
        ["source", "subject", "baseline"], sort=False
    ):
        said = [[x.strip() for x in _text(c).split(";") if x.strip()] for c in rows.possibly_also]
        if any(said):  # each difference once, with the experiments it is about
            out.append(
                rf"\texttt{{{escape(source)}}}, \texttt{{{escape(subject)}}} / "
                rf"\texttt{{{escape(baseline)}}}: "
                # scoped by experiment: a board or a compiler is the program's, not a metric's
                + escape(
                    "; ".join(
                        scoped(
                            said,
                            [exp.get(e).title for e in rows.experiment],
                            rows.experiment.nunique(),
                        )
                    )
                )
            )
    return out


def scoped(said: list[list[str]], labels: list[str], total: int) -> list[str]:
    """Each fact of the rows' lists (said, one list a row, labels beside) once, with 'for A and B
    only' where fewer than total rows carry it (confound_notes; releases.mixes)."""
    out = []
    for fact in dict.fromkeys(x for items in said for x in items):
        where = list(dict.fromkeys(lab for lab, items in zip(labels, said) if fact in items))
        out.append(fact + ("" if len(where) >= total else f" (for {' and '.join(where)} only)"))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    cfg.add_arguments(ap)
    cfg.add_experiment_arguments(ap, "summary", "comparisons")
    ap.add_argument("--claims", required=True, type=Path, help="config/claims.yaml")
    ap.add_argument("--verdicts", required=True, type=Path, help="results/claims.csv")
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--tex", required=True, type=Path)
    a = ap.parse_args(argv)
    config = exp.config_from_arguments(a)
    comps = {k: pd.read_csv(v) for k, v in cfg.experiment_files(a, "comparisons").items()}
    summaries = {k: pd.read_csv(v) for k, v in cfg.experiment_files(a, "summary").items()}
    comps = {k: v for k, v in comps.items() if exp.get(k).headline}
    table = rows(config, comps, summaries, load(a.claims), pd.read_csv(a.verdicts))
    write_text_atomic(a.csv, table.to_csv(index=False))
    write_text_atomic(a.tex, latex_table(table, expected=list(comps)))


if __name__ == "__main__":
    main()
