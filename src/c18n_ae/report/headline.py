"""The headline table, "What purecap with compartments costs against hybrid" (Table 1): one
row per headline metric at its largest setting, grouped by contrast (a variant with
compartments against one without), one column per target or data set that has a compartment
variant, each cell one number with its interval. Every number is read from the comparisons,
summaries and claims the workflow already computed; nothing is recomputed here. Writes
results/headline.csv (every field, read by the findings' prose), Table 1 and the appendix's
table of confounded contrasts."""

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
from c18n_ae.common.datasets import invalid_cells, invalid_metrics
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import (
    BARE_WORDS,
    UNRESOLVED_SAID,
    bare,
    comparison_text,
    covers_words,
    escape,
    first_upper,
    listed,
    quantity,
    setting,
)
from c18n_ae.common.names import from_config, variant_names
from c18n_ae.report.claim_tables import agrees, other_statistic

# the comparison fields each headline row carries over
FROM_COMPARISONS = ["parameter", "parameter_value"] + [
    c for c in comparisons_columns if c.startswith(("ratio", "ci95", "median", "n")) or c in PRINTED
]
COLUMNS = [
    "source",
    "source_kind",  # target or dataset
    "heading",  # the source's column heading in Table 1 ('24.05 data')
    "experiment",
    "metric",
    "label",
    "crosses",
    "subject",
    "baseline",
    "contrast",
    "pair",  # the contrast in a few plain words, alike for every source (pair_name)
    "confounded_by",
    "possibly_also",  # a difference of name alone: the ratio stands (analysis.contrasts)
    "share",
    *FROM_COMPARISONS,
    "tail_trials",
    "tail_n",
    "tail_share",
    "invalid",
    "invalid_cell",  # the reason in a few words (dataset.yaml invalid.<experiment>.cell)
    "claims",
]
TAIL_SHARE = 0.5  # a mean "rests on a few trials" when they make at least half of the total
DAGGER = r"$^\dagger$"  # beside a median quoted in the mean's place (rests_on_few)
MEDIAN_WORDS = "median: the mean rests on a few trials"  # what the mark says, under each table
# a cell with no ratio says why in words, never with a mark of its own (the legend keeps † only)
NOT_VALID, CONFOUNDED_CELL = "not valid", "confounded"
BREAK = r"-\allowbreak{}"  # a name may break after its hyphens in a narrow column
CONFOUNDED = "tab-headline-confounded.tex"  # the appendix's table, beside Table 1's file


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
    sets = cfg.datasets(config)
    invalid, short = invalid_metrics(sets), invalid_cells(sets)
    known = named.variants_of(config)
    out = []
    every = sources_of(config)
    for source in every:
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
                            "source_kind": source["kind"],
                            "heading": heading(source, every),
                            "experiment": e,
                            "metric": h.metric,
                            "label": h.label,
                            "crosses": h.crosses,
                            "subject": subject,
                            "baseline": baseline,
                            "contrast": named.contrast_name(
                                known, name, subject, baseline, e, h.metric
                            ),
                            "pair": pair_name(source, subject, baseline, share),
                            "confounded_by": _text(r.get("confounded_by", "")),
                            "possibly_also": _text(r.get("possibly_also", "")),
                            "share": share,
                            **{k: r[k] for k in FROM_COMPARISONS},
                            "tail_trials": tail[0],
                            "tail_n": tail[1],
                            "tail_share": tail[2],
                            "invalid": invalid.get(name, {}).get(e, {}).get(h.metric, ""),
                            "invalid_cell": short.get(name, {}).get(e, {}).get(h.metric, ""),
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


def confounded_cell(r) -> str:
    """Table 1's cell for a confounded contrast: the word and the kinds of fact that also differ
    (contrasts.confound_kinds: 'optimisation -O2 against -O0; heap revocation on against off' ->
    'confounded: optimisation and heap revocation'); Table 9 gives the differences in full."""
    said = listed(list(dict.fromkeys(named.confound_kinds(_text(r.confounded_by)))))
    return f"{CONFOUNDED_CELL}: {escape(said)}" if said else CONFOUNDED_CELL


def rests_on_few(r) -> bool:
    """The mean depends on a few trials: some trials above 10x the median make half the total."""
    return r.tail_trials > 0 and r.tail_share >= TAIL_SHARE


def tail_text(r) -> str:
    return (
        f"{int(r.tail_trials)} of {int(r.tail_n)} trials make {r.tail_share * 100:.0f}\\,\\% "
        "of the time"
    )


