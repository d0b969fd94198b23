"""E3 and E4: the real programs on small sizes, their collectors and summaries on known inputs."""

import csv
import subprocess

import pandas as pd
import pytest

from c18n_ae.analysis.collect import tidy_run
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common.rawcsv import RawDataError
from c18n_ae.experiments import cpu, pipe
from conftest import compile_benchmark, table_tex


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_cpu_program_runs_every_workload_and_repeats_its_checksums(tmp_path, cc):
    exe = compile_benchmark(cc, "cpu", tmp_path / "cpu")
    out = tmp_path / "raw.csv"
    done = subprocess.run(
        [exe, "--out", out, "--trials", "3", "--iterations", "20000", "--array-size", "5000"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    got = rows(out)
    assert [r["workload"] for r in got[:4]] == ["math", "int", "float", "array"] and len(got) == 12
    for w in ("int", "float", "array"):
        assert len({r["checksum"] for r in got if r["workload"] == w}) == 1
    array = next(r for r in got if r["workload"] == "array")
    assert float(array["checksum"]) == sum(range(5000))  # fill, double, halve: the identity
    assert all(int(r["cpu_ns"]) > 0 and int(r["wall_ns"]) > 0 for r in got)


def test_cpu_tidy_and_ratio_to_reference(tmp_path):
    raw = tmp_path / "raw.csv"
    raw.write_text(
        "trial,workload,iterations,status,cpu_ns,wall_ns,checksum\n"
        "1,math,100,ok,2000000,2100000,1.5\n2,math,100,ok,4000000,4100000,1.5\n"
    )
    fast = tidy_run(raw, "local", "O2", "cpu")
    slow = fast.assign(variant="O0", value=fast.value * 3)
    assert set(fast.metric) == {"math_cpu_ns", "math_wall_ns"}
    s = summary_table(pd.concat([fast, slow]))
    assert s[(s.variant == "O2") & (s.metric == "math_cpu_ns")].iloc[0]["mean"] == 3e6
    tex = table_tex("cpu", s, None, {"local": "O2"})
    assert "3.00 $\\pm$ 1.41" in tex and "reference" in tex and " 3.00 \\\\" in tex
    # with the trials at hand the overhead carries its bootstrap interval
    both = pd.concat([fast, slow])
    tex = table_tex("cpu", s, both, {"local": "O2"}, compare(both, {"local": "O2"}))
    # two trials a side: a wide interval, honestly; the values are written in steps of 0.1 ms
    # (CPU and wall times alike), and 30 steps on the smaller side allow two figures
    assert r"3.0$\times$ [1.5, 6.0]" in tex
    assert r"\newcommand{\CpuMathRatioLocalOZero}{3.00}" in cpu.macros(s, {"local": "O2"})


def test_cpu_rejects_an_unknown_workload(tmp_path):
    raw = tmp_path / "raw.csv"
    raw.write_text("trial,workload,iterations,status,cpu_ns,wall_ns,checksum\n1,maths,1,ok,1,1,1\n")
    with pytest.raises(RawDataError, match=r"raw.csv:2: column workload: unexpected 'maths'"):
        tidy_run(raw, "local", "O2", "cpu")


def test_pipe_program_verifies_messages_and_flags_warmup(tmp_path, cc):
    exe = compile_benchmark(cc, "pipe", tmp_path / "pipe")
    out = tmp_path / "raw.csv"
    done = subprocess.run(
        [exe, "--out", out, "--trials", "5", "--size", "1024", "--batch", "50"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    got = rows(out)
    assert [r["warmup"] for r in got] == ["1", "0", "0", "0", "0"]
    assert all(r["status"] == "ok" and int(r["read_ns"]) > 0 for r in got)
    assert all(int(r["write_plus_read_ns"]) == int(r["write_ns"]) + int(r["read_ns"]) for r in got)
    refused = subprocess.run(
        [exe, "--out", out, "--trials", "2", "--size", "100000", "--batch", "1"],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 64 and "at most 65536" in refused.stderr


def test_pipe_statistics_with_and_without_warmup(tmp_path):
    raw = tmp_path / "raw.csv"
    lines = [
        "trial,warmup,message_bytes,batch,status,write_ns,read_ns,write_plus_read_ns,roundtrip_ns",
        "1,1,1024,10,ok,10000,20000,30000,9000",
    ]
    lines += [f"{t},0,1024,10,ok,1000,2000,3000,5000" for t in range(2, 7)]
    raw.write_text("\n".join(lines) + "\n")
    tidy = tidy_run(raw, "local", "O2", "pipe")
    s = summary_table(tidy)
    without = s[s.metric == "write_ns"].iloc[0]
    with_warmup = s[s.metric == "write_incl_warmup_ns"].iloc[0]
    assert (without["n"], without["n_excluded"], without["mean"]) == (5, 1, 1000)
    assert (with_warmup["n"], with_warmup["mean"]) == (6, 2500)
    tex = table_tex("pipe", s, tidy)
    assert "1 (warm-up) & 10.0 & 20.0 & 30.0" in tex  # µs
    # the column's unit is the data's step (1 µs): the values are their counts of ticks already
    assert r"trials 2--6 & 1.00 $\pm$ 0 & 2.00 $\pm$ 0" in tex
    assert r"\newcommand{\PipeWriteInclWarmupUsLocalOTwo}{2.50}" in pipe.macros(s, {})
