"""The paper's generated prose: the findings of the abstract, the claims'
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
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import (
    comparison_text,
    escape,
    in_words,
    listed,
    macro_name,
    newcommand,
)
from c18n_ae.common.names import data_together, from_config, release, release_labels, short_release
from c18n_ae.report import provenance
from c18n_ae.report.claim_tables import (
    agrees,
    claims_summary,
    data_name,
    release_sentence,
    single_trial_claims,
    tested_table,
    threshold_words,
)
from c18n_ae.report.finding_facts import (
    _quoted,
    has_point,
    point,
)
from c18n_ae.report.headline import is_confounded, rests_on_few, sources_of
from c18n_ae.report.macros import invalid_phrases

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


def the_data(meta: dict, the: str = "The", label: str = "") -> str:
    """A data set as a sentence's subject: 'The 24.05 data' (label: its release as release_labels
    names it among the run's data sets, where copies of one release need their ids)."""
    return f"{the} {escape(short_release(label) or release(meta))} data"


def statistics_disagree(verdicts: pd.DataFrame, source: str) -> str:
    """'On cheribsd-22.12 the mean and the median disagree on free-slower-in-compartment.': the
    claims whose two statistics decide differently, said once beside the tables' evidence."""
    mine = verdicts[(verdicts.source == source) & ~verdicts.statistics_agree.map(agrees)]
    if mine.empty:
        return ""
    names = listed([f"\\texttt{{{escape(c)}}}" for c in mine.claim])
    return f"On \\texttt{{{escape(source)}}} the mean and the median disagree on {names}."


def cell(r) -> str:
    """The row's ratio as Table 1 prints it: one statistic (the mean, the median where a few
    trials carry it, marked †), in the notation Section 3 defines once (no 'within one run')."""
    few = rests_on_few(r)
    text = comparison_text(r, "median" if few else "mean", covers=False)
    return text + ("$^\\dagger$" if few else "")


def _own_code(rows: pd.DataFrame, plural: bool) -> str:
    """The program's own code as the range of its points, as Table 1 prints them ('stay within
    0.97× to 1.08×'); one point alone as its cell; the metrics without a point named as such."""
    shown = sorted((r for r in rows.itertuples() if has_point(r)), key=_quoted)
    rest = list(dict.fromkeys(escape(r.label) for r in rows.itertuples() if not has_point(r)))
    said, s = "", "" if plural else "s"
    if len(shown) == 1:
        said = f"give{s} {cell(shown[0])}"
    elif shown and point(shown[0]) == point(shown[-1]):
        said = f"give{s} {point(shown[0])}"
    elif shown:
        said = f"stay{s} within {point(shown[0])} to {point(shown[-1])}"
    if rest:
        said += (" and " if said else "") + f"give{s} no point estimate for {listed(rest)}"
    return said


def _where(source: str, releases: dict) -> str:
    where = data_name(source, releases)
    return f"the {where}" if where.endswith(" data") else f"\\texttt{{{where}}}"


def _where_all(sources: list[str], releases: dict) -> str:
    """Sources as one phrase: 'the 24.05 (a) and 24.05 (b) data' where all are data sets."""
    return data_together([_where(x, releases) for x in sources])


