"""Evaluates the paper's claims (config/claims.yaml, validated by workflow/schemas/
claims.schema.yaml) on the comparisons, for every target and data set: holds or fails only when the
whole 95 % interval of the claim's statistic (mean or median ratio) lies on one side of its
threshold; inconclusive otherwise (with the trials that would settle it), and "inconclusive: too
few trials" below the claim's minimum of trials per side; "invalid measurement" when the data set's
own limitations say the quantity is not what its name claims; not applicable (with what is missing)
when a variant or experiment did not run there. Each ratio claim is also decided on the other
statistic, and a row says when the two disagree. Rendering lives in c18n_ae.report.claim_tables."""

from __future__ import annotations

import argparse
import json
import math
import operator
from pathlib import Path

import jsonschema
import pandas as pd
import yaml

from c18n_ae import PROJECT_ROOT
from c18n_ae import experiments as exp
from c18n_ae.analysis.comparisons import _seed, lookup, ratio_ci
from c18n_ae.analysis.summarise import with_derived
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import comparison_text, fmt

OPS = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le}
SCHEMA = PROJECT_ROOT / "workflow" / "schemas" / "claims.schema.yaml"
STATISTICS = {  # statistic -> the comparison columns of its ratio and interval
    "mean": ("ratio", "ci95_low", "ci95_high"),
    "median": ("median_ratio", "median_ci95_low", "median_ci95_high"),
}
RESULT_COLUMNS = [
    "claim",
    "source",
    "statistic",
    "result",
    "measured",
    "ratio",
    "ci95_low",
    "ci95_high",
    "mean_result",
    "median_result",
    "statistics_agree",
    "detail",
    "text",
    "experiment",
    "restates",
    "published",
    "origin",
    "says",
    "where",
    "threshold_from",
    "confounded_by",
    "evidence",
    "decided_at",
]
TOO_FEW = "inconclusive: too few trials"
INVALID = "invalid measurement"
CONFOUNDED = "confounded"
PUBLISHED = "published values, no interval"
PUBLISHED_DIR = PROJECT_ROOT / "published"
ORIGINS = ("study", "related study", "own")  # whose claim: counted apart in every tally


class ClaimError(ValueError):
    pass


def _schema() -> dict:
    return yaml.safe_load(SCHEMA.read_text())


def _validated(path: Path) -> dict:
    """The claims file, checked against the schema (one message per mistake, naming the claim
    and key), with the file's min_trials filled in from the schema's default when it names none."""
    try:
        data = yaml.safe_load(Path(path).read_text()) or {}
    except yaml.YAMLError as e:
        raise ClaimError(f"{path}: not valid YAML: {e}") from e
    # an experiment's own claims, declared in its module, are checked alike and follow the file's
    own = [{**c, "experiment": e.name} for e in exp.registry().values() for c in e.claims]
    if own:
        data = {**data, "claims": [*(data.get("claims") or []), *own]}
    schema = _schema()
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if errors:
        raise ClaimError("\n".join(_describe(path, data, e) for e in errors))
    return {"min_trials": schema["properties"]["min_trials"]["default"], **data}


def load(path: Path) -> list[dict]:
    """The claims, validated; each carries min_trials (its own, else the file's, else the
    schema's default)."""
    data = _validated(path)
    return [{"min_trials": data["min_trials"], **c} for c in data["claims"]]


def min_trials(path: Path) -> int:
    """The file's minimum of trials per side (the schema's default when it names none)."""
    return _validated(path)["min_trials"]


def _describe(path: Path, data: dict, error: jsonschema.ValidationError) -> str:
    where = f"{path}: claims"
    parts = list(error.absolute_path)
    if parts[:1] == ["claims"] and len(parts) > 1:
        claim = data["claims"][parts[1]]
        label = claim.get("id", parts[1]) if isinstance(claim, dict) else parts[1]
        where += f"[{label}]" + "".join(f".{p}" for p in parts[2:])
    elif parts:
        where = f"{path}: " + ".".join(map(str, parts))
    if error.validator == "enum":
        allowed = ", ".join(map(str, error.validator_value))
        return f"{where}: {error.instance!r} is not allowed; allowed: {allowed}"
    if error.validator == "required":
        return f"{where}: {error.message}"
    if error.validator == "additionalProperties":
        return f"{where}: unknown key ({error.message})"
    if error.validator == "oneOf" and all("required" in o for o in error.validator_value):
        keys = " or ".join(k for o in error.validator_value for k in o["required"])
        return f"{where}: give exactly one of {keys}"
    return f"{where}: {error.message}"


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


