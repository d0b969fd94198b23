"""The paper's generated prose: the findings of the abstract and the conclusion, the claims'
tally, each experiment's paragraph on its part of the headline table, and the data sets'
attribution (said once, in the set-up). Everything is read from results/headline.csv,
results/claims.csv and the E1 summary; nothing is recomputed. Plain sentences, one ratio format
(c18n_ae.common.latex.ratio_text), three significant digits, at most MAX_WORDS words a
sentence."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.claim_kinds.verdict import REPRODUCED, RESTATED
from c18n_ae.analysis.contrasts import confound_kinds
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import comparison_text, escape, listed, newcommand
from c18n_ae.report import provenance
from c18n_ae.report.claim_tables import (
    agrees,
    departures,
    package_thresholds,
    release_sentence,
    single_trial_claims,
    tally_sentence,
    tex_quotes,
)
from c18n_ae.report.conclusion import abi_too, conclusion, debug_kernel, shared_optimisation
from c18n_ae.report.headline import is_confounded, rests_on_few, sources_of, tail_text

MAX_WORDS = 60


def words(text: str) -> int:
    return len(text.split())


def sentences(opening: str, items: list[str], closing: str = ".") -> list[str]:
    """'opening item; item; item.' cut into sentences of at most MAX_WORDS words; a sentence
    after the first opens with 'Also'."""
    out, current = [], []
    for item in items:
        head = opening if not out else "Also"
        if current and words(f"{head} {'; '.join(current + [item])}") > MAX_WORDS:
            out.append(f"{head} {'; '.join(current)}{closing}")
            current = []
        current.append(item)
    if current:
        head = opening if not out else "Also"
        out.append(f"{head} {'; '.join(current)}{closing}")
    return out


def item(r) -> str:
    """'1.51× ± 0.0001 within one run for the math workload's CPU time'; the median where a
    few trials carry the mean. Each interval says what it covers (the row's interval_covers:
    within one run for a data set, between runs for runs of this package repeated)."""
    if rests_on_few(r):
        text = comparison_text(r, "median")
        return f"{text} for {escape(r.label)} (median, a typical trial)"
    return f"{comparison_text(r)} for {escape(r.label)}"


def possibly(rows: pd.DataFrame) -> str:
    """What the rows' contrast differs in by name alone (possibly_also), each once; '' if none."""
    said = rows.get("possibly_also", pd.Series(dtype=object)).fillna("")
    return "; ".join(dict.fromkeys(x for c in said for x in str(c).split("; ") if x))


def source_name(source: str, releases: dict[str, str]) -> str:
    release = releases.get(source)
    return f"\\texttt{{{escape(source)}}}" + (f" ({escape(release)})" if release else "")


def mixed_note(where: str, mixed: pd.DataFrame, alone: bool) -> str:
    """One sentence for all of a source's confounded rows: how many ratios, on how many
    contrasts, and the kinds of fact those contrasts also differ in (their names, in full, are
    in the set-up and the headline table)."""
    kinds = list(dict.fromkeys(k for c in mixed.confounded_by for k in confound_kinds(c)))
    said = listed(kinds)
    # a contrast is a pair of variants (its name may differ by metric: the revocation it names)
    n, contrasts = len(mixed), len(mixed.drop_duplicates(["subject", "baseline"]))
    which = f"all {n} of its headline ratios" if alone else f"{n} of its headline ratios"
    on = "a contrast" if contrasts == 1 else f"{contrasts} contrasts"
    # several contrasts need not share every kind of fact: 'one or more of'
    some = "one or more of " if contrasts > 1 and len(kinds) > 1 else ""
    return (
        f"On {where}, {which} rest on {on} that also differ{'s' if contrasts == 1 else ''} in "
        f"{some}{escape(said)}, so none of those is a compartment cost."
    )


