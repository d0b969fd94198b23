"""The headline table and the paper's generated findings, on the study's real 24.05 files: every
number read from the computed comparisons, the median where a few trials carry the mean, invalid
measurements named, contrasts named by what differs."""

import re

import pandas as pd

from c18n_ae import experiments as registry
from c18n_ae.analysis import contrasts
from c18n_ae.analysis.claims import evaluate, load
from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common import datasets
from c18n_ae.common.latex import comparison_text
from c18n_ae.report import call_cost, headline
from c18n_ae.report.finding_facts import point
from c18n_ae.report.findings import (
    cell,
    experiment_paragraph,
)
from conftest import ROOT

META = datasets.load("morello-2024")
CONFIG = {"targets": [], "datasets": ["morello-2024"]}


def data(metas=(META,), config=CONFIG):
    summaries, comps, tidies = {}, {}, {}
    files = [f for m in metas for f in dataset_files(m)]
    references = {m["name"]: m["reference_variant"] for m in metas}
    for e in dict.fromkeys(x for x, _, _ in files if registry.get(x).headline):
        tidy = collect(e, [], [p for x, _, p in files if x == e])
        tidies[e], summaries[e] = tidy, summary_table(tidy)
        known = {m["name"]: contrasts.dataset_variants(m) for m in metas}
        comps[e] = contrasts.annotate(compare(tidy, references), known)
    claims = load(ROOT / "config" / "claims.yaml")
    targets = {m["name"]: {v: bool(s["c18n"]) for v, s in m["variants"].items()} for m in metas}
    invalid = datasets.invalid_metrics(list(metas))
    study_data = {m["name"] for m in metas if m.get("study_data")}
    verdicts = evaluate(claims, summaries, targets, comps, tidies, invalid, study_data=study_data)
    return headline.rows(config, comps, summaries, claims, verdicts), verdicts


TABLE, VERDICTS = data()


def row(metric, subject="purecap-c18n", experiment="memory"):
    r = TABLE[
        (TABLE.metric == metric) & (TABLE.subject == subject) & (TABLE.experiment == experiment)
    ]
    assert len(r) == 1
    return r.iloc[0]


def test_headline_rows_read_the_comparisons_at_the_largest_setting():
    malloc = row("malloc_ns")
    assert malloc.parameter_value == 1000 and malloc.crosses == "libc"
    # the purecap process revokes freed memory (the kernel's default), the hybrid one does not
    assert malloc.contrast == (
        "purecap (heap revocation on) in compartments against hybrid (heap revocation off) without"
    )
    assert malloc.confounded_by == "heap revocation on against off"
    # a few slow allocations carry the mean: the median is the typical cost
    assert headline.rests_on_few(malloc)
    assert malloc.tail_trials <= 5 and malloc.tail_share > 0.9
    assert malloc.median_ratio < 3 < 10 < malloc.ci95_high
    # the setting at which the claim was decided, which need not be the row's; confounded
    assert re.search(r"alloc-10x: confounded, decided at \d+ MiB", malloc.claims)
    assert row("write_ns", experiment="pipe").confounded_by == ""  # no malloc or free timed
    assert row("write_ns").invalid.startswith("the study's write and read loops")
    assert row("math_cpu_ns", experiment="cpu").crosses == "libm"
    assert row("int_cpu_ns", experiment="cpu").crosses == ""
    assert "math-cost-purecap: holds" in row("math_cpu_ns", experiment="cpu").claims


def test_a_contrast_that_mixes_the_build_is_set_apart_and_never_quoted_as_a_cost():
    """24.05's purecap-benchmark CPU program was built cc -O2, hybrid's clang-morello without -O;
    the binaries record one build for both, so only the level names the contrast."""
    r = row("int_cpu_ns", subject="benchmark-c18n", experiment="cpu")
    assert "optimisation -O2 against -O0" in r.confounded_by
    assert r.contrast.startswith("purecap-benchmark -O2 in compartments against hybrid -O0")
    verdict = VERDICTS.set_index("claim").loc["int-gain-benchmark"]
    assert verdict.result == "confounded" and "-O2 against -O0" in verdict.confounded_by
    tex = headline.latex_table(TABLE)
    apart = headline.confounded_table(TABLE)
    assert "purecap-benchmark" not in tex and "benchmark + c18n / hybrid" in apart
    assert "Also differs" in apart and "optimisation -O2 against -O0" in apart
    assert r"\label{tab:confounded}" in apart and r"tab:confounded" in tex
    # the body's paragraph on E3 quotes no confounded ratio
    said = experiment_paragraph("cpu", TABLE, {"morello-2024": "CheriBSD 24.05"})
    assert said and fmt_ratio(r) not in said and "0.73" not in said, said


