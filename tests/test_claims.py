"""Claim evaluation on small synthetic summaries and the study's own files: holds, fails,
inconclusive, not applicable; the claim kinds' registry and the Claim type."""

import dataclasses
import importlib
import pkgutil
import re
import sys

import pandas as pd
import pytest
import yaml

from c18n_ae import experiments as exp_registry
from c18n_ae.analysis import claim_kinds, claim_type
from c18n_ae.analysis.claim_kinds.absolute import unit_in_name
from c18n_ae.analysis.claims import PUBLISHED, TOO_FEW, ClaimError, evaluate, load, parse
from c18n_ae.analysis.collect import TIDY_COLUMNS, collect
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.contrasts import annotate
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.analysis.summarise import SUMMARY_COLUMNS, summary_table
from c18n_ae.common import datasets
from c18n_ae.report import claim_tables
from c18n_ae.report.claim_tables import latex_table, markdown_table, update_readme
from conftest import ROOT


def summary(rows):
    """rows: (target, variant, parameter_value, metric, mean)"""
    out = []
    for t, v, p, m, mean in rows:
        out.append(
            {
                "source": t,
                "variant": v,
                "experiment": "x",
                "parameter": "p",
                "parameter_value": p,
                "metric": m,
                "unit": "ns",
                "n_excluded": 0,
                "n": 10,
                "mean": mean,
                "sd": 0.0,
                "median": mean,
                "p5": mean,
                "p95": mean,
                "ci95_low": mean,
                "ci95_high": mean,
                "n_outliers": 0,
            }
        )
    return pd.DataFrame(out, columns=SUMMARY_COLUMNS)


RATIO = {
    "id": "alloc",
    "text": "t",
    "experiment": "memory",
    "kind": "ratio",
    "statistic": "mean",
    "metric": "malloc_ns",
    "subject": "purecap-c18n",
    "baseline": "hybrid",
    "op": ">",
    "threshold": 10,
    "scope": "all",
}
NEAR = {
    "id": "math",
    "text": "t",
    "experiment": "cpu",
    "kind": "ratio_near",
    "statistic": "mean",
    "metric": "math_cpu_ns",
    "subject": "purecap-c18n",
    "baseline": "hybrid",
    "expected": 1.5,
    "tolerance": 0.1,
}
FLAG = {
    "id": "denied",
    "text": "t",
    "experiment": "trust",
    "kind": "flag",
    "metric": "access_granted",
    "parameter_value": "ordinary",
    "c18n": True,
    "expected": 0,
}
BOARD = {"hybrid": False, "purecap-c18n": True}


def one(claims, summaries, targets, tidies=None):
    tidies = tidies or {}
    comps = {
        e: compare(df, {t: next(iter(v), "") for t, v in targets.items()})
        for e, df in tidies.items()
    }
    return evaluate(parse(*claims), summaries, targets, comps, tidies).set_index(
        ["claim", "source"]
    )


def tidy(experiment, rows, spread=0.01, trials=10):
    """rows: (target, variant, parameter_value, metric, mean): `trials` trials within ±spread of
    the mean."""
    out = []
    for t, v, p, m, mean in rows:
        for i in range(trials):
            out.append(
                (
                    t,
                    v,
                    experiment,
                    1,
                    i + 1,
                    "p",
                    p,
                    m,
                    mean * (1 + spread * (i - trials / 2) / trials),
                    "us",
                    "ok",
                )
            )
    return pd.DataFrame(out, columns=TIDY_COLUMNS)


def test_ratio_holds_for_every_block_and_fails_when_one_block_does_not():
    rows = [
        ("board", "hybrid", 100, "malloc_ns", 2),
        ("board", "purecap-c18n", 100, "malloc_ns", 93),
        ("board", "hybrid", 200, "malloc_ns", 2),
        ("board", "purecap-c18n", 200, "malloc_ns", 30),
        ("b2", "hybrid", 100, "malloc_ns", 2),
        ("b2", "purecap-c18n", 100, "malloc_ns", 10.4),
        ("b2", "hybrid", 200, "malloc_ns", 2),
        ("b2", "purecap-c18n", 200, "malloc_ns", 10),
    ]
    r = one(
        [RATIO],
        {"memory": summary(rows)},
        {"board": BOARD, "b2": BOARD},
        {"memory": tidy("memory", rows)},
    )
    assert r.loc[("alloc", "board"), "result"] == "holds"
    assert r.loc[("alloc", "board"), "measured"].startswith(
        "15.0×"
    )  # the block nearest the threshold
    assert r.loc[("alloc", "b2"), "result"] == "fails" and r.loc[
        ("alloc", "b2"), "measured"
    ].startswith("5.20×")
    assert r.loc[("alloc", "b2"), "ci95_high"] < 10
    # the paper's table: each value after the setting that decided it, the setting said once,
    # and why it need not be Table 1's largest (the caption)
    table = latex_table(r.reset_index())
    rows = table.split(r"\begin{longtable}")[1].splitlines()  # the tally table's rows before it
    row = next(x for x in rows if x.startswith("board & "))
    assert "& at p 200: 15.0$\\times$ (mean ratio" in row and row.count("p 200") == 1, row
    caption = " ".join(table.split(r"\begin{longtable}")[1].split(r"\label")[0].split())
    assert "of the settings that give its verdict, the one nearest its threshold" in caption
    assert "quotes the largest, so one metric can print two values" in caption