def heading(source: dict, sources: list[dict]) -> str:
    """A source's column heading: a data set by its release ('24.05 data'), where no other source
    has that release; else its name."""

    def short(s: dict) -> str:
        words = str(s.get("release") or "").split()
        return f"{words[-1]} data" if s["kind"] == "dataset" and words else s["name"]

    mine = short(source)
    return mine if [short(s) for s in sources].count(mine) == 1 else source["name"]


SHARES = {"ABI share": " (the ABI's share)", "compartment share": " (the compartments' share)"}


def pair_name(source: dict, subject: str, baseline: str, share: str) -> str:
    """A contrast in a few plain words, the same for every source that has it: 'purecap + c18n
    / hybrid', and which share of a split total it is."""
    said = variant_names(source["variants"])  # the paper's names: 'purecap + c18n'
    return f"{said[subject]} / {said[baseline]}{SHARES.get(share, '')}"


def cell(r, tex: bool = True) -> str:
    """One number with its interval, in the one notation (latex.ratio_text): the mean, or the
    median marked † where the mean rests on a few trials; NOT_VALID in words for an invalid
    measurement (its experiment's section says why)."""
    if _text(r.invalid):
        why = _text(getattr(r, "invalid_cell", ""))
        return f"{NOT_VALID}: {escape(why)}" if why else NOT_VALID
    text = comparison_text(r, statistic(r), tex=tex)
    return text + ((DAGGER if tex else "†") if rests_on_few(r) else "")


def statistic(r) -> str:
    """The statistic Table 1 quotes for the row (READ31: one statistic per metric)."""
    return "median" if rests_on_few(r) else "mean"


def _sources(table: pd.DataFrame) -> dict[str, str]:
    """Each source of the table and its heading, in the table's order."""
    names = list(dict.fromkeys(table.source))
    if "heading" not in table:
        return {s: s for s in names}
    first = table.groupby("source", sort=False).heading.first()
    return {s: str(first[s]) if isinstance(first[s], str) and first[s] else s for s in names}


def _pair(r) -> str:
    name = _text(getattr(r, "pair", ""))
    return name or f"{r.subject} / {r.baseline}"


def metric_cell(rows: pd.DataFrame, heads: dict[str, str]) -> str:
    """Table 1's Metric cell: the metric, then its setting where it has one ('A free of the
    largest block, 1000 MiB'). Columns of their own for the setting and the library a call
    enters, mostly '---', were two more notations to learn (readers of rounds 141 to 147), and
    the setting and library in brackets read as a third kind of bracket beside the intervals'
    (all three readers of round 149)."""
    label = escape(first_upper(rows.iloc[0].label))
    where = setting_cell(rows, heads)
    return label if where == "---" else f"{label}, {where}"


