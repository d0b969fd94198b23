"""Evaluates the paper's claims (config/claims.yaml) on the summaries, for every target that ran:
holds or fails only when the whole 95 % interval of the ratio lies on one side of the claim's
threshold; inconclusive otherwise (with the trials that would settle it); not applicable (with what
is missing) when a variant or experiment did not run there."""

from __future__ import annotations

import argparse
import json
import math
import operator
from pathlib import Path

import pandas as pd
import yaml

from c18n_ae.analysis.comparisons import _seed, lookup, ratio_ci
from c18n_ae.analysis.summarise import with_derived
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, fmt, interval_text

OPS = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le}
RESULT_COLUMNS = [
    "claim",
    "target",
    "result",
    "measured",
    "ratio",
    "ci95_low",
    "ci95_high",
    "detail",
    "text",
    "experiment",
    "restates",
    "published",
]


class ClaimError(ValueError):
    pass


def load(path: Path) -> list[dict]:
    claims = (yaml.safe_load(Path(path).read_text()) or {}).get("claims", [])
    required = {
        "ratio": {"metric", "subject", "baseline", "op", "threshold"},
        "ratio_near": {"metric", "subject", "baseline", "expected", "tolerance"},
        "flag": {"metric", "parameter_value", "c18n", "expected"},
        "metrics": {"metric", "baseline_metric", "op", "threshold"},
    }
    for i, c in enumerate(claims):
        where = f"{path}: claims[{c.get('id', i)}]"
        if c.get("kind") not in required:
            raise ClaimError(
                f"{where}.kind: {c.get('kind')!r} is not allowed; allowed: {', '.join(required)}"
            )
        missing = (required[c["kind"]] | {"id", "text", "experiment"}) - set(c)
        if missing:
            raise ClaimError(f"{where}: missing {', '.join(sorted(missing))}")
        if c["kind"] in ("ratio", "metrics") and c["op"] not in OPS:
            raise ClaimError(f"{where}.op: {c['op']!r} is not allowed; allowed: {', '.join(OPS)}")
    return claims


def _means(summary: pd.DataFrame, target: str, variant: str, metric: str) -> pd.Series:
    s = summary[
        (summary.target == target) & (summary.variant == variant) & (summary.metric == metric)
    ]
    return s.set_index("parameter_value")["mean"]


def side(lo: float, hi: float, op: str, threshold: float) -> str:
    """Where a 95 % interval lies against a one-sided threshold: holds, fails or inconclusive."""
    if pd.isna(lo) or pd.isna(hi):
        return "inconclusive"
    if OPS[op](lo, threshold) and OPS[op](hi, threshold):
        return "holds"
    other = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}[op]
    if OPS.get(other, operator.le)(lo, threshold) and OPS.get(other, operator.le)(hi, threshold):
        return "fails"
    return "inconclusive"


def near(lo: float, hi: float, expected: float, tolerance: float) -> str:
    if pd.isna(lo) or pd.isna(hi):
        return "inconclusive"
    low, high = expected - tolerance, expected + tolerance
    if low <= lo and hi <= high:
        return "holds"
    if hi < low or lo > high:
        return "fails"
    return "inconclusive"


def trials_to_settle(ratio: float, lo: float, hi: float, n: int, bounds: list[float]) -> str:
    """The trials per side that an interval of the same spread, shrinking as 1/sqrt(n), would need
    to clear the nearest bound."""
    if pd.isna(lo) or pd.isna(hi):
        return f"too few trials for an interval (n = {n}); at least 2 per side, better 10 or more"
    d = min(abs(ratio - b) for b in bounds)
    if d == 0:
        return "the ratio sits on the threshold; more trials cannot settle it"
    half = max(ratio - lo, hi - ratio)
    return f"about {max(n + 1, math.ceil(n * (half / d) ** 2))} trials per side would settle it"


