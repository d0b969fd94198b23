"""The original study's CSV layouts become tidy rows with units made explicit."""

import math

import pytest

from c18n_ae.collect import check_tidy, collect
from c18n_ae.imports import import_file, time_unit
from c18n_ae.rawcsv import RawDataError

MEMORY = ("Block Size (MB),Trial Num,Allocation Time (ms),Write Time (ms),Read Time (ms),Free Time (ms)\n"
          "100,1,2,282584,282581,6\n"
          "100,2,3,282590,282570,7\n"
          "1000,1,Allocation failed,,,\n"
          "\n"
          "Total execution time: 123456 milliseconds\n")


def place(tmp_path, text, variant="hybrid", name="memory.csv"):
    d = tmp_path / "imported" / "study" / variant
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_text(text)
    return d / name


def test_memory_layout_with_failure_and_footer(tmp_path):
    path = place(tmp_path, MEMORY)
    exp, rows, meta = import_file(path, "study", "hybrid")
    assert exp == "memory" and meta["footer"] == "Total execution time: 123456 milliseconds"
    write = [r for r in rows if r[3] == "write_ns" and r[6] == "ok"]
    assert write[0] == (1, "block_mb", 100.0, "write_ns", 282584e6, "ns", "ok")  # ms as labelled
    failed = [r for r in rows if r[6] == "alloc_failed"]
    assert len(failed) == 4 and all(math.isnan(r[4]) for r in failed) and failed[0][2] == 1000.0


def test_time_unit_override_converts_microseconds(tmp_path):
    path = place(tmp_path, MEMORY)
    (tmp_path / "imported" / "study" / "import.yaml").write_text("time_unit: us\n")
    unit = time_unit(tmp_path / "imported" / "study")
    _, rows, meta = import_file(path, "study", "hybrid", unit)
    assert meta["time_unit_assumed"] == "us" and rows[1][4] == 282584e3
    (tmp_path / "imported" / "study" / "import.yaml").write_text("time_unit: hours\n")
    with pytest.raises(RawDataError, match=r"import.yaml: time_unit: 'hours' is not allowed"):
        time_unit(tmp_path / "imported" / "study")


def test_cpu_pipe_and_scale_layouts(tmp_path):
    cpu = place(tmp_path, "TrialNum,Operation,CPU Time (ms)\n1,math,46759\n1,int,922\n", name="cpu.csv")
    _, rows, _ = import_file(cpu, "study", "hybrid")
    assert [(r[3], r[4]) for r in rows] == [("math_cpu_ns", 46759e6), ("int_cpu_ns", 922e6)]
    pipe = place(tmp_path, "Test,Message Size (Bytes),Write Time (ms),Read Time (ms),Total Time (ms)\n"
                           "1,1024,0.016,0.161,0.177\n2,1024,0.003,0.068,0.071\n", name="pipe.csv")
    _, rows, _ = import_file(pipe, "study", "purecap-c18n")
    assert rows[0] == (1, "message_bytes", 1024.0, "write_ns", pytest.approx(16000.0), "ns", "warmup")
    assert {r[6] for r in rows if r[0] == 2} == {"ok"}
    sc = place(tmp_path, "Number of Processes,Memory Used (MB),Time Elapsed (ms)\n1,900,500\n2,910,1000\n", name="s.csv")
    _, rows, _ = import_file(sc, "study", "hybrid")
    assert rows[:2] == [(1, "instances", 1.0, "memory_used_mb", 900.0, "MB", "ok"),
                        (1, "instances", 1.0, "elapsed_ms", 500.0, "ms", "ok")]


@pytest.mark.parametrize("text, message", [
    ("TrialNum,Operation,CPU Time (ms)\n1,math\n", r"cpu.csv:2: expected 3 fields, found 2"),
    ("TrialNum,Operation,CPU Time (ms)\n1,math,fast\n", r"cpu.csv:2: column CPU Time \(ms\): 'fast' is not a number"),
    ("TrialNum,Operation,CPU Time (ms)\n1,sort,3\n", r"cpu.csv:2: column Operation: unexpected 'sort'"),
    ("Trial,Op,Time\n1,math,3\n", r"cpu.csv:1: header matches none of the original study's layouts"),
])
def test_malformed_input_names_file_and_line(tmp_path, text, message):
    with pytest.raises(RawDataError, match=message):
        import_file(place(tmp_path, text, name="cpu.csv"), "study", "hybrid")


def test_collect_merges_imported_with_our_runs(tmp_path):
    path = place(tmp_path, MEMORY)
    df = check_tidy(collect("memory", [], [path]))
    assert set(df.target) == {"study"} and set(df.variant) == {"hybrid"}
    with pytest.raises(RawDataError, match="holds memory data, not cpu"):
        collect("cpu", [], [path])