def test_not_applicable_names_the_missing_variant_or_experiment():
    mem = summary([("local", "O2", 100, "malloc_ns", 2), ("local", "O0", 100, "malloc_ns", 3)])
    r = one([RATIO, NEAR], {"memory": mem}, {"local": {"O2": False, "O0": False}})
    assert r.loc[("alloc", "local"), "result"] == "not applicable"
    assert r.loc[("alloc", "local"), "detail"] == "no variant purecap-c18n, hybrid on this target"
    assert r.loc[("math", "local"), "result"] == "not applicable"
    assert "experiment cpu did not run" in r.loc[("math", "local"), "detail"]


def test_ratio_near_and_flags():
    rows = [
        ("board", "hybrid", 1, "math_cpu_ns", 100),
        ("board", "purecap-c18n", 1, "math_cpu_ns", 151),
    ]
    trust = summary(
        [
            ("board", "purecap-c18n", "ordinary", "access_granted", 1.0),
            ("board", "hybrid", "ordinary", "access_granted", 0.0),
        ]
    )
    r = one(
        [NEAR, FLAG, {**FLAG, "id": "plain", "c18n": False}],
        {"cpu": summary(rows), "trust": trust},
        {"board": BOARD},
        {"cpu": tidy("cpu", rows)},
    )
    assert r.loc[("math", "board"), "result"] == "holds"
    assert (
        r.loc[("denied", "board"), "result"] == "fails"
        and r.loc[("denied", "board"), "measured"]
        == "purecap-c18n: access_granted = 1 in 10 of 10 trials"
    )
    assert r.loc[("plain", "board"), "result"] == "holds"
    r = one([FLAG], {"trust": trust}, {"local": {"O2": False}})
    assert r.loc[("denied", "local"), "result"] == "not applicable"


def test_shipped_claims_load_and_render(tmp_path):
    claims = load(ROOT / "config" / "claims.yaml")
    # the file's claims and the modules' own, each about an experiment of the registry
    named = {c.experiment for c in claims}
    assert len(claims) >= 10 and named <= set(exp_registry.names()) and len(named) >= 4
    assert "crossing-costs-more" in {c.id for c in claims}  # E10's, from its module
    res = evaluate(claims, {}, {"local": {"O2": False}})
    # nothing ran; only a claim resting on a published study's table alone is decided (on it),
    # and a conclusion no data can decide is not measurable wherever it is asked
    printed = res.evidence == PUBLISHED
    unmeasurable = {c.id for c in claims if c.kind == "unmeasurable"}
    assert {"security-benefit", "protected-region-crash"} <= unmeasurable
    rest = res[~printed & ~res.claim.isin(unmeasurable)]
    assert set(rest.result) == {"not applicable"}
    assert set(res[res.claim.isin(unmeasurable)].result) == {"not measurable"}
    assert set(res[printed].source) == {"pytilia-2023"} and set(res[printed].result) == {"holds"}
    assert set(res[printed].verdict_kind) == {"restated"}
    assert set(res[~printed].verdict_kind) == {"not measurable with these data"}
    # the paper's table says a verdict that decides nothing once for all its sources
    two = evaluate(claims, {}, {"local": {"O2": False}, "board": {"O2": False}})
    folded = claim_tables._folded(two)
    assert len(folded) == two.claim.nunique() + (two.evidence == PUBLISHED).sum()
    assert "local, board" in set(folded.source)
    table = latex_table(res)
    assert r"\begin{longtable}" in table and "| claim |" in markdown_table(res)
    # the caption defines every verdict kind, each once (Section 2 defines only "tested")
    from c18n_ae.analysis.claim_kinds.verdict import VERDICT_KINDS

    tally, rest = table.split(r"\begin{longtable}")
    caption = rest.split(r"\label{tab:claims}")[0]
    for kind in VERDICT_KINDS:
        assert caption.count(rf"\emph{{{kind}}}, ") == 1, kind
    # no tally in the caption: a table before it counts each source's verdicts by kind, whose
    # claims in row groups, each row adding up to its claims
    assert "tab:claims-tally" in tally and "counted by kind in" in caption
    assert not re.search(r"\d+ (?:are )?(?:tested|not measurable)", caption)
    for o, source, n, counts in claim_tables.tally_counts(res):
        assert sum(counts) == n == res[(res.source == source) & (res.origin == o)].claim.nunique()
        row = next(x for x in tally.splitlines() if x.startswith(f"{source} & {n} & "))
        assert row.count(" & ") == 8, row
    # what this package's own claims are, said once, each named
    own = [c.id for c in claims if not c.study and c.origin == "own"]
    note = claim_tables.own_note(res)
    assert note in tally and all(c in note for c in own), note
    # a machine without compartments tests only the claims about a process outside any
    # compartment, and the note says which and why; no such note without the claims' file
    plain = {c.id for c in claims if c.c18n is False}
    local = res[res.claim.isin(plain)].assign(result="holds", verdict_kind="tested", origin="study")
    decided = pd.concat([res[~res.claim.isin(plain)], local])
    said = claim_tables.machine_note(decided, {c.id: c for c in claims})
    assert said.startswith("On local, the "), said
    assert all(c in said for c in plain) and "access control, not capabilities" in said
    # where its verdicts say the target has no variant in compartments, the note says so
    none = "no variant with c18n: true on this target"
    bare = decided.assign(detail=decided.detail.where(decided.claim.isin(plain), none))
    said = claim_tables.machine_note(bare, {c.id: c for c in claims})
    assert said.startswith("On local, which runs no compartments, the "), said
    assert claim_tables.machine_note(decided) == ""
    # the study's claims and this package's own are counted apart, each claim's words once
    assert "The study's claims (" in table and "This package's own claims (" in table
    assert table.count("The study: ") == sum(1 for c in claims if c.study)
    # each claim's words in a row across the columns, its sources' rows below it, none left empty
    assert table.count(r"\multicolumn{4}{>") == res.claim.nunique()
    assert not [row for row in rest.splitlines() if row.startswith(" & ")]
    readme = tmp_path / "README.md"
    readme.write_text("a\n<!-- claims:start -->\nold\n<!-- claims:end -->\nb\n")
    update_readme(readme, "new\n")
    assert readme.read_text() == "a\n<!-- claims:start -->\nnew\n<!-- claims:end -->\nb\n"


