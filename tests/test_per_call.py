"""The extra time of one call into another library: the calls per iteration are facts of the data
sets that the study's own binaries bear out (decoded here, not typed), the estimate is the
comparison's difference per iteration divided by them, and the abstract states it in one sentence
a reader can repeat."""

import copy
import functools
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from c18n_ae.analysis import contrasts, per_call
from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.common import call_sites, datasets
from c18n_ae.report import call_cost
from conftest import ROOT

SHIPPED = ["morello-2024", "cheribsd-22.12"]
ORIGINAL_BIN = ROOT.parent / "shared" / "reference" / "original-bin"


@pytest.mark.parametrize("name", SHIPPED)
def test_the_math_loop_calls_libm_four_times_and_computes_sqrt_inline(name):
    """Every build of the study, hybrid and purecap (C64) alike: sin, cos, tan and log between
    the two clock() calls, sqrt as an fsqrt; the own-code loops call nothing."""
    meta = datasets.load(name)  # load checks every binary against its facts too
    folder = Path(meta["directory"]) / "binaries"
    facts = meta["calls"]["cpu"]
    for b in facts["math_cpu_ns"]["binaries"]:
        seen = call_sites.between(folder / b["file"], "perform_math_test", "clock")
        assert seen == ["sin", "cos", "tan", "fsqrt", "log"], (b["file"], seen)
    for metric in ("int_cpu_ns", "float_cpu_ns"):
        for b in facts[metric]["binaries"]:
            assert call_sites.between(folder / b["file"], b["function"], "clock") == []
    assert call_sites.mistakes(Path(meta["directory"]), meta) == []


@pytest.mark.skipif(not ORIGINAL_BIN.is_dir(), reason="../shared/reference is not here")
@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_binaries_are_the_studys(name):
    meta = datasets.load(name)
    for b in meta["calls"]["cpu"]["math_cpu_ns"]["binaries"]:
        shipped = Path(meta["directory"]) / "binaries" / b["file"]
        assert shipped.read_bytes() == (ORIGINAL_BIN / b["file"]).read_bytes()


def test_the_threats_name_the_interpreter_the_22_12_binary_asks_for():
    """Threats says the study's 22.12 E3 binary names the c18n run-time linker as its interpreter:
    read from the binary's PT_INTERP, as the hybrid one names the plain linker."""
    from elftools.elf.elffile import ELFFile

    meta = datasets.load("cheribsd-22.12")
    asked = {}
    for b in meta["calls"]["cpu"]["math_cpu_ns"]["binaries"]:
        with open(Path(meta["directory"]) / "binaries" / b["file"], "rb") as f:
            interp = [s for s in ELFFile(f).iter_segments() if s["p_type"] == "PT_INTERP"]
            asked[b["variants"][0]] = interp[0].get_interp_name()
    assert asked == {
        "hybrid": "/libexec/ld-elf.so.1",
        "purecap-c18n": "/libexec/ld-elf-c18n.so.1",
    }, asked
    threats = (ROOT / "paper" / "sections" / "threats-more.tex").read_text()
    said = " ".join(threats.split())
    assert "binary names \\texttt{ld-elf-c18n.so.1} as its interpreter" in said
    # both build lines cited, each where the data set's facts cite it
    for line in (
        "\\texttt{memory-in-experiment.c}, line~39",
        "\\texttt{cpu-in-experiment.c}, line~34",
    ):
        assert line in said, said


def test_a_pair_of_means_three_orders_apart_prints_each_in_its_own_unit():
    """Table 7 prints a baseline in one unit in every row: sides three orders apart each take
    their own unit (1.407 s, never 1407.1 ms beside another row's 1.407 s), with the figures the
    four significant figures each, as the worked estimate prints its own and C.1 says."""

    def means(a, b):
        return call_cost._means(pd.Series({"mean_ns": a, "reference_mean_ns": b}))

    assert means(100.6e6, 1407.1e6) == r"100.6 \si{\milli\second} / 1.407 \si{\second}"
    # sides far apart: the smaller's figures for both, never '2.50000000 s'
    assert means(1.5e3, 2.5e9) == r"1.500 \si{\micro\second} / 2.500 \si{\second}"
    assert means(1443e6, 1407e6) == r"1.443 / 1.407 \si{\second}"
    assert means(70.78e9, 46.76e9) == r"70.78 / 46.76 \si{\second}"
    assert means(621.3e6, 830.0e6) == r"621.3 / 830.0 \si{\milli\second}"
    assert means(1021.3e6, 930.0e6) == r"1021 / 930.0 \si{\milli\second}"
    # the baseline in its own unit already: one unit for both
    assert means(1024e6, 961e6) == r"1024 / 961.0 \si{\milli\second}"


def test_a_calls_fact_the_binary_does_not_bear_out_is_refused():
    meta = datasets.load("morello-2024")
    d = Path(meta["directory"])
    wrong = copy.deepcopy(meta)
    wrong["calls"]["cpu"]["math_cpu_ns"]["calls"] = {"sin": 1, "cos": 1, "tan": 1, "sqrt": 1}
    found = call_sites.mistakes(d, wrong)
    assert len(found) == 3 and all("calls.cpu.math_cpu_ns.binaries" in m for m in found), found
    assert "'log': 1" in found[0] and "'sqrt': 1" in found[0]
    wrong = copy.deepcopy(meta)
    wrong["calls"]["cpu"]["int_cpu_ns"]["binaries"][0]["sha256"] = "0" * 64
    assert call_sites.mistakes(d, wrong) == [
        "calls.cpu.int_cpu_ns.binaries[0]: cpu-out-experiment.hybrid-24.05 does not have the "
        "recorded SHA-256"
    ]


def test_the_pipe_childs_calls_are_cited_from_its_source():
    """1,023 rand() calls a message: rand_str's loop runs STRLEN - 1 times, each line cited."""
    fact = datasets.load("morello-2024")["calls"]["pipe"]["message_wait_ns"]
    assert fact["calls"]["rand"] == 1023
    says = {e["says"] for e in fact["evidence"]}
    assert {"#define STRLEN     1024", "rand_str(str, STRLEN-1);", "rand()"} <= says


@functools.lru_cache
def cpu_comparisons(name: str) -> pd.DataFrame:
    """The data set's E3 comparisons as the workflow makes them, confounds named."""
    meta = datasets.load(name)
    files = [p for e, _, p in dataset_files(meta) if e == "cpu"]
    comps = compare(collect("cpu", [], files), {name: meta["reference_variant"]})
    return contrasts.annotate(comps, contrasts.variants_of({"targets": [], "datasets": [name]}))


def test_per_call_is_the_difference_per_iteration_over_the_calls():
    meta = datasets.load("morello-2024")
    comps = cpu_comparisons("morello-2024")
    rows = pd.DataFrame(per_call.estimates(meta, {"cpu": comps}, {}))
    math_row = rows[(rows.metric == "math_cpu_ns") & (rows.subject == "purecap-c18n")].iloc[0]
    c = comps[(comps.metric == "math_cpu_ns") & (comps.variant == "purecap-c18n")]
    c = c[c.reference_variant == "hybrid"].iloc[0]
    assert math_row.calls_per_iteration == 4 and math_row.iterations == 100_000_000
    want = (c["mean"] - c.reference_mean) / 1e8 / 4
    assert math_row.per_call_ns == pytest.approx(want)
    assert 10 < math_row.per_call_ns < 200  # tens of nanoseconds, as the reader found
    assert math_row.per_call_low_ns <= math_row.per_call_ns <= math_row.per_call_high_ns
    # the timer's bound: two 7.8125 ms steps over 10^8 iterations and 4 calls
    assert math_row.timer_bound_ns == pytest.approx(2 * 7.8125e6 / 1e8 / 4)
    assert math_row.estimate.startswith("ABI (the called library's build included) and")
    assert "upper bound" not in math_row.estimate  # only if the ABI's part is >= 0: said once
    assert math_row.possibly_also == (
        "the purecap-c18n files name host morello-camb-3 but the hybrid files name no host, so "
        "the two may come from different boards"
    )
    assert math_row.confounded_by == "" or isinstance(math_row.confounded_by, str)
    assert math.isnan(math_row.per_call_cycles)  # the study recorded no clock frequency
    own = rows[(rows.metric == "int_cpu_ns") & (rows.subject == "purecap-c18n")].iloc[0]
    assert own.calls_per_iteration == 0 and own.estimate.startswith("extra time per iteration")
    assert own.e10_note == per_call.NOT_IN_STUDY


def abstract_problems(text: str) -> list[str]:
    return call_cost.abstract_problems(text)


RELEASES = {"morello-2024": "CheriBSD 24.05", "cheribsd-22.12": "CheriBSD 22.12"}
ABIS = {
    ("morello-2024", "purecap-c18n"): "purecap",
    ("morello-2024", "benchmark-c18n"): ("purecap-benchmark"),
    ("cheribsd-22.12", "purecap-c18n"): "purecap",
}