def fmt_ratio(r) -> str:
    from c18n_ae.common.latex import ratio_text

    return ratio_text(r.ratio, r.ci95_low, r.ci95_high)


def test_headline_table_marks_tails_invalid_rows_and_leaves_confounded_numbers_out():
    """Table 1: one column per source, one statistic per cell (no median or claims column); an
    invalid measurement reads 'not valid' in words; a confounded cell says 'confounded' and no
    number, its ratio in the appendix's table, marked † there where a few trials carry the mean
    (E2's malloc); † is the legend's one mark."""
    tex = headline.latex_table(TABLE)
    assert "24.05 data" in tex and "Median" not in tex and "Claims" not in tex
    body, legend = tex.split(r"\end{tabular}", 1)
    assert " & not valid" in body
    # confounded on its only source: the row leaves Table 1, the legend says where it is
    assert "A malloc" not in body and "A free" not in body
    assert r"Table~\ref{tab:confounded} gives the confounded contrasts' ratios" in legend
    # no mark but † (the median's): the cells and the legend say the rest in words
    assert not any(m in tex for m in (r"\ddagger", r"\S", "‡", "§"))
    apart = headline.confounded_table(TABLE)
    assert (
        r"A malloc of the largest block & 2.0$\times$ $\langle$1.5, 2.8$\rangle$$^\dagger$" in apart
    )
    assert "heap revocation on against off" in apart
    assert headline.latex_table(TABLE.iloc[0:0]).count("No target or data set") == 1


def test_the_conclusion_scopes_the_debug_kernel_to_the_host_whose_log_records_it():
    """The debug kernel is in the log of E6's host (tom)
    only, so it is said of no finding of E2 to E4, whose files name other hosts or none; the
    data sets' description says whose log it is."""
    from c18n_ae.report.finding_facts import debug_kernel
    from c18n_ae.report.findings import attribution

    meta = datasets.load("morello-2024")
    assert debug_kernel(meta, {"isolation"}) == "a debug kernel with INVARIANTS and WITNESS"
    assert debug_kernel(meta, {"memory"}) == ""
    described = attribution(meta)
    assert r"The kernel is recorded only in \texttt{tom}'s log (E6)" in described
    assert "document 000" in described and "document 002" in described
    assert r"\texttt{morello-camb-2} for \texttt{pipe/hybrid.csv}" in described


def test_one_tally_by_kind_in_a_table_before_the_claims_table_never_in_prose():
    """Counted by kind, the study's claims, other studies' and this package's own in row groups,
    each row's counts adding up to its claims; a restated or reproduced verdict checks the study's
    arithmetic, so it never counts as holding: only tested ones hold or fail. The tally is a table
    before the claims table (its caption counts nothing); the abstract and the conclusion carry
    no tally by kind."""
    from c18n_ae.report.claim_tables import claims_summary, latex_table, tally_counts

    rows = {(o, s): (n, c) for o, s, n, c in tally_counts(VERDICTS)}
    study = VERDICTS[(VERDICTS.source == "morello-2024") & (VERDICTS.origin == "study")]
    n, counts = rows[("study", "morello-2024")]
    assert n == study.claim.nunique() == 24 and sum(counts) == n
    assert counts[:3] == [0, 0, 0]  # nothing here was tested: none holds, fails or is inconclusive
    assert all(sum(c) == n for n, c in rows.values())
    assert rows[("own", "morello-2024")] == (3, [0] * 6 + [3])  # its own apart, not measurable
    tested = VERDICTS.assign(verdict_kind="tested")
    holds = int((study.result == "holds").sum())
    assert (
        dict(((o, s), c) for o, s, _, c in tally_counts(tested))[("study", "morello-2024")][0]
        == holds
    )
    table = latex_table(VERDICTS)
    tally, claims = table.split(r"\begin{longtable}", 1)
    assert r"\label{tab:claims-tally}" in tally and "The study's claims" in tally
    assert "This package's own claims are not the study's" in tally  # what they are, said once
    caption = claims.split(r"\label{tab:claims}")[0]
    assert "morello-2024" not in caption and not re.search(r"\b\d+ (?:claims|are)\b", caption)
    # the abstract's one plain sentence: nothing tested on 24.05 (its numbers come back from the
    # study's own files), why the others could not be, most common reason first
    plain = claims_summary(VERDICTS, {"morello-2024": "CheriBSD 24.05"}, ["morello-2024"])
    assert plain.startswith("None of the study's 24 claims could be tested with an interval: ")
    assert call_cost.abstract_problems(plain) == [] and "-" not in plain, plain


