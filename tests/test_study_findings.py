"""What the study's E2 and E4 data sets say beside the headline table, from their shipped files:
a free whose extra time grows with the block (no fixed cost of a crossing; heap revocation on one
side only), and the parent's wait for the child's next message in microseconds, never a
headline ratio."""

import contextlib
import io
import re

import pytest

from c18n_ae import experiments as registry
from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common import datasets
from c18n_ae.experiments import memory, pipe
from conftest import ROOT

SETS = ("morello-2024", "cheribsd-22.12")


def summary(experiment):
    files = [f for n in SETS for f in dataset_files(datasets.load(n)) if f[0] == experiment]
    with contextlib.redirect_stderr(io.StringIO()):
        return summary_table(collect(experiment, [], [p for _, _, p in files]))


@pytest.fixture(scope="module")
def memory_summary():
    return summary("memory")


def microseconds(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"([0-9.]+)\\,\\si\{\\micro\\second\}", text)]


def test_a_free_whose_extra_time_grows_with_the_block_is_said_with_both_sides_revocation(
    memory_summary,
):
    """24.05: purecap-c18n's median free exceeds hybrid's by ~22 us at 100 MiB and ~221 us at
    1000 MiB; the purecap processes revoke (dataset.yaml runtime), hybrid's do not."""
    (said,) = memory.findings("morello-2024", memory_summary)
    assert "the median free took longer than \\texttt{hybrid}'s (heap revocation off)" in said
    assert said.count("heap revocation on") == 2  # both purecap variants
    for v in ("purecap-c18n", "benchmark-c18n"):
        part = said.split(f"\\texttt{{{v}}}")[0].rsplit("by ", 1)[1]
        small, large = microseconds(part)
        assert large > 5 * small > 0
    # three significant figures at most, no trailing zero ('20 µs', never '20.0 µs')
    times = re.findall(r"([\d.]+)\\,\\si\{", said)
    assert times and all(len(x.replace(".", "").lstrip("0")) <= 3 for x in times), times
    assert not [x for x in times if x.endswith(".0")], times
    # malloc's extra time does not grow with the block: nothing said of it
    assert "malloc" not in said
    # 22.12 records no revocation: the growth is said, no revocation claimed
    (old,) = memory.findings("cheribsd-22.12", memory_summary)
    assert "revocation" not in old and "an extra time that grows with the block" in old
    assert memory.findings("local", memory_summary) == []  # not a data set


def test_the_wait_for_a_message_is_microseconds_and_no_headline_metric():
    said = " ".join(pipe.findings("morello-2024", summary("pipe")))
    # hybrid's child ran ahead: its median wait is the clock's first tick
    assert re.search(r"1\.00\\,\\si\{\\micro\\second\} \(1 tick of 1 [^)]*: the message was ready\)"
                     r" in \\texttt\{hybrid\}", said)  # fmt: skip
    each = r"([0-9.]+)\\,\\si\{\\micro\\second\}[^;]*?\\texttt\{([a-z0-9-]+)\}"
    waits = {v: float(x) for x, v in re.findall(each, said)}
    assert waits["purecap-c18n"] > 20 * waits["hybrid"] and "ready) in \\texttt{purecap" not in said
    assert "message_wait_ns" not in [h.metric for h in registry.get("pipe").headline]
    assert pipe.findings("cheribsd-22.12", summary("pipe")) == []  # no pipe program on 22.12