def test_the_first_finding_gives_the_ratio_and_the_cost_in_ns_after_its_scope():
    """After the scope (whose data, what they compare), the loop's ratio and about 60 ns a call
    (two figures: one run per variant) with the build level; the benchmark ABI's 15 ns, whose
    contrast also differs in optimisation, stays out of it (the body says it with its confound);
    own code between the lowest and highest points the tables print (float's 0.97 to int's
    1.08), paying the ABI but no switch."""
    rows = morello_rows()
    assert call_cost.scope(rows, ABIS) == (
        "We re-analyse an earlier study's public Morello data, which compare purecap + c18n "
        "(every pointer a capability) with hybrid "
        "(plain \\mbox{64-bit} pointers)."
    )
    # an ABI without a gloss: named as an ABI with compartments, as before
    odd = rows.assign(subject="odd-c18n")
    said = call_cost.scope(odd, {("morello-2024", "odd-c18n"): "odd"})
    assert said.endswith("compare odd + c18n (the odd ABI with compartments) with hybrid."), said
    sentence = call_cost.finding(rows, RELEASES, ABIS)
    # the loop's ratio, its extra time per iteration and calls, then what it comes to per call
    # (A175, B175, R175: 'per libm call' alone promised a crossing cost), then how close own code
    # stays, in a sentence of its own once the first is long; what the time per call holds is
    # the question's and the sentence after the figures' (findings.question_words, mix_sentence)
    assert sentence == (
        r"On CheriBSD 24.05, purecap + c18n ran the study's math loop at 1.51$\times$ hybrid's CPU "
        r"time: 240~\si{\nano\second} more per iteration, 60~\si{\nano\second} for each "
        r"of its four libm calls. On 24.05, code that calls no other library ran at "
        r"0.97$\times$ to 1.08$\times$ hybrid's CPU time."
    ), sentence
    assert " It " not in sentence, sentence
    # the runs and builds the figures rest on are the limits' to say, after the finding
    assert "-O" not in sentence and "one run" not in sentence, sentence
    assert call_cost.built_words(rows, "-O0") == (
        "one run per variant of programs built unoptimised (\\mbox{-O0})"
    )
    assert call_cost.built_words(rows, None) == "one run per variant"
    assert "15" not in sentence and "benchmark" not in sentence
    # the lowest and highest point ratios Table 1 prints in its own-code cells, in its form
    from c18n_ae.report.headline import cell
    from test_findings import TABLE

    own = TABLE[
        TABLE.metric.isin(["int_cpu_ns", "float_cpu_ns", "array_cpu_ns"])
        & (TABLE.subject == "purecap-c18n")
    ]
    printed = [float(re.match(r"(\d\.\d+)\$\\times", cell(r))[1]) for r in own.itertuples()]
    ends = call_cost.own_points(rows, "morello-2024", "purecap-c18n")
    assert len(own) == 3 and ends == (min(printed), max(printed)) == (0.97, 1.08), printed
    # where one sentence cannot hold both, own code is a sentence of its own right after it
    limit, call_cost.MAX_WORDS = call_cost.MAX_WORDS, 20
    try:
        long = call_cost.finding(rows, RELEASES, ABIS)
    finally:
        call_cost.MAX_WORDS = limit
    assert long.endswith(
        r"On 24.05, code that calls no other library ran at 0.97$\times$ to 1.08$\times$ "
        r"hybrid's CPU time."
    ), long
    assert long.count(". ") == 1, long  # two sentences
    assert "pays the ABI" not in sentence and "%" not in sentence
    assert "[" not in sentence and "7.73" not in sentence and "within" not in sentence
    assert call_cost.abstract_problems(sentence) == []


def test_the_first_finding_gives_the_other_release_s_figure_as_figure_1_draws_it():
    """On both data sets the sentence adds 22.12's figure for the same workload and contrast,
    in the same two figures (Figure 1's bars, no confound), and no figure of a confounded row."""
    both = both_rows()
    other = both[
        (both.source == "cheribsd-22.12")
        & (both.metric == "math_cpu_ns")
        & (both.subject == "purecap-c18n")
    ].iloc[0]
    sentence = call_cost.finding(both, RELEASES, ABIS)
    about = call_cost._about(other.per_call_ns)
    assert re.match(r"\d\d~\\si", about), about  # two figures, like 24.05's 60
    # beside the answer's, in parentheses (A183, R183: the abstract's words), the ratio left to
    # Figure 1
    said = f" libm calls ({about} on CheriBSD 22.12). "
    assert said in sentence, sentence
    assert sentence.count("22.12") == 1 and call_cost.abstract_problems(sentence) == []
    # one data set alone: nothing to add
    assert "22.12" not in call_cost.finding(morello_rows(), RELEASES, ABIS)


def rows_of(name: str) -> pd.DataFrame:
    meta = datasets.load(name)
    comps = {"cpu": cpu_comparisons(name)}
    return pd.DataFrame(per_call.estimates(meta, comps, {}), columns=per_call.COLUMNS)


def test_the_abstract_keeps_its_rules_and_leaves_the_claims_to_section_4_5():
    """abstract.tex as generated, with the first finding, its limits and where the workflow ran:
    short sentences, no nested parentheses, no claim ID or file path, and at most 195 words (the
    hard limit is 200). The study's claims are Section 4.5's and Appendix E's (ClaimsSummary),
    not the abstract's (cold reads 67: they add little to the answer)."""
    import yaml

    from c18n_ae.report.claim_tables import claims_summary
    from c18n_ae.report.findings import study_flaws, study_limits
    from c18n_ae.report.macros import invalid_phrases, run_scope, unseen_phrases

    both = both_rows()
    # its text without the source's comments
    tex = re.sub(r"(?m)^%.*\n", "", (ROOT / "paper" / "sections" / "abstract.tex").read_text())
    # without a board run: the workflow is made for boards, and where it ran follows (no
    # "simulated", which readers take for QEMU or an FVP)
    tex, n = re.subn(r"\\IfBoardRan\{[^{}]*\}\{([^{}]*)\}", r"\1", tex)
    assert n == 2 and "Morello boards" not in tex and "simulated" not in tex, tex
    # the box and the title say where it ran (round 129: a closing sentence on it read against
    # the box's "we measured none")
    assert r"\RunScope" not in tex and tex.rstrip().endswith(r"\end{abstract}"), tex
    # the study's 24 claims as the shipped data decide them: 9 tested on 22.12, the rest not
    kinds = ["tested"] * 9 + ["not attributable to compartments"] * 6
    kinds += ["reproduced from the same data"] * 6 + ["not measurable with these data"] * 3
    results = ["holds"] * 4 + ["fails"] * 4 + ["inconclusive"] + ["not applicable"] * 15
    verdicts = pd.DataFrame(
        [
            {"claim": f"claim-{i}", "source": s, "origin": "study", "verdict_kind": k, "result": r}
            for i, (k, res) in enumerate(zip(kinds, results))
            for s, k, r in (("cheribsd-22.12", k, res), ("morello-2024", "restated", "restated"))
        ]
    )
    assert r"\ClaimsSummary" not in tex, tex
    # as Appendix E has it (findings.py): the release the claims come from, no why-not
    summary = claims_summary(verdicts, RELEASES, list(RELEASES), ["CheriBSD 24.05"], False)
    assert summary.startswith(
        "The 24 claims come from conclusions the study drew from its 24.05 data. Its"
    )
    # the noise the intervals cover is Section 3's to say, once
    assert "within one run" not in summary
    scope = run_scope([{"target": "local", "experiment": "cpu"}], {"local": "local"})
    assert scope == "for this paper it ran on one machine without capabilities"
    # the study's own flaws its data sets name, in their few words
    shipped = [
        {"name": d.name, **yaml.safe_load((d / "dataset.yaml").read_text())}
        for d in sorted((ROOT / "datasets").iterdir())
        if (d / "dataset.yaml").exists()
    ]
    # and what its files show in place of its words, each claim's brief (config/claims.yaml)
    claims = yaml.safe_load((ROOT / "config" / "claims.yaml").read_text())["claims"]
    briefs = pd.DataFrame({"brief": [c.get("study", {}).get("brief", "") for c in claims]})
    flaws = study_flaws(invalid_phrases(shipped), briefs)
    assert flaws == (
        "The study's files show flaws, each shown in its experiment's section: its 24.05 "
        "write and read loops made no stores or loads, its Read Time timed the wait for the next "
        "message, "
        "and its memory reader ran as the owner, not as root."
    ), flaws
    # Appendix A lists them, not the body (A178, R178, B177) nor the abstract
    assert r"\StudyFlaws" in (ROOT / "paper" / "sections" / "experiments.tex").read_text()
    assert r"\StudyFlaws" not in (ROOT / "paper" / "sections" / "background.tex").read_text()
    assert r"\StudyFlaws" not in tex
    # said in the abstract and Section 5, not again in the conclusion (two readers of round 96
    # counted the caveat six times)
    conclusion = (ROOT / "paper" / "sections" / "conclusion.tex").read_text()
    assert "Unseen" not in conclusion and "no log" not in conclusion
    limits = study_limits(shipped, unseen_phrases(shipped), call_cost.built_words(both, "-O0"))
    # qualifiers in one place, in fewer words than the finding they qualify
    assert limits == (
        "These figures mix the purecap ABI's cost with c18n's and come from one run per "
        "variant of programs built unoptimised (\\mbox{-O0}); the study enabled c18n, but no log "
        "confirms that it was active."
    ), limits
    # how the study enabled c18n, data set by data set, is the threats' (round 138)
    from c18n_ae.report.macros import enabled_words

    assert enabled_words(shipped) == (
        "linked its 22.12 CPU and memory programs against the c18n run-time linker and "
        "launched its 24.05 runs with c18n enabled"
    )
    assert enabled_words([{"variants": {}}]) == "" and unseen_phrases([{"variants": {}}]) == []
    # the boards the two sides may differ in are Section 4's bound's, not the abstract's (R177)
    assert "boards" not in study_limits(shipped, unseen_phrases(shipped), "x")
    # Figure 1's caption leaves it to the abstract and Table 1's notes (round 111: the
    # caption's pointer was one more qualifier where the answer is drawn)
    assert "Possibly" not in (ROOT / "paper" / "sections" / "introduction.tex").read_text()
    # the rule is Table 1's and Table 9's, beside the ratios, not a paragraph before any result
    setup = (ROOT / "paper" / "sections" / "setup.tex").read_text()
    assert "possibly also" not in re.sub(r"(?m)%.*$", "", setup)
    # nothing recorded of the runs or builds: the mix and what the files do not show
    # the data sets in their folders' order here (the paper's follows the config)
    assert study_limits(shipped, unseen_phrases(shipped)) == (
        "These figures mix the purecap ABI's cost with c18n's; the study enabled c18n, but no "
        "log confirms that it was active."
    )
    assert study_limits([], unseen_phrases(shipped)) == (
        "The study enabled c18n, but no log confirms that it was active."
    )
    # each data set's way of enabling c18n, said once (the threats')
    from c18n_ae.report.macros import enabled_words

    assert " and linked" not in enabled_words(shipped[:1] * 2)
    assert len(unseen_phrases(shipped[:1] * 2)) == 1
    # a data set with the ABI outside compartments too, and files that show them: nothing to say
    shown = [
        {
            "variants": {
                "a": {"abi": "purecap", "c18n": True},
                "b": {"abi": "purecap", "c18n": False},
            }
        }
    ]
    assert study_limits(shown, []) == ""
    # a question the data can answer; after the figures, in one place, what the time per call
    # holds and what the figures rest on (the limits, without the mix)
    from c18n_ae.report.findings import mix_sentence, question_words

    mix = mix_sentence(shipped, "libm")
    assert mix == (
        "The extra time per call combines the purecap ABI (libm's purecap build included) with "
        "the compartment switch; no variant ran purecap without compartments to tell them apart."
    ), mix
    assert question_words(shipped) == (
        "How much time do the purecap ABI and c18n together add to a call into another library?"
    )
    assert question_words(shown) == "What does a call into another library then cost?"
    assert "combines the purecap ABI with the compartment switch" in mix_sentence(shipped)
    after = study_limits(
        shipped, unseen_phrases(shipped), call_cost.built_words(both, "-O0"), False
    )
    assert after.startswith("These figures come from one run per variant"), after
    assert mix_sentence(shown) == ""
    text = (
        tex.replace(r"\begin{abstract}", "")
        .replace(r"\end{abstract}", "")
        .replace(
            r"\PerCallFinding{}",
            call_cost.finding(
                both,
                RELEASES,
                ABIS,
                call_cost.finding_then(
                    both,
                    ABIS,
                    shipped,
                    pd.read_csv(ROOT / "published" / "libm_argument_reduction.csv", dtype=str),
                ),
            ),
        )
        .replace(r"\PerCallQuestion{}", question_words(shipped))
        .replace(r"\PerCallScope{}", call_cost.scope(both, ABIS))
        .replace(r"\PerCallLimits", after)
        .replace(r"\RunScope", scope)
        .replace(r"\ctn", "c18n")
    )
    # units, Table 1's ratio form, and a flag kept on one line
    macros = (r"\si{\nano\second}", r"\,\%", r"$\times$", r"\mbox")
    assert "\\" not in functools.reduce(lambda x, m: x.replace(m, ""), macros, text), text
    assert call_cost.abstract_problems(text) == [], text
    assert len(text.split()) <= 195, len(text.split())
    # no IDs (an ABI's name and a hyphenated verb are words)
    words = functools.reduce(
        lambda x, w: x.replace(w, ""),
        ("c18n", "purecap-benchmark", "re-analyse", "library-based", "run-time", "program-counter"),
        text,
    )
    assert not re.search(r"\b[a-z]+(-[a-z0-9]+)+\b", words), text
    assert "/" not in text and ".yaml" not in text  # no file paths


