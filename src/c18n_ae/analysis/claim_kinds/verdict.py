"""The row of one claim's verdict on one source (a line of results/claims.csv), and what that source
offers a claim: the variants that ran the claim's experiment and its tables."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from c18n_ae.analysis.claim_type import Claim

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
    "departs",
    "brief",
    "threshold_from",
    "confounded_by",
    "possibly_also",
    "verdict_kind",
    "evidence",
    "decided_at",
]
TOO_FEW = "inconclusive: too few trials"
INVALID = "invalid measurement"
CONFOUNDED = "confounded"
NOT_APPLICABLE = "not applicable"
PUBLISHED = "published values, no interval"
RAW = "raw data"
NOT_MEASURABLE = "not measurable"
ORIGINS = ("study", "related study", "own")  # whose claim: counted apart in every tally
# What a verdict is, so that a reader can weigh it (results/claims.csv verdict_kind): each row is
# one of these five, in this order in every tally.
RESTATED = "restated"  # the study printed a single trial or a table: the package can only copy it
REPRODUCED = "reproduced from the same data"  # its number back from its files: checks arithmetic
TESTED = "tested"  # decided with an interval on data that could have contradicted it
NOT_ATTRIBUTABLE = "not attributable to compartments"  # the contrast differs in a known cause too
UNMEASURABLE = "not measurable with these data"
VERDICT_KINDS = (RESTATED, REPRODUCED, TESTED, NOT_ATTRIBUTABLE, UNMEASURABLE)


def verdict_kind(row: dict, study_data: set[str]) -> str:
    """The kind of a verdict row: not attributable when its contrast is confounded; not measurable
    when the data cannot carry it (an invalid measurement, nothing here measures it, or not
    measured on this source); restated when decided on values the study printed; reproduced when a
    claim of the re-analysed study is decided on the files its own numbers came from
    (study_data: those data sets); tested otherwise."""
    result = str(row.get("result", ""))
    if result == CONFOUNDED:
        return NOT_ATTRIBUTABLE
    if result in (INVALID, NOT_MEASURABLE) or result.startswith(NOT_APPLICABLE):
        return UNMEASURABLE
    if row.get("evidence") == PUBLISHED:
        return RESTATED
    if row.get("origin") == "study" and row.get("source") in study_data:
        return REPRODUCED
    return TESTED


@dataclass(frozen=True, eq=False)
class Source:
    """What one target or data set offers a claim: its variants that ran the claim's experiment
    (variant -> c18n), that experiment's summary (None: it did not run there), comparisons and
    tidy table, and metric -> why its measurement is not what the name claims."""

    name: str
    variants: dict[str, bool]
    summary: pd.DataFrame | None = None
    comparisons: pd.DataFrame | None = None
    tidy: pd.DataFrame | None = None
    invalid: dict[str, str] = field(default_factory=dict)


def base_row(claim: Claim, source: str) -> dict:
    """The claim's own fields, before anything is decided."""
    study = claim.study
    return {
        "claim": claim.id,
        "source": source,
        "statistic": claim.statistic or "flag",
        "text": claim.text,
        "experiment": claim.experiment,
        "restates": claim.restates,
        "published": claim.published,
        "measured": "",
        "ratio": math.nan,
        "ci95_low": math.nan,
        "ci95_high": math.nan,
        "mean_result": "",
        "median_result": "",
        "statistics_agree": True,
        "origin": claim.origin,
        "says": study.says if study else "",
        "where": study.where if study else "",
        "departs": study.departs if study else "",
        "brief": study.brief if study else "",
        "threshold_from": claim.threshold_from or ("study" if study else "package"),
        "confounded_by": "",
        "possibly_also": "",
        "verdict_kind": "",
        "evidence": "",
        "decided_at": "",
    }


def not_applicable(base: dict, detail: str) -> dict:
    return {**base, "result": NOT_APPLICABLE, "detail": detail}


def chosen_variants(claim: Claim, variants: dict[str, bool]) -> list[str]:
    """The variants a claim is about: those it names (all when it names none) whose c18n setting
    is the claim's (either when it gives none)."""
    return [
        v
        for v, c18n in variants.items()
        if (claim.variants is None or v in claim.variants)
        and (claim.c18n is None or claim.c18n == c18n)
    ]


def no_variant(claim: Claim) -> str:
    where = "in compartments" if claim.c18n else "named by the claim"
    if claim.c18n is False:
        where = "without compartments"
    return f"no variant {where} ran here"