def experiment_paragraph(
    experiment: str,
    table: pd.DataFrame,
    releases: dict,
    limits: dict[str, dict] | None = None,
    said: set[str] | None = None,
    verdicts: pd.DataFrame | None = None,
) -> str:
    """The body's short paragraph on one experiment, the answer first: per source, the first
    contrast of compartments against none that is not confounded; its calls into another library,
    each metric with its ratio on every source (as Table 1 prints it), then the program's own
    code as one range, then Table 1 cited for the rest. The sources that give no ratio are named
    in Table 1's words ('confounded', 'not valid'). No caveat: those are Section 3's and the
    threats' to say (once)."""
    mine = table[(table.experiment == experiment) & (table.get("share", "total") == "total")]
    if mine.empty:  # no paragraph: Section 4.1 says what a direct measurement would add
        return ""
    clean, none = [], {}
    for source, rows in mine.groupby("source", sort=False):
        valid = rows[rows.invalid.fillna("") == ""]
        ok = valid[[not is_confounded(r) for r in valid.itertuples()]]
        if ok.empty:
            words_ = (["confounded"] if len(valid) else []) + (
                ["not valid"] if len(valid) < len(rows) else []
            )
            none[source] = " or ".join(words_)
            continue
        first = ok[(ok.subject == ok.subject.iloc[0]) & (ok.baseline == ok.baseline.iloc[0])]
        clean.append(first)
    out = []
    if clean:
        rows = pd.concat(clean)
        crossing = rows[rows.crosses.fillna("") != ""]
        staying = rows[rows.crosses.fillna("") == ""]
        sources = list(dict.fromkeys(rows.source))
        one = len(sources) == 1
        lead = f"On {_where(sources[0], releases)}, " if one else ""
        said_crossing = []
        if one and crossing.label.nunique() > 1:  # one data set: the calls named once
            libs = listed(list(dict.fromkeys(escape(x) for x in crossing.crosses)))
            each = listed([f"{cell(r)} for {escape(r.label)}" for r in crossing.itertuples()])
            # the metrics, not the calls, give the times (a cold read of round 88)
            said_crossing.append(f"the metrics that call into {libs} give {each}")
        for label, same in crossing.groupby("label", sort=False):
            if one and crossing.label.nunique() > 1:
                break
            libs = listed(list(dict.fromkeys(escape(x) for x in same.crosses)))
            # sources whose cells print alike (copies of one release) share one cell
            cells: dict[str, list[str]] = {}
            for r in same.itertuples():
                cells.setdefault(cell(r), []).append(r.source)
            on = listed(
                [c + ("" if one else f" on {_where_all(s, releases)}") for c, s in cells.items()]
            )
            stands = _stands(same, staying)
            only = "only " if stands != "gives " and crossing.label.nunique() == 1 else ""
            said_crossing.append(f"{only}{escape(label)}, which calls into {libs}, {stands}{on}")
        if said_crossing:
            first_ = "; ".join(said_crossing)
            out.append(f"{lead}{first_}." if lead else f"{first_[:1].upper()}{first_[1:]}.")
        if len(staying):
            n = staying.label.nunique()
            if said_crossing:
                whom = "the other metric" if n == 1 else f"the other {in_words(n)}"
            else:
                whom = "the program's own code"
            plural = said_crossing and n > 1
            own = f"{whom}, which call{'' if plural else 's'} into no other library, "
            own += _own_code(staying, bool(plural))
            if not said_crossing and lead:
                own = lead + own
            out.append(f"{own[:1].upper()}{own[1:]}.")
    for what in dict.fromkeys(none.values()):  # the sources alike in one sentence
        where = _where_all([x for x in none if none[x] == what], releases)
        out.append(
            f"{where[:1].upper()}{where[1:]} give no ratio here: "
            f"Table~\\ref{{tab:headline}} marks them {what}."
        )
    if out and not none:  # Table 1 has the rest: each ratio with its interval
        # never '(Table 1).' before the '(Appendix A.2.)' that follows every paragraph
        out[-1] = out[-1][:-1] + ", as Table~\\ref{tab:headline} shows."
    return " ".join(out)


def _stands(crossing: pd.DataFrame, staying: pd.DataFrame) -> str:
    """The answer first: 'rises above the rest: ' where every point of a metric that calls into
    another library lies above every point of the program's own code ('falls below' alike);
    'gives ' otherwise. Read from the numbers Table 1 prints, not from their words."""
    mine = [_quoted(r) for r in crossing.itertuples() if has_point(r)]
    own = [_quoted(r) for r in staying.itertuples() if has_point(r)]
    if not mine or not own or len(mine) < len(crossing):
        return "gives "
    if min(mine) > max(own):
        return "rises above the rest: "
    if max(mine) < min(own):
        return "falls below the rest: "
    return "gives "


def attribution(meta: dict, earlier: list[dict] = (), labels: dict | None = None) -> str:
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
    said = lambda m: (labels or {}).get(m["name"], "")  # noqa: E731
    boards = provenance.boards_text(meta)  # the study's boards and hosts, where recorded
    if same is not None:
        return (
            f"{the_data(meta, label=said(meta))} are {escape(meta['title'])}, by the same "
            f"authors and from the same repository and commit as "
            f"{the_data(same, 'the', said(same))}, "
            f"measured on {where}; when: {escape(meta['measured_when'])}." + boards
        )
    return (
        f"{the_data(meta, label=said(meta))} are {escape(meta['title'])}, measured by "
        f"{escape(meta['measured_by'])} on {where}; when: {escape(meta['measured_when'])}. "
        f"Its files come from \\texttt{{{escape(src['repository'])}}} at commit "
        f"\\texttt{{{src['commit'][:12]}}} ({escape(src['license'])}); this package re-analysed "
        "them and did not measure them." + boards
    )