def test_the_conclusion_says_the_answer_in_one_sentence_of_other_words():
    """The conclusion does not copy the abstract (B203, R203: it repeated it nearly word for
    word): one sentence with the same figures (two significant), the ABI and the switch together
    in Figure 1's words, neither the build level nor the code calling no other library again,
    and scaled to no program (a rate per second would extend one unoptimised loop's figure to
    programs in general)."""
    both = both_rows()
    first = call_cost.finding(both, RELEASES, ABIS)
    said = call_cost.conclusion_finding(both, RELEASES, ABIS)
    sentences = lambda x: set(re.split(r"(?<=\.) (?=[A-Z])", x))  # noqa: E731
    # no sentence the same, and one sentence; code calling no other library is the abstract's
    own = "ran at 0.97$\\times$ to 1.08$\\times$"
    assert not sentences(first) & sentences(said) and len(sentences(said)) == 1, said
    assert own in first and own not in said, said
    assert " 60~\\si{\\nano\\second} for each" in first and "about 60~\\si{\\nano\\second}" in said
    # each names the other release as it names the answer's: in full in the abstract, as 'the
    # study's 24.05 data' and '22.12' in the conclusion
    assert "(41~\\si{\\nano\\second} on CheriBSD 22.12)" in first, first
    assert "about 41~\\si{\\nano\\second} on 22.12" in said and "CheriBSD" not in said, said
    assert "-O0" not in said and said.endswith("for the ABI and the switch together."), said
    # Figure 1's caption says it in the same words (one quantity, one form)
    caption = (ROOT / "paper" / "sections" / "introduction.tex").read_text()
    assert "for the ABI and the switch together" in " ".join(caption.split())
    # the bound is Section 4's alone (R167, B167: the conclusion repeated it)
    assert "upper bound" not in said and "conditions" not in said, said
    assert "a second" not in said and "core" not in said, said
    assert call_cost.abstract_problems(said) == [], said


def test_section_4_3_says_the_per_call_figure_differs_and_what_the_data_cannot_separate():
    """The releases' per-call figures (about 41 ns on 22.12, 60 ns on 24.05) in one sentence, as
    the abstract rounds them, then what else differs between the data sets, from their
    descriptions: how c18n was enabled, the compilers (named apart), the boards and kernels."""
    from c18n_ae.common.config import load_dataset

    both = both_rows()
    metas = {n: load_dataset(n) for n in RELEASES}
    said = call_cost.release_gap(both, RELEASES, metas)
    # both sides of the gap, which way each moved: hybrid's moved too; the gap's
    # figures in the same sentence, not one of their own (rounds 143 to 146)
    # each figure from one release to the other, in that order (A148, A150)
    # how far each moved per iteration, and the baseline's move per call beside the gap (A167,
    # B167: a change with no compartments in it is the scale the gap needs)
    # how far each side moved, on one base, and no split of the change per call (A175, B175,
    # R175: it mixed units; A170, B170, R170: two bases; A171, B171, R171: grammar)
    assert said.startswith(
        "From 22.12 to 24.05, the extra time per call went from about 41 to about "
        "60~\\si{\\nano\\second}, and both sides moved: against their 22.12 times, hybrid's "
        "time per iteration fell by 6.2\\,\\% and purecap-c18n's rose by 7.2\\,\\%."
    ), said
    # the times per iteration are the estimate's paragraph's, not said again (B158)
    assert "498.3" not in said and "707.8" not in said, said
    assert said.count("41 ") == 1 and said.count("60~\\si") == 1, said
    # without times per iteration, the gap in a sentence of its own
    bare = both.assign(iterations=float("nan"))
    alone = call_cost.release_gap(bare, RELEASES, metas)
    assert alone.startswith("The extra time per call is lower on 22.12: about 41"), alone
    for differs in ("how c18n was enabled", "the compilers", "the boards and kernels"):
        assert differs in said, differs
    # the release holds c18n's own code: its trampolines are named among what cannot be parted
    assert (
        "the change comes from the release (for example, changes to c18n's trampolines) or" in said
    )
    assert said.endswith("or the boards and kernels."), said
    # one data set alone: no gap to speak of
    assert call_cost.release_gap(morello_rows(), RELEASES, metas) == ""


def test_the_abstract_rules_catch_long_text_long_sentences_and_nested_parentheses():
    long_sentence = " ".join(["word"] * 36) + "."
    said = call_cost.abstract_problems(long_sentence)
    assert said == ["a sentence of 36 words: word word word …"]
    nested = "A claim (with a note (inside)) here."
    assert call_cost.abstract_problems(nested) == ["nested parentheses: (with a note (inside))"]
    many = " ".join(["Short sentence of five words."] * 41)
    assert call_cost.abstract_problems(many) == ["205 words, more than 200"]


def morello_rows() -> pd.DataFrame:
    meta = datasets.load("morello-2024")
    comps = {"cpu": cpu_comparisons("morello-2024")}
    return pd.DataFrame(per_call.estimates(meta, comps, {}), columns=per_call.COLUMNS)


def both_rows() -> pd.DataFrame:
    """Both shipped data sets' estimates, 24.05's first."""
    return pd.concat([morello_rows(), rows_of("cheribsd-22.12")], ignore_index=True)


def few_ticks(rows: pd.DataFrame, **more) -> pd.DataFrame:
    """rows as a metric a few 1 us ticks long whose ratio Table 1 prints on the timer's range
    (4.6 against 5.0 us), with `more` columns set too."""
    return rows.assign(
        mean_ns=4600.0,
        reference_mean_ns=5000.0,
        sd_ns=400.0,
        reference_sd_ns=300.0,
        resolution_ns=1000.0,
        ratio=0.92,
        ci95_low=0.92,
        ci95_high=0.92,
        **more,
    )


