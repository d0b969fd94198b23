"""The claims' verdicts (results/claims.csv) as the paper's appendix table, the run's Markdown
table (results/claims.md), and the generated blocks of CLAIMS.md and the README."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.claim_kinds.verdict import (
    INVALID,
    NOT_ATTRIBUTABLE,
    REPRODUCED,
    RESTATED,
    TESTED,
    UNMEASURABLE,
    VERDICT_KINDS,
)
from c18n_ae.analysis.contrasts import possibly_short
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape, listed
from c18n_ae.common.names import from_config, short_release

# the generated blocks: every claim in full (CLAIMS.md) and the verdicts at a glance (README.md)
README_START, README_END = "<!-- claims:start -->", "<!-- claims:end -->"
OVERVIEW_START, OVERVIEW_END = "<!-- verdicts:start -->", "<!-- verdicts:end -->"


ORIGIN_TITLES = {  # whose claims, in the order every table and tally counts them apart
    "study": "the study's claims",
    "related study": "claims of other published studies",
    "own": "this package's own claims",
}
PUBLISHED = "published values, no interval"


def _text(value) -> str:
    return value if isinstance(value, str) else ""


NUMBERS = ("ratio", "ci95_low", "ci95_high", "statistics_agree")


def read_verdicts(path: Path) -> pd.DataFrame:
    """results/claims.csv with every text cell a string: an empty cell (a claim without a
    published value, a verdict without a detail) reads as "", never as NaN printed "nan"."""
    results = pd.read_csv(path, keep_default_na=False, na_values=[""])
    text = [c for c in results.columns if c not in NUMBERS]
    results[text] = results[text].astype(object).where(results[text].notna(), "")
    return results


# what a tested verdict decided, by the start of its result, in the order a table lists them. A
# claim of the study's (or another study's) tested with an interval is tested on other data than
# the files its words were drawn from (there it is only reproduced): it holds there or does not,
# never 'replicates', which cold readers took for more than a test on a release that differs in
# builds too: the verdict's words, then a count's of one and of several ('1 holds', '4 hold')
OUTCOMES = (
    ("holds", "holds", "holds", "hold"),
    ("fails", "does not hold", "does not", "do not"),
    ("inconclusive", "inconclusive", "is inconclusive", "are inconclusive"),
)
TESTED_RESULTS = tuple(key for key, *_ in OUTCOMES)
TESTED_WORDS = {key: verdict for key, verdict, *_ in OUTCOMES[:2]}


def said_verdict(r, result: str) -> str:
    """A verdict on one of the study's claims in words that say what it can carry: tested on
    other data, whether it holds there ('fails' -> 'does not hold', 'holds (…)' as it is);
    reproduced or restated, its kind alone where the study's own data agree with its words
    ('holds' -> 'reproduced from the same data'), never 'holds', which reads as a test, and
    'disagrees' where they do not; any other verdict, and the package's own claims, as they are."""
    kind = _text(getattr(r, "verdict_kind", ""))
    if _text(getattr(r, "origin", "")) in ("own", ""):
        return result
    if kind == TESTED:
        words = TESTED_WORDS
    elif kind in (REPRODUCED, RESTATED):
        words = {"holds": kind, "fails": "disagrees"}
    else:
        return result
    for word, said in words.items():
        if result.startswith(word):
            return said + result[len(word) :]
    return result


def result_text(r) -> str:
    """The verdict (in said_verdict's words, for a study's claim), what it rests on
    when that is printed values only, what a confounded contrast mixes, what else its contrast
    differs in by name alone, and the other statistic's verdict when it differs ('inconclusive;
    median: does not hold')."""
    text = said_verdict(r, r.result)
    if _text(getattr(r, "evidence", "")) == PUBLISHED:
        text += f" ({PUBLISHED})"
    if text == "confounded" and _text(getattr(r, "confounded_by", "")):
        text += f" by {r.confounded_by}"
    if _text(getattr(r, "possibly_also", "")):
        text += f" (possibly also: {r.possibly_also})"
    if not agrees(r.statistics_agree):
        other = other_statistic(r.statistic)
        text += f"; {other}: {said_verdict(r, getattr(r, f'{other}_result'))}"
    return text


def agrees(value) -> bool:
    """A claims.csv statistics_agree cell (a bool, or its text once read back) as a bool."""
    return str(value).lower() not in ("false", "0")


def other_statistic(statistic: str) -> str:
    return "median" if statistic == "mean" else "mean"


def _measured(r) -> str:
    """What was measured, after the setting that decided it ('at 100 MiB: 15× [9.0, 21] (mean
    ratio ...)'; a claim is decided at the setting nearest its threshold among those that give
    its verdict (claim_kinds.interval.worst), which need not be Table 1's largest), the setting
    said once: the detail drops its own ' at 100 MiB'."""
    has = isinstance(r.measured, str) and r.measured
    if not has:
        return r.detail
    at = _text(getattr(r, "decided_at", ""))
    if not at:
        return f"{r.measured} ({r.detail})"
    detail = _text(r.detail).replace(f" at {at}", "", 1)
    return f"{at if ' at ' in at else 'at ' + at}: {r.measured} ({detail})"


def release_disagreements(results: pd.DataFrame, sources: list[str]) -> list[tuple[str, str]]:
    """(claim, 'holds on a and fails on b') for each claim tested on two or more of the data sets
    (releases) whose tested verdicts differ. Only tested verdicts count (RELEASE_NOTE): a restated
    or reproduced one checks the study's arithmetic, and a confounded, invalid or unmeasurable one
    decides nothing, so none of them shows a difference between releases."""
    out = []
    kind = results.get("verdict_kind", pd.Series(TESTED, index=results.index)).fillna("")
    mine = results[results.source.isin(sources) & (kind == TESTED)]
    for claim, g in mine.groupby("claim", sort=False):
        if g.source.nunique() > 1 and g.result.nunique() > 1:
            said = (f"{said_verdict(r, r.result)} on {r.source}" for r in g.itertuples())
            out.append((claim, " and ".join(said)))
    return out


