"""Every dataset.yaml fact about how a number was made cites lines of the study's source shipped
with the data set, and each cited line still says what the entry claims: a flag, a loop bound, a
clock call. The schema refuses a build's flags, a timing statement or an invalid metric without
evidence."""

import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

from c18n_ae.analysis.imports import dataset_files, import_file
from c18n_ae.common import datasets, evidence
from c18n_ae.common.datasets import build_of
from c18n_ae.common.rawcsv import RawDataError
from conftest import ROOT

SHIPPED = ["morello-2024", "cheribsd-22.12"]
REFERENCE = ROOT.parent / "shared" / "reference" / "original-src"  # the study's sources, if here
DURATIONS = ("ns", "ms", "us")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_cited_line_says_what_its_entry_claims(name):
    meta = datasets.load(name)  # load checks the evidence too
    entries = evidence.cited(meta)
    assert len(entries) > 30
    assert evidence.mistakes(Path(meta["directory"]), meta) == []


@pytest.mark.parametrize("name", SHIPPED)
def test_every_time_metric_of_every_file_has_a_clock_and_region_and_every_file_a_build(name):
    meta = datasets.load(name)
    for experiment, variant, path in dataset_files(meta):
        entry = next(f for f in meta["files"] if Path(meta["directory"]) / f["path"] == path)
        _, rows, _ = import_file(path, entry.get("layout"))
        units = (
            dict(zip(rows.metric.astype(str), rows.unit.astype(str)))
            if hasattr(rows, "metric")
            else {r[3]: r[5] for r in rows}
        )
        times = {m for m, u in units.items() if u in DURATIONS}
        if times:
            stated = meta["timing"][experiment]["metrics"]
            assert times <= set(stated), f"{path}: no timing for {times - set(stated)}"
        assert any(experiment in b["experiments"] for b in meta["variants"][variant]["builds"]), (
            f"{name}: {variant} has no build entry for {experiment}"
        )


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_sources_are_the_studys_files_unchanged(name):
    if not REFERENCE.is_dir():
        pytest.skip(f"the study's sources are not beside the project ({REFERENCE})")
    shipped = Path(datasets.load(name)["directory"]) / "source"
    files = [p for p in shipped.rglob("*") if p.is_file()]
    assert files
    for p in files:
        assert p.read_bytes() == (REFERENCE / p.relative_to(shipped)).read_bytes(), p


def test_the_releases_differ_where_their_sources_differ():
    new, old = datasets.load("morello-2024"), datasets.load("cheribsd-22.12")
    # 24.05: purecap-benchmark at -O2 with the base cc, the other variants clang-morello -O0
    assert build_of(new, "benchmark-c18n", "cpu")["optimisation"] == "-O2"
    assert build_of(new, "benchmark-c18n", "cpu")["compiler"] == "cc"
    assert build_of(new, "hybrid", "cpu")["optimisation"] == "-O0"
    assert build_of(new, "benchmark-c18n", "isolation")["optimisation"] == "-O0"
    # 22.12: c18n through its own run-time linker; its memory loops touch every byte
    assert build_of(old, "purecap-c18n", "memory")["ldflags"] == [
        "-Wl,-dynamic-linker,/libexec/ld-elf-c18n.so.1"
    ]
    # c18n by the link flag; the library path variable was set for hybrid's runs as well
    # (memory-out-experiment.c:41), where only the c18n run-time linker would read it
    assert old["variants"]["purecap-c18n"]["launcher"] == ["env", "LD_C18N_LIBRARY_PATH=."]
    assert old["variants"]["hybrid"]["launcher"] == ["env", "LD_C18N_LIBRARY_PATH=."]
    assert (
        "-Wl,-dynamic-linker,/libexec/ld-elf-c18n.so.1"
        in old["variants"]["purecap-c18n"]["c18n_by"]
    )
    assert "memory" in new["invalid"] and "memory" not in old.get("invalid", {})
    assert "ITERATIONS" not in str(old["timing"]["memory"]["metrics"]["write_ns"]["evidence"])
    assert build_of(old, "hybrid", "pipe")["compiler"] == "not recorded"  # no such program


def copy_of(tmp_path, name="morello-2024"):
    d = tmp_path / name
    shutil.copytree(ROOT / "datasets" / name, d)
    return d, yaml.safe_load((d / "dataset.yaml").read_text())


def refused(d, meta) -> str:
    (d / "dataset.yaml").write_text(yaml.safe_dump(meta, sort_keys=False))
    with pytest.raises(RawDataError) as e:
        datasets.load(str(d))
    return str(e.value)