def test_the_table_puts_each_workload_beside_e10_and_marks_confounds():
    rows = morello_rows()
    tex = call_cost.latex_table(rows, RELEASES, ABIS)
    body = [x for x in tex.splitlines() if x.startswith("24.05 & ")]
    assert len(body) == len(rows) == 8  # four workloads, two contrasts
    # the cycles note points to Section 4.1's conversion only where that section makes one
    assert "so this table gives none." in tex and "converts at" not in tex, tex
    converted = call_cost.latex_table(rows, RELEASES, ABIS, converted=True)
    assert "Section~\\ref{sec:per-call} converts at Morello's published clock." in converted
    # no E10 and no clock frequency anywhere: each said once below the table, no column of
    # the same words in every row
    assert "E10 direct" not in tex and "Cycles &" not in tex
    assert tex.count("the study has no E10") == 1 and tex.count("clock frequency") == 1
    math_row = next(x for x in body if x.startswith("24.05 & purecap + c18n & math (libm) &"))
    assert r"4 (sin, cos, tan, log)" in math_row
    # the two mean times per trial the estimate divides, so that the row can be redone:
    # (70.78 - 46.76) s / (4 x 10^8) = 60 ns, in the worked estimate's four figures
    assert r"70.78 / 46.76 \si{\second}" in math_row.split(" & ")[4]
    # each of a row's two means keeps four figures, so that the two as printed give the ratio
    # Table 1 prints (1.02 / 0.96 gave 1.06 beside 1.07) and the worked estimate's times
    later = call_cost.latex_table(rows_of("cheribsd-22.12"), RELEASES, ABIS)
    for row in body + [x for x in later.splitlines() if x.startswith("22.12 & ")]:
        means = re.findall(r"[\d.]+", row.split(" & ")[4])
        assert all(len(x.replace(".", "").lstrip("0")) == 4 for x in means), (means, row)
    # the spread within the run (±0.01 ns) is within the last of the two figures a cost per call
    # carries: 60 alone, as the text prints it, never '60.1 [60.0, 60.1]'
    assert math_row.split(" & ")[5].startswith("60 ") or math_row.split(" & ")[5] == "60", math_row
    assert "[" not in math_row and "langle" not in math_row, math_row
    # the CPU times span many ticks, so their means average the steps out and no cell takes the
    # timer's bound (test_an_extra_time_takes_the_timer_s_bound_only_where_its_ratio_does)
    assert not any("langle" in x for x in body), body
    # one number and one interval a cell: at most two significant figures in each
    for row in body:
        cost = row.split(" & ")[5]
        for figure in re.findall(r"\d[\d.]*", cost):
            assert len(figure.replace(".", "").lstrip("0")) <= 2, (figure, row)
    benchmark = [x for x in body if "benchmark + c18n" in x]
    assert benchmark and all("$^\\S$" in x.split(" & ")[2] for x in benchmark), benchmark
    assert "optimisation -O2 against -O0" in tex
    # a workload that calls no other library sits under its own heading, per iteration, never
    # under one call's: array's -13.1 ns is not read as a cost per call
    lines = tex.splitlines()
    calls, none = (
        lines.index(rf"\multicolumn{{6}}{{@{{}}l}}{{\emph{{{h}}}}} \\")
        for h in (call_cost.CALLS, call_cost.NO_CALL)
    )
    assert "extra time per iteration (no call)" in call_cost.NO_CALL and calls < none
    assert all(x.split(" & ")[3] != "0" for x in lines[calls + 1 : none] if " & " in x)
    array = next(x for x in body if "array" in x and "benchmark" in x)
    assert lines.index(array) > none and r"$-$13" in array


def test_call_cost_macros_say_e10_did_not_run_and_upper_bound_nowhere():
    rows = morello_rows()
    # that it did not run is said once, on page one and in the conclusion
    assert call_cost.direct(rows) == ""
    # a board named by one side only is Section 4's bound's to say, as its condition
    # (_boards_open; A168, B168, R168), not Threats' again
    assert call_cost.confounds(rows, ABIS, RELEASES) == ""
    r, _ = call_cost.answer(rows)
    # the side that names none (the benchmark files name the board too, so not 'only ...')
    assert call_cost._boards_open(r, "purecap") == (
        "The hybrid files name no board, so whether it was the same as purecap + c18n's, "
        "\\texttt{morello-camb-3}, cannot be checked."
    )
    assert r"\PerCallPossibly" in (ROOT / "paper" / "sections" / "threats.tex").read_text()
    # said once: Section 4.1 leaves the qualifier to Threats
    assert r"\PerCallPossibly" not in (ROOT / "paper" / "sections" / "per-call.tex").read_text()
    published = pd.read_csv(ROOT / "published" / "morello_performance_2023.csv")
    # Section 2 names the mechanism; Related work gives the whole-program figures
    said = call_cost.beside() + " " + call_cost.published_overheads(published)
    assert (
        "%" not in call_cost.beside()
        and "\\PerCallPublished" in (ROOT / "paper" / "sections" / "related.tex").read_text()
    )
    assert "upper bound" not in said and "tighter" not in said
    # the body cites no artifact path (the reference names its file); Section 2 gives the ABI's
    # known cost on such calls before Section 4.1's estimates, and claims no novelty
    assert "published/" not in said and ".csv" not in said, said
    # the stall by what it is, its source after it (R177: 'names one cost' sent the reader
    # ahead); the ABI that avoids it beside its overheads, in Related work (R177, B177)
    assert said.startswith("Under the purecap ABI, a call into another library"), said
    # the term named where it is defined (R204, R205, R207), and that a switch may add changes
    # of its own (A184, B184), in a sentence of its own (A206), saying of what and why (B219,
    # B220, B221, B224), outright (A229, B229: 'may') and per direction (A230, B230), in the
    # paragraph that defines the trampoline (R234, B234, A234)
    assert call_cost.beside().endswith("wait: the \\emph{stall}~\\cite{morello-early-performance}.")
    background = " ".join((ROOT / "paper" / "sections" / "background.tex").read_text().split())
    assert (
        "The trampoline's code lies outside both libraries~\\cite{plarch-2023}, so under the "
        "purecap ABI a call and its return change the program-counter capability's bounds four "
        "times in compartments rather than twice." in background
    )
    # the ABI that avoids it defined in Related work, beside its overheads, where the body does
    # not use it (R177, B177); in Section 2 where Section 4 does (A193, B193, R193, B192), and
    # then only named in Related work
    assert "benchmark" not in call_cost.beside()
    assert "avoids the stall of Section~\\ref{sec:background}" in said, said
    used = call_cost.beside(True) + " " + call_cost.published_overheads(published, True)
    assert used.count("avoids") == 1 and used.count("\\cite{cheribsd-guide}") == 1, used
    assert call_cost.beside(True).endswith(
        "The purecap-benchmark ABI (benchmark) leaves those bounds unchanged on calls into another "
        "library without compartments and so avoids that stall~\\cite{cheribsd-guide}."
    )
    assert "under the benchmark ABI (Section~\\ref{sec:background}). Against" in used, used
    assert said.endswith("none of them includes a compartment switch."), said
    assert "no published" not in said, said
    # the benchmark ABI's 15 ns is said once, in Section 4.1 where the 60 ns is derived: what it
    # is and what else its contrast differs in (its builds differ in optimisation), not in
    # Related Work
    assert "15" not in said.split("Morello's early")[0] and "benchmark ABI gives" not in said
    other = call_cost.other_abis(rows, ABIS)
    assert other.startswith(r"The same estimate with the benchmark ABI is about 15~\si")
    # the levels said once, as each side's build, and which way they move it
    assert (
        "but its benchmark + c18n side was built at -O2 and hybrid at -O0. At -O2 its loop did "
        "less of its own work, which lowers the estimate by an amount these data cannot give, "
        "and its call sites differ." in other
    ), other
    assert other.count("-O2") == 2, other
    # that ABI loads its own build of libm: nothing says libm's code is the same
    assert "libm's own code" not in other and "loop's own time" not in other, other
    lower = rows.assign(
        confounded_by=rows.confounded_by.str.replace("-O2 against -O0", "-O0 against -O2")
    )
    assert "At -O0 its loop did more of its own work" in call_cost.other_abis(lower, ABIS)
    assert "which raises the estimate" in call_cost.other_abis(lower, ABIS)
    # another difference beside the level is still said
    bench = rows.subject == "benchmark-c18n"
    more = rows.assign(
        confounded_by=rows.confounded_by.where(~bench, rows.confounded_by + ", a board B against A")
    )
    assert "; it also differs in a board B against A." in call_cost.other_abis(more, ABIS)
    # the stall it avoids (Section 2): a reading, not a result, as a switch may change the
    # bounds in either ABI; the gap named by its two ends
    assert other.endswith(
        "though a compartment switch may still change them; these data cannot say how much of the "
        "gap between 60~\\si{\\nano\\second} and 15~\\si{\\nano\\second} the stall explains."
    ), other
    assert "15.2\\,\\% with benchmark; two fixes" in said, said
    # the two ABIs in compartments on one board, where both sides' files name one host (B162,
    # B163, A161); not where the hosts differ or one side names none
    one = (
        "The benchmark + c18n files and the purecap + c18n files name the same host, "
        "morello-camb-3, so those two ran on one board."
    )
    assert one in other, other
    moved = rows.assign(
        possibly_also=rows.possibly_also.str.replace(
            "benchmark-c18n files name host morello-camb-3",
            "benchmark-c18n files name host morello-camb-9",
        )
    )
    assert "ran on one board" not in call_cost.other_abis(moved, ABIS)
    # the paragraph is Appendix D's, beside the per-call table: a confounded figure in the body
    # met Section 3's rule (rounds 88 and 134, A164, R164)
    assert r"\PerCallOthers" not in (ROOT / "paper" / "sections" / "per-call.tex").read_text()
    assert r"\PerCallOthers" in (ROOT / "paper" / "sections" / "per-call-table.tex").read_text()
    # Section 4's paragraph on what the extra time includes, in plain sentences (A194, B194,
    # R194: a table of its parts read as a nest of conditional bounds): the parts, and what the
    # loops that call nothing, against hybrid, suggest of where the iteration's extra time lies
    # (A214, B214; R217, B217: 'nearly all of the 240 ns lies in the four calls' read against the
    # parts); that the parts bound the switch alone (the item 1), and when,
    # is Threats' alone (A214, B214, B215: said twice; R214, A215, R215: either form stopped)
    text = call_cost.bound_words(rows, ABIS)
    assert text == (
        "The 60~\\si{\\nano\\second} includes the loop's own code, libm's purecap build, the "
        "stall (Section~\\ref{sec:background}) and the switch. The purecap + c18n loops "
        "of the same program that call no other library ran at 0.97$\\times$ to 1.08$\\times$ "
        "hybrid's time, under 1~\\si{\\nano\\second} an iteration either way "
        "(Table~\\ref{tab:per-call}), against the math loop's 1.51$\\times$ and "
        "240~\\si{\\nano\\second}."
    ), text
    assert "bound" not in text and "Section~\\ref{sec:threats}" not in text, text
    # the conditions in Threats, each named (A170, B169, R170: no share may be negative; round
    # 135: equivalent boards), and why the boards cannot be checked (A168, B168, R168)
    upper = call_cost.upper_words(rows, ABIS)
    assert upper == (
        "The extra time per call is an upper bound on the switch alone if neither the loop's own "
        "code nor libm runs faster in its purecap build, and both sides ran on equivalent boards."
    ), upper
    # why the boards cannot be checked, in Threats, apart from the condition (A235, R235)
    assert call_cost.boards_open_words(rows, ABIS) == (
        "The hybrid files name no board, so whether it was the same as purecap + c18n's, "
        "\\texttt{morello-camb-3}, cannot be checked."
    )
    threats = (ROOT / "paper" / "sections" / "threats.tex").read_text()
    assert "\\PerCallBaselineShift{} \\PerCallBoardsOpen{}" in threats
    assert call_cost.boards_open_words(rows.assign(possibly_also=""), ABIS) == ""
    assert upper.count("upper bound") == 1 and "unless" not in upper, upper
    # the boards only where the two sides may come from different boards (round 135)
    assert call_cost.upper_words(rows.assign(possibly_also=""), ABIS) == (
        "The extra time per call is an upper bound on the switch alone if neither the loop's own "
        "code nor libm runs faster in its purecap build."
    )
    # where a loop that calls nothing changed by a nanosecond or more, they suggest nothing
    # (rounds 139 to 142), nor where no own workload has a ratio (round 142)
    wide = rows.assign(
        extra_per_iteration_ns=rows.extra_per_iteration_ns.where(rows.calls_per_iteration > 0, 2.0)
    )
    for other in (wide, rows[rows.calls_per_iteration > 0]):
        assert "loops of the same program" not in call_cost.bound_words(other, ABIS)
    section = (ROOT / "paper" / "sections" / "per-call.tex").read_text()
    assert r"\PerCallBound" in section and r"\PerCallSameBoard" in section
    # when it bounds the switch, right after its parts, and not again in Threats (R231, B231,
    # B232: the most useful reading of the 60 ns came last)
    assert r"\PerCallBound{}" + "\n" + r"\PerCallUpper{}" in section, section
    assert r"\PerCallUpper" not in (ROOT / "paper" / "sections" / "threats.tex").read_text()


