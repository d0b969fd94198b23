"""Evaluates the paper's claims (config/claims.yaml) on the summaries, for every target that ran:
holds, fails (with the measured value) or not applicable (with what is missing)."""

from __future__ import annotations

import argparse
import json
import operator
from pathlib import Path

import pandas as pd
import yaml

from .fsutil import write_text_atomic
from .latex import escape, fmt

OPS = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le}
RESULT_COLUMNS = ["claim", "target", "result", "measured", "detail", "text", "experiment", "restates", "published"]


class ClaimError(ValueError):
    pass


def load(path: Path) -> list[dict]:
    claims = (yaml.safe_load(Path(path).read_text()) or {}).get("claims", [])
    required = {"ratio": {"metric", "subject", "baseline", "op", "threshold"},
                "ratio_near": {"metric", "subject", "baseline", "expected", "tolerance"},
                "flag": {"metric", "parameter_value", "c18n", "expected"},
                "metrics": {"metric", "baseline_metric", "op", "threshold"}}
    for i, c in enumerate(claims):
        where = f"{path}: claims[{c.get('id', i)}]"
        if c.get("kind") not in required:
            raise ClaimError(f"{where}.kind: {c.get('kind')!r} is not allowed; allowed: {', '.join(required)}")
        missing = (required[c["kind"]] | {"id", "text", "experiment"}) - set(c)
        if missing:
            raise ClaimError(f"{where}: missing {', '.join(sorted(missing))}")
        if c["kind"] in ("ratio", "metrics") and c["op"] not in OPS:
            raise ClaimError(f"{where}.op: {c['op']!r} is not allowed; allowed: {', '.join(OPS)}")
    return claims


def _means(summary: pd.DataFrame, target: str, variant: str, metric: str) -> pd.Series:
    s = summary[(summary.target == target) & (summary.variant == variant) & (summary.metric == metric)]
    return s.set_index("parameter_value")["mean"]


def evaluate_one(claim: dict, target: str, variants: dict[str, bool], summary: pd.DataFrame | None) -> dict:
    """variants: the target's variants that ran this experiment, with their c18n setting."""
    base = {"claim": claim["id"], "target": target, "text": claim["text"], "experiment": claim["experiment"],
            "restates": claim.get("restates", ""), "published": claim.get("published", ""), "measured": ""}
    if summary is None:
        return {**base, "result": "not applicable", "detail": f"experiment {claim['experiment']} did not run"}
    if claim["kind"] in ("ratio", "ratio_near"):
        missing = [v for v in (claim["subject"], claim["baseline"]) if v not in variants]
        if missing:
            return {**base, "result": "not applicable", "detail": f"no variant {', '.join(missing)} on this target"}
        sub = _means(summary, target, claim["subject"], claim["metric"])
        ref = _means(summary, target, claim["baseline"], claim["metric"])
        ratios = (sub / ref).dropna()
        if claim.get("scope", "all") == "largest" and len(ratios):
            ratios = ratios.iloc[[-1]]
        if ratios.empty:
            return {**base, "result": "not applicable", "detail": f"no {claim['metric']} measured for both variants"}
        if claim["kind"] == "ratio":
            ok = bool(OPS[claim["op"]](ratios, claim["threshold"]).all())
            worst = ratios.min() if claim["op"] in (">", ">=") else ratios.max()
            detail = f"ratio {claim['subject']}/{claim['baseline']} {fmt(ratios.min())} to {fmt(ratios.max())}; needs {claim['op']} {claim['threshold']}"
        else:
            ok = bool(((ratios - claim["expected"]).abs() <= claim["tolerance"]).all())
            worst = ratios.iloc[(ratios - claim["expected"]).abs().argmax()]
            detail = f"ratio {fmt(worst)}; needs {claim['expected']} ± {claim['tolerance']}"
        return {**base, "result": "holds" if ok else "fails", "measured": fmt(float(worst)), "detail": detail}
    if claim["kind"] == "metrics":
        return _metrics(claim, base, target, variants, summary)
    chosen = [v for v, c18n in variants.items() if c18n == claim["c18n"]]
    if not chosen:
        kind = "with c18n: true" if claim["c18n"] else "without c18n"
        return {**base, "result": "not applicable", "detail": f"no variant {kind} on this target"}
    values = {}
    for v in chosen:
        s = summary[(summary.target == target) & (summary.variant == v) & (summary.metric == claim["metric"])
                    & (summary.parameter_value.astype(str) == str(claim["parameter_value"]))]
        if len(s) and pd.notna(s.iloc[0]["mean"]):
            values[v] = float(s.iloc[0]["mean"])
    if not values:
        return {**base, "result": "not applicable",
                "detail": f"{claim['metric']} at {claim['parameter_value']} not run on {', '.join(chosen)}"}
    ok = all(x == claim["expected"] for x in values.values())
    return {**base, "result": "holds" if ok else "fails", "measured": ", ".join(f"{v}: {x:g}" for v, x in values.items()),
            "detail": f"{claim['metric']} at {claim['parameter_value']}; needs {claim['expected']}"}