def test_bad_claims_file_names_the_key(tmp_path):
    bad = tmp_path / "claims.yaml"
    bad.write_text("claims:\n  - {id: x, text: t, experiment: memory, kind: guess}\n")
    with pytest.raises(ClaimError, match=r"claims\[x\]\.kind: 'guess' is not allowed"):
        load(bad)
    bad.write_text(
        "claims:\n  - {id: y, text: t, experiment: memory, kind: ratio, statistic: mean, "
        "metric: m}\n"
    )
    with pytest.raises(ClaimError, match=r"claims\[y\]: 'subject' is a required property"):
        load(bad)
    # the statistic is declared and validated
    bad.write_text(
        "claims:\n  - {id: z, text: t, experiment: memory, kind: ratio, metric: m, subject: a, "
        "baseline: b, op: '>', threshold: 1}\n"
    )
    with pytest.raises(ClaimError, match=r"claims\[z\]: 'statistic' is a required property"):
        load(bad)
    bad.write_text(bad.read_text().replace("threshold: 1}", "threshold: 1, statistic: mode}"))
    with pytest.raises(ClaimError, match=r"claims\[z\]\.statistic: 'mode' is not allowed"):
        load(bad)


def test_metrics_claim_compares_two_metrics_on_every_variant():
    rows = [
        ("local", "O2", 512, "plugin_adjusted_latency_us", 0.5),
        ("local", "O2", 512, "ipc_adjusted_latency_us", 3.0),
        ("local", "O0", 512, "plugin_adjusted_latency_us", 4.0),
        ("local", "O0", 512, "ipc_adjusted_latency_us", 3.0),
    ]
    claim = {
        "id": "p",
        "text": "t",
        "experiment": "packet",
        "kind": "metrics",
        "statistic": "mean",
        "metric": "plugin_adjusted_latency_us",
        "baseline_metric": "ipc_adjusted_latency_us",
        "op": "<",
        "threshold": 1,
    }
    pk = tidy("packet", rows)
    r = one(
        [claim], {"packet": summary(rows)}, {"local": {"O2": False, "O0": False}}, {"packet": pk}
    )
    # the ratio of the two metrics, its interval within its last digit (ratio_text)
    assert r.loc[("p", "local"), "result"] == "fails"
    assert r.loc[("p", "local"), "measured"] == "1.33×", r.loc[("p", "local"), "measured"]
    r = one(
        [{**claim, "variants": ["O2"]}],
        {"packet": summary(rows)},
        {"local": {"O2": False, "O0": False}},
        {"packet": pk},
    )
    assert r.loc[("p", "local"), "result"] == "holds"
    # trials from three runs: the interval is between runs, as a comparison of two variants's is
    runs = pk.assign(run=(pk.trial - 1) % 3 + 1)
    r = one(
        [claim], {"packet": summary(rows)}, {"local": {"O2": False, "O0": False}}, {"packet": runs}
    )
    # said once, in the claim's detail, never after the number
    assert "between runs" in r.loc[("p", "local"), "detail"]
    assert "between runs" not in r.loc[("p", "local"), "measured"]
    assert (
        "within one run"
        in one(
            [claim],
            {"packet": summary(rows)},
            {"local": {"O2": False, "O0": False}},
            {"packet": pk},
        ).loc[("p", "local"), "detail"]
    )