def test_threats_give_the_figures_one_build_level_and_leave_each_build_to_table_2():
    """Threats' bullet on the builds: the one level both sides of every figure per call share, and
    Table 2 for every variant's build, in place of each data set's list (A162, R163, A164, R165,
    B165: the list repeated the table); the list where no one level covers them."""
    said = call_cost.built_level_sentence("-O0")
    assert said == (
        "Both sides of the extra time per call were built at -O0; Table~\\ref{tab:setup} gives "
        "every variant's build."
    ), said
    assert call_cost.built_level_sentence(None) == "\\DatasetOptimisation{}"
    threats = (ROOT / "paper" / "sections" / "threats.tex").read_text()
    assert "\\PerCallBuilt{}" in threats and "\\DatasetOptimisation" not in threats


def test_the_quoted_figures_build_level_is_the_one_every_side_records():
    """The abstract and conclusion name a build level only where both sides of every figure they
    quote (24.05's and 22.12's math loop) record that one level; another level on one side of
    one figure, or none recorded, names none."""
    import copy

    both = both_rows()
    metas = {n: datasets.load(n) for n in RELEASES}
    assert call_cost.quoted_level(both, RELEASES, metas) == "-O0"
    other = copy.deepcopy(metas)
    for build in other["cheribsd-22.12"]["variants"]["purecap-c18n"]["builds"]:
        build["optimisation"] = "-O2"
    assert call_cost.quoted_level(both, RELEASES, other) is None
    assert call_cost.quoted_level(both, RELEASES, {}) is None


def test_the_worked_estimate_lets_a_reader_check_the_cost_per_call():
    """Section 4.1's arithmetic: the two mean times as printed, to the same place, subtracted and
    divided by the calls of all iterations, give the cost per call as printed (two figures);
    it says which calls, and that charging the loop's whole extra time to them makes the
    estimate an upper bound on ABI and switch together (the caller's own code included)."""
    rows = morello_rows()
    said = call_cost.arithmetic(
        pd.concat([rows, rows_of("cheribsd-22.12")], ignore_index=True), RELEASES, ABIS
    )
    r, _ = call_cost.answer(rows)
    # the two times per iteration and the trial's iterations they come from, then the division
    # by the calls; no times per trial, which Table 6 prints (a cold read met two forms)
    assert "~\\si{\\second}" not in said, said
    iterations = re.search(
        r"\(a trial's CPU time divided by its \$10\^\{(\d+)\}\$ iterations\)", said
    )
    assert iterations and 10 ** int(iterations[1]) == r.iterations, said
    worked = r"\$\(([\d.]+) - ([\d.]+)\)\$~\\si\{\\nano\\second\}~/~\$(\d+) \\approx\$"
    shown = re.search(worked, said)
    assert shown, said
    a, b, k = float(shown[1]), float(shown[2]), int(shown[3])
    assert k == r.calls_per_iteration
    assert (
        abs(a - r.mean_ns / r.iterations) <= 0.5
        and abs(b - r.reference_mean_ns / r.iterations) <= 0.5
    )
    per_call = (a - b) / k  # what a reader gets from the printed numbers
    printed = float(re.search(r"\\approx\$ ([\d.]+)~\\si\{\\nano\\second\}", said)[1])
    assert abs(per_call - printed) / printed < 0.05 and printed == float(f"{r.per_call_ns:.2g}")
    assert "sin, cos, tan and log" in said and "libm" in said
    # the extra time divided among the calls, not caused by their crossings (B217: 'so' charged
    # all of it to them before the next paragraph said what it includes)
    assert "Divided among them, the extra time per iteration gives" in said, said
    assert "and back, so" not in said, said
    # what the extra time includes is the next paragraph's (bound_words); no closing clause on the
    # build level here (four readers of rounds 141 to 143: it had no stated purpose)
    assert said.endswith("the same way."), said
    assert "-O0" not in said and "texttt" not in said, said
    for sentence in re.split(r"(?<=\.) (?=[A-Z])", said):
        assert len(sentence.split()) <= 35, sentence
    # every other data set's figure the abstract gives comes with its two means, checkable alike
    other = re.search(
        r"On the 22.12 data, ([\d.]+)~\\si\{\\nano\\second\} and ([\d.]+)~\\si\{"
        r"\\nano\\second\} an iteration give about ([\d.]+)~\\si\{\\nano\\second\} the same way",
        said,
    )
    assert other, said
    c, d, quoted = (float(x) for x in other.groups())
    assert abs((c - d) / k - quoted) / quoted < 0.05, (c, d, quoted)
    # E10 measures a call directly: no worked estimate from the data then
    board = rows.assign(e10_per_call_ns=[55.0] + [float("nan")] * (len(rows) - 1))
    assert call_cost.arithmetic(board, RELEASES, ABIS) == ""


def figure_rows(axis: str) -> tuple[float, dict, dict]:
    """An axis of Figure 1's source: its xmax, each row's interval end (y -> high) and each
    printed value's position (y -> x)."""
    xmax = float(re.search(r"xmax=([-0-9.]+),", axis)[1])
    ends = {
        int(y): float(v) + float(plus)
        for v, y, plus in re.findall(r"\(([-0-9.e]+),(\d+)\) \+= \(([-0-9.e]+),0\)", axis)
    }
    labels = {int(y): float(x) for x, y in re.findall(r"at \(axis cs:([-0-9.e]+),(\d+)\)", axis)}
    return xmax, ends, labels