def abstract_sentences(
    table: pd.DataFrame, releases: dict[str, str], metas: dict[str, dict] | None = None
) -> list[str]:
    """Per source: the first valid metric of each experiment that calls into another library,
    for the first contrast of compartments against none, with the builds and kernel a data set
    records (metas: data set name -> its dataset.yaml)."""
    metas = metas or {}
    out = []
    for source, mine in table.groupby("source", sort=False):
        valid = mine[(mine.share == "total") & (mine.invalid.fillna("") == "")]
        # a confounded contrast is no compartment cost: named, never quoted as one
        mixed = valid[[is_confounded(r) for r in valid.itertuples()]]
        total = valid.drop(mixed.index)
        notes = (
            [mixed_note(source_name(source, releases), mixed, total.empty)] if len(mixed) else []
        )
        if total.empty:
            out += notes
            continue
        first = total[
            (total.subject == total.subject.iloc[0]) & (total.baseline == total.baseline.iloc[0])
        ]
        crossing = first[first.crosses.fillna("") != ""]
        picks = (crossing if len(crossing) else first).groupby("experiment", sort=False).head(1)
        together = " (the ABI and the compartments together)" if abi_too(mine) else ""
        meta = metas.get(source)
        where = source_name(source, releases)
        kernel = debug_kernel(meta, set(picks.experiment))  # only where its log covers them
        if kernel:  # inside the release's parentheses, or parentheses of its own
            where = where[:-1] + f", {kernel})" if where.endswith(")") else f"{where} ({kernel})"
        opening = f"On {where}, {escape(first.contrast.iloc[0])}{together} gives"
        levels = [
            shared_optimisation(meta, r.experiment, r.subject, r.baseline)
            for r in picks.itertuples()
        ]
        out += sentences(
            opening,
            [
                item(r) + (f", both built {level}" if level else "")
                for r, level in zip(picks.itertuples(), levels)
            ],
        )
        maybe = possibly(first)
        if maybe:  # a name alone: the ratios stand, the difference named (the tables say it too)
            out.append(f"Possibly also: {escape(maybe)}.")
        out += notes
    return out


def statistics_disagree(verdicts: pd.DataFrame, source: str) -> str:
    """'On cheribsd-22.12 the mean and the median disagree on free-slower-in-compartment.': the
    claims whose two statistics decide differently, said once beside the tables' evidence."""
    mine = verdicts[(verdicts.source == source) & ~verdicts.statistics_agree.map(agrees)]
    if mine.empty:
        return ""
    names = listed([f"\\texttt{{{escape(c)}}}" for c in mine.claim])
    return f"On \\texttt{{{escape(source)}}} the mean and the median disagree on {names}."


# a verdict that checks the study's arithmetic, said by its kind: never "holds" in the prose
CHECKS_ARITHMETIC = {RESTATED: "restated", REPRODUCED: "reproduced from its files"}


def by_kind(claims: str, kinds: dict[str, str]) -> str:
    """'math-cost-purecap: holds; ...' with each restated or reproduced verdict said by its kind
    ('math-cost-purecap: reproduced from its files'); kinds: claim -> its verdict's kind."""
    out = []
    for entry in claims.split("; "):
        claim, _, result = entry.partition(": ")
        kind = CHECKS_ARITHMETIC.get(kinds.get(claim, ""))
        out.append(f"{claim}: {kind}" if kind and result.startswith(("holds", "fails")) else entry)
    return "; ".join(out)