def latex_table(table: pd.DataFrame) -> str:
    """Table 1: one row per headline metric at its largest setting, grouped by contrast, one
    column per source, each cell one number with its interval (cell). A row whose every cell is
    confounded is left out (confounded_table lists it); a confounded cell in a row kept says
    'confounded' only. Only experiments some source measured with compartments have rows: one
    that none did (E10 on the study's data) is said once in the body, not here. A metric only a
    few ticks long gives its times, then their ratio; what else the sides of a printed ratio
    may differ in is Table 9's (legend). The legend defines
    the notation once; a cell without a ratio says why in words ('confounded', 'not valid'), and
    † is the one mark."""
    sources = _sources(table)
    if not sources:
        return (
            "\\begin{tabular}{l}\\toprule\nNo target or data set with a compartment variant "
            "was included in this run.\\\\\n\\bottomrule\\end{tabular}\n"
        )
    n = len(sources)
    # the p columns and the gaps (4pt each side) within the text width
    width = min(0.24, 0.48 / n)
    rag = r">{\raggedright\arraybackslash}"
    spec = (
        f"{rag}p{{0.14\\textwidth}}{rag}p{{0.3\\textwidth}}"
        + f"{rag}p{{{width:.3f}\\textwidth}}" * n
    )
    cols = 2 + n
    lines = [
        r"\setlength{\tabcolsep}{4pt}",
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(["Experiment", "Metric"])
        + "".join(" & " + escape(h).replace("-", BREAK) for h in sources.values())
        + r" \\",
    ]
    table = table.assign(pair=[_pair(r) for r in table.itertuples()])
    keys = ["pair", "experiment", "metric"]
    every = list(table.groupby(keys, sort=False))
    groups = [(k, g) for k, g in every if not all(is_confounded(x) for x in g.itertuples())]
    # a row left out as confounded is said in the legend's words (confounded_table lists it)
    hidden = len(groups) < len(every)
    # within a contrast, each experiment's metrics in its order, a metric only a few ticks long a
    # row like any other (readers of rounds 141 to 148: a note under the table held rows that were
    # not rows); no heads split code that calls into another library from code that calls none,
    # which Figure 1 draws for the loops (A148, B150, R150: a malloc, a free and a pipe write
    # under the math loop's head read as costs of a crossing, though the kernel does most of
    # their work)
    pairs = list(dict.fromkeys(k[0] for k, _ in groups))
    # within a contrast, the experiments whose cells are most often numbers first, so that the
    # table opens on results, not on cells in words (R156: its 24.05 column opened with four
    # non-results); each experiment's metrics stay together and in their order
    numbers = {}
    for (pair, e, _), mine in groups:
        got = numbers.setdefault((pair, e), [0, 0])
        got[0] += sum(not _in_words(x) for x in mine.itertuples())
        got[1] += len(sources)
    experiments = list(dict.fromkeys((k[0], k[1]) for k, _ in groups))
    groups = sorted(
        groups,
        key=lambda g: (
            pairs.index(g[0][0]),
            -numbers[g[0][:2]][0] / numbers[g[0][:2]][1],
            experiments.index(g[0][:2]),
        ),
    )
    last_pair, last_e = None, None
    for (pair, e, _), mine in groups:
        if pair != last_pair:
            lines.append(r"\midrule")
            if len(pairs) > 1:  # one contrast is the caption's to name
                lines.append(
                    rf"\multicolumn{{{cols}}}{{@{{}}l}}{{\emph{{{escape(first_upper(pair))}}}}} \\"
                )
            last_pair, last_e = pair, None
        cells = [
            escape(exp.get(e).title) if e != last_e else "",
            metric_cell(mine, sources),
        ]
        last_e = e
        for s in sources:
            r = mine[mine.source == s]
            if not len(r):
                cells.append("not measured")
            else:
                cells.append(printed_cell(r.iloc[0]))
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    lines += [r"\par\smallskip\raggedright", *legend(table, groups, hidden)]
    return "\n".join(lines) + "\n"


# what a cell's word means, said under the table only where a cell has the word without its reason
WORDS = {
    # as Section 3 defines it (an editor met two definitions)
    CONFOUNDED_CELL: r"\emph{confounded} means the variants also differ in something known to "
    r"change the metric (Table~\ref{tab:confounded})",
    NOT_VALID: rf"\emph{{{NOT_VALID}}} means the timed code does not do what the metric names",
}


def printed_cell(r, tex: bool = True) -> str:
    """A source's cell as Table 1 prints it: 'confounded: …' where its contrast is (and its
    measurement valid), else its number, or 'not valid: …' (cell)."""
    if is_confounded(r) and not _text(r.invalid):
        return confounded_cell(r)
    return cell(r, tex=tex)


def _in_words_cell(x) -> str:
    """A cell in words as Table 1 prints it ('' for a number)."""
    return printed_cell(x, tex=False) if _in_words(x) else ""


def _in_words(x) -> bool:
    """Whether a cell is in words (not valid, confounded), not a number."""
    return bool(_text(getattr(x, "invalid", ""))) or is_confounded(x)


def _sides(few: list) -> str:
    """The two sides of a few-tick cell by name, as Section 4 says them: the pair's second, then
    its first ('purecap + c18n / hybrid': hybrid -> purecap + c18n); several pairs, or a share of
    a split total (pair_name adds its share after the second name): by position."""
    pairs = list(dict.fromkeys(str(getattr(x, "pair", "")) for x in few))
    shares = any(_text(getattr(x, "share", "")) in SHARES for x in few)
    if len(pairs) == 1 and pairs[0].count(" / ") == 1 and not shares:
        one, two = (escape(x) for x in pairs[0].split(" / "))
        return f"{two} $\\rightarrow$ {one}"
    return "second $\\rightarrow$ first of the pair"


LEGEND_CHARS = 700  # the legend's text: its notations and the sentences after them (room for
# "confounded" as Section 3 defines it and the few-tick forms: the one key to the forms of the
# body)
LEGEND_PAIRS = 1  # one notation a row (cold reads: two to a row read as one run-on line)