def heavy_tail(target, variant, median, tail, n=100, few=3):
    """n trials near `median`, `few` of them replaced by `tail` (a few slow allocations)."""
    rows = []
    for i in range(n):
        value = tail if i < few else median * (1 + 0.02 * ((i * 7) % 10 - 5) / 5)
        rows.append(
            (target, variant, "memory", 1, i + 1, "block_mib", 800, "malloc_ns", value, "ns", "ok")
        )
    return rows


def test_mean_and_median_disagree_and_the_row_says_so():
    """The alloc-10x shape on morello-2024: a few allocations of milliseconds carry the mean,
    while a typical one is about twice as slow."""
    tidy_rows = heavy_tail("board", "hybrid", 5000, 5000) + heavy_tail(
        "board", "purecap-c18n", 11000, 6_300_000
    )
    t = pd.DataFrame(tidy_rows, columns=TIDY_COLUMNS)
    from c18n_ae.analysis.summarise import summary_table

    r = one([RATIO], {"memory": summary_table(t)}, {"board": BOARD}, {"memory": t})
    row = r.loc[("alloc", "board")]
    assert row.statistic == "mean"
    assert row.mean_result == "inconclusive" and row.median_result == "fails"
    assert row.result == "inconclusive" and not row.statistics_agree
    assert "The median disagrees: it fails" in row.detail
    r = one(
        [{**RATIO, "statistic": "median"}],
        {"memory": summary_table(t)},
        {"board": BOARD},
        {"memory": t},
    )
    assert r.loc[("alloc", "board"), "result"] == "fails"
    assert "The mean disagrees" in r.loc[("alloc", "board"), "detail"]
    assert "inconclusive; median: fails" in latex_table(
        one([RATIO], {"memory": summary_table(t)}, {"board": BOARD}, {"memory": t}).reset_index()
    )


def test_too_few_trials_is_inconclusive_with_the_number_needed():
    rows = [("local", "O2", 512, "malloc_ns", 2), ("local", "O0", 512, "malloc_ns", 30)]
    claim = {**RATIO, "subject": "O0", "baseline": "O2"}
    targets = {"local": {"O2": False, "O0": False}}
    r = one([claim], {"memory": summary(rows)}, targets, {"memory": tidy("memory", rows, trials=2)})
    assert r.loc[("alloc", "local"), "result"] == TOO_FEW
    assert "at least 10 trials per side" in r.loc[("alloc", "local"), "detail"]
    assert "8 more" in r.loc[("alloc", "local"), "detail"]
    # the same data with enough trials is decided
    r = one(
        [claim], {"memory": summary(rows)}, targets, {"memory": tidy("memory", rows, trials=12)}
    )
    assert r.loc[("alloc", "local"), "result"] == "holds"
    # a claim may lower its own minimum
    r = one(
        [{**claim, "min_trials": 2}],
        {"memory": summary(rows)},
        targets,
        {"memory": tidy("memory", rows, trials=2)},
    )
    assert r.loc[("alloc", "local"), "result"] == "holds"


def test_invalid_measurement_names_the_reason():
    rows = [("set", "hybrid", 100, "write_ns", 2), ("set", "purecap-c18n", 100, "write_ns", 3)]
    claim = {**RATIO, "metric": "write_ns", "threshold": 1}
    tidies = {"memory": tidy("memory", rows)}
    comps = {"memory": compare(tidies["memory"], {"set": "hybrid"})}
    invalid = {"set": {"memory": {"write_ns": "the loop did no stores"}}}
    r = evaluate(parse(claim), {"memory": summary(rows)}, {"set": BOARD}, comps, tidies, invalid)
    assert list(r.result) == ["invalid measurement"]
    assert r.detail.iloc[0] == "write_ns: the loop did no stores"
    # without the data set's word it is decided like any other
    r = evaluate(parse(claim), {"memory": summary(rows)}, {"set": BOARD}, comps, tidies)
    assert list(r.result) == ["holds"]


