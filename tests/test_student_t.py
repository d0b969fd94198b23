"""c18n_ae.common.student_t gives scipy.special.stdtrit's Student's t quantiles without scipy
(whose import cost each analysis job 0.2 to 0.3 s): the same values to 1e-12 relative over a grid
of degrees of freedom (integer and not, small to past the series' LARGE_DF) and probabilities
(both tails, to 1e-12 from either end)."""

import math

import numpy as np
import pytest
from scipy.special import stdtrit

from c18n_ae.analysis import stats
from c18n_ae.common.student_t import LARGE_DF, quantile

DFS = [
    *range(1, 41),
    0.1, 0.5, 1.5, 2.5, 7.3, 123.4, 45.5, 99, 100, 250, 999, 1000, 4321, 9999,
    LARGE_DF, LARGE_DF + 1, 2e4, 1e5, 1e6, 1e7, 1e9,
]  # fmt: skip
PS = [
    1e-12, 1e-9, 1e-6, 1e-4, 1e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.4, 0.49, 0.5,
    0.51, 0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.999, 1 - 1e-4, 1 - 1e-6, 1 - 1e-9, 1 - 1e-12,
]  # fmt: skip


@pytest.mark.parametrize("df", DFS)
def test_quantile_equals_scipy_over_the_grid(df):
    for p in PS:
        want = float(stdtrit(df, p))
        got = quantile(df, p)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-300), (df, p, got, want)


def test_the_workflow_quantile_is_exact_where_a_closed_form_is():
    """Where t has a closed form (1, 2 and 4 degrees of freedom): scipy is the reference elsewhere,
    not here (probabilities 1e-3 from either end, where the forms keep their digits)."""
    for p in (p for p in PS if 1e-3 <= p <= 1 - 1e-3):
        q = 1 - p
        assert quantile(1, p) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-13)
        assert quantile(2, p) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * q), rel=1e-13)
        root = math.sqrt(4 * p * q)
        four = math.copysign(2 * math.sqrt(math.cos(math.acos(root) / 3) / root - 1), p - 0.5)
        assert quantile(4, p) == pytest.approx(four, rel=1e-9, abs=1e-12)  # the form's own error


def test_edges_and_nonsense():
    assert quantile(5, 0.5) == 0.0
    assert quantile(5, 1.0) == math.inf and quantile(5, 0.0) == -math.inf
    assert quantile(math.inf, 0.975) == pytest.approx(1.959963984540054, rel=1e-15)
    for df, p in ((0, 0.9), (-1, 0.9), (math.nan, 0.9), (3, math.nan), (3, 1.5), (3, -0.1)):
        assert math.isnan(quantile(df, p)), (df, p)
    for p in (0.001, 0.1, 0.3, 0.49):  # symmetric (1 - p itself rounded)
        assert quantile(7, p) == pytest.approx(-quantile(7, 1 - p), rel=1e-12)


def test_stats_stdtrit_takes_numbers_and_arrays_as_scipy_does():
    """As summary_table calls it: an array of degrees of freedom (NaN where a group has no
    trial), one probability."""
    df = np.array([1, 2, 9, np.nan, 29, 1e6, 9])
    got, want = stats.stdtrit(df, 0.975), stdtrit(df, 0.975)
    assert got.shape == want.shape and np.allclose(got, want, rtol=1e-12, equal_nan=True)
    scalar = stats.stdtrit(9, 0.975)
    assert np.ndim(scalar) == 0 and float(scalar) == pytest.approx(stdtrit(9, 0.975), rel=1e-13)
