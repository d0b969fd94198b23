"""Summary, booktabs tables and macros on small known inputs."""

import pandas as pd
import pytest

from c18n_ae.analysis.collect import TIDY_COLUMNS
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common.latex import fmt, macro_name
from c18n_ae.experiments.memory import macros as memory_macros
from c18n_ae.report.setup_table import setup_table
from conftest import table_tex

MIB = 2**20


def tidy():
    rows = []
    for variant, scale in (("O2", 1), ("O0", 2)):
        for trial, w in enumerate((1e6, 2e6, 3e6), start=1):  # write of 100 MiB: 1, 2, 3 ms
            for metric, v in (
                ("malloc_ns", 1000),
                ("write_ns", w * scale),
                ("read_ns", w * scale / 2),
                ("free_ns", 5e5),
            ):
                rows.append(
                    [
                        "local",
                        variant,
                        "memory",
                        1,
                        trial,
                        "block_mib",
                        100.0,
                        metric,
                        v,
                        "ns",
                        "ok",
                    ]
                )
        for metric in ("malloc_ns", "write_ns", "read_ns", "free_ns"):
            rows.append(
                [
                    "local",
                    variant,
                    "memory",
                    1,
                    4,
                    "block_mib",
                    100.0,
                    metric,
                    float("nan"),
                    "ns",
                    "alloc_failed",
                ]
            )
    return pd.DataFrame(rows, columns=TIDY_COLUMNS)


def test_summary_counts_failures_and_derives_bandwidth():
    s = summary_table(tidy())
    w = s[(s.variant == "O2") & (s.metric == "write_ns")].iloc[0]
    assert (w["n"], w["n_excluded"], w["mean"], w["median"]) == (3, 1, 2e6, 2e6)
    bw = s[(s.variant == "O2") & (s.metric == "write_GBps")].iloc[0]
    assert bw["unit"] == "GB/s"
    assert bw["mean"] == pytest.approx((100 * MIB / 1e6 + 100 * MIB / 2e6 + 100 * MIB / 3e6) / 3)


def test_memory_table_has_units_and_values():
    tex = table_tex("memory", summary_table(tidy()), tidy())
    assert r"\toprule" in tex and r"\bottomrule" in tex
    assert r"write (\si{\milli\second})" in tex and r"(\si{\micro\second})" in tex
    assert r"(\si{\giga\byte\per\second})" in tex
    # O2 write: mean 2 ms, sd 1 ms; O0: 4 +- 2
    assert r"2.00 $\pm$ 1.00" in tex and r"4.00 $\pm$ 2.00" in tex


def test_macros_quote_summary_values_and_ratios():
    tex = memory_macros(summary_table(tidy()), {"local": "O2"})
    assert r"\newcommand{\MemWriteMsLocalOTwo}{2.00}" in tex
    assert r"\newcommand{\MemWriteRatioLocalOZero}{2.00}" in tex
    assert r"\newcommand{\MemReadRatioLocalOZero}{2.00}" in tex
    assert r"\newcommand{\MemFailedAllocsLocalOTwo}{1}" in tex
    assert r"\newcommand{\MemTrialsPerBlock}{4}" in tex
    assert "RatioLocalOTwo" not in tex  # no ratio of the reference to itself


def test_setup_table_escapes_and_has_one_column_per_target():
    prov = {
        "target": "my_board",
        "os": "Debian",
        "kernel": "Linux 6",
        "arch": "x86_64",
        "cpu_model": "CPU #1",
        "cpu_count": 2,
        "mem_total_bytes": 2**31,
        "compilers": {"cc": "cc 1.0 (50% off)"},
    }
    meta = {"target": "my_board", "variant": "O2", "program": {"timer_resolution_ns": 1}}
    tex = setup_table([prov], [meta])
    assert r"my\_board" in tex and r"50\% off" in tex and r"CPU \#1" in tex and "2.00" in tex
    assert "Machine or board & not reported" in tex and "Timer resolution" in tex
    assert "& 1 ns \\\\" in tex and "& 2.00 GiB \\\\" in tex  # each cell in its header's terms


@pytest.mark.parametrize(
    "value, text",
    [
        (123456.7, "123457"),
        (12.345, "12.3"),
        (1.2345, "1.23"),
        (0.012345, "0.0123"),
        (0, "0"),
        (float("nan"), "--"),
    ],
)
def test_number_format(value, text):
    assert fmt(value) == text


def test_macro_names_are_letters_only():
    assert macro_name("local", "O2") == "LocalOTwo"
    assert macro_name("morello-1", "purecap-c18n") == "MorelloOnePurecapCOneEightn"


def test_invalid_metrics_are_marked_for_their_experiment_only():
    import pandas as pd

    from c18n_ae.experiments.rows import mark_invalid

    summary = pd.DataFrame(
        {
            "source": ["set", "set", "set", "other"],
            "experiment": ["memory", "pipe", "memory", "memory"],
            "metric": ["write_ns", "write_ns", "malloc_ns", "write_ns"],
        }
    )
    marked = mark_invalid(summary, {"set": {"memory": {"write_ns": "no stores"}}})
    assert list(marked.invalid) == [True, False, False, False]