def test_the_claims_count_is_said_once_in_section_4_3_never_in_the_conclusion():
    """How the study's tested claims came out, the counts adding up to the claims tested (not to
    every verdict), is Section 4.3's to say; the conclusion does not repeat it (readers of rounds
    113 to 115 read it there as the paper's finding, a check across releases); every point the
    body prints is Table 1's."""
    from c18n_ae.report.claim_tables import claims_summary

    conclusion = (ROOT / "paper" / "sections" / "conclusion.tex").read_text()
    assert "Findings" not in conclusion and "Claims" not in conclusion, conclusion
    results = ["holds"] * 4 + ["fails"] * 4 + ["inconclusive"] + ["not applicable"] * 3
    kinds = ["tested"] * 9 + ["not measurable with these data"] * 3
    verdicts = pd.DataFrame(
        {
            "claim": [f"claim-{i}" for i in range(12)] * 2,
            "source": ["cheribsd-22.12"] * 12 + ["morello-2024"] * 12,
            "origin": "study",
            "verdict_kind": kinds + ["restated"] * 12,
            "result": results + ["restated"] * 12,
        }
    )
    # the abstract's sentence says the same outcome, where and against what noise
    releases = {"cheribsd-22.12": "CheriBSD 22.12", "morello-2024": "CheriBSD 24.05"}
    full = claims_summary(verdicts, releases, list(releases))
    assert full == (
        "Of the study's 12 claims, 9 could be tested on its data, all on 22.12: 4 hold, 4 do "
        "not and 1 is inconclusive. The other 3 cannot be measured on the 22.12 data. On the "
        "24.05 data none of the claims could be tested. They only repeat the study's numbers."
    ), full
    # the abstract's form: the count alone
    assert (
        claims_summary(verdicts, releases, list(releases), why_not=False)
        == full.split(" The other")[0]
    )
    # where the study drew its claims from a release, the reason its files tested none says so
    drew = claims_summary(verdicts, releases, list(releases), ["CheriBSD 24.05"])
    # the outcome where it was tested; why the claims' own files test none is Section 4.3's
    # definition of tested, not a sentence here
    assert drew == (
        "The 12 claims come from conclusions the study drew from its 24.05 data. "
        "Its separate 22.12 runs could test 9 of them, and there 4 hold, 4 do not and 1 is "
        "inconclusive. The other 3 cannot be measured on the 22.12 data."
    ), drew
    # what a failure there shows is the tested claims' table's caption's (round 139: every
    # wording of it in the body stopped readers): the end-to-end test reads it in the PDF
    # a claim tested on two sources has two verdicts: counted as verdicts, never as claims
    twice = pd.concat([verdicts, verdicts.iloc[:1].assign(source="morello-2024")])
    assert "of their 10 verdicts, 5 hold" in claims_summary(twice, releases, list(releases))
    # a row Table 1 prints with no point estimate gives none here
    for r in TABLE.itertuples():
        cell = comparison_text(r, "median" if headline.rests_on_few(r) else "mean")
        if re.search(r"[0-9.]+--[0-9.]+\$\\times\$", cell):  # a range, too uncertain for a point
            assert point(r) == ""
        else:
            assert point(r) and point(r) in cell