def origin(claim: dict) -> str:
    """Whose claim: the re-analysed study's, another published study's (study.by), or this
    package's own (no study block)."""
    study = claim.get("study")
    if not study:
        return "own"
    return "related study" if study.get("by") else "study"


def origin_fields(claim: dict) -> dict:
    study = claim.get("study") or {}
    return {
        "origin": origin(claim),
        "says": study.get("says", ""),
        "where": study.get("where", ""),
        "threshold_from": claim.get("threshold_from", "study" if study else "package"),
    }


def _interval_verdict(claim: dict, rows: pd.DataFrame) -> tuple[str, pd.Series, str]:
    """rows: one per parameter value with ratio and interval; the verdict over all of them and the
    row that decided it (the worst one)."""
    if claim["kind"] in ("ratio", "metrics"):
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


def _on(rows: pd.DataFrame, statistic: str) -> pd.DataFrame:
    """The rows with the statistic's ratio and interval in the columns the verdict reads."""
    r, lo, hi = STATISTICS[statistic]
    return rows.assign(ratio=rows[r], ci95_low=rows[lo], ci95_high=rows[hi])


def _need(claim: dict) -> str:
    if claim["kind"] == "ratio_near":
        return f"needs {claim['expected']} ± {claim['tolerance']}"
    return f"needs {claim['op']} {claim['threshold']}"


def decide(claim: dict, base: dict, rows: pd.DataFrame, what: str) -> dict:
    """The verdict of a ratio claim on its rows (one per parameter value or variant), on the
    claim's statistic, with the other statistic's verdict beside it. what(row) says which ratio
    decided it."""
    statistic = claim["statistic"]
    other = "median" if statistic == "mean" else "mean"
    verdicts = {}
    for stat in (statistic, other):
        on = _on(rows, stat)
        on = on[on.ratio.notna()]
        verdicts[stat] = _interval_verdict(claim, on) if len(on) else None
    if verdicts[statistic] is None:
        return {**base, "result": "not applicable", "detail": f"no {statistic} ratio computed"}
    result, row, note = verdicts[statistic]
    fewest = int(min(rows.n.min(), rows.n_reference.min()))
    trials = f"n = {int(row.n)} and {int(row.n_reference)}"
    out = {
        **base,
        "decided_at": _at(row, rows).removeprefix(" at "),
        "evidence": "raw data",
        "measured": comparison_text(row, statistic, tex=False),
        "ratio": row.ratio,
        "ci95_low": row.ci95_low,
        "ci95_high": row.ci95_high,
        f"{statistic}_result": result,
    }
    if fewest < claim["min_trials"]:
        return {
            **out,
            "result": TOO_FEW,
            "statistics_agree": True,
            "detail": f"{what(row)}; {trials}: at least {claim['min_trials']} trials per side "
            f"are needed (claim minimum), {claim['min_trials'] - fewest} more on the smaller side",
        }
    detail = f"{statistic} ratio {what(row)}, 95 % CI; {trials}; {_need(claim)}{note}"
    if verdicts[other] is not None:
        o_result, o_row, _ = verdicts[other]
        out[f"{other}_result"] = o_result
        out["statistics_agree"] = o_result == result
        if o_result != result:
            detail += (
                f". The {other} disagrees: it {o_result if o_result != 'holds' else 'holds'} "
                f"({comparison_text(o_row, other, tex=False)}"
                f"{_at(o_row, rows)})"
            )
    return {**out, "result": result, "detail": detail}


def _at(row, rows) -> str:
    if len(rows) < 2 or "parameter" not in row:
        return ""
    value = row._p if pd.notna(row.get("_p", math.nan)) else row.parameter_value
    return f" at {row.parameter} {fmt(value) if isinstance(value, float) else value}"