def _metrics(claim: dict, base: dict, target: str, variants: dict[str, bool], summary: pd.DataFrame) -> dict:
    """mean(metric) / mean(baseline_metric) on every variant that ran (or those named), every parameter value."""
    chosen = [v for v in variants if v in claim.get("variants", variants)]
    ratios = []
    for v in chosen:
        r = (_means(summary, target, v, claim["metric"]) / _means(summary, target, v, claim["baseline_metric"])).dropna()
        ratios += list(r)
    if not ratios:
        return {**base, "result": "not applicable", "detail": f"{claim['metric']} and {claim['baseline_metric']} not measured"}
    ok = all(OPS[claim["op"]](r, claim["threshold"]) for r in ratios)
    worst = max(ratios) if claim["op"] in ("<", "<=") else min(ratios)
    return {**base, "result": "holds" if ok else "fails", "measured": fmt(worst),
            "detail": f"{claim['metric']}/{claim['baseline_metric']} {fmt(min(ratios))} to {fmt(max(ratios))} "
                      f"on {', '.join(chosen)}; needs {claim['op']} {claim['threshold']}"}


def evaluate(claims: list[dict], summaries: dict[str, pd.DataFrame], targets: dict[str, dict[str, bool]]) -> pd.DataFrame:
    """targets: every configured target -> {variant: c18n}; a target's variants that ran come from the data."""
    rows = []
    for claim in claims:
        summary = summaries.get(claim["experiment"])
        for target, variants in targets.items():
            ran = variants
            if summary is not None:
                present = set(summary[summary.target == target].variant)
                ran = {v: c for v, c in variants.items() if v in present}
                if not present:
                    rows.append(evaluate_one(claim, target, {}, None) | {"detail": f"{claim['experiment']} did not run on {target}"})
                    continue
            rows.append(evaluate_one(claim, target, ran, summary))
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


def latex_table(results: pd.DataFrame) -> str:
    rag = r">{\raggedright\arraybackslash}"
    lines = [rf"\begin{{tabular}}{{{rag}p{{0.34\textwidth}}ll{rag}p{{0.28\textwidth}}{rag}p{{0.16\textwidth}}}}", r"\toprule",
             r"Claim & Target & Result & Measured here & Published \\", r"\midrule"]
    for r in results.itertuples(index=False):
        measured = r.detail if r.result != "holds" or not r.measured else f"{r.measured} ({r.detail})"
        # long metric names may break after an underscore
        measured = escape(measured).replace(r"\_", r"\_\allowbreak{}")
        lines.append(" & ".join([f"\\textbf{{{escape(r.claim)}}}: {escape(r.text)}", escape(r.target),
                                 escape(r.result), measured, escape(r.published)]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def markdown_table(results: pd.DataFrame) -> str:
    """The README's results table; the evidence column maps each claim to its outputs."""
    lines = ["| claim | target | result | measured here | published | evidence |", "|---|---|---|---|---|---|"]
    for r in results.itertuples(index=False):
        measured = r.detail if not r.measured else f"{r.measured} ({r.detail})"
        evidence = (f"`snakemake {r.experiment}`: `results/summary/{r.experiment}.csv`, "
                    f"`results/plots/{r.experiment}.pdf`, `paper/generated/tab-{r.experiment}.tex`")
        lines.append(f"| {r.claim}: {r.text} | {r.target} | **{r.result}** | {measured} | {r.published} | {evidence} |")
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
    ap.add_argument("--summary", action="append", default=[], help="EXPERIMENT=path")
    ap.add_argument("--targets", required=True, help='JSON: {"target": {"variant": c18n}}')
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--tex", required=True, type=Path)
    ap.add_argument("--markdown", required=True, type=Path)
    a = ap.parse_args(argv)
    summaries = {}
    for item in a.summary:
        name, path = item.split("=", 1)
        summaries[name] = pd.read_csv(path)
    try:
        results = evaluate(load(a.claims), summaries, json.loads(a.targets))
    except ClaimError as e:
        raise SystemExit(f"error: {e}")
    write_text_atomic(a.csv, results.to_csv(index=False))
    write_text_atomic(a.tex, latex_table(results))
    write_text_atomic(a.markdown, markdown_table(results))


if __name__ == "__main__":
    main()