def test_experiment_paragraphs():
    """The body's paragraph on an experiment says what the numbers show, the answer first: the
    calls into another library with their ratios as Table 1 prints them, then the program's own
    code as one range of Table 1's points, then Table 1 cited for the rest; a data set with no
    usable ratio says so in Table 1's words, never with its ratios; no claim ID, no caveat, no
    'within one run' (said once in Section 3)."""
    releases = {"morello-2024": "CheriBSD 24.05"}
    para = experiment_paragraph("memory", TABLE, releases)
    # E2's malloc and free mix heap revocation with the compartments, its loops store nothing
    assert para == (
        "The 24.05 data give no ratio here: Table~\\ref{tab:headline} marks them confounded or "
        "not valid."
    ), para
    cpu = experiment_paragraph("cpu", TABLE, releases)
    tuples = {
        r.metric: r
        for r in TABLE[(TABLE.experiment == "cpu") & (TABLE.subject == "purecap-c18n")].itertuples()
    }
    math = cell(tuples["math_cpu_ns"])
    # the answer first, read from the numbers: the call into libm above every own-code point
    assert cpu.startswith(
        "On the 24.05 data, only the math workload's CPU time, which calls into libm, rises above "
        f"the rest: {math}."
    ), cpu
    inside = TABLE.assign(
        ratio=[1.0 if m == "math_cpu_ns" else r for m, r in zip(TABLE.metric, TABLE.ratio)]
    )
    plain = experiment_paragraph("cpu", inside, releases)
    assert "rises above" not in plain and "only" not in plain.lower().split(",")[1], plain
    # the other three as one range of Table 1's points, then Table 1 for the rest
    points = sorted(
        (tuples[m] for m in ("int_cpu_ns", "float_cpu_ns", "array_cpu_ns")),
        key=lambda r: r.ratio,
    )
    ends = f"{point(points[0])} to {point(points[-1])}"
    own = f"stay within {ends}, as Table~\\ref{{tab:headline}} shows."
    assert "The other three, which call into no other library, " + own in cpu, cpu
    for text in (para, cpu):
        assert "within one run" not in text and "math-cost" not in text and "itemize" not in text
        assert "possibly" not in text.lower() and "-O0" not in text  # caveats are Section 3's
        for s in re.split(r"\. ", text.replace(r"\,\%", "%")):
            assert len(s.split()) <= 35, s
    # nothing measured: no paragraph (\\IfFound leaves its heading out too)
    assert experiment_paragraph("memory", TABLE.iloc[0:0], {}, {}) == ""


def test_a_target_with_purecap_without_compartments_splits_the_shares():
    source = {
        "name": "board",
        "kind": "target",
        "reference": "hybrid",
        "variants": {
            "hybrid": {"c18n": False, "abi": "hybrid"},
            "purecap": {"c18n": False, "abi": "purecap"},
            "purecap-c18n": {"c18n": True, "abi": "purecap"},
            "benchmark-c18n": {"c18n": True, "abi": "purecap-benchmark"},
        },
    }
    assert headline.contrasts(source) == [
        ("purecap-c18n", "hybrid", "total"),
        ("purecap", "hybrid", "ABI share"),
        ("purecap-c18n", "purecap", "compartment share"),
        ("benchmark-c18n", "hybrid", "total"),
    ]
    v = source["variants"]
    assert contrasts.name(
        contrasts.facts(v["purecap-c18n"]), contrasts.facts(v["purecap"]), "purecap-c18n", "purecap"
    ) == ("purecap in compartments against purecap without")
    assert pd.notna(TABLE.ratio).all()


# an interval in any printed form (READ31's notation), and what it covers if said right after it
INTERVAL = re.compile(
    r"((?:\[[-0-9.]+, [-0-9.]+\]|\[\$\\pm\$[0-9.]+\]|\$\\langle\$[-0-9.]+, [-0-9.]+\$\\rangle\$"
    r"|\$\\langle\\pm\$[0-9.]+\$\\rangle\$|[0-9.]+--[0-9.]+\$\\times\$"
    r"|\$\\rightarrow\$ [0-9.]+ \\si\{[^}]*\} \([0-9.]+\$\\times\$\)))"
    r"(, the spread within one run|, 95\\,\\% interval between runs)?"
)


