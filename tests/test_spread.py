"""Spread between boards for the same variant."""

import pandas as pd
import pytest

from c18n_ae.analysis.spread import latex_table, spread
from c18n_ae.analysis.summarise import SUMMARY_COLUMNS


def frame(rows):
    base = {c: 0 for c in SUMMARY_COLUMNS}
    return pd.DataFrame(
        [
            {
                **base,
                "experiment": "pipe",
                "parameter": "message_bytes",
                "unit": "ns",
                "n": 10,
                "source": t,
                "variant": v,
                "parameter_value": 1024,
                "metric": "write_ns",
                "mean": m,
            }
            for t, v, m in rows
        ]
    )


def test_spread_across_boards_and_none_for_a_single_target():
    sp = spread(
        {
            "pipe": frame(
                [
                    ("board1", "purecap-c18n", 90.0),
                    ("board2", "purecap-c18n", 110.0),
                    ("board1", "hybrid", 50.0),
                ]
            )
        }
    )
    (row,) = sp.itertuples(index=False)
    assert (row.variant, row.targets, row.n_targets, row.min_mean, row.max_mean) == (
        "purecap-c18n",
        "board1 board2",
        2,
        90,
        110,
    )
    assert row.spread_pct == pytest.approx(20.0)
    assert "pipe & purecap-c18n & write\\_ns & board1 board2 & 90.0 & 110 & 20.0" in latex_table(sp)
    assert "no spread to show" in latex_table(spread({"pipe": frame([("local", "O2", 1.0)])}))