def legend(table: pd.DataFrame, shown: list, hidden: bool = False) -> list[str]:
    """The legend under Table 1, in footnote type: each notation beside its meaning, LEGEND_PAIRS
    to a row, defined once and only where a cell uses it (where they are ratios and times a few
    ticks long, in sentences); what the intervals cover, said once; a word only where a cell has
    it without its reason (WORDS); then where the confounded contrasts' ratios are (Table 9).
    hidden: some row was left out as confounded (latex_table), which that last sentence covers."""
    rows = [x for _, g in shown for x in g.itertuples()]
    kept = [x for x in rows if not is_confounded(x) or _text(x.invalid)]
    printed = [cell(x, tex=False) for x in kept]
    said = " ".join(printed)
    # each form keyed by the first cell of the table that has it, not by symbols (three cold
    # reads of round 89 decoded 'x -> y us (r x [a, b])' before they could read a cell)
    example = dict(zip(printed, (cell(x) for x in kept)))
    few = [x for x, t in zip(kept, printed) if "→" in t]
    kinds = {
        "interval": lambda t: "[" in t and "→" not in t,
        "bare": bare,
        "timer": lambda t: "⟨" in t and "→" not in t,
        "range": lambda t: "–" in t and "→" not in t,
        "few": lambda t: "→" in t and not UNRESOLVED_SAID.search(t),
    }
    first = {k: next((example[t] for t in printed if test(t)), "") for k, test in kinds.items()}
    forms = []
    if first["interval"]:
        forms.append((first["interval"], "a ratio with its interval"))
    if first["bare"]:  # the point alone: brackets would only repeat it
        forms.append((first["bare"], f"a ratio, {BARE_WORDS.split(': ', 1)[1]}"))
    if first["timer"]:
        forms.append((first["timer"], "not an interval: a timer tick either way"))
    if first["range"]:
        forms.append((first["range"], "too uncertain for a point"))
    few_said = ""  # the sentence that keys them where the legend is sentences alone
    few_forms = []  # their forms, which that sentence keys in place of a row each
    if few:
        ticks = listed(list(dict.fromkeys(quantity(x.resolution, x.unit, True) for x in few)))
        sides = _sides(few)
        unresolved = bool(UNRESOLVED_SAID.search(said))
        few_said = (
            f"Where a metric lasts only a few {ticks} ticks, its cell gives {sides} times, then "
            "their ratio"
            # the cell's words in the ratio's place (latex.tick_unresolved), said as the rule is
            + (", or that their means lie within a tick or two" if unresolved else "")
            + "."
        )
        # each form defined here, the one key of the body (a forms table once repeated it;
        # cold reads asked for one legend)
        if first["few"]:
            few_forms.append(first["few"])
            forms.append(
                (first["few"], f"{sides}: times only a few {ticks} ticks long, then their ratio")
            )
        # in the ratio's place (latex.tick_unresolved), each count of ticks the cells print
        for form in dict.fromkeys(UNRESOLVED_SAID.findall(said)):
            shown_ = next((example[t] for t in printed if form in t), form)
            few_forms.append(shown_)
            # what the rule is (latex.tick_unresolved): within a tick, and the interval holds 1;
            # 'the timer cannot tell apart' overstated it for means of many trials (round 104)
            forms.append((shown_, f"{sides}: times a tick apart at most, no ratio apart from 1"))
    if "†" in said:
        forms.append((DAGGER, MEDIAN_WORDS.split(": ", 1)[1] + ": the median"))
    # cells in words are no notation: each names its reason ('confounded: heap revocation', 'not
    # valid: loops made no stores or loads'), as Section 3 defines the word; a sentence defining
    # them again was the legend's longest (readers of rounds 141 to 148 counted Table 1's notations)
    confounded = hidden or any(is_confounded(x) and not _text(x.invalid) for x in rows)
    # a cell whose data set names no reason says the word alone: defined here, then
    bare_words = {_in_words_cell(x) for x in rows} & {NOT_VALID, CONFOUNDED_CELL}
    words = [WORDS[w] for w in (CONFOUNDED_CELL, NOT_VALID) if w in bare_words]
    lines = [r"\footnotesize"]
    plain = {first["interval"], first["bare"]} - {""}
    if all(k in plain or k in few_forms for k, _ in forms):
        # ratios and times alone: sentences, as Figure 1's caption says it (round 105: a legend
        # of notations read as a private grammar)
        if first["bare"]:
            lines.append(first_upper(BARE_WORDS) + ".")
        if few_said:
            lines.append(few_said)
    else:
        spec = r"@{\quad}".join([r"l@{\quad}l"] * LEGEND_PAIRS)
        lines.append(rf"\begin{{tabular}}{{@{{}}{spec}@{{}}}}")
        for i in range(0, len(forms), LEGEND_PAIRS):
            pairs = forms[i : i + LEGEND_PAIRS]
            pairs += [("", "")] * (LEGEND_PAIRS - len(pairs))
            lines.append(" & ".join(f"{k} & {v}" for k, v in pairs) + r" \\")
        lines.append(r"\end{tabular}")
    covers = covers_line(table)
    if covers:  # what the intervals are, beside how they print, in the same paragraph (round
        # 129: every reader counted the legend's lines)
        lines += [r"\par", covers] if lines[-1] == r"\end{tabular}" else [covers]
    # where the ratios Table 1 does not print are, and what else the sides of a printed ratio may
    # differ in with no known effect on it: one sentence, a pointer, not a row (rounds 110 to
    # 112: every reader took the row for a caveat dressed as a result)
    ratios = [x for x in rows if not _in_words(x)]
    maybe = any(named.possibly_short(_text(getattr(x, "possibly_also", ""))) for x in ratios)
    said = []
    if confounded or maybe:
        what = ["gives the confounded contrasts' ratios"] if confounded else []
        what += ["names what else the two sides of some ratios here may differ in"] if maybe else []
        said.append(rf"Table~\ref{{tab:confounded}} {' and '.join(what)}.")
    if words:
        said.insert(0, f"No ratio where a cell is in words: {'; '.join(words)}.")
    if said:
        lines += [r"\par", " ".join(said)]
    return lines