def test_every_interval_the_generated_findings_print_stands_bare(tmp_path):
    """The findings tex the paper inputs, made by the command from both shipped data sets (each
    one build, boot and process per variant): the abstract and the experiment lists print their
    intervals in the one notation, and none is followed by what it covers: that is said once
    (Table 1's legend, Section 3), never after each number (READ31)."""
    from c18n_ae.report import findings

    metas = [datasets.load("morello-2024"), datasets.load("cheribsd-22.12")]
    table, verdicts = data(metas, {"targets": [], "datasets": [m["name"] for m in metas]})
    assert set(table.interval_covers.dropna()) == {"within one run"}
    table.to_csv(tmp_path / "headline.csv", index=False)
    verdicts.to_csv(tmp_path / "claims.csv", index=False)
    out = tmp_path / "findings.tex"
    findings.main(
        ["--config", str(ROOT / "config" / "config.yaml"), "--out", str(out)]
        + ["--headline", str(tmp_path / "headline.csv"), "--verdicts", str(tmp_path / "claims.csv")]
    )
    said = intervals(out.read_text())
    printed = [x for found in said.values() for x in found]
    # (a timer range narrower than the point's last digit prints the point alone, no brackets)
    assert len(printed) >= 1 and {c for _, c in printed} == {""}, printed
    # Table 1 says it once, from the comparisons' interval_covers
    legend = headline.latex_table(table).split(r"\end{tabular}", 1)[1]
    assert legend.count("every interval is the spread within one run") == 1
    runs = headline.latex_table(table.assign(interval_covers="between runs"))
    assert "every interval is a 95\\,\\% interval between runs" in runs


def intervals(tex: str) -> dict[str, list]:
    """Per findings macro of a generated tex: each interval it prints and what it covers."""
    said = {}
    for macro in tex.split("\\newcommand{\\")[1:]:  # a macro's text may run over lines
        name = macro.split("}", 1)[0]
        if name == "HeadlineFindings" or name.startswith("Findings"):
            said[name] = INTERVAL.findall(macro)
    return said


def test_the_data_sets_attribution_nests_no_parenthesis():
    """'when: not recorded (files committed ...)' after a semicolon, never inside '(when: ...)'."""
    from c18n_ae.report.findings import attribution

    old = datasets.load("cheribsd-22.12")
    for text in (attribution(META), attribution(old, [META])):
        nested = [x for x in call_cost.abstract_problems(text) if x.startswith("nested")]
        assert nested == [], nested
    assert "; when: not recorded (files committed" in attribution(old, [META])


def test_the_body_paragraphs_name_no_claim_and_no_verdict():
    """24.05's CPU claims come back from the study's own files: the body's paragraph names no
    claim and no verdict (the claims table says each by its kind, never 'holds' in the prose)."""
    para = experiment_paragraph("cpu", TABLE, {}, {}, None, VERDICTS)
    assert "math-cost-purecap" not in para and "holds" not in para and "reproduced" not in para


def test_short_names_keep_the_words_that_tell_labels_apart():
    from c18n_ae.report.labels import named_together, short_names

    blocks = ["writing the largest block", "reading the largest block"]
    assert short_names(blocks) == ["writing", "reading"]
    cpu = ["the int workload's CPU time", "the float workload's CPU time"]
    assert short_names(cpu) == ["int", "float"]
    # each keeps at least one word; one label stays whole
    assert short_names(["writing the block"]) == ["writing the block"]
    assert short_names(["a b", "x a b"]) == ["a", "x a"]
    # the shared words said once
    heap = ["a malloc of the largest block", "a free of the largest block"]
    assert named_together(heap) == "a malloc and free of the largest block"
    assert named_together(heap[:1]) == heap[0]