def test_figure_one_leaves_confounded_contrasts_out_scales_each_panel_and_labels_values():
    rows = morello_rows()
    fig = call_cost.figure(rows, RELEASES, ABIS)
    top, below = fig.split("Code that calls no other library")
    assert "Code that calls into another library" in top
    assert "purecap-benchmark" not in fig and "$^\\S$" not in fig  # -O2 against -O0: left out
    assert "24.05, purecap + c18n, math (libm)" in top
    # the ratio as Table 1 prints it, then the cost per call as the abstract, Section 4.1 and
    # the conclusion print it (one quantity, one form: two significant figures, 60, in Table 7
    # too)
    said = call_cost.finding(rows, RELEASES, ABIS)
    shown = re.search(r"(\d+)~\\si\{\\nano\\second\} for each", said)[1]
    assert (
        shown == "60"
        and rf"{{1.51$\times$; +{shown} \si{{\nano\second}} per "
        rf"\texttt{{libm}} call}};"
        in top
    ), top
    # both panels on one ratio axis that spans 1 and every value with a margin: code that calls
    # no other library (0.969 to 1.08) reads against the loop's 1.51 (A178, B178, R183, B185)
    (top_span,) = re.findall(r"xmin=([0-9.]+), xmax=([0-9.]+),", top)
    (own_span,) = re.findall(r"xmin=([0-9.]+), xmax=([0-9.]+),", below)
    assert top_span == own_span, (top_span, own_span)
    assert 0.9 < float(top_span[0]) < 0.969 and 1.51 < float(top_span[1]) < 1.7, top_span
    caption = (ROOT / "paper" / "sections" / "introduction.tex").read_text()
    assert "on the same\n  scale" in caption or "on the same scale" in caption
    assert "xmin=0," not in fig and top.count("{hybrid}") == 1
    assert below.count("+= (") == 3  # int, float, array of purecap-c18n
    # labels print points; the bars draw the intervals (the array's 1.03x [1.02, 1.04] in Table 1)
    assert "{1.03$\\times$}" in below and "$\\times$ [" not in fig, below
    assert "{hybrid}" in below and "mean CPU time, ratio to hybrid" in below
    # every row drawn with its interval, as Table 1 prints it: the study's CPU times are many
    # ticks long, so no timer's range (int printed ⟨1.06, 1.09⟩ once, beside 22.12's interval)
    int_point = re.search(r"\((1\.07626),2\) \+= \(([\d.]+),0\) -= \(([\d.]+),0\)", below)
    assert int_point and float(int_point[2]) < 0.002 and float(int_point[3]) < 0.002, below
    assert "mark=o" not in fig and "densely dashed" not in fig
    caption = (ROOT / "paper" / "sections" / "introduction.tex").read_text()
    caption = caption.split(r"\label{fig:per-call}")[0].rsplit(r"\caption{", 1)[1]
    # the caption's words on the marks say only what is drawn (figure_marks)
    assert r"\PerCallMarks" in caption
    # the study's rows: what the intervals cover said where the bars are
    # in the tables' words for it (item 5), and short (A196, R196)
    # how wide the bars are, not where they hide (A229, A230, B230, R230): 24.05's array, whose
    # interval reaches 0.70 % above its ratio, under the next whole percentage point (A232)
    assert call_cost.figure_marks(rows) == (
        "Bars: the spread within one run, under $\\pm$1\\,\\% of a ratio."
    )
    array = rows[(rows.metric == "array_cpu_ns") & (rows.subject == "purecap-c18n")].iloc[0]
    assert 0.007 < (array.ci95_high - array.ratio) / array.ratio < 0.0071, array
    runs = rows.assign(interval_covers="between runs")
    assert call_cost.figure_marks(runs).startswith("Bars: intervals, under")
    # with two data sets, the only view of the variation between runs beside the bars (A196,
    # R196, B197, A197, R197, A198, B198, R198)
    assert call_cost.figure_marks(both_rows(), RELEASES) == (
        "Bars: the spread within one run, under $\\pm$1\\,\\% of a ratio; runs vary more: "
        "hybrid's own CPU time moved by 2 to 6\\,\\% between the 24.05 and 22.12 data."
    )
    few = few_ticks(rows)
    assert "open marks: a timer tick either way" in call_cost.figure_marks(few)
    # the pipe write, which Table 1 lists as a call into libc, gives no cost per call and so is
    # not drawn; nor are the memory metrics or the confounded contrasts, and the caption lists
    # none of them (R167, B167: appendix navigation; R157, R158: a reason for the pipe write's
    # absence that Table 1 seemed to contradict)
    from c18n_ae import experiments as exp

    write = next(h for h in exp.registry()["pipe"].headline if h.metric == "write_ns")
    assert write.crosses == "libc" and "write_ns" not in set(rows.metric)
    words = " ".join(caption.split())
    assert "tab:headline" not in words and "tab:confounded" not in words, words
    assert words.endswith("\\PerCallMarks{}}"), words
    # at most three short sentences
    assert len(re.findall(r"\.(\s|$)", words)) <= 3 and len(words.split()) <= 80, words
    # what the cost per call holds, in words a reader need not read twice ('bounding neither')
    assert "labelled with the extra time per call, for the ABI and the switch together" in words, (
        words
    )
    table = " ".join((ROOT / "paper" / "sections" / "per-call-table.tex").read_text().split())
    table = table.split(r"\captionof{table}{", 1)[1].split(r"\label{tab:per-call}")[0]
    assert "the pipe write, which calls into" in table
    assert "gives no cost per call (Section~\\ref{sec:pipe})" in table, table


@pytest.mark.parametrize("copies", [1, 3])
def test_figure_one_prints_every_value_clear_of_every_bar(copies):
    """Each printed value sits in a column at the axis box's right edge, beyond every row's
    interval end, one per row: it can meet no mark or bar, with three data sets as with one."""
    rows = morello_rows()
    rows = pd.concat([rows.assign(source=f"morello-2024-{i}") for i in range(copies)])
    releases = {f"morello-2024-{i}": f"24.05 copy {i}" for i in range(copies)}
    fig = call_cost.figure(rows, releases, {})
    axes = fig.split(r"\begin{axis}")[1:]
    assert len(axes) == 2
    for axis in axes:
        xmax, ends, labels = figure_rows(axis)
        assert ends and sorted(labels) == sorted(ends), (ends, labels)
        for y, high in ends.items():
            assert labels[y] >= xmax >= high, (y, labels[y], xmax, high)
        assert "nodes near coords" not in axis and "clip=false" in axis


def test_the_pipe_rows_are_no_cost_per_call_in_figure_abstract_or_table():
    """The parent's wait for the next message is not the child's time per message: the data
    set says so (calls...no_cost_per_call), per_call.csv keeps the numbers with that reason, and
    neither Figure 1, the first finding nor the table's cost column prints a cost per call from
    them; one note below the table says why."""
    reason = datasets.load("morello-2024")["calls"]["pipe"]["message_wait_ns"]["no_cost_per_call"]
    assert reason == "it times the parent's wait for a message, not the child's calls"
    pipe = pd.DataFrame(
        [
            dict(
                morello_rows().iloc[0],
                metric="message_wait_ns",
                library="libc",
                calls_per_iteration=1029,
                confounded_by="heap revocation on against off",
                per_call_ns=73.0,
                no_cost_per_call=reason,
            )
        ],
    )
    rows = pd.concat([morello_rows(), pipe], ignore_index=True)
    assert "pipe message" not in call_cost.figure(rows, RELEASES, ABIS)
    assert "73" not in call_cost.finding(rows, RELEASES, ABIS)
    table = call_cost.latex_table(rows, RELEASES, ABIS)
    body = [x for x in table.splitlines() if x.count(" & ") >= 4]
    assert not any("pipe" in x for x in body) and "73" not in table
    note = [x for x in table.splitlines() if "no cost per call" in x]
    assert len(note) == 1 and "Wait for a pipe message (libc), 24.05, purecap + c18n" in note[0]
    assert "it times the parent's wait for a message, not the child's calls" in note[0]
    # the rows with no such reason are as before
    assert call_cost.latex_table(morello_rows(), RELEASES, ABIS).count(" & ") == table.count(" & ")


def test_per_call_csv_keeps_the_pipe_numbers_with_their_reason():
    meta = datasets.load("morello-2024")
    files = [p for e, _, p in dataset_files(meta) if e == "pipe"]
    comps = compare(collect("pipe", [], files), {"morello-2024": meta["reference_variant"]})
    rows = pd.DataFrame(per_call.estimates(meta, {"pipe": comps}, {}), columns=per_call.COLUMNS)
    pipe = rows[rows.metric == "message_wait_ns"]
    assert (
        len(pipe)
        and (
            pipe.no_cost_per_call
            == "it times the parent's wait for a message, not the child's calls"
        ).all()
    )
    assert pipe.per_call_ns.notna().all()  # the numbers stay, flagged


def test_cycles_at_morello_s_published_clock_only_where_no_source_records_one():
    """No data set records its boards' clock, so Table 7 has no cycles column; Section 4.1 gives
    the answer in cycles at the clock Morello's report publishes (the CSV's row, cited), said to
    be a clock nobody recorded; a source that records its own frequency leaves it to Table 7."""
    published = pd.read_csv(ROOT / "published" / "morello_performance_2023.csv")
    clock = published[published.metric == "clock frequency"]
    assert (
        len(clock) == 1 and clock.value.iloc[0] == 2.5 and clock.unit_as_published.iloc[0] == "GHz"
    )
    assert clock.source_path.iloc[0].endswith("software-ecosystem-enablement.md")
    rows = morello_rows()
    said = call_cost.nominal_cycles(rows, published)
    r, _ = call_cost.answer(rows)
    expect = f"{float(f'{r.per_call_ns * 2.5:.2g}'):.0f}"
    assert expect == "150", expect  # about 60 ns at 2.5 GHz
    assert said == (
        "At Morello's published clock of 2.5~GHz~\\cite{morello-early-performance}, "
        "60~\\si{\\nano\\second} is about 150 cycles, if the study's boards ran at it."
    ), said
    # a board's answer (intervals between runs) records its own clock: no published one
    assert call_cost.nominal_cycles(rows.assign(interval_covers="between runs"), published) == ""
    # no clock published: nothing said
    assert call_cost.nominal_cycles(rows, published[published.metric != "clock frequency"]) == ""