def _interval_verdict(claim: dict, rows: pd.DataFrame) -> tuple[str, pd.Series, str]:
    """rows: one per parameter value with ratio and interval; the verdict over all of them and the
    row that decided it (the worst one)."""
    if claim["kind"] == "ratio":
        verdicts = [
            side(r.ci95_low, r.ci95_high, claim["op"], claim["threshold"])
            for r in rows.itertuples()
        ]
        bounds = [claim["threshold"]]
    else:
        verdicts = [
            near(r.ci95_low, r.ci95_high, claim["expected"], claim["tolerance"])
            for r in rows.itertuples()
        ]
        bounds = [claim["expected"] - claim["tolerance"], claim["expected"] + claim["tolerance"]]
    order = {"fails": 0, "inconclusive": 1, "holds": 2}
    worst = min(
        range(len(verdicts)), key=lambda i: (order[verdicts[i]], _distance(rows.iloc[i], bounds))
    )
    row = rows.iloc[worst]
    note = ""
    if verdicts[worst] == "inconclusive":
        note = "; " + trials_to_settle(
            row.ratio, row.ci95_low, row.ci95_high, int(min(row.n, row.n_reference)), bounds
        )
    return verdicts[worst], row, note


def _distance(row, bounds) -> float:
    if pd.isna(row.ci95_low):
        return -1.0
    return min(min(abs(row.ci95_low - b), abs(row.ci95_high - b)) for b in bounds)


def _decided(base: dict, result: str, row, detail: str) -> dict:
    """A verdict resting on one ratio and its interval (the row that decided it)."""
    return {
        **base,
        "result": result,
        "measured": _interval_text(row),
        "detail": detail,
        "ratio": row.ratio,
        "ci95_low": row.ci95_low,
        "ci95_high": row.ci95_high,
    }


def _interval_text(row) -> str:
    return interval_text(row.ratio, row.ci95_low, row.ci95_high)


def evaluate_one(
    claim: dict,
    target: str,
    variants: dict[str, bool],
    summary: pd.DataFrame | None,
    comparisons: pd.DataFrame | None = None,
    tidy: pd.DataFrame | None = None,
) -> dict:
    """variants: the target's variants that ran this experiment, with their c18n setting."""
    base = {
        "claim": claim["id"],
        "target": target,
        "text": claim["text"],
        "experiment": claim["experiment"],
        "restates": claim.get("restates", ""),
        "published": claim.get("published", ""),
        "measured": "",
        "ratio": math.nan,
        "ci95_low": math.nan,
        "ci95_high": math.nan,
    }
    if summary is None:
        return {
            **base,
            "result": "not applicable",
            "detail": f"experiment {claim['experiment']} did not run",
        }
    if claim["kind"] in ("ratio", "ratio_near"):
        missing = [v for v in (claim["subject"], claim["baseline"]) if v not in variants]
        if missing:
            return {
                **base,
                "result": "not applicable",
                "detail": f"no variant {', '.join(missing)} on this target",
            }
        rows = (
            pd.DataFrame()
            if comparisons is None
            else lookup(comparisons, target, claim["subject"], claim["baseline"], claim["metric"])
        )
        rows = rows[rows.ratio.notna()] if len(rows) else rows
        if len(rows):
            rows = rows.assign(_p=pd.to_numeric(rows.parameter_value, errors="coerce")).sort_values(
                "_p"
            )
        if claim.get("scope", "all") == "largest" and len(rows):
            rows = rows.iloc[[-1]]
        if rows.empty:
            return {
                **base,
                "result": "not applicable",
                "detail": f"no {claim['metric']} measured for both variants",
            }
        result, row, note = _interval_verdict(claim, rows)
        need = (
            f"needs {claim['op']} {claim['threshold']}"
            if claim["kind"] == "ratio"
            else f"needs {claim['expected']} ± {claim['tolerance']}"
        )
        at = (
            f" at {row.parameter} {fmt(row._p) if pd.notna(row._p) else row.parameter_value}"
            if len(rows) > 1
            else ""
        )
        detail = (
            f"ratio {claim['subject']}/{claim['baseline']} of mean {claim['metric']}{at}, 95 % CI; "
            f"n = {int(row.n)} and {int(row.n_reference)}; {need}{note}"
        )
        return _decided(base, result, row, detail)
    if claim["kind"] == "metrics":
        return _metrics(claim, base, target, variants, tidy)
    chosen = [v for v, c18n in variants.items() if c18n == claim["c18n"]]
    if not chosen:
        kind = "with c18n: true" if claim["c18n"] else "without c18n"
        return {**base, "result": "not applicable", "detail": f"no variant {kind} on this target"}
    values = {}
    for v in chosen:
        s = summary[
            (summary.target == target)
            & (summary.variant == v)
            & (summary.metric == claim["metric"])
            & (summary.parameter_value.astype(str) == str(claim["parameter_value"]))
        ]
        if len(s) and pd.notna(s.iloc[0]["mean"]):
            values[v] = float(s.iloc[0]["mean"])
    if not values:
        return {
            **base,
            "result": "not applicable",
            "detail": f"{claim['metric']} at {claim['parameter_value']} not run on "
            f"{', '.join(chosen)}",
        }
    ok = all(x == claim["expected"] for x in values.values())
    return {
        **base,
        "result": "holds" if ok else "fails",
        "measured": ", ".join(f"{v}: {x:g}" for v, x in values.items()),
        "detail": f"{claim['metric']} at {claim['parameter_value']}; needs {claim['expected']}",
    }


