"""The study's second release (CheriBSD 22.12) and its E6 board logs: imported by meaning from
the real files, compared release against release, and decided claim by claim."""

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from c18n_ae.analysis.claim_kinds.verdict import REPRODUCED, TESTED
from c18n_ae.analysis.claims import evaluate, load
from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.comparisons import compare, ratio_of_ratios
from c18n_ae.analysis.contrasts import annotate
from c18n_ae.analysis.imports import dataset_files, import_file
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common import datasets
from c18n_ae.common.latex import ratio_point
from c18n_ae.common.rawcsv import RawDataError
from c18n_ae.experiments.isolation_logs import import_logs
from c18n_ae.report.claim_tables import release_disagreements
from conftest import ROOT, SNAKEMAKE

NAMES = ["morello-2024", "cheribsd-22.12"]
METAS = [datasets.load(n) for n in NAMES]
REFS = {n: "hybrid" for n in NAMES}


def tidy(experiment):
    paths = [p for m in METAS for e, _, p in dataset_files(m) if e == experiment]
    return collect(experiment, [], paths)


def mean(summary, target, variant, metric, value=None):
    s = summary[
        (summary.source == target) & (summary.variant == variant) & (summary.metric == metric)
    ]
    if value is not None:
        s = s[s.parameter_value == value]
    return float(s["mean"].iloc[0])


def test_22_12_headers_are_read_by_meaning_and_give_the_raw_means():
    header = (ROOT / "datasets/cheribsd-22.12/cpu/hybrid.csv").read_text().splitlines()[0]
    assert header == "Test Number,Test Type,CPU Time (ms)"  # 24.05: TrialNum,Operation,...
    cpu = summary_table(tidy("cpu"))
    assert round(mean(cpu, "cheribsd-22.12", "purecap-c18n", "math_cpu_ns") / 1e6, 2) == 66043.87
    assert round(mean(cpu, "cheribsd-22.12", "hybrid", "math_cpu_ns") / 1e6, 2) == 49831.29
    memory = summary_table(tidy("memory"))
    assert round(mean(memory, "cheribsd-22.12", "hybrid", "write_ns", 100) / 1e6, 3) == 490.470
    scale = tidy("scale")
    mine = scale[(scale.source == "cheribsd-22.12") & (scale.metric == "memory_used_mib")]
    assert len(mine) == 8991 and mine.parameter_value.max() == 8991
    # the variant carries its real launcher
    assert METAS[1]["variants"]["purecap-c18n"]["launcher"] == ["env", "LD_C18N_LIBRARY_PATH=."]


def test_a_declared_layout_that_the_header_contradicts_is_named(tmp_path):
    f = tmp_path / "x.csv"
    f.write_text("Test Number,Test Type,CPU Time (ms)\n1,math,3\n")
    with pytest.raises(RawDataError, match=r"x.csv:1: header .* matches not its declared layout"):
        import_file(f, "memory")
    assert import_file(f, "cpu")[0] == "cpu"


def test_e6_logs_strings_sent_against_found_on_the_real_files(tmp_path):
    logs = ROOT / "datasets/morello-2024/isolation/study-logs"
    rows, meta = import_logs(logs)
    assert meta["pid"] == "25998" and meta["strings_sent"] == 100
    assert meta["regions_read"] == 23 and meta["strings_found"] == 1
    totals = {m: v for t, _, _, m, v, _, _ in rows if t == 0}
    assert totals["strings_sent"] == 100 and totals["strings_found_distinct"] == 1
    regions = [r for r in rows if r[0] > 0 and r[3] == "region_rw"]
    assert len(regions) == 67 and sum(r[4] for r in regions) == 27
    # the count follows the reading log: take the one string found out of it, and none is found
    copy = tmp_path / "logs"
    shutil.copytree(logs, copy)
    sent = (copy / "execution-results.txt").read_text().split("msg received from child process ")
    found = [
        s.split(" :")[0]
        for s in sent[1:]
        if s.split(" :")[0].encode() in (copy / "memory-reading-results.txt").read_bytes()
    ]
    assert len(found) == 1
    data = (copy / "memory-reading-results.txt").read_bytes().replace(found[0].encode(), b"x")
    (copy / "memory-reading-results.txt").write_bytes(data)
    assert import_logs(copy)[1]["strings_found"] == 0


