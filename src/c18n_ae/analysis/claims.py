"""Evaluates the paper's claims (config/claims.yaml, validated by workflow/schemas/
claims.schema.yaml, read into Claims by c18n_ae.analysis.claim_type) for every target and data
set: holds or fails only when the whole 95 % interval of the claim's statistic lies on one side of
its bound; inconclusive otherwise (with the trials that would settle it), and "inconclusive: too
few trials" below the claim's minimum of trials; "invalid measurement" when the data set's own
limitations say the quantity is not what its name claims; not applicable (with what is missing)
when a variant or experiment did not run there. How each kind of claim is decided lives in its
module of c18n_ae.analysis.claim_kinds; a claim on a study's printed table alone in
claim_published. Rendering lives in c18n_ae.report.claim_tables."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis import claim_type
from c18n_ae.analysis.claim_kinds import kind_of
from c18n_ae.analysis.claim_kinds.verdict import (  # noqa: F401  (where callers find them)
    CONFOUNDED,
    INVALID,
    NOT_MEASURABLE,
    ORIGINS,
    PUBLISHED,
    RESULT_COLUMNS,
    TOO_FEW,
    VERDICT_KINDS,
    Source,
    base_row,
    not_applicable,
    verdict_kind,
)
from c18n_ae.analysis.claim_published import with_published
from c18n_ae.analysis.claim_type import Claim, ClaimError
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic


def _checked(claims: list[Claim]) -> list[Claim]:
    """The claims, each of a kind some module declares, with the checks its kind makes beyond the
    schema (one message per mistake, naming the claim and key)."""
    mistakes = []
    for c in claims:
        try:
            check = kind_of(c).check
        except ClaimError as e:
            mistakes.append(str(e))
            continue
        mistakes += check(c) if check else []
    if mistakes:
        raise ClaimError("\n".join(mistakes))
    return claims


def load(path: Path) -> list[Claim]:
    """The claims of the file and of the experiments' modules, validated; each carries min_trials
    (its own, else the file's, else the schema's default)."""
    return _checked(claim_type.read(path)[0])


def parse(*items: dict, min_trials: int | None = None) -> list[Claim]:
    """Claims written as claims.yaml items (a test's, a tool's), validated alike."""
    data = {"claims": list(items)}
    if min_trials is not None:
        data["min_trials"] = min_trials
    return _checked(claim_type.parse(data)[0])


def min_trials(path: Path) -> int:
    """The file's minimum of trials per side (the schema's default when it names none)."""
    return claim_type.read(path)[1]


def evaluate_one(claim: Claim, source: Source) -> dict:
    """The claim's verdict on one source, by its kind."""
    base = base_row(claim, source.name)
    if not kind_of(claim).needs_data:
        return kind_of(claim).decide(claim, source, base)
    if source.summary is None:
        return not_applicable(base, f"experiment {claim.experiment} did not run")
    bad = [m for m in (claim.metric, claim.baseline_metric) if m and m in source.invalid]
    if bad:
        return {**base, "result": INVALID, "detail": f"{bad[0]}: {source.invalid[bad[0]]}"}
    return kind_of(claim).decide(claim, source, base)


def evaluate(
    claims: list[Claim],
    summaries: dict[str, pd.DataFrame],
    targets: dict[str, dict[str, bool]],
    comparisons: dict[str, pd.DataFrame] | None = None,
    tidies: dict[str, pd.DataFrame] | None = None,
    invalid: dict[str, dict[str, dict[str, str]]] | None = None,
    releases: dict[str, str] | None = None,
    study_data: set[str] | frozenset[str] = frozenset(),
) -> pd.DataFrame:
    """targets: every configured target and data set -> {variant: c18n}; the variants that ran come
    from the data. invalid: target -> experiment -> metric -> reason (c18n_ae.common.config
    .invalid_metrics). releases: data set -> its release: a claim with on_published is decided on
    the printed values for a data set of the printed release that has no raw data for it.
    study_data: the data sets whose files the study's own printed numbers come from (dataset.yaml
    study_data): a study's claim decided on one is reproduced, not tested (verdict_kind)."""
    comparisons, tidies, invalid = comparisons or {}, tidies or {}, invalid or {}
    rows = []
    for claim in claims:
        e = claim.experiment
        summary = summaries.get(e)
        for target, variants in targets.items():
            if summary is not None and kind_of(claim).needs_data:
                present = set(summary[summary.source == target].variant)
                if not present:
                    row = evaluate_one(claim, Source(target, {}))
                    rows.append(row | {"detail": f"{e} did not run on {target}"})
                    continue
                variants = {v: c for v, c in variants.items() if v in present}
            source = Source(
                target,
                variants,
                summary,
                comparisons.get(e),
                tidies.get(e),
                invalid.get(target, {}).get(e) or {},
            )
            rows.append(evaluate_one(claim, source))
        rows = with_published(claim, rows, releases or {})
    rows = [{**r, "verdict_kind": verdict_kind(r, set(study_data))} for r in rows]
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


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
            {d["name"] for d in cfg.datasets(config) if d.get("study_data")} if config else set(),
        )
    except ClaimError as e:
        raise SystemExit(f"error: {e}")
    write_text_atomic(a.csv, results.to_csv(index=False))


if __name__ == "__main__":
    main()