def evaluate_one(
    claim: dict,
    target: str,
    variants: dict[str, bool],
    summary: pd.DataFrame | None,
    comparisons: pd.DataFrame | None = None,
    tidy: pd.DataFrame | None = None,
    invalid: dict[str, str] | None = None,
) -> dict:
    """variants: the target's variants that ran this experiment, with their c18n setting; invalid:
    metric -> why the target's (data set's) measurement of it is not what its name claims."""
    base = {
        "claim": claim["id"],
        "source": target,
        "statistic": claim.get("statistic", "flag"),
        "text": claim["text"],
        "experiment": claim["experiment"],
        "restates": claim.get("restates", ""),
        "published": claim.get("published", ""),
        "measured": "",
        "ratio": math.nan,
        "ci95_low": math.nan,
        "ci95_high": math.nan,
        "mean_result": "",
        "median_result": "",
        "statistics_agree": True,
        **origin_fields(claim),
        "confounded_by": "",
        "evidence": "",
        "decided_at": "",
    }
    if summary is None:
        return {
            **base,
            "result": "not applicable",
            "detail": f"experiment {claim['experiment']} did not run",
        }
    bad = [m for m in (claim["metric"], claim.get("baseline_metric")) if m in (invalid or {})]
    if bad:
        return {**base, "result": INVALID, "detail": f"{bad[0]}: {invalid[bad[0]]}"}
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
        out = decide(
            claim,
            base,
            rows,
            lambda r: f"{claim['subject']}/{claim['baseline']} of {claim['metric']}{_at(r, rows)}",
        )
        return confounded(out, rows, claim)
    if claim["kind"] == "metrics":
        return _metrics(claim, base, target, variants, tidy)
    chosen = [v for v, c18n in variants.items() if c18n == claim["c18n"]]
    if not chosen:
        kind = "with c18n: true" if claim["c18n"] else "without c18n"
        return {**base, "result": "not applicable", "detail": f"no variant {kind} on this target"}
    values, counted = {}, {}
    for v in chosen:
        s = summary[
            (summary.source == target)
            & (summary.variant == v)
            & (summary.metric == claim["metric"])
            & (summary.parameter_value.astype(str) == str(claim["parameter_value"]))
        ]
        if len(s) and pd.notna(s.iloc[0]["mean"]):
            values[v] = (float(s.iloc[0]["mean"]), int(s.iloc[0]["n"]))
            counted[v] = _counted(claim, summary, target, v)
    if not values:
        return {
            **base,
            "result": "not applicable",
            "detail": f"{claim['metric']} at {claim['parameter_value']} not run on "
            f"{', '.join(chosen)}",
        }
    ok = all(mean == claim["expected"] for mean, _ in values.values())
    return {
        **base,
        "result": "holds" if ok else "fails",
        "measured": ", ".join(
            f"{v}: {amount(claim['metric'], mean, n)}{counted[v]}"
            for v, (mean, n) in values.items()
        ),
        "evidence": "raw data",
        "detail": f"{claim['metric']} at {claim['parameter_value']}; needs {claim['expected']} "
        "in every trial",
    }


def amount(metric: str, mean: float, n: int) -> str:
    """How much evidence a flag rests on: 'strings_visible = 1 in 1 of 100 trials'."""
    return f"{metric} = 1 in {round(mean * n)} of {n} trial{'s' if n != 1 else ''}"


def _counted(claim: dict, summary: pd.DataFrame, target: str, variant: str) -> str:
    """', 1 of 100 strings found': what the flag counts (the claim's counts: found and of, two
    metrics at its parameter value), summed over the trials; '' when the claim names none."""
    spec = claim.get("counts")
    if not spec:
        return ""
    s = summary[
        (summary.source == target)
        & (summary.variant == variant)
        & (summary.parameter_value.astype(str) == str(claim["parameter_value"]))
    ]
    total = {}
    for key in ("found", "of"):
        row = s[s.metric == spec[key]]
        if row.empty or pd.isna(row.iloc[0]["mean"]):
            return ""
        total[key] = round(float(row.iloc[0]["mean"]) * int(row.iloc[0]["n"]))
    return f", {total['found']} of {total['of']} {spec['what']} found"