def test_e6_rows_and_a_decided_claim_on_the_board():
    iso = tidy("isolation")
    board = iso[iso.source == "morello-2024"]
    assert {"pipe_write_ns", "pipe_message_wait_ns", "strings_found_distinct"} <= set(board.metric)
    assert set(board[board.metric == "pipe_write_ns"].variant) == {"purecap-c18n", "benchmark-c18n"}
    claims = [c for c in load(ROOT / "config/claims.yaml") if c.experiment == "isolation"]
    summary = summary_table(iso)
    targets = {m["name"]: {v: s["c18n"] for v, s in m["variants"].items()} for m in METAS}
    r = evaluate(claims, {"isolation": summary}, targets).set_index(["claim", "source"])
    row = r.loc[("owner-reads-compartments", "morello-2024")]
    assert row.result == "holds", row.detail
    assert r.loc[("owner-reads-compartments", "cheribsd-22.12"), "result"] == "not applicable"


def test_release_against_release_with_intervals_and_claims_per_release():
    cpu = tidy("cpu")
    comps = compare(cpu, REFS, NAMES)
    rel = comps[comps.comparison == "release"].set_index("metric")
    math = rel.loc["math_cpu_ns"]
    assert math.source == "cheribsd-22.12" and math.reference_source == "morello-2024"
    assert math.variant == "purecap-c18n/hybrid"
    expected = (66043.87 / 49831.29) / 1.51374
    assert math.ratio == pytest.approx(expected, rel=1e-3)
    assert math.ci95_low < math.ratio < math.ci95_high < 0.9  # c18n cost less on 22.12
    claims = load(ROOT / "config/claims.yaml")
    summaries = {"cpu": summary_table(cpu)}
    targets = {m["name"]: {v: s["c18n"] for v, s in m["variants"].items()} for m in METAS}
    study = {m["name"] for m in METAS if m.get("study_data")}
    verdicts = evaluate(claims, summaries, targets, {"cpu": comps}, {"cpu": cpu}, study_data=study)
    v = verdicts.set_index(["claim", "source"]).result
    assert v[("math-cost-purecap", "morello-2024")] == "holds"
    assert v[("math-cost-purecap", "cheribsd-22.12")] == "fails"
    # 24.05's "holds" is reproduced from the study's files, 22.12's "fails" tested: only tested
    # verdicts are set side by side between releases, so this pair shows no change
    kinds = verdicts.set_index(["claim", "source"]).verdict_kind
    assert kinds[("math-cost-purecap", "morello-2024")] == REPRODUCED
    assert kinds[("math-cost-purecap", "cheribsd-22.12")] == TESTED
    assert "math-cost-purecap" not in dict(release_disagreements(verdicts, NAMES))
    tested = verdicts.assign(verdict_kind=TESTED)
    differ = dict(release_disagreements(tested, NAMES))
    # the study's claim, tested on both: whether it holds on each, in its words
    assert differ["math-cost-purecap"] == (
        "holds on morello-2024 and does not hold on cheribsd-22.12"
    )
    # with the builds the data sets record: 22.12's hybrid CPU program was built by the base
    # system's clang, its purecap one by clang-morello, both without -O: a name alone, so the
    # verdict stands with "possibly also" beside it
    known = {m["name"]: m["variants"] for m in METAS}
    comps = annotate(comps, known)
    verdicts = evaluate(claims, summaries, targets, {"cpu": comps}, {"cpu": cpu}, study_data=study)
    row = verdicts.set_index(["claim", "source"]).loc[("math-cost-purecap", "cheribsd-22.12")]
    assert (row.result, row.confounded_by) == ("fails", "")
    assert row.possibly_also == "compiler clang-morello against clang"
    assert "math-cost-purecap" not in dict(release_disagreements(verdicts, NAMES))
    math = comps[(comps.comparison == "release") & (comps.metric == "math_cpu_ns")].iloc[0]
    assert math.confounded_by == ""
    assert math.possibly_also == "cheribsd-22.12: compiler clang-morello against clang"
    # the release table says it beside the ratios, which stand; the prose says plainly, per
    # release and contrast, the metric that moved most with its ratio on each release, then how
    # close the others stayed, never a ratio of ratios (Section 3 says once that every ratio in
    # the text may carry a difference of name alone)
    from c18n_ae.report import releases as release_report

    table = release_report.rows({"cpu": comps})
    maybe = "cheribsd-22.12: compiler clang-morello against clang"
    assert release_report.possibly(table) == maybe
    assert f"(the ratios stand): {maybe}." in release_report.latex_table(table, {})
    said = release_report.prose(table, NAMES_RELEASES)
    own = {r.release: r.contrast_ratio for r in table[table.metric == "math_cpu_ns"].itertuples()}
    moved = table[table.ratio.notna()].ratio.map(lambda x: abs(np.log(x)))
    assert table.loc[moved.idxmax()].metric == "math_cpu_ns"  # the math workload moved most
    assert said.startswith(
        f"On the 22.12 data, purecap-c18n against hybrid gave {ratio_point(own['cheribsd-22.12'])}"
        f" for the math workload's CPU time, against {ratio_point(own['morello-2024'])} on the "
        "24.05 data."
    ), said
    others = table[table.ratio.notna() & (table.metric != "math_cpu_ns")].ratio
    reach = int(np.ceil(round(max(abs(others - 1)) * 100, 6)))
    named = "For the int, float and array workload's CPU time, the ratios agreed within "
    assert len(others) == 3 and named in said, said
    assert said.endswith(f"within about {reach}\\,\\% between releases."), said
    assert "as large as" not in said and "Possibly also" not in said
    assert all(len(x.split()) <= 35 for x in said.split(". ")), said
    assert "$^\\S$" not in release_report.latex_table(table, {})