def test_a_contrast_that_mixes_the_optimisation_level_is_confounded_never_holds():
    """benchmark-c18n built -O2 for the CPU experiment only, hybrid with no -O flag: the ratio
    mixes the two, so the claim resting on it is confounded, with what is mixed."""
    rows = [("set", "hybrid", 1, "int_cpu_ns", 10), ("set", "benchmark-c18n", 1, "int_cpu_ns", 7)]
    known = {
        "set": {
            "hybrid": {"abi": "hybrid", "c18n": False, "cflags": []},
            "benchmark-c18n": {
                "abi": "purecap-benchmark",
                "c18n": True,
                "cflags": ["-mabi=purecap-benchmark"],
                "builds": [
                    {"experiments": ["cpu"], "cflags": ["-g", "-O2"], "optimisation": "-O2"}
                ],
            },
        }
    }
    claim = {**RATIO, "id": "gain", "experiment": "cpu", "metric": "int_cpu_ns"}
    claim.update(subject="benchmark-c18n", op="<", threshold=1)
    targets = {"set": {"hybrid": False, "benchmark-c18n": True}}
    for experiment, expected in (("cpu", "confounded"), ("memory", "holds")):
        t = tidy(experiment, rows)
        comps = annotate(compare(t, {"set": "hybrid"}), known)
        r = evaluate(
            parse({**claim, "experiment": experiment}),
            {experiment: summary(rows)},
            targets,
            {experiment: comps},
            {experiment: t},
        )
        assert list(r.result) == [expected], experiment
    assert r.confounded_by.iloc[0] == ""
    cpu = annotate(compare(tidy("cpu", rows), {"set": "hybrid"}), known)
    assert set(cpu.confounded_by) == {"optimisation -O2 against -O0"}


def test_a_contrast_that_differs_only_in_a_compilers_name_is_decided_with_possibly_also():
    """22.12's builds: hybrid by `clang`, purecap by `clang-morello`, both without -O. Only a
    name differs: the verdict stands (holds), with "possibly also" beside it in the row, its
    detail and the printed result; an optimisation level beside the name confounds it."""
    rows = [("set", "hybrid", 1, "malloc_ns", 1), ("set", "purecap-c18n", 1, "malloc_ns", 20)]

    def known(cflags):
        return {
            "set": {
                "hybrid": {"abi": "hybrid", "c18n": False, "cc": "clang", "cflags": []},
                "purecap-c18n": {
                    "abi": "purecap", "c18n": True, "cc": "clang-morello", "cflags": cflags
                },
            }
        }  # fmt: skip

    t = tidy("memory", rows)
    targets = {"set": {"hybrid": False, "purecap-c18n": True}}
    for cflags, expected in (([], "holds"), (["-O2"], "confounded")):
        comps = annotate(compare(t, {"set": "hybrid"}), known(cflags))
        r = evaluate(parse(RATIO), {"memory": summary(rows)}, targets, {"memory": comps},
                     {"memory": t}).iloc[0]  # fmt: skip
        assert r.result == expected, cflags
    comps = annotate(compare(t, {"set": "hybrid"}), known([]))
    r = evaluate(parse(RATIO), {"memory": summary(rows)}, targets, {"memory": comps},
                 {"memory": t}).iloc[0]  # fmt: skip
    assert (r.result, r.confounded_by) == ("holds", "")
    assert r.possibly_also == "compiler clang-morello against clang"
    assert r.verdict_kind == "tested"
    assert "possibly also: compiler clang-morello against clang" in r.detail
    shown = claim_tables.result_text(r)
    assert shown == "holds (possibly also: compiler clang-morello against clang)"


def test_each_verdict_is_of_one_of_five_kinds():
    """restated (printed values), reproduced (a study's claim on the data set its numbers came
    from), tested (elsewhere), not attributable (confounded), not measurable (invalid, not run,
    or a conclusion no data here decide)."""
    from c18n_ae.analysis.claim_kinds.verdict import VERDICT_KINDS, verdict_kind

    assert len(VERDICT_KINDS) == 5
    row = {"result": "holds", "origin": "study", "source": "set", "evidence": "raw data"}
    assert verdict_kind(row, {"set"}) == "reproduced from the same data"
    assert verdict_kind(row, {"other"}) == "tested"
    assert verdict_kind({**row, "origin": "own"}, {"set"}) == "tested"
    assert verdict_kind({**row, "evidence": PUBLISHED}, {"set"}) == "restated"
    assert verdict_kind({**row, "result": "confounded"}, {"set"}) == (
        "not attributable to compartments"
    )
    for result in ("invalid measurement", "not measurable", "not applicable"):
        assert verdict_kind({**row, "result": result}, set()) == "not measurable with these data"
    # through evaluate: the study data set named reproduces, another tests
    rows = [("a", "hybrid", 1, "malloc_ns", 1), ("a", "purecap-c18n", 1, "malloc_ns", 20)]
    rows += [("b", v, p, m, x) for _, v, p, m, x in rows]
    t = tidy("memory", rows)
    targets = {s: {"hybrid": False, "purecap-c18n": True} for s in ("a", "b")}
    comps = compare(t, {"a": "hybrid", "b": "hybrid"})
    study = {**RATIO, "study": {"says": "s", "where": "w"}, "threshold_from": "study"}
    r = evaluate(parse(study), {"memory": summary(rows)}, targets, {"memory": comps},
                 {"memory": t}, study_data={"a"}).set_index("source")  # fmt: skip
    assert r.loc["a", "verdict_kind"] == "reproduced from the same data"
    assert r.loc["b", "verdict_kind"] == "tested"


