"""One table per published study, each figure beside ours, side by side and never as a ratio
(the hardware is not known to be the same)."""

import pandas as pd

from c18n_ae.analysis.summarise import SUMMARY_COLUMNS
from c18n_ae.report.related import table as related_table
from conftest import related_pairs as pairs


def frame(rows):
    base = {c: 0 for c in SUMMARY_COLUMNS}
    return pd.DataFrame(
        [
            {
                **base,
                "source": "local",
                "variant": "O2",
                "experiment": e,
                "parameter": p,
                "parameter_value": v,
                "metric": m,
                "unit": "us",
                "n": 5,
                "mean": mean,
            }
            for e, p, v, m, mean in rows
        ]
    )


def test_every_published_figure_is_paired_with_one_of_ours():
    assert len(pairs("packet")) == 30 and {p["metric"] for p in pairs("packet")} == {
        "plugin_adjusted_latency_us",
        "ipc_adjusted_latency_us",
    }
    assert {p["at"] for p in pairs("ipc")} == {8, 16, 128, 1024, 4096, 8192, 65536}
    assert {p["metric"] for p in pairs("alloc")} == {"throughput_ops_per_s", "alloc_ns", "free_ns"}


def test_side_by_side_with_trials_no_ratio_and_dashes_where_ours_did_not_run():
    s = frame(
        [
            ("ipc", "message_bytes", 8, "pipe_roundtrip_us", 27.0),
            ("alloc", "threads", 1, "throughput_ops_per_s", 13101242.0),
        ]
    )
    tex = related_table(pairs("ipc"), s[s.experiment == "ipc"])
    # one column per target and variant, no ratio column; n given and, below the claims'
    # minimum of trials, the functional-check mark decided by LaTeX against \ClaimMinTrials
    assert "local/O2 \\\\" in tex and "ratio" not in tex
    row = next(x for x in tex.splitlines() if x.startswith("Fluke Null vs our pipe"))
    assert row.startswith(r"Fluke Null vs our pipe & 13.5 & \si{\micro\second} & 27.0 ($n=5$)")
    assert r"\ifnum5<\ClaimMinTrials\relax \textsuperscript{f}\else" in row
    assert "Fluke Null vs our unix socket & 13.5 & \\si{\\micro\\second} & -- \\\\" in tex
    # ours at most three significant figures
    alloc = related_table(pairs("alloc"), s[s.experiment == "alloc"])
    assert "13100000 ($n=5$)" in alloc and "13101242" not in alloc
    assert "did not run for this paper" in related_table(pairs("alloc"), None)
