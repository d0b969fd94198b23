"""The group codes of a tidy table (c18n_ae.analysis.groups) against pandas' own groupby: the same
groups, in the same order, with the same rows, for category, number (with a missing value) and
text keys, whether a group's rows sit together or are scattered."""

import numpy as np
import pandas as pd
import pytest

from c18n_ae.analysis.groups import Groups


def table(scattered: bool) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    n = 5000
    t = pd.DataFrame(
        {
            "variant": pd.Categorical(rng.choice(["purecap", "hybrid", "benchmark"], n)),
            "size": rng.choice([4096.0, 64.0, np.nan, 1.5], n),
            "role": rng.choice(["parent", "child"], n).astype(object),
            "value": rng.normal(size=n),
        }
    )
    # a data set's file: each group's rows in one block; a run's rows: the groups interleaved
    return t if scattered else t.sort_values(["role", "variant", "size"], kind="stable")


@pytest.mark.parametrize("scattered", [False, True])
def test_groups_are_pandas_groups_in_its_order(scattered):
    t = table(scattered).reset_index(drop=True)
    keys = ["variant", "size", "role"]
    g = Groups(t, keys)
    expected = t.groupby(keys, sort=True, dropna=False, observed=True)
    assert g.count == expected.ngroups
    assert (g.code == expected.ngroup().to_numpy()).all()
    assert g.size.tolist() == expected.size().tolist()
    index = expected.size().index.to_frame(index=False)
    for k in keys:
        same = (g.keys[k].to_numpy() == index[k].to_numpy()) | (
            pd.isna(g.keys[k]).to_numpy() & pd.isna(index[k]).to_numpy()
        )
        assert same.all(), k
    value = t.value.to_numpy()
    for i, (_, rows) in enumerate(expected):  # each group's values, in table order
        assert (g.take(value, i) == rows.value.to_numpy()).all()
        assert (g.take_index(i) == rows.index.to_numpy()).all()
    first = expected.ngroup().drop_duplicates().to_numpy()  # groups by their first row
    assert g.in_order_of_appearance().tolist() == first.tolist()
    batches = g.batches(700)
    assert np.concatenate(batches).tolist() == list(range(g.count))
    assert all(len(b) == 1 or g.size[b].sum() <= 700 for b in batches)
    for b in batches:
        rows = g.rows_of(b[0], b[-1])
        assert (np.isin(g.code[rows], b)).all() and len(rows) == g.size[b].sum()
        assert (np.diff(rows) > 0).all()  # in table order


def test_an_empty_table_has_no_groups():
    t = table(False).iloc[:0]
    g = Groups(t, ["variant", "size", "role"])
    assert g.count == 0 and len(g.keys) == 0 and g.batches(10) == []