def _entry(r: pd.DataFrame, limit: str, said: set[str], kinds: dict | None = None) -> str:
    """One contrast on one source as a list entry of short labelled parts: calls into another
    library, work in the program's own code, the tails, the invalid metrics, the claims decided
    on the rows, the source's limits."""
    first = r.iloc[0]
    parts = []
    valid = r[r.invalid.fillna("") == ""]
    # a confounded metric's ratio is no compartment cost: named with what it mixes, its ratio
    # left to the headline table
    mixed = valid[[is_confounded(x) for x in valid.itertuples()]]
    valid = valid.drop(mixed.index)
    crossing = valid[valid.crosses.fillna("") != ""]
    staying = valid[valid.crosses.fillna("") == ""]
    if len(mixed):
        facts = "; ".join(dict.fromkeys(f for c in mixed.confounded_by for f in c.split("; ")))
        labels = " and ".join(dict.fromkeys(escape(x) for x in mixed.label))
        parts.append(
            f"Confounded by {escape(facts)}: {labels} (Table~\\ref{{tab:headline}}; no "
            "compartment cost)"
        )
    if len(crossing):
        libs = ", ".join(dict.fromkeys(crossing.crosses))
        calls = "; ".join(item(x) for x in crossing.itertuples())
        # both kinds carry whatever else the contrast changes (the ABI, as a rule); only the
        # first crosses
        parts.append(f"Calls into {escape(libs)} (these cross under c18n): {calls}")
    if len(staying):
        staying_items = "; ".join(item(x) for x in staying.itertuples())
        parts.append(f"Own code (no call crosses): {staying_items}")
    for x in valid.itertuples():
        if rests_on_few(x):
            mean = comparison_text(x)
            parts.append(f"The mean for {escape(x.label)}, {mean}, rests on {tail_text(x)}")
    invalid = r[r.invalid.fillna("") != ""]
    if len(invalid):
        labels = " and ".join(dict.fromkeys(escape(x) for x in invalid.label))
        why = invalid.invalid.iloc[0]
        parts.append(f"Not valid: {labels}, " + ("as above" if why in said else escape(why)))
        said.add(why)  # a reason is given once a paragraph
    maybe = possibly(valid)
    if maybe:  # said in full once, like a limit
        full = f"{escape(maybe)} (a name alone; the ratios stand)"
        parts.append("Possibly also: " + ("as above" if maybe in said else full))
        said.add(maybe)
    claims = [c for c in dict.fromkeys(r.claims.fillna("")) if c]
    if claims:
        parts.append("Claims: " + escape(by_kind("; ".join(claims), kinds or {})))
    if limit:
        limit = " ".join(limit.split())
        parts.append("Limits: " + ("as above" if limit in said else escape(limit)))
        said.add(limit)
    # the contrast opens the entry's first part: an entry of its own would print the same
    # sentence for every experiment of the source
    said = [p.rstrip(".") for p in parts]
    if said:
        said[0] = f"{escape(first.contrast)}---{said[0][:1].lower()}{said[0][1:]}"
    return ". ".join(said or [escape(first.contrast)]) + "."


def experiment_paragraph(
    experiment: str,
    table: pd.DataFrame,
    releases: dict,
    limits: dict[str, dict],
    said: set[str] | None = None,
    verdicts: pd.DataFrame | None = None,
) -> str:
    """Each source's part of the headline table for one experiment, as a list (one entry per
    source and contrast, not a sentence template repeated): calls into another library, work in
    the program's own code, tails, invalid metrics and the claims resting on these rows."""
    mine = table[table.experiment == experiment]
    if mine.empty:
        return (
            "No target or data set with a compartment variant measured this experiment in this "
            "run (Section~\\ref{sec:setup})."
        )
    # what the paragraphs have said in full (said: shared by every experiment's paragraph)
    kinds: dict[str, dict[str, str]] = {}
    if verdicts is not None and "verdict_kind" in verdicts:
        for v in verdicts.itertuples():
            kinds.setdefault(v.source, {})[v.claim] = v.verdict_kind
    items, said = [], set() if said is None else said
    for source, rows in mine.groupby("source", sort=False):
        limit = limits.get(source, {}).get(experiment, "")
        for _, r in rows.groupby(["subject", "baseline"], sort=False):
            entry = _entry(r, limit, said, kinds.get(source, {}))
            items.append(f"\\item {source_name(source, releases)}, {entry}")
            limit = ""  # said once per source
    return "\\begin{itemize}\n" + "\n".join(items) + "\n\\end{itemize}"


