"""The conclusion's findings: per data set or target, one sentence with the range of what a
compartment costs (calls into another library, work in the program's own code), and one with
the study's claims that hold and how much evidence they rest on. A summary of the headline
table (results/headline.csv) and the verdicts (results/claims.csv), not the abstract's list
again: point estimates only, each range's ends named."""

from __future__ import annotations

import pandas as pd

from c18n_ae.analysis.claim_kinds.verdict import NOT_ATTRIBUTABLE, UNMEASURABLE
from c18n_ae.common.latex import (
    MAX_DIGITS,
    _sig,
    covers_words,
    escape,
    listed,
    resolution_digits,
)
from c18n_ae.report.claim_tables import kind_counts
from c18n_ae.report.headline import is_confounded, rests_on_few
from c18n_ae.report.provenance import covers


def _point(x) -> str:
    """A row's ratio without its interval, the median where a few trials carry the mean (as
    everywhere else), with no more figures than the timer's resolution allows."""
    few = rests_on_few(x)
    ratio = _quoted(x)
    sides = (x.median, x.reference_median) if few else (x.mean, x.reference_mean)
    # as the table prints the point beside its interval: at least two figures (1.9x, not 2x)
    digits = max(2, min(MAX_DIGITS, resolution_digits(sides, float(x.resolution))))
    return _sig(ratio, digits) + r"$\times$"


def _quoted(x) -> float:
    return x.median_ratio if rests_on_few(x) else x.ratio


def _range(rows: pd.DataFrame) -> str:
    """'from 1.51× for the math workload's CPU time to 50× for waiting for the child's next
    message'."""
    ordered = sorted(rows.itertuples(), key=_quoted)
    low, high = ordered[0], ordered[-1]
    if len(ordered) == 1:
        return f"{_point(low)} for {escape(low.label)}"
    return f"from {_point(low)} for {escape(low.label)} to {_point(high)} for {escape(high.label)}"


def abi_too(mine: pd.DataFrame) -> bool:
    """The source's total contrast changes the ABI with the compartments: it has no purecap
    variant without compartments, so no row splits off the compartments' share."""
    return not (mine.share == "compartment share").any()


def shared_optimisation(meta: dict | None, experiment: str, subject: str, baseline: str):
    """The one optimisation level ('-O0') a data set records for both variants' programs of the
    experiment; None where it records none or two."""
    levels = set()
    for v in (subject, baseline):
        builds = ((meta or {}).get("variants", {}).get(v) or {}).get("builds", [])
        levels |= {b.get("optimisation") for b in builds if experiment in b.get("experiments", [])}
    level = levels.pop() if len(levels) == 1 else None
    return level if level and level.startswith("-O") else None


def debug_kernel(meta: dict | None, experiments=None) -> str:
    """'a debug kernel with INVARIANTS and WITNESS' for a data set whose logs show one, else '';
    '' too where the kernel fact covers only some files (kernel.files: one host's logs) and not
    every one of the experiments named (provenance.covers)."""
    kernel = (meta or {}).get("kernel") or {}
    debug = kernel.get("debug_options") or []
    if experiments is not None and not covers(kernel, experiments):
        return ""
    return f"a debug kernel with {listed(debug)}" if debug else ""


def cost_sentences(table: pd.DataFrame, metas: dict[str, dict] | None = None) -> list[str]:
    """Per source: the first contrast of compartments against none that is not confounded, the
    ranges of its valid ratios that cross into another library and that stay; a source whose
    contrasts are all confounded says it gives no compartment cost. A data set (metas: name ->
    its dataset.yaml) adds its debug kernel and the optimisation its rows' builds share."""
    metas = metas or {}
    out = []
    for source, mine in table.groupby("source", sort=False):
        valid = mine[(mine.share == "total") & (mine.invalid.fillna("") == "")]
        clean = valid[[not is_confounded(r) for r in valid.itertuples()]]
        name = f"\\texttt{{{escape(source)}}}"
        if clean.empty:
            out.append(
                f"On {name} every contrast is confounded (Table~\\ref{{tab:headline}}), so it "
                "gives no compartment cost."
            )
            continue
        one = (clean.subject == clean.subject.iloc[0]) & (clean.baseline == clean.baseline.iloc[0])
        first = clean[one]
        crossing = first[first.crosses.fillna("") != ""]
        staying = first[first.crosses.fillna("") == ""]
        parts = []
        if len(crossing):
            parts.append(f"work that calls into another library takes {_range(crossing)}")
        if len(staying):
            parts.append(f"work in the program's own code {_range(staying)}")
        # the data sets' variants change the ABI with the compartments: say so with the ratio
        spread = covers_words(str(first.interval_covers.iloc[0]))
        together = ", the ABI and the compartments changing together" if abi_too(mine) else ""
        meta = metas.get(source)
        levels = {
            shared_optimisation(meta, r.experiment, r.subject, r.baseline)
            for r in first.itertuples()
        }
        level = levels.pop() if len(levels) == 1 else None
        built = f", every program built {level}" if level else ""
        said = debug_kernel(meta, set(first.experiment))
        kernel = f", on {said}" if said else ""
        maybe = first.get("possibly_also", pd.Series(dtype=object)).fillna("")
        maybe = "; ".join(dict.fromkeys(x for c in maybe for x in str(c).split("; ") if x))
        kernel += f" (possibly also {escape(maybe)})" if maybe else ""
        out.append(
            f"On {name}, {escape(first.contrast.iloc[0])}{together}{built}{kernel}, "
            + " and ".join(parts)
            + f" (point estimates; intervals: {spread}, Table~\\ref{{tab:headline}})."
        )
    return out


def claims_sentence(verdicts: pd.DataFrame, sources: list[str]) -> list[str]:
    """Per source: how many of the study's claims hold or fail on its data, by the kind of their
    verdicts (restated from printed values, reproduced from the study's files, tested), and how
    many its data cannot attribute or measure."""
    out = []
    origin = verdicts.get("origin", pd.Series("study", index=verdicts.index))
    study = verdicts[origin == "study"]
    for source in sources:
        mine = study[study.source == source]
        decided = mine[mine.result.isin(["holds", "fails"])]
        if decided.empty:
            continue
        holds = int((decided.result == "holds").sum())
        fails = len(decided) - holds
        said = f"{holds} hold" + (f" and {fails} fail" if fails else "")
        kinds = listed([f"{n} {k}" for k, n in kind_counts(decided)])
        rest = [(k, n) for k, n in kind_counts(mine) if k in (NOT_ATTRIBUTABLE, UNMEASURABLE)]
        others = f"; {listed([f'{n} {k}' for k, n in rest])}" if rest else ""
        out.append(
            f"Of the study's {mine.claim.nunique()} claims, {said} on \\texttt{{{escape(source)}}} "
            f"({kinds}){others}."
        )
    return out


def conclusion(table: pd.DataFrame, verdicts: pd.DataFrame, metas: dict | None = None) -> str:
    sources = list(dict.fromkeys(table.source))
    said = cost_sentences(table, metas) + claims_sentence(verdicts, sources)
    return " ".join(said) or "No data set or board target measured a compartment in this run."