def test_a_flag_or_a_line_that_the_source_does_not_show_is_refused(tmp_path):
    d, meta = copy_of(tmp_path)
    build = meta["variants"]["hybrid"]["builds"][1]  # cpu: clang-morello, no flags
    build["cflags"] = ["-O2"]
    build["optimisation"] = "-O2"
    msg = refused(d, meta)
    assert "variants.hybrid.builds[1]: '-O2' is on none of the cited lines" in msg

    d, meta = copy_of(tmp_path / "2")
    meta["variants"]["hybrid"]["builds"][0]["optimisation"] = "-O2"  # -g alone gives -O0
    assert "optimisation -O2 does not follow from the flags (-O0)" in refused(d, meta)

    d, meta = copy_of(tmp_path / "3")
    e = meta["invalid"]["memory"]["evidence"][0]
    e["line"] += 1
    msg = refused(d, meta)
    assert f"invalid.memory.evidence[0]: {e['file']}:{e['line']} does not say" in msg

    d, meta = copy_of(tmp_path / "4")
    e = meta["timing"]["cpu"]["evidence"][0]
    e["says"] = "clock_gettime(CLOCK_MONOTONIC"  # the CPU programs call clock()
    assert "timing.cpu.evidence[0]" in refused(d, meta)

    d, meta = copy_of(tmp_path / "5")
    meta["timing"]["pipe"]["evidence"][0]["file"] = "../../../etc/passwd"
    assert "timing.pipe.evidence[0]: ../../../etc/passwd: outside" in refused(d, meta)

    d, meta = copy_of(tmp_path / "6")
    (d / "source" / meta["invalid"]["pipe"]["evidence"][0]["file"]).write_text("edited\n")
    assert "invalid.pipe.evidence[0]" in refused(d, meta)


@pytest.mark.parametrize(
    "where",
    [
        ("variants", "benchmark-c18n", "builds", 0),
        ("timing", "memory"),
        ("timing", "pipe", "metrics", "message_wait_ns"),
        ("invalid", "memory"),
    ],
)
def test_the_schema_refuses_flags_timing_and_invalid_without_evidence(tmp_path, where):
    d, meta = copy_of(tmp_path)
    node = meta
    for k in where:
        node = node[k]
    del node["evidence"]
    key = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where).lstrip(".")
    msg = refused(d, meta)
    assert key in msg and "evidence" in msg, msg


def test_a_launcher_needs_the_run_line_that_shows_it(tmp_path):
    d, meta = copy_of(tmp_path)
    del meta["variants"]["purecap-c18n"]["evidence"]
    assert "variants.purecap-c18n: launcher 'proccontrol -m cheric18n -s enable' needs" in (
        refused(d, meta)
    )


def _runtime(meta, variant, experiment):
    return next(r for r in meta["variants"][variant]["runtime"] if experiment in r["experiments"])


def test_heap_revocation_stands_on_its_cited_lines(tmp_path):
    """On: the kernel's own 'revocation enabled by default' (the data set's log, cited relative to
    its folder) and a CheriABI build line; off: a build line without -mabi=purecap."""
    meta = datasets.load("morello-2024")
    assert _runtime(meta, "hybrid", "memory")["revocation"] == "off"
    assert _runtime(meta, "purecap-c18n", "memory")["revocation"] == "on"
    assert _runtime(meta, "benchmark-c18n", "pipe")["metrics"] == [
        "message_wait_ns",
        "write_plus_wait_ns",
    ]
    assert "runtime" not in str(datasets.load("cheribsd-22.12")["variants"])  # nothing recorded

    d, meta = copy_of(tmp_path)
    run = _runtime(meta, "purecap-c18n", "memory")
    run["evidence"] = [e for e in run["evidence"] if "revocation" not in e["says"]]
    i = meta["variants"]["purecap-c18n"]["runtime"].index(run)
    assert f"variants.purecap-c18n.runtime[{i}]: revocation on, but no cited line says" in (
        refused(d, meta)
    )

    d, meta = copy_of(tmp_path / "2")
    run = _runtime(meta, "hybrid", "memory")
    run["evidence"][0] = {  # a purecap build line under hybrid's "off"
        "file": "memory-performance/inside-tee-execution-purecap/memory-in-experiment-purecap.c",
        "line": 57,
        "says": "-mabi=purecap",
    }
    assert "revocation off needs a cited build line without -mabi=purecap" in refused(d, meta)

    d, meta = copy_of(tmp_path / "3")
    _runtime(meta, "hybrid", "pipe")["metrics"] = ["read_ns"]  # the study's pipe has no read
    assert "metric 'read_ns' is not a timed metric of pipe" in refused(d, meta)

    d, meta = copy_of(tmp_path / "4")  # the log line, read relative to the data set's folder
    log = d / "isolation" / "study-logs" / "memory-regions-results.txt"
    log.write_text(log.read_text().replace("revocation enabled by default", "revocation off"))
    assert "memory-regions-results.txt:56 does not say" in refused(d, meta)