def attribution(meta: dict, earlier: list[dict] = ()) -> str:
    """The one full attribution of a data set (the set-up section); a data set from the same
    people and source as an earlier one says so instead of repeating it. When it was measured
    follows a semicolon: its words may hold a parenthesis, which must not sit inside another."""
    h, src = meta["host"], meta["source"]
    same = next(
        (
            m
            for m in earlier
            if m["measured_by"] == meta["measured_by"] and m["source"] == meta["source"]
        ),
        None,
    )
    where = f"a {escape(h['model'])} running {escape(h['os'])}"
    boards = provenance.boards_text(meta)  # the study's boards and hosts, where recorded
    if same is not None:
        return (
            f"\\texttt{{{escape(meta['name'])}}} is {escape(meta['title'])}, by the same authors "
            f"and from the same repository and commit as \\texttt{{{escape(same['name'])}}}, "
            f"measured on {where}; when: {escape(meta['measured_when'])}." + boards
        )
    return (
        f"\\texttt{{{escape(meta['name'])}}} is {escape(meta['title'])}, measured by "
        f"{escape(meta['measured_by'])} on {where}; when: {escape(meta['measured_when'])}. "
        f"Its files come from \\texttt{{{escape(src['repository'])}}} at commit "
        f"\\texttt{{{src['commit'][:12]}}} ({escape(src['license'])}); this package re-analysed "
        "them and did not measure them." + boards
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    cfg.add_arguments(ap)
    ap.add_argument("--headline", required=True, type=Path, help="results/headline.csv")
    ap.add_argument("--verdicts", required=True, type=Path, help="results/claims.csv")
    ap.add_argument(
        "--summary",
        action="append",
        default=[],
        help="EXPERIMENT=path (experiments with findings)",
    )
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    config = exp.config_from_arguments(a)
    metas = cfg.datasets(config)
    releases = {m["name"]: m.get("release", "") for m in metas}
    limits = {m["name"]: m.get("limitations", {}) for m in metas}
    table = pd.read_csv(a.headline, keep_default_na=False, na_values=[""])
    verdicts = pd.read_csv(a.verdicts)
    text = (
        "% Generated by c18n_ae.report.findings from the headline table and claims; do not edit.\n"
    )
    by_name = {m["name"]: m for m in metas}
    found = abstract_sentences(table, releases, by_name)
    text += newcommand(
        "HeadlineFindings",
        " ".join(found)
        or "No target or data set with a compartment variant was included in this run, so this "
        "edition states no finding about compartments.",
    )
    sources = list(dict.fromkeys(table.source)) or [
        t for t in verdicts.source.unique() if t in releases
    ]
    # one tally sentence per source, the same in the abstract, the conclusion and the claims table
    text += newcommand("ClaimsFindings", " ".join(tally_sentence(verdicts, s) for s in sources))
    # how much evidence the decided verdicts rest on: the claims decided on a single trial, and
    # those whose mean and median disagree
    single = [escape(single_trial_claims(verdicts, s)) for s in sources]
    single += [statistics_disagree(verdicts, s) for s in sources]
    text += newcommand("ClaimsEvidence", " ".join(x for x in single if x))
    text += newcommand("PackageThresholds", escape(package_thresholds(verdicts)))
    text += newcommand("ClaimsDeparts", tex_quotes(escape(departures(verdicts))) or "none")
    text += newcommand("ConclusionFindings", conclusion(table, verdicts, by_name))
    text += newcommand("ReleaseClaims", release_sentence(verdicts, list(releases)))
    # an experiment's own sentences (its module's findings) about each data set and board target;
    # a headline experiment's follow its paragraph on the headline table
    summaries = {k: pd.read_csv(v) for k, v in (x.split("=", 1) for x in a.summary)}
    names = [s["name"] for s in sources_of(config)]

    def own(e) -> list[str]:
        summary = summaries.get(e.name)
        if e.findings is None or summary is None:
            return []
        return [x for n in names for x in e.findings(n, summary, verdicts)]

    said: set[str] = set()  # a reason, limit or name difference in full once, then "as above"
    for e in cfg.enabled_experiments(config):
        if exp.get(e).headline:
            name = "".join(w.title() for w in e.split("_"))
            paragraph = experiment_paragraph(e, table, releases, limits, said, verdicts)
            text += newcommand(f"Findings{name}", " ".join([paragraph, *own(exp.get(e))]))
    for e in exp.registry().values():
        if e.findings is None or e.headline:
            continue
        said = own(e)
        text += newcommand(
            f"Findings{e.name.title()}",
            " ".join(said)
            or f"No data set or board target in this run measured E{e.number} with compartments.",
        )
    text += newcommand(
        "DatasetAttributions",
        " ".join(attribution(m, metas[:i]) for i, m in enumerate(metas))
        or "This run included no data set.",
    )
    write_text_atomic(a.out, text)


if __name__ == "__main__":
    main()