def test_a_headline_experiment_s_own_sentences_stay_out_of_its_body_paragraph(
    tmp_path, memory_summary
):
    """findings.tex defines \\FindingsMemory once, the body's short paragraph on the headline
    ratios, without the module's sentences about each data set (a confounded free's growth);
    and every macro it defines is one the paper uses (no \\ClaimsFindings, \\PackageThresholds
    or \\Findings<Name>Detail that nothing prints)."""
    import test_findings
    from c18n_ae.report import findings

    metas = [datasets.load(n) for n in SETS]
    table, verdicts = test_findings.data(metas, {"targets": [], "datasets": list(SETS)})
    table.to_csv(tmp_path / "headline.csv", index=False)
    verdicts.to_csv(tmp_path / "claims.csv", index=False)
    memory_summary.to_csv(tmp_path / "memory.csv", index=False)
    out = tmp_path / "findings.tex"
    findings.main(
        ["--config", str(ROOT / "config" / "config.yaml"), "--out", str(out)]
        + ["--headline", str(tmp_path / "headline.csv"), "--verdicts", str(tmp_path / "claims.csv")]
        + ["--summary", f"memory={tmp_path / 'memory.csv'}"]
    )
    tex = out.read_text()
    assert tex.count("\\newcommand{\\FindingsMemory}") == 1
    mine = tex.split("\\newcommand{\\FindingsMemory}")[1].split("\\newcommand")[0]
    assert "On the 22.12 data, the metrics that call into libc give" in mine, mine
    assert "for a malloc of the largest block" in mine, mine
    assert "an extra time that grows with the block" not in mine
    # \\PartFindings<Part> (macros.py) prints each experiment's \\Findings<Name>
    sources = " ".join(
        p.read_text() for p in [ROOT / "paper" / "main.tex", *(ROOT / "paper").glob("sections/*")]
    )
    # by \\PartFindings<Part>, and \\Found<Name> by its \\IfFound
    printed = re.compile(r"Findings[A-Za-z]+(?<!Detail)|Found[A-Z][A-Za-z]*")
    unused = [
        name
        for name in re.findall(r"\\newcommand\{\\([A-Za-z]+)\}", tex)
        if not re.search(rf"\\{name}(?![A-Za-z])|\\gen\{{{name}\}}", sources)
        and not printed.fullmatch(name)
        and f"ifcsname {name}\\endcsname" not in sources  # a flag, tested where it is used
    ]
    assert not unused, unused


def test_e6_says_what_the_reader_found_in_the_body_and_its_pipe_once_in_the_appendix():
    """The body: on the 24.05 data, how many of the secret strings a reader found whole and what
    that means for isolation, with why no more (the study's parent reads every message into one
    buffer); no pipe time (the variants' builds differ). The appendix (details): the two
    variants' pipe timings in one sentence, not a template repeated per variant. No claim ID
    and no file."""
    import pandas as pd

    from c18n_ae.experiments import isolation

    table = summary("isolation")
    said = isolation.findings("morello-2024", table, pd.DataFrame(VERDICTS))
    text = " ".join(said)
    assert text.startswith(
        "On the 24.05 data, the study's memory reader ran without root, as the owner of the "
    ), text
    mine = table[(table.source == "morello-2024") & (table.parameter_value.astype(str) == "parent")]
    found = mine[mine.metric == "strings_found_distinct"]["mean"]
    sent = mine[mine.metric == "strings_sent"]["mean"]
    for f, n in zip(found, sent):
        assert f"Of the {n:.0f} secret strings" in text and f"it found {f:.0f} whole" in text
    # what the finding tests: the operating system's access control, not c18n (rounds 142 to 144)
    assert "tests the operating system's access control, not c18n" in text
    assert "compartments do not hide" not in text
    # why only one, right after the count and before what it means
    why = text.index("reads every message into the same buffer")
    assert text.index("whole in the parent's memory") < why < text.index("The finding tests")
    assert "pipe" not in text and "\\si{" not in text and "texttt{morello" not in text
    pipes = isolation.pipe_findings("morello-2024", table, pd.DataFrame(VERDICTS))
    assert len(pipes) == 1 and "benchmark-c18n" in pipes[0] and "purecap-c18n" in pipes[0]
    assert "respectively" in pipes[0] and "((" not in pipes[0]
    assert isolation.EXPERIMENT.details is isolation.pipe_findings
    assert not any("owner-reads" in x or "results/" in x or "Claims on" in x for x in said + pipes)
    other = isolation.findings("cheribsd-22.12", table, pd.DataFrame(VERDICTS))
    assert not set(said) & set(other)


VERDICTS = {
    "claim": ["owner-reads-compartments", "protected-region-crash"] * 2,
    "source": ["morello-2024"] * 2 + ["cheribsd-22.12"] * 2,
    "experiment": ["isolation"] * 4,
    "result": ["holds", "not measurable", "not applicable", "not measurable"],
}