def test_a_claim_with_only_a_published_table_is_decided_on_its_values():
    claims = {c.id: c for c in load(ROOT / "config" / "claims.yaml")}
    trust = [claims[i] for i in ("root-reads-compartment", "ordinary-denied-compartment")]
    targets = {"set-2405": BOARD, "set-2212": BOARD}
    releases = {"set-2405": "CheriBSD 24.05", "set-2212": "CheriBSD 22.12"}
    r = evaluate(trust, {}, targets, releases=releases).set_index(["claim", "source"])
    for cid in ("root-reads-compartment", "ordinary-denied-compartment"):
        assert r.loc[(cid, "set-2405"), "result"] == "holds"
        assert r.loc[(cid, "set-2405"), "evidence"] == PUBLISHED
        # another release's data set is not decided on this release's table
        assert r.loc[(cid, "set-2212"), "result"] == "not applicable"
    assert "1 of 1 printed trial" in r.loc[("root-reads-compartment", "set-2405"), "measured"]


def test_a_flag_says_how_much_evidence_it_rests_on():
    claims = {c.id: c for c in load(ROOT / "config" / "claims.yaml")}
    claim = claims["owner-reads-compartments"]
    s = summary(
        [
            ("set", "benchmark-c18n", "parent", "strings_visible", 1.0),
            ("set", "benchmark-c18n", "parent", "strings_found_distinct", 0.1),
            ("set", "benchmark-c18n", "parent", "strings_sent", 10.0),
        ]
    )
    r = evaluate([claim], {"isolation": s}, {"set": {"benchmark-c18n": True}})
    assert r.result.iloc[0] == "holds"
    assert r.measured.iloc[0] == (
        "benchmark-c18n: strings_visible = 1 in 10 of 10 trials, 1 of 100 strings found"
    )


def test_a_study_claim_without_whose_threshold_or_a_printed_table_without_its_scope_is_refused(
    tmp_path,
):
    bad = tmp_path / "claims.yaml"
    bad.write_text(
        "claims:\n  - {id: y, text: t, experiment: memory, kind: ratio, statistic: mean, metric: m,"
        " subject: a, baseline: b, op: '>', threshold: 2, study: {says: s, where: w}}\n"
        "  - {id: z, text: t, experiment: trust, kind: flag, metric: m, parameter_value: root,"
        " c18n: true, expected: 1, on_published: {file: x.csv, column: c}}\n"
    )
    with pytest.raises(ClaimError) as e:
        load(bad)
    assert "claims[y]: 'threshold_from' is a required property" in str(e.value)
    assert "claims[z].on_published: give exactly one of release or source" in str(e.value)


def test_every_study_claim_quotes_the_study_and_marks_a_threshold_of_its_own():
    claims = load(ROOT / "config" / "claims.yaml")
    study = [c for c in claims if c.study]
    assert len(study) >= 10 and any(not c.study for c in claims)
    for c in study:
        assert c.study.says and c.study.where
    own_reading = {c.id for c in study if c.threshold_from == "package"}
    assert {"alloc-10x", "math-cost-purecap"} <= own_reading


def test_claim_kinds_are_a_registry_the_schema_agrees_with_and_an_unknown_kind_is_named():
    schema = claim_type.schema()["properties"]["claims"]["items"]["properties"]["kind"]["enum"]
    assert set(claim_kinds.registry()) == set(schema)
    # every module of the package that declares a KIND is in the registry, once
    package = claim_kinds.__path__
    declared = [
        m.KIND
        for info in pkgutil.iter_modules(package)
        if hasattr(m := importlib.import_module(f"{claim_kinds.__name__}.{info.name}"), "KIND")
    ]
    assert sorted(k.name for k in declared) == sorted(claim_kinds.registry())
    for name, kind in claim_kinds.registry().items():
        module = sys.modules[kind.decide.__module__]
        assert kind.name == name and callable(kind.decide) and module.__doc__.startswith(name)
    claim = parse(RATIO)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        claim.threshold = 1  # a claim is built once
    guess = dataclasses.replace(claim, id="made-up", kind="guess")
    with pytest.raises(ClaimError, match=r"claims\[made-up\]\.kind: 'guess' is not a claim kind"):
        ran = summary([("board", v, 100, "malloc_ns", 2) for v in BOARD])
        evaluate([guess], {"memory": ran}, {"board": BOARD})


STUDY_SETS = ["morello-2024", "cheribsd-22.12"]