# said once beside the list, not after each claim
RELEASE_NOTE = (
    "Only verdicts tested on both releases are set side by side: a restated or reproduced verdict "
    "checks the study's arithmetic; a confounded, not valid or unmeasurable one decides nothing."
)


def release_sentence(results: pd.DataFrame, sources: list[str]) -> str:
    """The paper's sentence on the claims whose tested verdicts differ between releases, counted
    (the claims table names them)."""
    differ = release_disagreements(results, sources)
    if not differ:  # the tally has said where each claim was tested
        return ""
    n = len(differ)
    claims = "claim's verdict differs" if n == 1 else "claims' verdicts differ"
    return (
        f"Tested on more than one release, {n} {claims} between them (Table~\\ref{{tab:claims}})."
    )


def single_trial_claims(results: pd.DataFrame, source: str) -> str:
    """'On morello-2024, 5 of the claims it restates or reproduces rest on a single trial
    each: 4 printed by the study (root-reads-compartment, ...) and 1 in its logs
    (owner-reads-compartments).'
    A flag claim's measured text counts its trials ('1 of 1 printed trial', 'in 1 of 1 trial');
    printed values are the evidence PUBLISHED, a logged trial is raw data."""
    mine = results[(results.source == source) & results.result.isin(["holds", "fails"])]
    one = []
    for r in mine.itertuples():
        totals = [int(n) for n in _TRIALS.findall(_text(r.measured))]
        if totals and max(totals) == 1:
            one.append(r)
    if not one:
        return ""
    printed = [r.claim for r in one if _text(getattr(r, "evidence", "")) == PUBLISHED]
    logged = [r.claim for r in one if r.claim not in printed]
    parts = [
        f"{len(names)} {how} ({', '.join(names)})"
        for names, how in ((printed, "printed by the study"), (logged, "in its logs"))
        if names
    ]
    # what the source does with them, by their kind: a cold read of round 88 took 'decided
    # verdicts' for tested ones, where the tally counts none on that source, and one of round
    # 93 read 'none of them a tested verdict' as a contradiction
    verbs = {
        "tested": "tests",
        "reproduced from the same data": "reproduces",
        "restated": "restates",
    }
    kinds = dict.fromkeys(_text(getattr(r, "verdict_kind", "")) for r in one)
    said = listed([verbs[k] for k in kinds if k in verbs], "or") or "decides"
    return (
        f"On {source}, {len(one)} of the claims it {said} rest on a single trial each: "
        + " and ".join(parts)
        + "."
    )


_TRIALS = re.compile(r"\d+ of (\d+) (?:printed |logged )?trials?\b")


