"""The original study's CSV layouts, read by meaning, become tidy rows with units made explicit."""

import math
import re

import pytest

from c18n_ae.analysis.collect import check_tidy, collect
from c18n_ae.analysis.imports import dataset_files, import_file
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common import datasets
from c18n_ae.common.rawcsv import RawDataError
from conftest import ROOT

MEMORY = (
    "Block Size (MB),Trial Num,Allocation Time (ms),Write Time (ms),Read Time (ms),Free Time (ms)\n"
    "100,1,2,282584,282581,6\n"
    "100,2,3,282590,282570,7\n"
    "1000,1,Allocation failed,,,\n"
    "\n"
    "Total execution time: 123456 milliseconds\n"
)


def place(tmp_path, text, name="memory.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def imported(path, layout=None):
    """import_file with its rows as tuples (clean files come back as one DataFrame)."""
    import pandas as pd

    exp, rows, meta = import_file(path, layout)
    if isinstance(rows, pd.DataFrame):
        rows = [
            tuple(x.item() if hasattr(x, "item") else x for x in r)
            for r in rows.itertuples(index=False, name=None)
        ]
    return exp, rows, meta


def test_memory_layout_with_failure_and_footer(tmp_path):
    exp, rows, meta = imported(place(tmp_path, MEMORY))
    assert exp == "memory" and meta["footer"] == "Total execution time: 123456 milliseconds"
    write = [r for r in rows if r[3] == "write_ns" and r[6] == "ok"]
    assert write[0] == (1, "block_mib", 100.0, "write_ns", 282584e6, "ns", "ok")  # ms as labelled
    failed = [r for r in rows if r[6] == "alloc_failed"]
    assert len(failed) == 4 and all(math.isnan(r[4]) for r in failed) and failed[0][2] == 1000.0


def test_older_release_headers_and_units_from_the_header(tmp_path):
    """`Test Number` for `Trial Num`, `Test Type` for `Operation`, other column orders and units."""
    cpu = place(
        tmp_path, "Test Number,Test Type,CPU Time (ms)\n1,maths,46759\n2,int,922\n", "cpu.csv"
    )
    exp, rows, _ = imported(cpu)
    assert exp == "cpu" and [(r[3], r[4]) for r in rows] == [
        ("math_cpu_ns", 46759e6),
        ("int_cpu_ns", 922e6),
    ]
    mem = place(
        tmp_path,
        "test_number,block size (MB),WRITE TIME (us),Read Time (us),Free Time (us),"
        "Allocation Time (us)\n3,100,282584,282581,6,2\n",
        "old-memory.csv",
    )
    exp, rows, meta = imported(mem)
    assert exp == "memory" and meta["units"]["write"] == "us"
    assert (3, "block_mib", 100.0, "write_ns", 282584e3, "ns", "ok") in rows
    assert (3, "block_mib", 100.0, "malloc_ns", 2e3, "ns", "ok") in rows


def test_cpu_pipe_and_scale_layouts(tmp_path):
    pipe = place(
        tmp_path,
        "Test,Message Size (Bytes),Write Time (ms),Read Time (ms),Total Time (ms)\n"
        "1,1024,0.016,0.161,0.177\n2,1024,0.003,0.068,0.071\n",
        "pipe.csv",
    )
    _, rows, _ = imported(pipe)
    assert rows[0] == (
        1,
        "message_bytes",
        1024.0,
        "write_ns",
        pytest.approx(16000.0),
        "ns",
        "warmup",
    )
    assert {r[6] for r in rows if r[0] == 2} == {"ok"}
    sc = place(
        tmp_path,
        "Number of Processes,Memory Used (MB),Time Elapsed (ms)\n1,900,500\n2,910,1000\n",
        "s.csv",
    )
    _, rows, _ = imported(sc)
    assert (1, "instances", 1.0, "memory_used_mib", 900.0, "MiB", "ok") in rows
    assert (1, "instances", 1.0, "elapsed_ms", 500.0, "ms", "ok") in rows
    assert len(rows) == 4


@pytest.mark.parametrize(
    "text, message",
    [
        ("TrialNum,Operation,CPU Time (ms)\n1,math\n", r"cpu.csv:2: expected 3 fields, found 2"),
        (
            "TrialNum,Operation,CPU Time (ms)\n1,math,fast\n",
            r"cpu.csv:2: column CPU Time \(ms\): 'fast' is not a number",
        ),
        (
            "TrialNum,Operation,CPU Time (ms)\n1,sort,3\n",
            r"cpu.csv:2: column Operation: unexpected 'sort'",
        ),
        (
            "Trial,Op,Time (hours)\n1,math,3\n",
            r"cpu.csv:1: header 'Trial,Op,Time \(hours\)' matches none of the original "
            r"study's layouts; closest layout: cpu \(TrialNum, Operation, CPU Time \(ms\)\)",
        ),
        (
            "TrialNum,Operation,CPU Time (ms),Colour\n1,math,3,red\n",
            r"cpu.csv:1: header .* matches none",
        ),
    ],
)
def test_malformed_input_names_file_and_line(tmp_path, text, message):
    with pytest.raises(RawDataError, match=message):
        import_file(place(tmp_path, text, name="cpu.csv"))


def test_every_shipped_file_imports_and_reproduces_the_printed_tables():
    meta = datasets.load("morello-2024")
    files = dataset_files(meta)
    assert {(e, v) for e, v, _ in files} == {
        ("memory", "hybrid"),
        ("memory", "purecap-c18n"),
        ("memory", "benchmark-c18n"),
        ("cpu", "hybrid"),
        ("cpu", "purecap-c18n"),
        ("cpu", "benchmark-c18n"),
        ("pipe", "hybrid"),
        ("pipe", "purecap-c18n"),
        ("pipe", "benchmark-c18n"),
        ("scale", "purecap-c18n"),
        ("scale", "benchmark-c18n"),
        ("isolation", "purecap-c18n"),
        ("isolation", "benchmark-c18n"),
    }
    tidy = {
        e: check_tidy(collect(e, [], [p for x, _, p in files if x == e]))
        for e in dict.fromkeys(x for x, _, p in files if p.is_file())
    }
    assert set(tidy["memory"].source) == {"morello-2024"}
    s = summary_table(tidy["memory"])
    w = s[(s.variant == "hybrid") & (s.parameter_value == 100) & (s.metric == "write_ns")].iloc[0]
    assert (
        round(w["mean"] / 1e6, 3) == 282.584 and w["n"] == 100
    )  # printed "282,584" (µs labelled ms)
    m = s[
        (s.variant == "purecap-c18n") & (s.parameter_value == 100) & (s.metric == "malloc_ns")
    ].iloc[0]
    assert round(m["mean"] / 1e6, 3) == 0.093
    scale = tidy["scale"]
    assert scale[scale.variant == "purecap-c18n"].trial.max() == 586
    assert scale[scale.variant == "benchmark-c18n"].trial.max() == 615


def test_shipped_files_are_the_study_files_byte_for_byte():
    shared = ROOT.parent / "shared" / "reference" / "original-raw"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    copies = {  # shipped path -> path in ../shared (renamed to say what each file is)
        "isolation/purecap-c18n-pipe.csv": "isolation/purecap-c18n/pipe-in-experiment-results.csv",
        "isolation/benchmark-c18n-pipe.csv": (
            "isolation/benchmark-c18n/pipe-in-experiment-purecap-benchmark-results.csv"
        ),
    }
    for name, folder in (("morello-2024", ""), ("cheribsd-22.12", "cheribsd-22.12/")):
        meta = datasets.load(name)
        for f in meta["files"] + meta.get("documents", []):
            mine = ROOT / "datasets" / name / f["path"]
            if mine.is_dir():  # the E6 logs: byte-identical in both of the study's folders
                for log in mine.iterdir():
                    for variant in ("purecap-c18n", "benchmark-c18n"):
                        assert (
                            log.read_bytes()
                            == (shared / "isolation" / variant / log.name).read_bytes()
                        )
                continue
            original = copies.get(f["path"], folder + f["path"].replace("study-logs/", ""))
            assert mine.read_bytes() == (shared / original).read_bytes(), f["path"]
        assert (ROOT / "datasets" / name / "LICENSE").read_bytes() == (
            shared / "LICENSE"
        ).read_bytes()
    assert (ROOT / "datasets" / "morello-2024" / "LICENSE").read_bytes() == (
        shared / "LICENSE"
    ).read_bytes()
    notice = (ROOT / "datasets" / "morello-2024" / "NOTICE").read_text()
    assert re.search(
        r"CAMB-DSbD/tee-morello-performance-experiments.*\n.*1731c6ad24957a7a756721170710bed3b9b4e706",
        notice,
    )


def test_a_data_set_with_a_bad_metadata_file_names_it(tmp_path):
    d = tmp_path / "mine"
    d.mkdir()
    with pytest.raises(RawDataError, match=r"mine/dataset.yaml not found"):
        datasets.load(str(d))
    (d / "dataset.yaml").write_text("name: mine\ntitle: t\n")
    with pytest.raises(RawDataError, match=r"dataset.yaml: \(top level\): 'measured_by' is a"):
        datasets.load(str(d))
    base = (
        "name: mine\ntitle: t\nmeasured_by: me\nmeasured_when: now\n"
        "source: {repository: r, commit: abcdef0, license: MIT}\n"
        "host: {model: m, os: o, arch: a}\n"
        "reference_variant: a\nvariants: {a: {description: d, abi: hybrid, c18n: false}}\n"
    )
    # one message per mistake, naming the key
    (d / "dataset.yaml").write_text(base + "files: [{path: x.csv, variant: a, layout: guess}]\n")
    with pytest.raises(
        RawDataError, match=r"files\[0\]\.layout: 'guess' is not allowed; allowed: "
    ):
        datasets.load(str(d))
    (d / "dataset.yaml").write_text(base + "files: [{path: x.csv, variant: b}]\n")
    with pytest.raises(RawDataError, match=r"files\[0\].variant 'b' is not among variants \(a\)"):
        datasets.load(str(d))
    (d / "dataset.yaml").write_text(base + "files: [{path: x.csv, variant: a}]\n")
    with pytest.raises(RawDataError, match=r"files\[0\].path x.csv: file not found"):
        datasets.load(str(d))
    (d / "x.csv").write_text(MEMORY)
    assert datasets.variant_of(d / "x.csv") == ("mine", "a")
    with pytest.raises(RawDataError, match="holds memory data, not cpu"):
        collect("cpu", [], [d / "x.csv"])


def test_the_column_wise_reader_equals_the_row_by_row_one():
    """Clean files are read column-wise (linear, little memory); files with a failed allocation,
    a bad value or a misplaced footer go through the row-by-row reader. Both give the same rows."""
    import pandas as pd

    from c18n_ae.analysis import imports

    for name in ("morello-2024", "cheribsd-22.12"):
        meta = datasets.load(name)
        for entry in meta["files"]:
            if entry.get("layout") == "isolation-logs":
                continue
            path = ROOT / "datasets" / name / entry["path"]
            _, fast, _ = import_file(path, entry.get("layout"))
            assert isinstance(fast, pd.DataFrame), path
            mapped = imports.map_header(imports.header_of(path))
            original = imports._fast_rows
            imports._fast_rows = lambda *a: None  # the row-by-row reader alone
            try:
                _, slow, _ = import_file(path, entry.get("layout"))
            finally:
                imports._fast_rows = original
            slow = pd.DataFrame(slow, columns=list(fast.columns))
            key = ["metric", "trial", "parameter_value"]
            text = {c: str for c in ("parameter", "parameter_value", "metric", "unit", "status")}
            a = fast.astype(text).sort_values(key).reset_index(drop=True)
            b = slow.astype(text).sort_values(key).reset_index(drop=True)
            pd.testing.assert_frame_equal(a, b, check_dtype=False)
            assert mapped is not None


def test_the_column_wise_reader_refuses_what_the_row_by_row_one_does(tmp_path):
    """The column-wise reader reads the file itself (no row-by-row pass first): a long first row,
    a file cut in the middle of a row, blank lines and a footer, a trial too wide for 32 bits."""
    header = "TrialNum,Operation,CPU Time (ms)\n"
    with pytest.raises(RawDataError, match=r"cpu.csv:2: expected 3 fields, found 4"):
        import_file(place(tmp_path, header + "1,math,3,4\n2,int,5\n", "cpu.csv"))
    with pytest.raises(RawDataError, match=r"cpu.csv:3: the file ends in the middle of a row"):
        import_file(place(tmp_path, header + "1,math,3\n2,int,5", "cpu.csv"))
    text = header + "1,math,3\n\n2,int,5\n\nTotal execution time: 9 ms\n"
    _, rows, meta = imported(place(tmp_path, text, "cpu.csv"))
    assert [(r[0], r[3], r[4]) for r in rows] == [(1, "math_cpu_ns", 3e6), (2, "int_cpu_ns", 5e6)]
    assert meta["footer"] == "Total execution time: 9 ms"
    _, rows, _ = imported(place(tmp_path, header + "3000000001,math,3\n", "cpu.csv"))
    assert rows[0][0] == 3000000001