@pytest.fixture(scope="module")
def study_pipe_and_memory():
    """The study's own pipe and memory files (both releases), summarised as the workflow does."""
    metas = [datasets.load(n) for n in STUDY_SETS]

    def summarised(experiment):
        paths = [p for m in metas for x, _, p in dataset_files(m) if x == experiment]
        return summary_table(collect(experiment, [], paths))

    summaries = {"pipe": summarised("pipe"), "memory": summarised("memory")}
    targets = {m["name"]: {v: bool(s["c18n"]) for v, s in m["variants"].items()} for m in metas}
    return summaries, targets, datasets.invalid_metrics(metas)


ABSOLUTE = {
    "id": "write-under",
    "text": "t",
    "experiment": "pipe",
    "kind": "absolute",
    "statistic": "mean",
    "metric": "write_ns",
    "op": "<",
    "threshold": 10,
    "unit": "µs",
}


def test_an_absolute_claim_is_decided_on_the_interval_of_the_mean_in_the_claims_unit(
    study_pipe_and_memory,
):
    """On the study's pipe writes (a clock of 1 µs steps): purecap-c18n 3.01 µs [2.99, 3.03]
    over 99 trials, hybrid 1.63 µs [0.77, 2.48] (a few slow writes)."""
    summaries, targets, invalid = study_pipe_and_memory

    def verdicts(*claims, **kw):
        r = evaluate(parse(*claims, **kw), summaries, targets, invalid=invalid)
        return r.set_index(["claim", "source"])

    def on(claim_id, variants, **changes):
        named = {"variants": variants} if variants else {}
        return {**ABSOLUTE, "id": claim_id, **named, **changes}

    r = verdicts(
        on("under-10-us", ["hybrid", "purecap-c18n", "benchmark-c18n"]),
        on("under-10000-ns", ["hybrid", "purecap-c18n"], threshold=10000, unit="ns"),
        on("under-two-thousandths-ms", ["purecap-c18n"], threshold=0.002, unit="ms"),
        on("over-2-us", ["purecap-c18n"], op=">", threshold=2),
        on("under-2-us", ["hybrid"], threshold=2),
        # the trials sit on one or two 1 µs steps: no mean is known finer than a step
        on("under-3200-ns", ["purecap-c18n"], threshold=3200, unit="ns"),
        on("in-compartments", None, c18n=True, threshold=1),
    )
    row = r.loc[("under-10-us", "morello-2024")]
    assert row.result == "holds" and row.statistic == "mean" and row.evidence == "raw data"
    assert "needs < 10 µs (10000 ns)" in row.detail and "n = 99" in row.detail
    # the slowest decides; the interval widened to a step of the clock
    assert row.measured == "mean 3010 ns (3 ticks of 1 µs), 95 % CI [2510, 3510] ns"
    assert r.loc[("under-10000-ns", "morello-2024"), "result"] == "holds"
    assert r.loc[("under-two-thousandths-ms", "morello-2024"), "result"] == "fails"
    assert r.loc[("over-2-us", "morello-2024"), "result"] == "holds"
    hybrid = r.loc[("under-2-us", "morello-2024")]
    assert hybrid.result == "inconclusive" and "trials would settle it" in hybrid.detail
    assert r.loc[("under-3200-ns", "morello-2024"), "result"] == "inconclusive"
    assert r.loc[("in-compartments", "morello-2024"), "result"] == "fails"
    assert "benchmark-c18n" in r.loc[("in-compartments", "morello-2024"), "detail"]
    # no pipe data on 22.12: not applicable, with the reason
    assert r.loc[("under-10-us", "cheribsd-22.12"), "result"] == "not applicable"
    # too few trials for the claim's minimum, and a metric the data set calls invalid
    r = verdicts(on("few", ["hybrid"], min_trials=200))
    assert r.loc[("few", "morello-2024"), "result"] == TOO_FEW
    assert "at least 200 trials" in r.loc[("few", "morello-2024"), "detail"]
    memory = on("memory-write", None, experiment="memory", threshold=1, unit="s")
    r = verdicts(memory)
    assert r.loc[("memory-write", "morello-2024"), "result"] == "invalid measurement"


def test_an_absolute_claims_unit_must_convert_to_its_metrics(study_pipe_and_memory):
    with pytest.raises(ClaimError, match=r"claims\[b\]\.unit: bytes cannot be compared with "
                       r"write_ns, whose name says it is in ns"):  # fmt: skip
        parse({**ABSOLUTE, "id": "b", "unit": "bytes"})
    with pytest.raises(ClaimError, match=r"claims\[f\]\.unit: 'furlong' is not a unit; known: ns"):
        parse({**ABSOLUTE, "id": "f", "unit": "furlong"})
    with pytest.raises(ClaimError, match=r"claims\[m\]\.statistic: 'mean' was expected"):
        parse({**ABSOLUTE, "id": "m", "statistic": "median"})
    # a rate is not a time, and a name without a unit leaves the check to the summary's unit
    assert unit_in_name("cycles_per_ns") == "" and unit_in_name("write_ns") == "ns"
    summaries, targets, _ = study_pipe_and_memory
    claim = parse({**ABSOLUTE, "id": "w", "experiment": "memory", "metric": "block_size"})
    mib = summaries["memory"].assign(metric="block_size", unit="MiB")
    with pytest.raises(ClaimError, match=r"claims\[w\]\.unit: µs cannot be compared with "
                       r"block_size, which morello-2024 measured in MiB"):  # fmt: skip
        evaluate(claim, {"memory": mib}, targets)