def published_verdict(claim: dict, base: dict) -> dict:
    """A claim decided on the values a study printed (no raw data): a flag on the printed rows
    that on_published.where selects, or every printed subject/baseline pair (grouped by
    on_published.by) against the claim's threshold. No interval: the table gives none."""
    spec = claim["on_published"]
    path = PUBLISHED_DIR / spec["file"]
    try:
        table = pd.read_csv(path, dtype=str)
    except OSError as e:
        raise ClaimError(f"{claim['id']}: on_published.file {path}: {e.strerror}") from None
    missing = [c for c in [spec["column"], *spec.get("where", {}), *spec.get("by", [])]
               if c not in table]  # fmt: skip
    if missing:
        raise ClaimError(f"{path}: no column {', '.join(missing)} (claim {claim['id']})")
    out = {**base, "evidence": PUBLISHED, "ratio": math.nan}
    if "subject" not in spec:
        rows = table
        for key, value in spec.get("where", {}).items():
            rows = rows[rows[key] == str(value)]
        if rows.empty:
            raise ClaimError(f"{path}: no row {spec.get('where')} (claim {claim['id']})")
        ones = int((rows[spec["column"]] == spec.get("is_one", "1")).sum())
        ok = all(
            (x == spec.get("is_one", "1")) == bool(claim["expected"]) for x in rows[spec["column"]]
        )
        return {
            **out,
            "result": "holds" if ok else "fails",
            "measured": f"{spec['column']}: {', '.join(rows[spec['column']])} "
            f"({ones} of {len(rows)} printed trial{'s' if len(rows) != 1 else ''} read as 1)",
            "detail": f"{spec['file']}; needs {claim['expected']}",
        }
    values = pd.to_numeric(table["value"], errors="coerce")
    table = table.assign(value=values)
    ratios = []
    for key, g in table.groupby(spec.get("by", []), sort=False):
        a = g[g[spec["column"]] == spec["subject"]].value
        b = g[g[spec["column"]] == spec["baseline"]].value
        if len(a) == 1 and len(b) == 1 and b.iloc[0]:
            ratios.append(float(a.iloc[0] / b.iloc[0]))
    if not ratios:
        raise ClaimError(
            f"{path}: no {spec['subject']}/{spec['baseline']} pair (claim {claim['id']})"
        )
    ok = all(OPS[claim["op"]](r, claim["threshold"]) for r in ratios)
    low, high = min(ratios), max(ratios)
    return {
        **out,
        "result": "holds" if ok else "fails",
        "ratio": high if claim["op"] in ("<", "<=") else low,
        "measured": f"{spec['subject']}/{spec['baseline']} from {fmt(low)} to {fmt(high)} over "
        f"{len(ratios)} printed settings",
        "detail": f"{spec['file']}; {_need(claim)} at every setting",
    }


def confounded(out: dict, rows: pd.DataFrame, claim: dict) -> dict:
    """A ratio verdict on a contrast that differs in more than ABI and compartments (the
    comparisons' confounded_by): 'confounded', with what is mixed, never holds or fails."""
    if "confounded_by" not in rows or out["result"] == "not applicable":
        return out
    mixed = [c for c in dict.fromkeys(rows.confounded_by) if isinstance(c, str) and c]
    if not mixed:
        return out
    what = "; ".join(mixed)
    return {
        **out,
        "result": CONFOUNDED,
        "confounded_by": what,
        "mean_result": CONFOUNDED if out.get("mean_result") else "",
        "median_result": CONFOUNDED if out.get("median_result") else "",
        "statistics_agree": True,
        "detail": f"{claim.get('statistic', 'mean')} ratio {claim['subject']}/{claim['baseline']} "
        f"of {claim['metric']}; the two differ in {what} as well as in ABI and compartments, so "
        "the ratio mixes them and decides nothing about compartments",
    }


def _metrics(
    claim: dict, base: dict, target: str, variants: dict[str, bool], tidy: pd.DataFrame | None
) -> dict:
    """metric / baseline_metric with a bootstrap interval, on every variant that ran (or those
    named, or those whose c18n setting is the claim's) and every parameter value."""
    chosen = [
        v
        for v, c18n in variants.items()
        if v in claim.get("variants", variants) and claim.get("c18n", c18n) == c18n
    ]
    if not chosen:
        where = "in compartments" if claim.get("c18n") else "named by the claim"
        return {**base, "result": "not applicable", "detail": f"no variant {where} ran here"}
    rows = []
    if tidy is not None and len(tidy):
        t = with_derived(tidy)
        t = t[(t.source == target) & (t.status == "ok")]
        for v in chosen:
            mine = t[t.variant == v]
            for (param, value), g in mine.groupby(
                ["parameter", "parameter_value"], sort=True, observed=True
            ):
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
    return decide(
        claim,
        base,
        rows,
        lambda r: (
            f"{claim['metric']}/{claim['baseline_metric']} on {r.variant} at {r.parameter} "
            f"{fmt(float(r.parameter_value))} ({len(rows)} settings on {', '.join(chosen)})"
        ),
    )