def origins(results: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The verdicts split by whose claim they are, in ORIGIN_TITLES order (own when unknown)."""
    origin = results.get("origin", pd.Series("own", index=results.index)).fillna("own")
    return [(o, results[origin == o]) for o in ORIGIN_TITLES if (origin == o).any()]


TALLY = {"study": "the study's {n}", "related study": "{n} of other published studies",
         "own": "this package's own {n}"}  # fmt: skip


def _kind_note(r) -> str:
    """' (tested)': a verdict's kind beside its result, unless the result already says it."""
    kind = _text(getattr(r, "verdict_kind", ""))
    said = said_verdict(r, str(r.result))
    return (
        f" ({kind})"
        if kind and not (kind.startswith(str(r.result)) or said.startswith(kind))
        else ""
    )


def tex_quotes(text: str) -> str:
    """Straight double quotes around a quotation as TeX's opening and closing quotes."""
    return re.sub(r'"([^"]*)"', r"``\1''", text)


def kind_counts(rows: pd.DataFrame) -> list[tuple[str, int]]:
    """(verdict kind, how many of the rows are of it), in VERDICT_KINDS order, those that occur."""
    kinds = rows.get("verdict_kind", pd.Series("", index=rows.index)).fillna("")
    return [(k, int((kinds == k).sum())) for k in VERDICT_KINDS if (kinds == k).any()]


def kind_tally(results: pd.DataFrame, source: str) -> str:
    """'the study's 22 claims: 5 restated, 8 reproduced from the same data, 6 not attributable to
    compartments and 3 not measurable with these data; this package's own 3 claims: 3 not
    measurable with these data': the verdicts on one source by kind, whose claims apart."""
    parts = []
    for o, mine in origins(results[results.source == source]):
        n = mine.claim.nunique()
        whose = TALLY[o].format(n=f"{n} claim{'s' if n != 1 else ''}")
        parts.append(f"{whose}: " + listed([f"{c} {k}" for k, c in kind_counts(mine)]))
    return "; ".join(parts)


# the tally table's columns: the kinds in the order a reader weighs them, tested split by outcome
TALLY_KINDS = (REPRODUCED, RESTATED, NOT_ATTRIBUTABLE, UNMEASURABLE)
TALLY_HEADS = ("reproduced", "restated", "not attributable", "not measurable")  # the kinds, short
TALLY_GROUPS = {"study": "The study's claims", "related study": "Other published studies' claims",
                "own": "This package's own claims"}  # fmt: skip


def tally_counts(results: pd.DataFrame) -> list[tuple[str, str, int, list[int]]]:
    """(origin, source, claims, counts) per whose claims and source, in ORIGIN_TITLES and source
    order: counts are the claims tested that hold, fail or are inconclusive, then those of each
    of TALLY_KINDS; they add up to the claims (a claim has one verdict per source)."""
    out = []
    for o, mine in origins(results):
        for source, g in mine.groupby("source", sort=False):
            kind = g.get("verdict_kind", pd.Series("", index=g.index)).fillna("")
            tested = g[kind == TESTED]
            counts = [int(tested.result.str.startswith(k).sum()) for k in TESTED_RESULTS]
            counts += [int(g[kind == k].claim.nunique()) for k in TALLY_KINDS]
            out.append((o, source, int(g.claim.nunique()), counts))
    return out


# a published pair of means with the change it printed: '70780 vs 46759 ms (+51.33 %)'
_PUBLISHED_CHANGE = re.compile(r"^([\d.]+) vs ([\d.]+) \w+ \(([+-][\d.]+) %\)$")


def published_arithmetic(published: str) -> str:
    """'; those two means give +51.37 %' where a published change is not what its own printed
    means give, even with each mean anywhere its rounding allows (cold reads recomputed 51.37
    beside the study's 51.33 and found it unremarked); '' where they agree or the text is no such
    pair."""
    m = _PUBLISHED_CHANGE.match(published.strip())
    if not m:
        return ""
    a, b, said = m.groups()

    def half(x: str) -> float:  # half a unit in the printed number's last place
        return 0.5 * 10.0 ** -(len(x.split(".")[1]) if "." in x else 0)

    fa, fb, fs = float(a), float(b), float(said)
    lo = 100 * ((fa - half(a)) / (fb + half(b)) - 1)
    hi = 100 * ((fa + half(a)) / (fb - half(b)) - 1)
    if lo - half(said) <= fs <= hi + half(said):
        return ""
    places = len(said.split(".")[1]) if "." in said else 0
    return f"; those two means give {100 * (fa / fb - 1):+.{places}f} %"


def tally_table(results: pd.DataFrame, claims: dict | None = None) -> str:
    """The verdicts by kind, one row per source, the study's claims, other studies' and this
    package's own in row groups of their own: set before the claims table, with a note on what a
    machine without compartments can test and one on what this package's own claims are."""
    rows = tally_counts(results)
    if not rows:
        return ""
    heads = ["Source", "Claims", "hold", "do not", "inconcl."]
    heads += list(TALLY_HEADS)
    n = len(heads)
    lines = [
        # a float, so the text before the claims table fills its page (an unbreakable block
        # left a quarter page blank once the tested claims' table joined the appendix)
        r"\begin{table}[!ht]",
        r"\caption{Verdicts by kind on each source: how many claims each source tests "
        r"with an interval (\emph{tested}: the claim holds on that source, does not, or "
        r"stays inconclusive; this package's own claims hold or fail) and how many it "
        r"can only reproduce, restate, not attribute to compartments or not measure at all "
        # round 92: three not-valid verdicts seemed to vanish into 'not measurable'
        r"(a claim whose measurement is \emph{not valid} among these); "
        r"Table~\ref{tab:claims} defines the kinds and gives every verdict.}",
        r"\label{tab:claims-tally}",
        r"\centering",
        rf"\begin{{tabular}}{{l{'r' * (n - 1)}}}",
        r"\toprule",
        rf" & & \multicolumn{{3}}{{c}}{{tested}} & \multicolumn{{{n - 5}}}{{c}}{{not tested}} \\",
        rf"\cmidrule(lr){{3-5}}\cmidrule(lr){{6-{n}}}",
        " & ".join(heads) + r" \\",
    ]
    last = None
    for o, source, total, counts in rows:
        if o != last:
            last = o
            lines += [
                r"\midrule",
                rf"\multicolumn{{{n}}}{{@{{}}l}}{{\emph{{{TALLY_GROUPS[o]}}}}} \\",
            ]
        cells = [escape(source), str(total)] + [str(c) if c else "--" for c in counts]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    notes = [x for x in (machine_note(results, claims), own_note(results)) if x]
    lines += [rf"\par\smallskip\raggedright {' '.join(notes)}"] if notes else []
    lines += [r"\end{table}", ""]
    return "\n".join(lines)


def machine_note(results: pd.DataFrame, claims: dict | None = None) -> str:
    """Which of the study's claims a source without compartments tests, and why it can: each is
    about a process outside any compartment (the claim's c18n: false), so it tests the operating
    system's access control, not capabilities ('On local, the 2 study claims tested are about a
    process outside any compartment (root-reads-plain, ordinary-denied-plain): ...'). Sources
    with compartments, or none such tested, say nothing."""
    claims = claims or {}
    out = []
    study = results[results.get("origin", pd.Series("", index=results.index)) == "study"]
    for source, g in study[study.verdict_kind == TESTED].groupby("source", sort=False):
        plain = [c for c in dict.fromkeys(g.claim) if getattr(claims.get(c), "c18n", None) is False]
        if not plain or len(plain) < g.claim.nunique():
            continue
        n = len(plain)
        # the claims about compartments found none to measure there: say so where the source is
        bare = results[
            (results.source == source) & results.detail.str.contains("no variant with c18n")
        ]
        which = ", which runs no compartments," if len(bare) else ","
        out.append(
            f"On {escape(source)}{which} the {n} study claim{'s' if n > 1 else ''} tested "
            f"({listed([escape(c) for c in plain])}) {'are' if n > 1 else 'is'} about a process "
            "outside any compartment: "
            f"{'they test' if n > 1 else 'it tests'} the operating system's access control, "
            "not capabilities, so a machine without compartments can decide "
            f"{'them' if n > 1 else 'it'}."
        )
    return " ".join(out)


def own_note(results: pd.DataFrame) -> str:
    """What this package's own claims are: not the study's words but checks of its own
    measurements, each named (their words are in the claims table)."""
    origin = results.get("origin", pd.Series("", index=results.index))
    own = list(dict.fromkeys(results[origin == "own"].claim))
    if not own:
        return ""
    n = len(own)
    return (
        f"This package's own {'claims are' if n > 1 else 'claim is'} not the study's: "
        f"{'they check' if n > 1 else 'it checks'} measurements the package adds "
        f"({listed([escape(c) for c in own])}); Table~\\ref{{tab:claims}} gives "
        f"{'their' if n > 1 else 'its'} words."
    )


def _claim_cell(r) -> str:
    """The claim with, for a study's claim, its words and where they stand, and where this
    package's claim departs from them."""
    text = f"\\textbf{{{escape(r.claim)}}}: {escape(r.text)}"
    says = _text(getattr(r, "says", ""))
    if says:
        text += f" \\emph{{The study: {tex_quotes(escape(says))} ({escape(_text(r.where))})}}"
    departs = _text(getattr(r, "departs", ""))
    if departs:
        text += f" Departs from the study: {tex_quotes(escape(departs))}."
    if _text(getattr(r, "threshold_from", "")) == "package" and says:
        text += " Threshold: our reading of the study's words."
    return text


FOLDED = ("not applicable", "not measurable")  # verdicts said once for all their sources
NOT_VALID = "not valid"  # an invalid measurement, in Table 1's words: one word per state


def printed_result(r) -> tuple[str, str]:
    """(result, kind) as the paper prints them, one label per state: an invalid measurement reads
    'not valid' as in Table 1; a verdict the data cannot decide otherwise prints only its kind
    ('not measurable with these data'); either's reason is in the next column."""
    kind = _kind_note(r).strip(" ()")
    if r.result == INVALID:
        return NOT_VALID, ""
    if kind == UNMEASURABLE:
        return UNMEASURABLE, ""
    return result_text(r), kind


def _folded(mine: pd.DataFrame) -> pd.DataFrame:
    """A claim's rows that decide nothing (FOLDED, printed alike as their kind) folded into one,
    its sources listed ('local, cheribsd-22.12') and each reason once: the paper's table;
    results/claims.md keeps every row."""
    out = []
    for _, g in mine.groupby("claim", sort=False):
        out.append(g[~g.result.isin(FOLDED)])
        same = g[g.result.isin(FOLDED)]
        if len(same) < 2:
            out.append(same)
            continue
        details = list(dict.fromkeys(same.detail))
        if len(details) > 1:
            details = [f"{r.source}: {r.detail}" for r in same.itertuples()]
        out.append(
            same.iloc[[0]].assign(
                source=", ".join(same.source), statistic="", detail="; ".join(details)
            )
        )
    return pd.concat(out) if out else mine


def short_needs(text: str) -> str:
    """A threshold as the tables print it: each number of a 'needs ...' clause in at most three
    significant figures, and a band as its two ends in its width's places ('needs 1.5133 ± 0.15'
    -> 'needs 1.36 to 1.66': two cold reads met 'within 10 %' beside '1.0 ± 0.1', a form defined
    nowhere); the rest as it is."""

    def figures(m: re.Match) -> str:
        # a band's ends from its unrounded middle, in its width's places; any other number in
        # three figures (rounding the middle first moved 1.5149 ± 0.015 to 1.495 to 1.525)
        if _BAND.search(m[0]):
            return _BAND.sub(_ends, m[0])
        return re.sub(r"\d+\.\d+", lambda x: _three(x[0]), m[0])

    return _NEEDS_CLAUSE.sub(figures, text)


_NEEDS_CLAUSE = re.compile(r"needs [^;,()]+")
_BAND = re.compile(r"(\d+(?:\.\d+)?) ± (\d+(?:\.\d+)?)")


def _ends(m: re.Match) -> str:
    places = len(m[2].split(".")[1]) if "." in m[2] else 0
    mid, width = float(m[1]), float(m[2])
    return f"{mid - width:.{places}f} to {mid + width:.{places}f}"


def _three(number: str) -> str:
    """A decimal with more than three significant figures in three ('1.5133' -> '1.51'); one
    with three or fewer as written ('1.0')."""
    if len(number.replace(".", "").lstrip("0")) <= 3:
        return number
    return f"{float(number):.3g}"


# the five verdict kinds, each defined once: here, in the claims table's caption (Section 2 says
# only what "tested" means and points here)
KIND_DEFINED = {
    TESTED: "decided with an interval on data that could have contradicted it",
    REPRODUCED: "the study's number recomputed from its own files, which checks its arithmetic "
    "only",
    RESTATED: "a value the study printed from a single trial or a table, which we can only copy",
    NOT_ATTRIBUTABLE: "the two variants also differ in something that changes the quantity",
    UNMEASURABLE: "nothing in them measures its quantity",
}


def kinds_defined() -> str:
    """The caption's sentence that defines each verdict kind once ('Each result is followed by
    its kind in brackets: \\emph{tested}, decided with ...; ...'), and what a result the data
    cannot decide prints (printed_result)."""
    said = [rf"\emph{{{k}}}, {w}" for k, w in KIND_DEFINED.items()]
    head = "Each result is followed by its kind in brackets: "
    tail = (
        # plain words (three cold reads could not parse 'one label and the reason: ... its kind
        # (...) otherwise')
        f" A claim the data cannot decide says why: {NOT_VALID} where the data set's own limits "
        f"say its quantity is not what its name claims, else {UNMEASURABLE}."
    )
    return f"{head}{'; '.join(said[:-1])}; or {said[-1]}.{tail}"


def latex_table(results: pd.DataFrame, claims: dict | None = None) -> str:
    """Two definitions: \\ClaimsTallyTable, the tally by kind (tally_table; claims: each claim by
    its ID, for its note), a float; and \\ClaimsTable, a long table that breaks across pages (the
    appendix is one column): one block per whose claims they
    are, each claim's words once, with what its source printed, in a row of their own across the
    columns of the rows below it (one per source), so that a claim's sources follow its words,
    lined up."""
    rag = r">{\raggedright\arraybackslash}"
    head = r"Source & Statistic & Result & Measured here \\"
    lines = [
        rf"\begin{{longtable}}{{{rag}p{{0.1\textwidth}}{rag}p{{0.06\textwidth}}"
        rf"{rag}p{{0.2\textwidth}}{rag}p{{0.56\textwidth}}}}",
        r"\caption{Every claim, the study's and ours, with its verdict on each source, counted "
        r"by kind in Table~\ref{tab:claims-tally}. "
        + kinds_defined()
        + r" Each value opens with the setting that decides its claim: of the settings that give "
        r"its verdict, the one nearest its threshold; Table~\ref{tab:headline} quotes the "
        r"largest, so one metric can "
        r"print two values.}"
        r"\label{tab:claims}\\",
        r"\toprule",
        head,
        r"\midrule",
        r"\endfirsthead",
        r"\toprule",
        head,
        r"\midrule",
        r"\endhead",
        r"\bottomrule",
        r"\endlastfoot",
    ]
    for o, mine in origins(results):
        n = mine.claim.nunique()
        title = ORIGIN_TITLES[o][0].upper() + ORIGIN_TITLES[o][1:]
        lines.append(rf"\multicolumn{{4}}{{l}}{{\textbf{{{escape(title)} ({n})}}}} \\*")
        last = None
        for r in _folded(mine).itertuples(index=False):
            if r.claim != last:  # the claim's words and what its source printed, kept with its rows
                last = r.claim
                printed = escape(_text(r.published))
                check = escape(published_arithmetic(_text(r.published)))
                said = _claim_cell(r) + (f" Published: {printed}{check}." if printed else "")
                lines.append(rf"\multicolumn{{4}}{{{rag}p{{0.96\textwidth}}}}{{{said}}} \\*")
            # possibly also is in the result cell already
            r = r._replace(detail=_text(r.detail).split("; possibly also: ")[0])
            # long metric names may break after an underscore
            measured = escape(short_needs(_measured(r))).replace(r"\_", r"\_\allowbreak{}")
            said, kind = printed_result(r)
            result = escape(said) + (f" [{escape(kind)}]" if kind else "")
            cells = [escape(r.source), escape(r.statistic), result, measured]
            lines.append(" & ".join(cells) + r" \\")
    lines += [r"\end{longtable}"]
    # two definitions, no output: the paper sets the tally before the text that leads to the
    # claims table, so its float is queued in time and that text fills its page (a longtable
    # holds back the floats before it, which left a quarter page blank)
    return (
        rf"\newcommand{{\ClaimsTallyTable}}{{{tally_table(results, claims)}}}"
        "\n\\newcommand{\\ClaimsTable}{%\n" + "\n".join(lines) + "\n}\n"
    )


def markdown_table(results: pd.DataFrame, releases: list[str] = ()) -> str:
    """The README's results table; the evidence column maps each claim to its outputs. releases:
    the data sets whose verdicts are set side by side below the table."""
    lines = []
    for o, mine in origins(results):
        if lines:
            lines.append("")
        n = mine.claim.nunique()
        lines += [
            f"**{ORIGIN_TITLES[o][0].upper() + ORIGIN_TITLES[o][1:]} ({n})**",
            "",
            "| claim | source | statistic | result | kind | measured here | published | evidence |",
            "|---|---|---|---|---|---|---|---|",
        ]
        last = None
        for r in mine.itertuples(index=False):
            evidence = (
                f"`snakemake {r.experiment}`: `results/summary/{r.experiment}.csv`, "
                f"`results/comparisons/{r.experiment}.csv`, "
                f"`paper/generated/tab-{r.experiment}.tex`"
            )
            says = _text(getattr(r, "says", "")) if r.claim != last else ""
            claim = f"{r.claim}: {r.text}"
            last = r.claim
            if says:
                claim += f" *The study: {says} ({_text(r.where)})*"
                if _text(getattr(r, "threshold_from", "")) == "package":
                    claim += " Threshold: this package's reading."
                if _text(getattr(r, "departs", "")):
                    claim += f" Departs from the study: {r.departs}."
            lines.append(
                f"| {claim} | {r.source} | {r.statistic} | **{result_text(r)}** | "
                f"{_text(getattr(r, 'verdict_kind', ''))} | "
                f"{_measured(r)} | {_text(r.published)}{published_arithmetic(_text(r.published))} "
                f"| {evidence} |"
            )
    sources = list(dict.fromkeys(results.source))
    lines += ["", "Verdicts by kind, the study's claims and this package's own apart:", ""]
    lines += [f"- {s}: {kind_tally(results, s)}." for s in sources]
    differ = release_disagreements(results, list(releases))
    if differ:
        lines += ["", "Claims whose verdicts differ between the data sets (releases):", ""]
        lines += [f"- {claim}: {text}." for claim, text in differ]
        lines += ["", RELEASE_NOTE]
    return "\n".join(lines) + "\n"


WHOSE = {"study": "the study", "related study": "another published study", "own": "this package"}


def overview_table(results: pd.DataFrame) -> str:
    """The verdicts at a glance: one row per claim, whose it is and its result on each source
    (the README's block; CLAIMS.md has the words, the measured values and the evidence)."""
    lines = ["| claim | whose | verdict on each source (its kind) |", "|---|---|---|"]
    for o, mine in origins(results):
        for claim, g in mine.groupby("claim", sort=False):
            verdicts = "; ".join(
                f"{r.source}: **{result_text(r)}**{_kind_note(r)}" for r in g.itertuples()
            )
            lines.append(f"| {claim} | {WHOSE[o]} | {verdicts} |")
    sources = list(dict.fromkeys(results.source))
    lines += ["", "Verdicts by kind:", ""]
    lines += [f"- {s}: {kind_tally(results, s)}." for s in sources]
    return "\n".join(lines) + "\n"


def update_readme(readme: Path, table: str, start=README_START, end=README_END) -> None:
    """Replaces a Markdown file's text between two markers (a generated block)."""
    text = readme.read_text()
    if start not in text or end not in text:
        raise ValueError(f"{readme}: markers {start} and {end} not found")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    write_text_atomic(readme, f"{head}{start}\n{table}{end}{tail}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claims", required=True, type=Path, help="results/claims.csv")
    ap.add_argument("--tex", required=True, type=Path)
    ap.add_argument("--markdown", required=True, type=Path)
    ap.add_argument("--release", action="append", default=[], help="a data set (release)")
    ap.add_argument("--config", nargs="+", help="the paper's names of its sources and variants")
    ap.add_argument("--claim-file", type=Path, help="config/claims.yaml (the tally's notes)")
    a = ap.parse_args(argv)
    results = read_verdicts(a.claims)
    if a.claim_file:  # the claims' own file: whether a claim is about compartments at all
        from c18n_ae.analysis.claims import load

        claims = {c.id: c for c in load(a.claim_file)}
    else:
        claims = None
    config = exp.load_config(*map(Path, a.config)) if a.config else None
    named = from_config(config).text  # the paper's names; its caption's sentences as prose
    lines = latex_table(results, claims).split("\n")
    tex = "\n".join(named(x, prose=x.startswith(r"\caption{")) for x in lines)
    write_text_atomic(a.tex, tex)
    write_text_atomic(a.markdown, markdown_table(results, a.release))


if __name__ == "__main__":
    main()


# why a study's claim could not be tested, in plain words, by the best kind it reached anywhere
UNTESTED_WORDS = {
    NOT_ATTRIBUTABLE: "mix compartments with other differences",
    REPRODUCED: "only repeat the study's numbers",
    RESTATED: "only repeat the study's numbers",  # a printed value or one recomputed: alike here
    UNMEASURABLE: "cannot be measured here",
}
# a claim's verdicts on several sources: the one that says most about it
BEST = (TESTED, NOT_ATTRIBUTABLE, REPRODUCED, RESTATED, UNMEASURABLE)


def data_name(source: str, releases: dict[str, str]) -> str:
    """A source as the body names it: a data set by its release ('22.12 data'), a target by its
    name."""
    release = releases.get(source, "")
    return f"{escape(short_release(release))} data" if release else escape(source)


def _study_rows(results: pd.DataFrame) -> pd.DataFrame:
    """The verdicts of the study's own claims (not the package's, nor other studies')."""
    return results[results.get("origin", pd.Series("", index=results.index)) == "study"]


def _reasons(kinds) -> list[str]:
    """Why claims of these verdict kinds were not tested, in words, most common first."""
    counts: dict[str, int] = {}
    for k in kinds:
        if k in UNTESTED_WORDS:
            counts[UNTESTED_WORDS[k]] = counts.get(UNTESTED_WORDS[k], 0) + 1
    return [w for w, _ in sorted(counts.items(), key=lambda x: -x[1])]


def _study_claims(results: pd.DataFrame, sources=None):
    """(each study claim's best verdict kind, the tested verdicts of the claims tested): the study's
    claims on the sources (default every source), each by the verdict that says most (BEST)."""
    study = _study_rows(results)
    if sources is not None:
        study = study[study.source.isin(list(sources))]
    if study.empty or "verdict_kind" not in study:
        return {}, study.iloc[:0]
    best = {}
    for claim, g in study.groupby("claim", sort=False):
        kinds = set(g.verdict_kind.fillna(""))
        best[claim] = next((k for k in BEST if k in kinds), UNMEASURABLE)
    tested = [c for c, k in best.items() if k == TESTED]
    return best, study[study.claim.isin(tested) & (study.verdict_kind == TESTED)]


def outcome_words(rows: pd.DataFrame) -> str:
    """'4 hold, 4 do not and 1 is inconclusive': what the study's claims tested on other
    data than their own did; a claim tested on several sources has a verdict on each, counted
    then as 'of their 10 verdicts, ...'."""
    counts = [(int(rows.result.fillna("").str.startswith(k).sum()), one, many)
              for k, _, one, many in OUTCOMES]  # fmt: skip
    said = [f"{c} {one if c == 1 else many}" for c, one, many in counts if c]
    of = "" if rows.claim.nunique() == len(rows) else f"of their {len(rows)} verdicts, "
    return of + listed(said) if said else ""


def claims_summary(
    results: pd.DataFrame, releases: dict[str, str], sources=None, worded=(), why_not=True
) -> str:
    """Section 4.5's and the artifact appendix's words on the study's claims (the abstract has
    none since cold read 67): how many could be tested, on which
    data, and how they came out ('Of the study's 24 claims, 9 could be tested on its data, all on
    22.12: 4 hold, 4 do not and 1 is inconclusive.'; where worded names the release the
    claims come from, that first, so that hold reads as on other data: 'The study drew its
    24 claims from its 24.05 data. Its separate 22.12 runs could test 9 of them: ...'; what
    recomputing them on their own files checks is Section 4.5's, in why_not's sentence); the
    noise the intervals cover is Section 3's to say, once.
    Where none could be, why not, most common reason first. why_not: also say why
    a data set of the study tested none (Section 4.5's; the artifact appendix leaves it there). The
    tallies by kind and source stay in the claims table. sources: those whose verdicts count (the
    data sets and boards with compartments; default every source); a source in releases is a data
    set, whose intervals cover one run's trials only. worded: the releases the study drew its
    claims from, which the count names first."""
    best, rows = _study_claims(results, sources)
    if not best:
        return ""
    n = len(best)
    tested = list(dict.fromkeys(rows.claim))
    if not tested:
        reasons = _reasons(best.values())
        return f"None of the study's {n} claims could be tested with an interval: they " + (
            listed(reasons, "or") + "."
        )
    where = list(dict.fromkeys(rows.source))
    joined = ": "  # how the outcome follows the count
    head = "All" if len(tested) == n else "Only"
    if all(s in releases for s in where):  # the study's data sets: one run per variant
        # 'on the study's data': Table 4 also counts claims tested on the machines that ran
        names = listed([escape(short_release(releases[s])) for s in where])
        many = f"all {n}" if len(tested) == n else str(len(tested))
        if worded and not any(releases[s] in worded for s in where):  # why there, not elsewhere
            drawn = listed([escape(short_release(w)) for w in worded])
            on = f"its separate {names} runs"  # runs the claims were not drawn from
            # where the claims come from and where they could be tested; what recomputing them
            # on their own files checks is why_not's sentence (Section 4.5)
            # why those runs and not the claims' own, first (a cold read asked why 24.05 tests
            # none), then how many they test; why those data cannot test them is Section 4.5's
            # (why_not). Two sentences, where they come from first (cold reads read 'Of the
            # study's 24 claims, drawn from its 24.05 data, its separate 22.12 runs could test 9'
            # twice)
            them = "all of them" if len(tested) == n else f"{len(tested)} of them"
            opening = (
                # whose the claims are and whose the conclusions (round 88: 'the study drew its
                # 24 claims' beside Section 2's 'turns ... into 24 claims')
                f"The {n} claims come from conclusions the study drew from its {drawn} data. "
                f"{on[0].upper()}{on[1:]} could test {them}"
            )
            # where they were tested, with the outcome: 'and there 4 hold' (cold reads of rounds
            # 103 to 105 reread a sentence of its own on what a verdict on 22.12 says)
            joined = ", and there "
        else:
            on = f"all on {names}" if len(where) == 1 else f"on {names}"
            opening = f"Of the study's {n} claims, {many} could be tested on its data, {on}"
    else:
        names = listed([data_name(s, releases) for s in where])
        on = f"all on {names}" if len(where) == 1 else f"on {names}"
        opening = f"{head} {len(tested)} of the study's {n} claims could be tested, {on}"
    said = outcome_words(rows)
    text = f"{opening}{joined}{said}." if said else f"{opening}."
    # what a failure on 22.12 shows is Table 5's caption's to say, beside the verdicts (rounds 117
    # to 139: every wording of it in the body stopped readers; round 139: all three asked it gone)
    if not why_not:
        return text  # the appendix's tested-claims table says what a failure means
    return (
        text
        + _the_others(results, releases, where)
        + _untested_sources(results, releases, sources, where, worded)
    )


def _the_others(results: pd.DataFrame, releases: dict[str, str], where: list[str]) -> str:
    """Where the claims were tested on one data set, why the rest were not tested there ('The
    other 15 cannot be measured on the 22.12 data.'): a reader who meets 9 of 24 asks."""
    if len(where) != 1 or where[0] not in releases:
        return ""
    study = _study_rows(results)
    rest = study[(study.source == where[0]) & (study.verdict_kind != TESTED)]
    reasons = _reasons(rest.verdict_kind.fillna(""))
    if not reasons:
        return ""
    on = f"on the {escape(short_release(releases[where[0]]))} data"
    words = listed([w.removesuffix(" here") for w in reasons], "or")
    return f" The other {rest.claim.nunique()} {words} {on}."


def _untested_sources(results, releases, sources, where, worded=()) -> str:
    """Why a data set of the study tested none of its claims, plainly ('On the 24.05 data none of
    the claims could be tested. They only repeat the study's numbers.'): Section 2's reader meets
    the headline's data set first and asks why. Nothing where the study drew its claims from
    that release (worded): the count has said so, and Section 4.3's definition of tested why its
    own files test none."""
    study = _study_rows(results)
    repeat = UNTESTED_WORDS[REPRODUCED]
    out = []
    for s in dict.fromkeys(study.source):
        if s not in releases or s in where or (sources is not None and s not in sources):
            continue
        reasons = _reasons(study[study.source == s].verdict_kind.fillna(""))
        # what could be measured but not tested says more than 'cannot be measured here'
        reasons = [w for w in reasons if w != UNTESTED_WORDS[UNMEASURABLE]] or reasons
        if not reasons:
            continue
        name = escape(short_release(releases[s]))
        head = f" On the {name} data none of the claims could be tested."
        if releases[s] in worded and repeat in reasons:
            # the tally has said the claims come from these files, and Section 4.3's definition
            # of tested that their own files test none (cold reads of round 105: said twice)
            continue
        out.append(f"{head} They {listed(reasons, 'or')}.")
    return "".join(out)


def threshold_words(results: pd.DataFrame, sources=None) -> str:
    """The appendix's sentence (Verdicts) on whose thresholds the tested verdicts rest on (cold
    reads: the tally 'is driven by the authors' own thresholds'): 'For 4 of the 9 tested claims
    the study's words give the threshold; for the other 5 they name none exactly, and we chose
    one, which the tested-claims table marks ours.'; a threshold is ours where that table marks
    it so (threshold_from 'package'); how each came out is that table's (a count within the count
    read as a puzzle); '' where none was tested or none is ours."""
    _, rows = _study_claims(results, sources)
    if rows.empty or "threshold_from" not in rows:
        return ""
    whose = rows.threshold_from.fillna("")
    theirs, ours = rows[whose == "study"], rows[whose == "package"]
    n, k = len(rows), len(theirs)
    what = "tested claims" if rows.claim.nunique() == n else "verdicts"
    if ours.empty:
        return ""
    if theirs.empty:
        return (
            f"We read the threshold of all {n} {what} from the study's words, and "
            "Table~\\ref{tab:tested} marks them ours."
        )
    # which words give a threshold and which do not (a cold read: 'both halves come from its
    # words, so the distinction is invisible until the tested-claims table')
    return (
        f"For {k} of the {n} {what} the study's words give the threshold; for the other "
        f"{len(ours)} they name none exactly, and we chose one, which Table~\\ref{{tab:tested}} "
        "marks ours."
    )


_CONTRAST = re.compile(r"ratio (\S+)/(\S+) of ")


def _needs(r) -> str:
    """A tested claim's threshold as the verdict read it ('> 10$\\times$', '1.36 to 1.66'), and
    whose it is: the study's own words gave it, or it is our reading of them ('ours')."""
    found = _NEEDS_CLAUSE.search(short_needs(_text(r.detail)))
    if not found:
        return ""
    need = found[0].removeprefix("needs ").strip()  # a band as its two ends (short_needs)
    whose = "study" if _text(getattr(r, "threshold_from", "")) == "study" else "ours"
    return f"{escape(need)} ({whose})"


def possibly_caption(rows: pd.DataFrame) -> str:
    """The tested-claims table's words on its verdicts that stand with 'possibly also' (a
    reviewer met the mark in the claims table and not here): ' Possibly also, for every ratio:
    compilers clang-morello and clang (Table 9).'; '' where none has one."""
    facts: dict[str, int] = {}
    for detail in rows.detail.fillna(""):
        said = str(detail).split("; possibly also: ", 1)
        for words in possibly_short(said[1] if len(said) > 1 else ""):
            facts[words] = facts.get(words, 0) + 1
    if not facts:
        return ""
    n = len(rows)
    parts = [w + ("" if k == n else f" ({k} of the {n})") for w, k in facts.items()]
    every = "for every ratio" if all(k == n for k in facts.values()) else "for some ratios"
    return (
        f" Possibly also, {every}: {escape('; '.join(parts))} "
        r"(Table~\ref{tab:confounded})."
    )


def tested_table(results: pd.DataFrame, releases: dict[str, str], sources=None) -> str:
    """Section 2's table of the study's claims tested on its data: each claim in the study's
    words, the data set, the ratio that decides it at the setting nearest its threshold (the
    claims table's measured value, without its long detail) and the verdict, those that hold
    first; '' where none was tested. sources: those whose verdicts count (claims_summary's)."""
    rows = results[
        (results.get("origin", pd.Series("", index=results.index)) == "study")
        & (results.verdict_kind == TESTED)
        & results.source.isin([s for s in releases if sources is None or s in sources])
    ]
    if rows.empty:
        return ""
    order = {w: i for i, w in enumerate(TESTED_RESULTS)}
    rows = rows.assign(
        _order=rows.result.fillna("").map(lambda x: min((order[w] for w in order if
                                                         x.startswith(w)), default=len(order)))
    ).sort_values("_order", kind="stable")  # fmt: skip
    rag = r">{\raggedright\arraybackslash}"
    # the contrast the verdicts read, as the detail names it ('ratio purecap-c18n/hybrid of'),
    # its ids left for the paper's names (names.py) to replace
    pairs = {m.groups() for m in map(_CONTRAST.search, rows.detail.fillna("")) if m}
    ratio = (
        " / ".join(rf"\texttt{{{escape(v)}}}" for v in pairs.pop()) if len(pairs) == 1 else "Ratio"
    )
    # one data set: named once in the caption, not in every row
    data = list(dict.fromkeys(escape(short_release(releases[s])) for s in rows.source))
    data_col = len(data) > 1
    # the setting a claim over several sizes is decided at has its own column, so that a ratio
    # printed beside Table 1's largest setting reads as another setting, not another value
    at = [_text(getattr(r, "decided_at", "")) for r in rows.itertuples()]
    at_col = any(at)
    cols = [rf"{rag}p{{0.4\textwidth}}"] + ["l"] * data_col + ["r"] * at_col
    cols += [rf"{rag}p{{0.2\textwidth}}", rf"{rag}p{{0.12\textwidth}}", "l"]
    head = ["The study's claim"] + ["Data"] * data_col + ["Decided at"] * at_col
    head += [ratio, "Needs", "Verdict"]
    out = [
        rf"\begin{{tabular}}{{{''.join(cols)}}}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
    ]
    for r, setting in zip(rows.itertuples(), at):
        where = escape(short_release(releases[r.source]))
        verdict = escape(said_verdict(r, _text(r.result).split(" (")[0]))
        cells = [escape(_text(r.text))] + [where] * data_col
        cells += [escape(setting) or "---"] * at_col
        cells += [escape(_text(r.measured)), _needs(r), verdict]
        out.append(" & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    on = "data," if data_col else f"{data[0]} data,"
    setting = (
        # in Table 7's words (a reader of round 124 met two wordings of one rule)
        r" \emph{Decided at}: of the block sizes that give its verdict, the one nearest its "
        r"threshold; Table~\ref{tab:headline} quotes the largest, so one metric can print two "
        r"values."
        if at_col
        else ""
    )
    caption = (
        rf"The study's claims tested on its {on} each a conclusion of the study in our words, "
        r"decided by the ratio beside it, whose interval covers the spread within one run only "
        r"(Section~\ref{sec:threats})." + setting + r" "
        r"\emph{Needs}: the threshold, from the study's words or, where they name no factor, our "
        r"reading of them (ours)."
        + (
            ""
            if data_col
            else f" A claim that does not hold on the {data[0]} data need not be wrong on the "
            "release it was drawn from: those runs differ in more than their release "
            "(Section~\\ref{sec:per-call})."
        )
        + possibly_caption(rows)
        + r" Table~\ref{tab:claims} gives each claim's evidence in full."
    )
    return "\n".join(
        [
            r"\begin{table*}[!hbp]",
            rf"\caption{{{caption}}}",
            r"\label{tab:tested}",
            r"\footnotesize",
        ]
        + out
        + [r"\end{table*}"]
    )