def test_a_claim_without_a_published_value_prints_no_nan(tmp_path):
    """The verdicts as the workflow writes and reads them back: an empty cell is no 'nan'."""
    claims = load(ROOT / "config" / "claims.yaml")
    assert any(not c.published for c in claims)  # E10's own claim prints none
    csv = tmp_path / "claims.csv"
    csv.write_text(evaluate(claims, {}, {"local": {"O2": False}}).to_csv(index=False))
    tex, md = tmp_path / "claims.tex", tmp_path / "claims.md"
    claim_tables.main(["--claims", str(csv), "--tex", str(tex), "--markdown", str(md)])
    for path in (tex, md):
        assert not re.search(r"\bnan\b", path.read_text(), re.I), path.name


def test_the_claims_table_prints_one_word_per_state():
    """The paper's claims table prints an invalid measurement as Table 1 does ('not valid') and a
    claim the data cannot decide by its kind alone, with the reason: never the package's codes
    ('invalid measurement', 'not applicable') and never two labels for one state."""
    claims = load(ROOT / "config" / "claims.yaml")
    res = evaluate(claims, {}, {"local": {"O2": False}, "board": {"O2": False}})
    some = res.claim == res.claim.iloc[0]
    res.loc[some, "result"] = "invalid measurement"
    table = latex_table(res).split(r"\label{tab:claims}")[1]
    assert "not valid" in table and "not measurable with these data" in table
    for code in ("invalid measurement", "not applicable", "not measurable with these data ["):
        assert code not in table, code
    rows = [x for x in table.splitlines() if " & " in x and "Source &" not in x]
    for row in rows:  # each state once in its row's result cell
        result = row.split(" & ")[2]
        assert sum(w in result for w in ("not valid", "not measurable", "holds", "fails")) <= 1


def test_the_claims_table_prints_each_threshold_in_three_figures_at_most():
    """A verdict's detail carries the claim's threshold as the package holds it ('needs 1.5133
    ± 0.15'); the paper's table prints each of its numbers in three significant figures at most,
    and leaves shorter ones as written; a band prints as its two ends (Table 3 and the claims
    table alike)."""
    claims = load(ROOT / "config" / "claims.yaml")
    res = evaluate(claims, {}, {"local": {"O2": False}})
    detail = "1.51×, 95 % CI; n = 100 and 100; needs 1.5133 ± 0.15"
    res = res.assign(result="holds", detail=detail, measured="")
    table = latex_table(res)
    needs = {x.strip() for x in re.findall(r"needs ([^;,()\n]+?)\s*(?:\\\\|$)", table, re.M)}
    assert needs == {"1.36 to 1.66"}, needs
    assert claim_tables.short_needs("needs 1.0 ± 0.1 at every setting") == (
        "needs 0.9 to 1.1 at every setting"
    )
    assert claim_tables.short_needs("needs > 10") == "needs > 10"


def test_a_claim_that_names_hybrid_in_its_words_has_hybrid_for_its_baseline():
    """The claims' words name their baseline ('than under hybrid'): a word that
    the config's baseline key contradicts would mislead every table that prints the claim."""
    import yaml

    claims = yaml.safe_load((ROOT / "config" / "claims.yaml").read_text())["claims"]
    named = [c for c in claims if "under hybrid" in c["text"] or "hybrid's" in c["text"]]
    assert len(named) >= 15, len(named)
    for c in named:
        assert c.get("baseline") == "hybrid", (c["id"], c.get("baseline"))


def test_a_published_change_its_own_means_do_not_give_is_flagged():
    """The study printed +51.33 % beside means of 70,780 and 46,759 ms, which give +51.37 %
    (cold reads found it unremarked): the claims table says what the means give, and stays quiet
    where the printed change lies within what the means' rounding allows."""
    said = {
        c["id"]: str(c.get("published", ""))
        for c in yaml.safe_load((ROOT / "config" / "claims.yaml").read_text())["claims"]
    }
    assert (
        claim_tables.published_arithmetic(said["math-cost-purecap"])
        == "; those two means give +51.37 %"
    )
    assert (
        claim_tables.published_arithmetic(said["math-cost-benchmark"])
        == "; those two means give +13.14 %"
    )
    # 670 / 922 gives -27.33 %, but 670.4 / 922 gives the printed -27.32 %: rounding, not an error
    assert claim_tables.published_arithmetic("670 vs 922 ms (-27.32 %)") == ""
    assert claim_tables.published_arithmetic("2 ms vs 93 ms for 100 MB") == ""