def setting_cell(rows: pd.DataFrame, heads: dict[str, str]) -> str:
    """One metric's setting in Table 1 (metric_cell): its largest setting ('1000 MiB'), each
    source's where they differ ('1000 MiB on the 24.05 data, 128 MiB on my\\_board': inside the
    metric's brackets, no brackets of its own), '---' where no source has a numeric one (a CPU
    workload 'as published'). heads: each source's heading."""
    values = {}
    if "parameter_value" in rows:
        for r in rows.dropna(subset=["parameter_value"]).itertuples():
            try:
                values.setdefault(r.source, setting(str(r.parameter), float(r.parameter_value)))
            except (TypeError, ValueError):
                continue  # 'as published': no setting to name
    shown = list(dict.fromkeys(values.values()))
    if not shown:
        return "---"
    if len(shown) == 1:
        return escape(shown[0])
    on = {s: f"the {h}" if h.endswith(" data") else h for s, h in heads.items()}
    return escape(", ".join(f"{v} on {on[s]}" for s, v in values.items()))


def covers_line(table: pd.DataFrame) -> str:
    """What the intervals cover, said once: 'On the study's data every interval is the spread
    within one run.' (sources alike said together; the study's data sets by that name)."""
    if "interval_covers" not in table:
        return ""
    heads = _sources(table)
    alike: dict[str, list[str]] = {}
    kinds = table.groupby("source", sort=False).first()
    for s, c in (
        table.dropna(subset=["interval_covers"])
        .groupby("source", sort=False)
        .interval_covers.first()
        .items()
    ):
        alike.setdefault(c, []).append(s)
    said = []
    for c, names in alike.items():
        data = "source_kind" in kinds and all(kinds.source_kind[s] == "dataset" for s in names)
        who = "the study's data" if data else listed([escape(heads[s]) for s in names])
        words = covers_words(c)
        said.append(f"on {who} every interval is {'' if words.startswith('the ') else 'a '}{words}")
    return first_upper("; ".join(said)) + "." if said else ""