def test_a_link_flag_said_to_give_c18n_must_be_a_cited_ldflag(tmp_path):
    d, meta = copy_of(tmp_path, "cheribsd-22.12")
    meta["variants"]["purecap-c18n"]["c18n_by"] = "linking with -Wl,-dynamic-linker,/libexec/x.so"
    assert "'-Wl,-dynamic-linker,/libexec/x.so' is no ldflag" in refused(d, meta)


def test_compartments_seen_cites_the_study_s_own_log(tmp_path):
    """24.05's E6 log (procstat -v of both processes) maps libc from the c18n library directory;
    nothing of 22.12's logs shows compartments."""
    new, old = datasets.load("morello-2024"), datasets.load("cheribsd-22.12")
    assert "not verified by the study for E1 to E4" in new["compartments_seen"]["text"]
    assert old["compartments_seen"]["text"].startswith("not verified by the study")
    d, meta = copy_of(tmp_path)
    meta["compartments_seen"]["evidence"][1]["line"] = 97
    assert "compartments_seen.evidence[1]: isolation/study-logs/memory-regions-results.txt:97" in (
        refused(d, meta)
    )


def test_the_cpu_section_s_line_numbers_say_what_it_claims():
    """Appendix A.3 cites where the study's array workload allocates, frees and reads the clock
    (its malloc and free outside the clock calls): the shipped source's lines say so, and no
    other program of 24.05 puts an allocation between its clock calls."""
    import re

    text = " ".join((ROOT / "paper" / "sections" / "cpu.tex").read_text().split())
    m = re.search(r"lines (\d+) and (\d+), against (\d+) and (\d+)", text)
    assert m, text
    malloc, free, start, end = (int(x) for x in m.groups())
    source = ROOT / "datasets" / "morello-2024" / "source" / "cpu-performance"
    lines = (source / "inside-tee-execution-purecap" / "cpu-in-experiment-purecap.c").read_text()
    lines = lines.splitlines()
    assert "malloc(" in lines[malloc - 1] and "free(array)" in lines[free - 1]
    assert "start = clock()" in lines[start - 1] and "end = clock()" in lines[end - 1]
    assert malloc < start < end < free
    # 'alike in the other programs': each allocates before its clock starts and frees after
    for program in source.rglob("cpu-*.c"):
        body = program.read_text().split("void perform_array_test(", 1)[1].split("\n}\n", 1)[0]
        at = [body.index(x) for x in ("malloc(", "start = clock()", "end = clock()", "free(")]
        assert at == sorted(at), program


def test_the_24_05_purecap_c18n_cpu_file_is_the_job_the_log_shows_launched_with_c18n():
    """Threats says the 24.05 purecap + c18n CPU session's log ties its timed file to the job
    started with proccontrol -m cheric18n (A231): the program prints the sum of its trials'
    times, and the log reports that job done, so the file is that job's."""
    meta = datasets.load("morello-2024")
    cited = {e["line"]: e["says"] for e in meta["compartments_seen"]["evidence"]}
    total = int(re.search(r"Total execution time: (\d+) milliseconds", cited[17])[1])
    assert "proccontrol -m cheric18n -s enable" in cited[19]
    times = pd.read_csv(ROOT / "datasets" / "morello-2024" / "cpu" / "purecap-c18n.csv")
    assert times["CPU Time (ms)"].sum() == total == 7402052
    # and the other files' sums differ from it: the match names one file
    other = pd.read_csv(ROOT / "datasets" / "morello-2024" / "cpu" / "benchmark-c18n.csv")
    assert other["CPU Time (ms)"].sum() != total
    # the tie in C.2, with the lines it rests on; what it shows in Threats (A235, B235, R235)
    more = " ".join((ROOT / "paper" / "sections" / "threats-more.tex").read_text().split())
    assert "the total the job printed is the sum of the file's times" in more, more
    assert "lines~17 and~19" in more, more
    text = " ".join((ROOT / "paper" / "sections" / "threats.tex").read_text().split())
    assert "a log shows that \\ctn was requested, not whether it was active" in text, text