NAMES_RELEASES = {"morello-2024": "CheriBSD 24.05", "cheribsd-22.12": "CheriBSD 22.12"}


def test_ratio_of_ratios_interval_covers_its_point_and_a_third_release_joins():
    import numpy as np

    rng = np.random.default_rng(1)
    a1, b1, a2, b2 = (rng.normal(m, 1, 50) for m in (150, 100, 120, 100))
    r = ratio_of_ratios(a1, b1, a2, b2)
    assert r["ci95_low"] < r["ratio"] < r["ci95_high"]
    assert r["ratio"] == pytest.approx(1.25, rel=0.02)
    # large samples take the linear-cost interval; it agrees with the bootstrap's shape
    big = [rng.normal(m, 1, 6000) for m in (150, 100, 120, 100)]
    fast, boot = ratio_of_ratios(*big), ratio_of_ratios(*[x[:4000] for x in big])
    assert fast["ci95_low"] < fast["ratio"] < fast["ci95_high"]
    width = lambda r: r["ci95_high"] - r["ci95_low"]  # noqa: E731
    assert 0.6 < width(fast) / width(boot) < 1.0  # 1.5 times the trials: sqrt(1/1.5) = 0.82
    cpu = tidy("cpu")
    third = cpu[cpu.source == "cheribsd-22.12"].assign(source="release-three")
    comps = compare(
        pd.concat([cpu, third]), {**REFS, "release-three": "hybrid"}, [*NAMES, "release-three"]
    )
    rel = comps[comps.comparison == "release"]
    assert set(rel.source) == {"cheribsd-22.12", "release-three"}
    assert set(rel.reference_source) == {"morello-2024"}


def test_a_malformed_dataset_yaml_gives_one_message_and_no_jobs(project_copy):
    meta = project_copy / "datasets" / "cheribsd-22.12" / "dataset.yaml"
    meta.write_text(meta.read_text().replace("layout: cpu", "layout: cpus", 1))
    done = subprocess.run(
        [*SNAKEMAKE, "-n", "--cores", "1", "--configfile", "config/quick.yaml"],
        cwd=project_copy,
        capture_output=True,
        text=True,
    )
    out = done.stdout + done.stderr
    assert done.returncode != 0
    assert "cheribsd-22.12/dataset.yaml: files[2].layout: 'cpus' is not allowed" in out
    assert "Job stats" not in out