def study_flaws(invalid: list[str], verdicts: pd.DataFrame) -> str:
    """Appendix A's sentence on what the study's own files show in place of its words: the
    data sets' invalid measurements (macros.invalid_phrases) and each claim's brief departure
    (study.brief), 'The study's files show flaws, each shown in its experiment's section: its
    24.05 write and read loops made no stores or loads, its Read Time timed the wait for the next
    message, and its memory reader ran as the owner, not as root.'; '' where there is none."""
    briefs = verdicts.get("brief", pd.Series(dtype=object)).dropna().astype(str)
    said = invalid + [escape(x) for x in dict.fromkeys(b for b in briefs if b.strip())]
    if not said:
        return ""
    # a serial comma where three or more clauses with commas of their own are listed
    listed_ = listed(said) if len(said) < 3 else ", ".join(said[:-1]) + ", and " + said[-1]
    # Appendix A's, before the sections that show each (A178, R178, B177: in Section 2 no body
    # number used them)
    return f"The study's files show flaws, each shown in its experiment's section: {listed_}."


def mixed_abis(metas: list[dict]) -> list[str]:
    """The ABIs the data sets ran only in compartments, as the abstract names them (both purecap
    ABIs as 'purecap' where no purecap ABI runs outside compartments): their figures mix the
    ABI's cost with c18n's; [] where every ABI also ran without."""
    variants = [v for m in metas for v in (m.get("variants") or {}).values()]
    inside = [str(v["abi"]) for v in variants if v.get("c18n") is True and v.get("abi")]
    outside = {str(v["abi"]) for v in variants if v.get("c18n") is False}
    alone = [escape(a) for a in dict.fromkeys(inside) if a not in outside]
    purecaps = alone and all(a.startswith("purecap") for a in alone)
    if purecaps and not any(o.startswith("purecap") for o in outside):
        return ["purecap"]
    return alone


def mix_sentence(metas: list[dict], library: str = "") -> str:
    """The abstract's sentence, right after its figures, on what a figure per call is where the
    data sets have no purecap variant without compartments: 'The extra time per call combines
    the purecap ABI (libm's purecap build included) with the compartment switch; no variant ran
    purecap without compartments to tell them apart.' Its question says 'together' first
    (question_words; round 137: a question on a call's cost that the data cannot answer); round
    141: 'With no … without' read as a double negative; rounds 135 and 136: the 60 ns read as a
    call's cost until libm's build was named beside it; round 87: 'includes both' read wrong for
    code that makes no crossing, so the sentence is the calls'. '' where every ABI also ran
    without."""
    named = mixed_abis(metas)
    if not named:
        return ""
    abi = listed(named, "or")
    build = f" ({library}'s {abi} build included)" if library else ""
    # what the figure per call is, both costs together; the bound it gives on the switch and that
    # bound's conditions are Section 4.1's (round 143: all three readers met a bound without its
    # conditions here; round 142: a three-way split set libm's build beside the ABI it belongs to);
    # what it is before why (A177: the appositive inside the list was read twice)
    # why they cannot be told apart, in the same sentence (B187: 'not separable' unsaid)
    return (
        f"The extra time per call combines the {abi} ABI{build} with the compartment switch; "
        f"no variant ran {abi} without compartments to tell them apart."
    )


def question_words(metas: list[dict]) -> str:
    """The abstract's question, as the data can answer it: what the ABIs run only in compartments
    and c18n add together to a call where no variant of theirs ran without (round 137: 'the
    question and the answer don't match'); what such a call costs where one did."""
    named = mixed_abis(metas)
    if not named:
        return "What does a call into another library then cost?"
    return (
        f"How much time do the {listed(named, 'or')} ABI and c18n together add to a call into "
        "another library?"
    )