def confounded_table(table: pd.DataFrame) -> str:
    """The appendix's table of the contrasts Table 1 does not quote: one row per source,
    contrast and metric whose variants differ in more than ABI and compartments, its ratio in
    Table 1's notation and what else differs; below it, each contrast's differences of name
    alone (possibly also: the ratios stand)."""
    sources = _sources(table)
    table = table.assign(pair=[_pair(r) for r in table.itertuples()])
    # an invalid measurement has no ratio to list (its experiment's section says why)
    mixed = table[[is_confounded(r) and not _text(r.invalid) for r in table.itertuples()]]
    first = {k: i for i, k in enumerate(dict.fromkeys(mixed.source + "\0" + mixed.pair))}
    mixed = mixed.assign(_order=(mixed.source + "\0" + mixed.pair).map(first))
    mixed = mixed.sort_values("_order", kind="stable")  # each contrast's rows together
    maybe = possibly_notes(table, sources)
    if mixed.empty and not maybe:
        return "% no confounded contrast and no difference of name alone\n"
    rag = r">{\raggedright\arraybackslash}"
    lines = [
        r"\begin{table*}[!htbp]",
        r"\caption{Confounded contrasts: the ratios Table~\ref{tab:headline} calls confounded "
        r"or leaves out, and what else differs.}",
        r"\label{tab:confounded}",
        r"\scriptsize\setlength{\tabcolsep}{4pt}",
    ]
    if len(mixed):
        lines += [
            rf"\begin{{tabular}}{{l{rag}p{{0.22\textwidth}}{rag}p{{0.19\textwidth}}l"
            rf"{rag}p{{0.3\textwidth}}}}",
            r"\toprule",
            r"Source & Contrast & Metric & Ratio & Also differs \\",
            r"\midrule",
        ]
        last = None
        for r in mixed.itertuples():
            here = (r.source, r.pair)
            lead = ["", ""] if here == last else [escape(sources[r.source]), escape(r.pair)]
            last = here
            differs = ", ".join(x.strip() for x in r.confounded_by.split(";") if x.strip())
            lines.append(
                " & ".join([*lead, escape(first_upper(r.label)), cell(r), escape(differs)]) + r" \\"
            )
        lines += [r"\bottomrule", r"\end{tabular}"]
    # the mark, how few, and the ratio of means the median stands in for (issue 16: a measure a
    # reader understands; readers of rounds 122 to 125 met 2.0x here beside 54x from Table 3's
    # means); a row carries the mark exactly where its mean rests on a few trials (cell)
    tails = [
        f"{escape(sources[r.source])}, {escape(r.pair)}, {escape(_text(r.label))}: "
        f"{tail_text(r)}; ratio of means {comparison_text(r, 'mean')}"
        for r in mixed.itertuples()
        if rests_on_few(r)
    ]
    notes = [f"{DAGGER} {MEDIAN_WORDS}. " + "; ".join(tails) + "."] if tails else []
    if maybe:
        notes.append("Possibly also (the ratios stand): " + "; ".join(maybe) + ".")
    if notes:
        lines += [r"\par\smallskip\raggedright", " ".join(notes)]
    lines.append(r"\end{table*}")
    return "\n".join(lines) + "\n"


def possibly_notes(table: pd.DataFrame, headings: dict[str, str] | None = None) -> list[str]:
    """Per source and contrast, once: what else differs in name alone (possibly_also)."""
    if "possibly_also" not in table:
        return []
    headings = headings or _sources(table)
    table = table.assign(pair=[_pair(r) for r in table.itertuples()])
    out = []
    for (source, pair), rows in table.groupby(["source", "pair"], sort=False):
        said = [[x.strip() for x in _text(c).split(";") if x.strip()] for c in rows.possibly_also]
        if any(said):  # each difference once, with the experiments it is about
            out.append(
                f"{escape(headings.get(source, source))}, {escape(pair)}: "
                # scoped by experiment: a board or a compiler is the program's, not a metric's
                + escape(
                    ", ".join(
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
    only' where fewer than total rows carry it (possibly_notes; releases.mixes)."""
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
    ap.add_argument(
        "--confounded", type=Path, help=f"default: {CONFOUNDED} beside --tex (the appendix's)"
    )
    a = ap.parse_args(argv)
    config = exp.config_from_arguments(a)
    comps = {k: pd.read_csv(v) for k, v in cfg.experiment_files(a, "comparisons").items()}
    summaries = {k: pd.read_csv(v) for k, v in cfg.experiment_files(a, "summary").items()}
    comps = {k: v for k, v in comps.items() if exp.get(k).headline}
    table = rows(config, comps, summaries, load(a.claims), pd.read_csv(a.verdicts))
    write_text_atomic(a.csv, table.to_csv(index=False))
    paper = from_config(config).text  # the paper's names for the ids its notes quote
    write_text_atomic(a.tex, paper(latex_table(table)))
    write_text_atomic(a.confounded or a.tex.with_name(CONFOUNDED), paper(confounded_table(table)))


if __name__ == "__main__":
    main()