def test_experiment_paragraphs_say_copies_of_a_data_set_once():
    """Data sets that print alike (copies of one release) are said once: no sentence twice, the
    sources that give no ratio named together in one sentence."""
    copies = pd.concat([TABLE] + [TABLE.assign(source=f"board-{c}") for c in "ab"])
    releases = {"morello-2024": "CheriBSD 24.05", "board-a": "CheriBSD 24.05"}
    for e in dict.fromkeys(TABLE.experiment):  # every experiment with a headline metric
        text = experiment_paragraph(e, copies, releases)
        said = re.split(r"(?<=\.) ", text)
        assert len(said) == len(set(said)), text
        assert text.count("the 24.05 data") <= 1 and text.count("board-b") == 1, text
    memory = experiment_paragraph("memory", copies, releases)
    assert memory.count("give no ratio here") == 1, memory


def test_the_tally_says_whose_thresholds_its_verdicts_rest_on():
    """The appendix's Verdicts paragraph says how many tested claims rest on a threshold the
    study's words give and that the rest are our reading (how each came out is Table 5's)."""
    from c18n_ae.report.claim_tables import threshold_words

    verdicts = pd.DataFrame(
        {
            "claim": [f"c{i}" for i in range(5)],
            "source": "cheribsd-22.12",
            "origin": "study",
            "verdict_kind": "tested",
            "result": ["holds", "fails", "fails", "holds", "inconclusive"],
            "threshold_from": ["study", "study", "study", "package", "package"],
        }
    )
    said = threshold_words(verdicts)
    assert said == (
        "For 3 of the 5 tested claims the study's words give the threshold; for the other 2 they "
        "name none exactly, and we chose one, which Table~\\ref{tab:tested} marks ours."
    ), said
    # how each came out is Table 2's: no count within the count (cold reads 67 to 69)
    assert not re.search(r"\bholds?\b", said) and "do not" not in said, said
    # every threshold the study's: nothing to say; none: said plainly
    assert threshold_words(verdicts.assign(threshold_from="study")) == ""
    assert threshold_words(verdicts.assign(threshold_from="package")).startswith(
        "We read the threshold of all 5 tested claims from the study's words"
    )
    assert threshold_words(verdicts.iloc[:0]) == ""
    # a claim tested on two sources: counted as verdicts, the outcome without 'of their'
    twice = pd.concat([verdicts, verdicts.assign(source="board")])
    said = threshold_words(twice)
    assert said.startswith("For 6 of the 10 verdicts the study's words give the threshold; "), said
    # a threshold neither the study's nor ours (not recorded) counts as neither
    odd = verdicts.assign(threshold_from=["study", "study", "study", "", ""])
    assert threshold_words(odd) == "", threshold_words(odd)


def test_single_trial_claims_say_what_the_source_does_with_them():
    """The claims a source decides on one trial, named by what it does with them (restates or
    reproduces on 24.05, where it tests none): 'the claims that hold there ... none of them a
    tested verdict' read as a contradiction to a cold reader (round 93)."""
    from c18n_ae.report.claim_tables import PUBLISHED, single_trial_claims

    def row(claim, measured, evidence, kind, result="holds"):
        return {"source": "s", "claim": claim, "result": result, "measured": measured,
                "evidence": evidence, "verdict_kind": kind}  # fmt: skip

    rows = pd.DataFrame(
        [
            row(
                "printed", "access: Denied (0 of 1 printed trial read as 1)", PUBLISHED, "restated"
            ),
            row(
                "logged",
                "in 1 of 1 trial, 1 of 100 strings found",
                "",
                "reproduced from the same data",
            ),
            row("many", "in 3 of 10 trials", "", "tested"),
            row("failed", "in 1 of 1 trial", "", "tested", result="inconclusive"),
        ]
    )
    said = single_trial_claims(rows, "s")
    assert said == (
        "On s, 2 of the claims it restates or reproduces rest on a single trial each: 1 printed "
        "by the study (printed) and 1 in its logs (logged)."
    ), said
    tested = rows.assign(verdict_kind="tested")
    assert "of the claims it tests rest on a single trial" in single_trial_claims(tested, "s")
    assert single_trial_claims(rows, "other") == ""