def study_limits(metas: list[dict], unseen: list[str], built: str = "", mix: bool = True) -> str:
    """The abstract's sentences on what its figures mix and rest on, after the first finding
    (a cold read: caveats before the answer buried it; another: more words on hedges than on
    the result): the ABIs the data sets ran only in compartments (dataset.yaml variants: abi,
    c18n), the runs and builds the figures come from (built: 'one run per variant of programs
    built unoptimised (-O0)', call_cost.built_words), and where nothing in their files shows
    the c18n variants in compartments (macros.unseen_phrases), in one sentence (round 138):
    'These figures come from one run per variant of programs built unoptimised (-O0); the study
    enabled c18n, but no log confirms that it was active.'; '' where nothing holds. mix=False:
    leave out what the figures mix, which mix_sentence has said."""
    clauses = []
    named = mixed_abis(metas)
    if named and mix:  # mix=False: mix_sentence said it before the figures
        clauses.append(f"mix the {listed(named, 'or')} ABI's cost with c18n's")
    if built:
        clauses.append(f"come from {built}")
    parts = [f"These figures {' and '.join(clauses)}"] if clauses else []
    # the runs' caveats in one sentence (round 138: all three readers asked for one place)
    if parts and unseen:
        parts = [f"{parts[0]}; {'; '.join(unseen)}"]  # escaped by callers
    else:
        parts += list(unseen)
    if not parts:
        return ""
    # no more on what the files' silence means: the brief says the study launched its c18n
    # variants with c18n (dataset.yaml's launch evidence); Section 5 says what that rests on
    return " ".join(x[0].upper() + x[1:] + "." for x in parts)


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
    releases = release_labels(metas)  # copies of one release named apart
    limits = {m["name"]: m.get("limitations", {}) for m in metas}
    table = pd.read_csv(a.headline, keep_default_na=False, na_values=[""])
    verdicts = pd.read_csv(a.verdicts)
    text = (
        "% Generated by c18n_ae.report.findings from the headline table and claims; do not edit.\n"
    )
    sources = list(dict.fromkeys(table.source)) or [
        t for t in verdicts.source.unique() if t in releases
    ]
    # the artifact appendix's plain sentence on the study's claims (the tallies stay in the
    # claims table): how many could be tested with an interval; the abstract leaves the claims
    # to Section 4.5 (cold readers: they 'add little' to the answer and need Table 2 to be read)
    # the releases the study drew its claims from (the data sets its printed numbers come from)
    worded = [releases[m["name"]] for m in metas if m.get("study_data") and releases[m["name"]]]
    text += newcommand("ClaimsSummary", claims_summary(verdicts, releases, sources, worded, False))
    # the introduction's list of the study's flaws; the abstract keeps only the gravest
    text += newcommand("StudyFlaws", study_flaws(invalid_phrases(metas), verdicts))
    # Section 4.3 also says why the release the claims were drawn from tests none
    text += newcommand("ClaimsTally", claims_summary(verdicts, releases, sources, worded))
    # the appendix's table of the tested claims (Appendix E.6), each with the ratio that decides it
    text += newcommand("ClaimsTestedTable", tested_table(verdicts, releases, sources))
    # whose thresholds the tested verdicts rest on: the study's words or our reading of them
    text += newcommand("ClaimsThresholds", threshold_words(verdicts, sources))
    # how much evidence the decided verdicts rest on: the claims decided on a single trial, and
    # those whose mean and median disagree
    single = [escape(single_trial_claims(verdicts, s)) for s in sources]
    single += [statistics_disagree(verdicts, s) for s in sources]
    text += newcommand("ClaimsEvidence", " ".join(x for x in single if x))
    text += newcommand("ReleaseClaims", release_sentence(verdicts, list(releases)))
    # an experiment's own sentences (its module's findings) about each data set and board target;
    # a headline experiment's follow its paragraph on the headline table
    summaries = {k: pd.read_csv(v) for k, v in (x.split("=", 1) for x in a.summary)}
    names = [s["name"] for s in sources_of(config)]

    def own(e, kind: str = "findings") -> list[str]:
        summary, said = summaries.get(e.name), getattr(e, kind)
        if said is None or summary is None:
            return []
        return [x for n in names for x in said(n, summary, verdicts)]

    said: set[str] = set()  # a reason, limit or name difference in full once, then "as above"
    for e in cfg.enabled_experiments(config):
        if exp.get(e).headline:
            name = macro_name(e)
            paragraph = experiment_paragraph(e, table, releases, limits, said, verdicts)
            text += newcommand(f"Findings{name}", paragraph)
            if paragraph:  # \IfFound{Name}: the body's paragraph on it is printed
                text += newcommand(f"Found{name}", "")
    for e in exp.registry().values():
        if e.findings is None or e.headline:
            continue
        said = own(e)
        text += newcommand(
            f"Findings{macro_name(e.name)}",
            " ".join(said)
            or f"No data set or board target in this run measured E{e.number} with compartments.",
        )
        text += newcommand(f"Found{macro_name(e.name)}", "")
        if e.details is not None:  # what its appendix section adds (numbers the body leaves out)
            text += newcommand(f"Findings{macro_name(e.name)}Detail", " ".join(own(e, "details")))
    # the body's two sentences on the data sets; the full account is the appendix's
    text += newcommand("DatasetSummary", provenance.summary_text(metas))
    boards = provenance.boards_open(metas)
    text += newcommand("DatasetBoardsOpen", boards)
    if boards:  # Threats' bullet on the boards, only where something about them is open
        text += newcommand("BoardsOpen", "")
    text += newcommand(
        "DatasetAttributions",
        " ".join(attribution(m, metas[:i], releases) for i, m in enumerate(metas))
        or "This run included no data set.",
    )
    write_text_atomic(a.out, from_config(config).text(text, prose=True))  # the paper's names


if __name__ == "__main__":
    main()