def test_the_bound_on_the_switch_weighs_the_loop_s_own_code_and_libm_s_slower_path():
    """Section 4.1's one bound on the switch alone: the loop's own code measured by the workloads
    that call no other library, per iteration (under 1 % of the extra time: two experts of round
    132, where scaling hybrid's whole iteration by float's ratio had made an exception every
    reader of rounds 129 to 132 read as a bound that is not one), and, where libm takes its
    slower path for most of the loop's arguments (three expert readers of rounds 129 and 130),
    that its share may be large."""
    import struct

    rows = morello_rows()
    reduction = pd.read_csv(ROOT / "published" / "libm_argument_reduction.csv", dtype=str)
    text = call_cost.bound_words(rows, ABIS, reduction)
    # how much work each call does in libm, first, as facts (R177: it sat in a parenthesis; A177:
    # 'may account for much of it' weighed what the data cannot), then what the 240 ns includes,
    # libm's build with whatever it adds to that work
    assert text.startswith(
        "Each call does much work inside libm: the argument is the loop's index, which runs to "
        "$10^{8}$, so 98\\,\\% of arguments are at least"
    ), text
    # hybrid's time a call with why it is an upper bound, in a sentence of its own (A229, B229)
    assert (
        "\\cite{freebsd-msun}. Hybrid's iteration takes 467.6~\\si{\\nano\\second}, so its four "
        "calls average "
        "at most about 117~\\si{\\nano\\second} each, the loop's own code included. The 60~" in text
    ), text
    # then what the extra time holds, libm's build first, and what follows, in one sentence (A236,
    # B236: two said it)
    assert (
        "The 60~\\si{\\nano\\second} includes whatever libm's purecap build adds to that work, the "
        "loop's own code, the stall (Section~\\ref{sec:background}) and the switch: it is the "
        "extra time of an expensive call, not of a switch alone." in text
    ), text
    assert "may account" not in text, text
    # hybrid's time per call, what makes 'much work' concrete (A173, B173), from the times the
    # estimate divides
    assert round(467.59 / 4) == 117
    assert text.index("slower path") < text.index("the loop's own code, the stall"), text
    # the two figures side by side, no inference: they are other loops, with no calls (B229,
    # R229, A231, B231, R232, B232)
    # as ratios too (A237, B237, R237)
    assert text.endswith("against the math loop's 1.51$\\times$ and 240~\\si{\\nano\\second}."), (
        text
    )
    assert "ran at 0.97$\\times$ to 1.08$\\times$ hybrid's time" in text, text
    # the own workloads' largest change an iteration, int's 0.70 ns, against the math loop's 240
    r, _ = call_cost.answer(rows)
    own = call_cost._own_rows(rows, r.source, r.subject)
    assert own.extra_per_iteration_ns.abs().max() < 1 < 200 < r.extra_per_iteration_ns < 300
    r, _ = call_cost.answer(rows)
    first = call_cost._smallest("0x413921fb")
    assert first == 1647099.0
    high = struct.unpack(">II", struct.pack(">d", 1647098.0))[0]
    assert high < 0x413921FB
    assert (r.argument_low, r.argument_high) == (0, 99999999)
    share = (99999999 - 1647099 + 1) / 1e8
    assert round(share * 100) == 98
    # hybrid's libm takes the slower path too: the call does much work, and whatever the purecap
    # build adds to it counts (rounds 134 and 138)
    assert (
        "so 98\\,\\% of arguments are at least $2^{20}\\cdot \\pi/2$, where \\texttt{sin}, "
        "\\texttt{cos} and \\texttt{tan} reduce them by a slower path~\\cite{freebsd-msun}. "
        "Hybrid's" in text
    ), text
    # arguments mostly below the slower path, or none recorded, or no such facts: nothing said
    small = rows.assign(argument_high=1_000_000.0)
    assert "slower path" not in call_cost.bound_words(small, ABIS, reduction)
    assert "slower path" not in call_cost.bound_words(
        rows.assign(argument_high=float("nan")), ABIS, reduction
    )
    assert "slower path" not in call_cost.bound_words(rows, ABIS, None)
    # the abstract says what kind of call the figure is of, and what follows from it, in one
    # plain sentence right after the figure (A214, B214, A219, B219, R219; A220, B220, R220,
    # A225, B225, R225: the fact alone did not say what follows), from the same facts, and
    # nothing where they say nothing
    brief = call_cost.slow_path_brief(rows, reduction)
    assert brief == (
        "Those libm calls are expensive, as sin, cos and tan take libm's slower path for large "
        "arguments, so the figure need not hold for cheaper calls."
    ), brief
    # not 'not of a compartment switch alone' (A229, R229: read as the figure disowned), which
    # the sentence before it on what the figure combines says (findings.mix_sentence)
    assert "switch" not in brief, brief
    # the functions named, not 'mostly' (A226, B226, R226): three of the four (log takes none)
    assert len(reduction.functions.iloc[0].split(",")) == 3 and "log" not in reduction.functions[0]
    assert call_cost.abstract_problems(brief) == [], brief
    assert call_cost.slow_path_brief(small, reduction) == ""
    # nor where the path's functions make half the calls or fewer (three of eight)
    eight = rows.assign(
        calls_per_iteration=rows.calls_per_iteration.where(rows.calls_per_iteration <= 0, 8)
    )
    assert call_cost.slow_path_brief(eight, reduction) == ""
    assert call_cost.slow_path_brief(rows, None) == ""
    both = both_rows()
    said = call_cost.finding(both, RELEASES, ABIS, brief)
    assert said.index("libm calls (") < said.index(brief) < said.index("calls no other library")
    assert call_cost.finding(both, RELEASES, ABIS, "") == call_cost.finding(both, RELEASES, ABIS)
    # the 22.12 data record the same loop
    assert (rows_of("cheribsd-22.12").argument_high.dropna() == 99999999).any()


def test_an_extra_time_takes_the_timer_s_bound_only_where_its_ratio_does():
    """Table 7 prints a workload's extra time with the timer's bound (⟨⟩) only where Table 1
    prints its ratio with the timer's range: a mean over a metric many ticks long averages the
    steps out (Section 3.1), so 22.12's float, 0.99x and holding, keeps its spread within the
    run (a cold read met it beside a tick bound that held 0); the caption defines only the
    brackets its cells print."""
    rows = both_rows()
    own = rows[(rows.source == "cheribsd-22.12") & (rows.metric == "float_cpu_ns")].iloc[0]
    cell = call_cost.cost_cell(own)
    assert "[" in cell and "langle" not in cell, cell
    assert own.per_call_high_ns < 0  # the spread lies below 0, as the ratio's below 1
    assert call_cost.table_marks(rows) == "$[a, b]$: the spread within one run; "
    # a metric a few ticks long, whose ratio Table 1 prints on the timer's range: the bound
    few = few_ticks(
        rows,
        per_call_ns=-400.0,
        per_call_low_ns=-400.0,
        per_call_high_ns=-400.0,
        timer_bound_ns=2000.0,
    )
    assert "langle" in call_cost.cost_cell(few.iloc[0])
    assert "a timer tick either way" in call_cost.table_marks(few)
    assert r"\PerCallTableMarks" in (ROOT / "paper" / "sections" / "per-call-table.tex").read_text()


def test_the_worked_times_divide_to_the_figures_printed():
    """Section 4.1's times per iteration divide among the calls to the very figure it prints
    (cold reads computed (660 - 498) / 4 = 40.5 beside 'about 41'): a fourth figure where three
    would not, and then in every pair (cold reads called 708/468 beside 660.4/498.3 two
    forms)."""
    both = both_rows()
    text = call_cost.arithmetic(both, RELEASES, ABIS)
    pairs = re.findall(
        r"([\d.]+)~\\si\{\\nano\\second\} (?:in purecap \+ c18n )?and ([\d.]+)~\\si\{"
        r"\\nano\\second\} (?:in hybrid|an iteration)",
        text,
    )
    said = re.findall(r"(?:\\approx\$|about) (\d+)~\\si\{\\nano\\second\}", text)
    assert len(pairs) == 2 and len(said) == 2, text
    for (a, b), figure in zip(pairs, said):
        assert call_cost._about((float(a) - float(b)) / 4) == f"{figure}~\\si{{\\nano\\second}}", (
            a,
            b,
            figure,
        )
    # four figures in every pair, as Table 6 prints its means (22.12 needs the fourth)
    assert "660.4" in text and "707.8~" in text, text