def _metrics(
    claim: dict, base: dict, target: str, variants: dict[str, bool], tidy: pd.DataFrame | None
) -> dict:
    """mean(metric) / mean(baseline_metric) with a bootstrap interval, on every variant that ran
    (or those named) and every parameter value."""
    chosen = [v for v in variants if v in claim.get("variants", variants)]
    rows = []
    if tidy is not None and len(tidy):
        t = with_derived(tidy)
        t = t[(t.target == target) & (t.status == "ok")]
        for v in chosen:
            mine = t[t.variant == v]
            for (param, value), g in mine.groupby(["parameter", "parameter_value"], sort=True):
                a, b = (
                    g[g.metric == claim["metric"]]["value"],
                    g[g.metric == claim["baseline_metric"]]["value"],
                )
                if len(a) and len(b):
                    stats = ratio_ci(
                        a,
                        b,
                        _seed(target, v, claim["metric"], claim["baseline_metric"], param, value),
                    )
                    rows.append(
                        {
                            "variant": v,
                            "parameter": param,
                            "parameter_value": value,
                            "_p": value,
                            **stats,
                        }
                    )
    rows = pd.DataFrame(rows)
    if rows.empty or rows.ratio.isna().all():
        return {
            **base,
            "result": "not applicable",
            "detail": f"{claim['metric']} and {claim['baseline_metric']} not measured",
        }
    rows = rows[rows.ratio.notna()]
    result, row, note = _interval_verdict({**claim, "kind": "ratio"}, rows)
    detail = (
        f"{claim['metric']}/{claim['baseline_metric']} on {row.variant} at {row.parameter} "
        f"{row.parameter_value:g}, "
        f"95 % CI; n = {int(row.n)} and {int(row.n_reference)}; {len(rows)} settings on "
        f"{', '.join(chosen)}; "
        f"needs {claim['op']} {claim['threshold']}{note}"
    )
    return _decided(base, result, row, detail)