def evaluate(
    claims: list[dict],
    summaries: dict[str, pd.DataFrame],
    targets: dict[str, dict[str, bool]],
    comparisons: dict[str, pd.DataFrame] | None = None,
    tidies: dict[str, pd.DataFrame] | None = None,
    invalid: dict[str, dict[str, dict[str, str]]] | None = None,
    releases: dict[str, str] | None = None,
) -> pd.DataFrame:
    """targets: every configured target and data set -> {variant: c18n}; the variants that ran come
    from the data. invalid: target -> experiment -> metric -> reason (c18n_ae.common.config
    .invalid_metrics). releases: data set -> its release: a claim with on_published is decided on
    the printed values for a data set of the printed release that has no raw data for it."""
    comparisons, tidies, invalid = comparisons or {}, tidies or {}, invalid or {}
    releases = releases or {}
    default = _schema()["properties"]["min_trials"]["default"]
    claims = [{"min_trials": default, **c} for c in claims]
    rows = []
    for claim in claims:
        e = claim["experiment"]
        summary = summaries.get(e)
        for target, variants in targets.items():
            ran = variants
            if summary is not None:
                present = set(summary[summary.source == target].variant)
                ran = {v: c for v, c in variants.items() if v in present}
                if not present:
                    rows.append(
                        evaluate_one(claim, target, {}, None)
                        | {"detail": f"{e} did not run on {target}"}
                    )
                    continue
            rows.append(
                evaluate_one(
                    claim,
                    target,
                    ran,
                    summary,
                    comparisons.get(e),
                    tidies.get(e),
                    invalid.get(target, {}).get(e),
                )
            )
        rows = _with_published(claim, rows, releases)
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


def _with_published(claim: dict, rows: list[dict], releases: dict[str, str]) -> list[dict]:
    """A claim's rows with its printed-values verdict: in place of 'not applicable' on each data
    set of the printed release, or as a row of its own source (a study with no data set here)."""
    spec = claim.get("on_published")
    if not spec:
        return rows
    mine = [r for r in rows if r["claim"] == claim["id"]]
    base = {**(mine[0] if mine else {}), "measured": "", "detail": "", "ratio": math.nan}
    if "source" in spec:
        return rows + [published_verdict(claim, {**base, "source": spec["source"]})]
    out = []
    for r in rows:
        swap = (
            r["claim"] == claim["id"]
            and r["result"] == "not applicable"
            and releases.get(r["source"]) == spec["release"]
        )
        out.append(published_verdict(claim, {**r, "measured": "", "detail": ""}) if swap else r)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claims", required=True, type=Path)
    cfg.add_arguments(ap)
    cfg.add_experiment_arguments(ap, "summary", "comparisons", "tidy")
    ap.add_argument(
        "--targets", help='JSON: {"source": {"variant": c18n}} (default: from --config)'
    )
    ap.add_argument("--csv", required=True, type=Path)
    a = ap.parse_args(argv)

    def read(kind):
        return {k: pd.read_csv(v) for k, v in cfg.experiment_files(a, kind).items()}

    config = exp.config_from_arguments(a)
    targets = json.loads(a.targets) if a.targets else cfg.c18n_variants(config)
    try:
        results = evaluate(
            load(a.claims),
            read("summary"),
            targets,
            read("comparisons"),
            read("tidy"),
            cfg.invalid_metrics(config) if config else {},
            {d["name"]: d.get("release", "") for d in cfg.datasets(config)} if config else {},
        )
    except ClaimError as e:
        raise SystemExit(f"error: {e}")
    write_text_atomic(a.csv, results.to_csv(index=False))


if __name__ == "__main__":
    main()