def test_a_release_quotes_the_statistic_table_1_quotes():
    """One statistic per metric (READ31): a release's own contrast prints as Table 1 and the
    appendix's Table 7 print the same row, the median marked † where a few trials carry the mean
    (24.05's malloc), and the ratio between releases is then of medians too; each table says
    what † means."""
    from c18n_ae.analysis import contrasts
    from c18n_ae.report import headline
    from c18n_ae.report import releases as release_report

    memory = tidy("memory")
    known = {m["name"]: contrasts.dataset_variants(m) for m in METAS}
    comps = {"memory": contrasts.annotate(compare(memory, REFS, NAMES), known)}
    config = {"targets": [], "datasets": NAMES}
    head = headline.rows(config, comps, {"memory": summary_table(memory)}, [], pd.DataFrame())
    invalid = datasets.invalid_metrics(METAS)
    tex = release_report.latex_table(release_report.rows(comps, invalid, head), NAMES_RELEASES)
    malloc = head[
        (head.metric == "malloc_ns")
        & (head.subject == "purecap-c18n")
        & (head.source == "morello-2024")
    ].iloc[0]
    quoted = headline.cell(malloc)
    assert headline.rests_on_few(malloc) and quoted.endswith(headline.DAGGER)
    line = next(x for x in tex.splitlines() if x.startswith("a malloc of the largest block"))
    cells = line.removesuffix(r" \\").split(" & ")
    assert cells[2] == quoted, line
    rel = comps["memory"]
    rel = rel[(rel.comparison == "release") & (rel.metric == "malloc_ns")]
    rel = rel[rel.parameter_value == rel.parameter_value.max()].iloc[0]  # one contrast here
    # the ratio of medians, in no more figures than the 1 µs grid's few ticks carry (0.50, not
    # 0.500), and marked
    point = float(cells[4].split("$")[0])
    assert point == pytest.approx(rel.median_ratio, rel=0.05) and point != rel.ratio, line
    assert cells[4].startswith("0.50$") and headline.DAGGER in cells[4], line
    # the 22.12 cell, which quotes its mean, gives the ratio of medians the division uses, so a
    # reader can check 0.50 (rounds 112 and 113 could not)
    own = re.search(r"; median ratio ([\d.]+)\$\\times\$$", cells[3])
    assert own and float(own[1]) / float(cells[2].split("$")[0]) == pytest.approx(point, 0.05)
    # both releases' own medians are limited by the 1 µs grid, so the ratio between them prints
    # the range a tick either way allows, one release's lowest end over the other's highest, not
    # a bootstrap interval whose end sits on the point ('0.50× [0.40, 0.50]')
    assert r"$\langle$" in cells[4] and "[" not in cells[4], line
    low, high = (float(x) for x in cells[4].split(r"$\langle$")[1].split("$")[0].split(", "))
    assert low < point < high and high / low > 2, line
    # the 22.12 cell quotes its mean (a few ticks: 0.92×), the ratio between releases divides
    # medians (1.0 / 2.0): said below the table, so that no reader divides 0.92 by 2.0
    assert f"{headline.DAGGER} {headline.MEDIAN_WORDS}{release_report.BETWEEN_MEDIANS}." in tex
    # the appendix's table of confounded contrasts quotes the same cell and says what † means
    apart = headline.confounded_table(head)
    assert quoted in apart and f"{headline.DAGGER} {headline.MEDIAN_WORDS}." in apart
    # without Table 1's rows a release's contrast is quoted by its mean, which a few trials carry
    plain = release_report.latex_table(release_report.rows(comps, invalid), NAMES_RELEASES)
    assert headline.DAGGER not in plain
    # the prose leaves the mixed metrics to the table, whose mark says what else differs and on
    # which data (rounds 110 and 111: an aside in the middle of the per-call argument)
    said = release_report.prose(release_report.rows(comps, invalid, head), NAMES_RELEASES)
    assert "heap revocation" not in said and "malloc" not in said, said
    assert "morello-2024: heap revocation on against off" in tex, tex
    assert "morello-2024" not in said and "$^\\S$" not in said, said