def test_every_table_row_s_means_give_its_extra_time():
    """Table 7: each row's two mean times per trial, as printed, give the extra time it prints,
    per call or, with no call, per iteration (cold reads: 1.50 / 1.47 s gave 0.30 beside 0.23)."""
    rows = both_rows()
    tex = call_cost.latex_table(rows, RELEASES, ABIS)
    scale = {r"\si{\second}": 1e9, r"\si{\milli\second}": 1e6}
    checked = 0
    for line in tex.splitlines():
        cells = line.split(" & ")
        if len(cells) < 6 or not re.match(r"\d", cells[0]):
            continue
        sides = re.findall(r"([\d.]+) ?(\\si\{\\(?:milli\\)?second\})?", cells[4])
        unit = next(u for _, u in reversed(sides) if u)
        times = [float(x) * scale[u or unit] for x, u in sides]
        calls = int(cells[3].split()[0]) or 1
        extra = (times[0] - times[1]) / 1e8 / calls
        printed = cells[5].replace("$-$", "-").split()[0].rstrip("\\")
        assert f"{extra:.2g}" == f"{float(printed):.2g}", (line, extra)
        checked += 1
    assert checked == 12, tex


def test_section_5_sizes_the_variation_between_runs_by_hybrid_s_own_move_between_data_sets():
    """The only view these data give of how far two runs of one variant differ: hybrid's own mean
    for the same workloads on the two releases' data sets (five readers of rounds 138 to 141 set
    its 6.6 % against the intervals over one run); nothing where one data set ran them."""
    both = both_rows()
    said = call_cost.baseline_shift(both, RELEASES)
    assert said == (
        "The 24.05 and 22.12 data, which differ in more than their runs, give the only view of "
        "that variation: hybrid's CPU time for the same four workloads moved by 2 to 6\\,\\% "
        "between them."
    ), said
    # the shifts it rests on, from the baseline's own means (math's 498.3 against 467.6 ns), each
    # against the other data set's time, as Section 4's releases paragraph (A171, R171)
    math = both[(both.metric == "math_cpu_ns") & (both.subject == "purecap-c18n")]
    means = math.set_index("source").reference_mean_ns
    assert round(100 * (1 - means["morello-2024"] / means["cheribsd-22.12"])) == 6
    assert call_cost.baseline_shift(morello_rows(), RELEASES) == ""
    # the same data twice: nothing moved, nothing to say
    twice = pd.concat([morello_rows(), morello_rows().assign(source="copy")])
    assert call_cost.baseline_shift(twice, {**RELEASES, "copy": "CheriBSD 24.05"}) == ""


def elsewhere_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """The shipped rows with the benchmark variant's files naming another board."""
    is_bench = rows.subject == "benchmark-c18n"
    return rows.assign(
        possibly_also=rows.possibly_also.where(
            ~is_bench, rows.possibly_also.str.replace("morello-camb-3", "morello-camb-2")
        )
    )


def test_the_same_board_contrast_weighs_the_build_level_by_loops_that_call_nothing():
    """Section 4's paragraph on the loop in the ABI that avoids the stall, on the board the
    purecap + c18n files name (A177, B177, B178): the gap per call between the two ABIs in
    compartments, hybrid cancelling, said only where the same two builds' loops that call nothing
    show the build level to be a small part of it; the abstract and the conclusion say it alike."""
    rows = morello_rows()
    text = call_cost.same_board_words(rows, ABIS)
    r, _ = call_cost.answer(rows)
    bench = rows[(rows.subject == "benchmark-c18n") & (rows.calls_per_iteration > 0)].iloc[0]
    gap = r.extra_per_iteration_ns - bench.extra_per_iteration_ns
    # the means the gap comes from, not hybrid's: (707.8 - 529.0) ns = 178.8 ns, 44.7 ns a call
    assert abs(gap - (r.mean_ns - bench.mean_ns) / r.iterations) < 1e-6
    assert round(gap / 4) == 45 and round(bench.per_call_ns) == 15
    # in the paragraph on what the extra time includes: the subtraction written out, what the
    # difference holds, the bound on the stall and what is left (A189, B189, R189); without the
    # binaries' compiler records, the compilers' names apart
    # the paragraph on the same-board contrast: the other build, its figure and the gap, and the
    # bound on the stall with its conditions (B192, B208), no more (A197, B197, R197: a chain on to
    # a bound on that ABI's switch read as six conditional inferences); the shipped rows name no
    # compiler apart for E3 (its binaries record one build), so without the records none is named
    # the gap and why it gives no figure for the stall: no bound (A229 to R230: the bound under
    # its conditions read as nearly empty)
    assert text == (
        "The study also ran the loop with c18n in the benchmark ABI, which avoids the stall "
        "outside compartments, on "
        "\\texttt{morello-camb-3}, the board the purecap + c18n files name. With the same four "
        "calls, it took about 15~\\si{\\nano\\second} a call more than "
        "hybrid (Table~\\ref{tab:per-call}), 45~\\si{\\nano\\second} less than purecap + c18n. "
        "It was built \\mbox{-O2}, the other two \\mbox{-O0}. "
        "The 45~\\si{\\nano\\second} gap therefore mixes the stall with what \\mbox{-O2} "
        "saved in the loop's own code and gives no figure for the stall alone."
    ), text
    # no bound either way: 60 less 45 is the benchmark ABI's own 15 ns again (A214)
    assert "at least" not in text and "at most" not in text, text
    # the saving a call from the loops' largest, 3.22 ns an iteration over four calls
    assert 3.22 / 4 < 1
    # a compiler named apart where nothing records the build: named, and its code a condition
    is_bench = rows.subject == "benchmark-c18n"
    named = rows.assign(
        possibly_also=rows.possibly_also.where(
            ~is_bench, "compiler cc against clang-morello; " + rows.possibly_also
        )
    )
    apart = call_cost.same_board_words(named, ABIS)
    assert "It was built \\mbox{-O2}, the other two \\mbox{-O0}, by \\texttt{cc}." in apart, apart
    assert "what \\mbox{-O2} and the other compiler saved" in apart, apart
    # with the records: one build for all three, said whatever the compilers' names (A189)
    from c18n_ae.common import call_sites

    records = call_sites.compilers(datasets.load("morello-2024"))
    assert set(records.values()) == {
        "clang version 14.0.0 (https://git.morello-project.org/morello/llvm-project.git "
        "ae1b1aad04c1c579db8c09d1049dc0553821fbc2)"
    }, records
    # with the records: one build for all three, and so no compiler named here; Table 1 names
    # them (A229 to R231: the build read against Table 1's names; A236, B236: the names beside it
    # read as a detour)
    for given in (rows, named):
        said = call_cost.same_board_words(given, ABIS, records)
        assert "It was built \\mbox{-O2}, the other two \\mbox{-O0}. The 45" in said, said
        assert "clang" not in said and "the other compiler" not in said, said
        assert said.endswith("for the stall alone."), said
    # the other release's binaries record one build too (A189: 'whose versions no file
    # records' was wrong)
    metas = {n: datasets.load(n) for n in ("morello-2024", "cheribsd-22.12")}
    assert call_cost.release_compilers(metas, r) == (
        "though their binaries record one compiler build, clang 13.0.0"
    )
    # not in the abstract (A189, B189, R189)
    sections = ROOT / "paper" / "sections"
    assert "SameBoard" not in (sections / "abstract.tex").read_text().split("\\begin{abstract}")[1]
    assert call_cost.same_board_words(elsewhere_rows(rows), ABIS) == ""
    # what the bound leaves open is then the next paragraph's; Appendix D does not repeat it
    # Section 4's, in a few plain sentences (A191, B191, R191)
    assert r"\PerCallSameBoard{}" in (ROOT / "paper" / "sections" / "per-call.tex").read_text()
    is_bench = rows.subject == "benchmark-c18n"
    # another board, another recorded difference, or loops that call nothing far apart: nothing
    elsewhere = rows.assign(
        possibly_also=rows.possibly_also.where(
            ~is_bench, rows.possibly_also.str.replace("morello-camb-3", "morello-camb-2")
        )
    )
    assert call_cost.same_board_words(elsewhere, ABIS) == ""
    more = rows.assign(
        confounded_by=rows.confounded_by.where(
            ~is_bench, rows.confounded_by + "; heap revocation on against off"
        )
    )
    assert call_cost.same_board_words(more, ABIS) == ""
    own_bench = is_bench & (rows.calls_per_iteration == 0)
    far = rows.assign(extra_per_iteration_ns=rows.extra_per_iteration_ns.where(~own_bench, -30.0))
    assert call_cost.same_board_words(far, ABIS) == ""
    # a loop that calls nothing, unmeasured in one build: no weighing
    missing = rows[~(own_bench & (rows.metric == "float_cpu_ns"))]
    assert call_cost.same_board_words(missing, ABIS) == ""


def test_a_binary_s_compiler_record_is_its_clang_build_or_nothing(tmp_path):
    """call_sites.compiler_record: the longest 'clang version' string a binary's .comment holds
    (the study's binaries), '' for one built by GCC; compilers() leaves out a variant whose
    binaries record none."""
    import shutil
    import subprocess

    from c18n_ae.common import call_sites

    gcc = shutil.which("gcc")
    assert gcc, "gcc, which artifact/debian-packages.txt installs"
    src, out = tmp_path / "x.c", tmp_path / "binaries" / "x"
    out.parent.mkdir()
    src.write_text("int main(void) { return 0; }\n")
    subprocess.run([gcc, str(src), "-o", str(out)], check=True)
    assert call_sites.compiler_record(out) == ""
    fake = {
        "directory": str(tmp_path),
        "calls": {"cpu": {"m": {"binaries": [{"file": "x", "variants": ["v"]}]}}},
    }
    assert call_sites.compilers(fake) == {}
    records = call_sites.compilers(datasets.load("morello-2024"))
    assert call_sites.compiler_words(records["hybrid"]) == "clang 14.0.0"
    assert call_sites.compiler_words("GCC: (Debian 12.2.0-14) 12.2.0") == ""