def evaluate(
    claims: list[dict],
    summaries: dict[str, pd.DataFrame],
    targets: dict[str, dict[str, bool]],
    comparisons: dict[str, pd.DataFrame] | None = None,
    tidies: dict[str, pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """targets: every configured target and data set -> {variant: c18n}; the variants that ran come
    from the data."""
    comparisons, tidies = comparisons or {}, tidies or {}
    rows = []
    for claim in claims:
        e = claim["experiment"]
        summary = summaries.get(e)
        for target, variants in targets.items():
            ran = variants
            if summary is not None:
                present = set(summary[summary.target == target].variant)
                ran = {v: c for v, c in variants.items() if v in present}
                if not present:
                    rows.append(
                        evaluate_one(claim, target, {}, None)
                        | {"detail": f"{e} did not run on {target}"}
                    )
                    continue
            rows.append(
                evaluate_one(claim, target, ran, summary, comparisons.get(e), tidies.get(e))
            )
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


def latex_table(results: pd.DataFrame) -> str:
    rag = r">{\raggedright\arraybackslash}"
    lines = [
        rf"\begin{{tabular}}{{{rag}p{{0.34\textwidth}}ll{rag}p{{0.28\textwidth}}{rag}p{{0.16\textwidth}}}}",
        r"\toprule",
        r"Claim & Target & Result & Measured here & Published \\",
        r"\midrule",
    ]
    for r in results.itertuples(index=False):
        measured = (
            r.detail if r.result != "holds" or not r.measured else f"{r.measured} ({r.detail})"
        )
        # long metric names may break after an underscore
        measured = escape(measured).replace(r"\_", r"\_\allowbreak{}")
        lines.append(
            " & ".join(
                [
                    f"\\textbf{{{escape(r.claim)}}}: {escape(r.text)}",
                    escape(r.target),
                    escape(r.result),
                    measured,
                    escape(r.published),
                ]
            )
            + r" \\"
        )
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def markdown_table(results: pd.DataFrame) -> str:
    """The README's results table; the evidence column maps each claim to its outputs."""
    lines = [
        "| claim | target | result | measured here | published | evidence |",
        "|---|---|---|---|---|---|",
    ]
    for r in results.itertuples(index=False):
        measured = r.detail if not r.measured else f"{r.measured} ({r.detail})"
        evidence = (
            f"`snakemake {r.experiment}`: `results/summary/{r.experiment}.csv`, "
            f"`results/plots/{r.experiment}.pdf`, `paper/generated/tab-{r.experiment}.tex`"
        )
        lines.append(
            f"| {r.claim}: {r.text} | {r.target} | **{r.result}** | {measured} | {r.published} | "
            f"{evidence} |"
        )
    return "\n".join(lines) + "\n"


README_START, README_END = "<!-- claims:start -->", "<!-- claims:end -->"


def update_readme(readme: Path, table: str) -> None:
    text = readme.read_text()
    if README_START not in text or README_END not in text:
        raise ClaimError(f"{readme}: markers {README_START} and {README_END} not found")
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    write_text_atomic(readme, f"{head}{README_START}\n{table}{README_END}{tail}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claims", required=True, type=Path)
    cfg.add_arguments(ap)
    cfg.add_experiment_arguments(ap, "summary", "comparisons", "tidy")
    ap.add_argument(
        "--targets", help='JSON: {"target": {"variant": c18n}} (default: from --config)'
    )
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--tex", required=True, type=Path)
    ap.add_argument("--markdown", required=True, type=Path)
    a = ap.parse_args(argv)

    def read(kind):
        return {k: pd.read_csv(v) for k, v in cfg.experiment_files(a, kind).items()}

    targets = json.loads(a.targets) if a.targets else cfg.c18n_variants(cfg.from_arguments(a))
    try:
        results = evaluate(
            load(a.claims), read("summary"), targets, read("comparisons"), read("tidy")
        )
    except ClaimError as e:
        raise SystemExit(f"error: {e}")
    write_text_atomic(a.csv, results.to_csv(index=False))
    write_text_atomic(a.tex, latex_table(results))
    write_text_atomic(a.markdown, markdown_table(results))


if __name__ == "__main__":
    main()
