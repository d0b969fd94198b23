"""Student's t quantile with the standard library: scipy.special.stdtrit's values (to about 1e-14
relative; tests/test_student_t.py compares them over a grid of degrees of freedom and
probabilities), without scipy, whose import took each analysis job 0.2 to 0.3 s for this one
function. The tail is the regularised incomplete beta function (its continued fraction, Numerical
Recipes 6.4), solved for t by Newton's method kept inside a bracket; from LARGE_DF degrees of
freedom on, the Cornish-Fisher series alone is exact to double precision."""

from __future__ import annotations

import math
from statistics import NormalDist

# From here on the series' next term (in 1/df^5) is below 1e-16 of t for |z| up to 6
LARGE_DF = 1e4
EPS = 1e-15  # the continued fraction's and Newton's relative tolerance
TINY = 1e-300


def quantile(df: float, p: float) -> float:
    """t such that P(T <= t) = p for Student's t with df > 0 degrees of freedom (NaN outside)."""
    if not (df > 0 and 0 <= p <= 1):  # also NaN
        return math.nan
    if p == 0.5:
        return 0.0
    sign, q = (1.0, 1.0 - p) if p > 0.5 else (-1.0, p)  # q: the upper tail, exact for p > 0.5
    if q == 0:
        return sign * math.inf
    if df == 1:  # Cauchy
        return sign / math.tan(math.pi * q)
    if df == 2:
        return sign * (1 - 2 * q) / math.sqrt(2 * q * (1 - q))
    z = -NormalDist().inv_cdf(q)
    if math.isinf(df):
        return sign * z
    guess = cornish_fisher(z, df)
    if df >= LARGE_DF:
        return sign * guess
    return sign * _solve(df, q, guess)


def cornish_fisher(z: float, df: float) -> float:
    """t from the normal quantile z by its expansion in 1/df (Abramowitz and Stegun 26.7.5)."""
    z2 = z * z
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df


def _solve(df: float, q: float, guess: float) -> float:
    """The t > 0 whose upper tail is q: Newton's steps on the tail, bisection where one would
    leave the bracket (the tail falls from 1/2 at 0, so the root is bracketed by 0 and a t whose
    tail is below q)."""
    log_b = _log_beta_half(df / 2)
    low, high = 0.0, max(guess, 1.0)
    while _tail(df, high, log_b) > q:
        low, high = high, 2 * high
    t = guess if low < guess < high else (low + high) / 2
    for _ in range(200):
        g = _tail(df, t, log_b) - q
        if g > 0:
            low = t
        else:
            high = t
        density = math.exp(-(df + 1) / 2 * math.log1p(t * t / df) - 0.5 * math.log(df) - log_b)
        new = t + g / density if density > 0 else math.nan
        if not low < new < high:
            new = (low + high) / 2
        if abs(new - t) <= EPS * new:
            return new
        t = new
    return t


def _tail(df: float, t: float, log_b: float) -> float:
    """P(T > t) for t >= 0: I_x(df/2, 1/2) / 2 with x = df / (df + t^2), from its continued
    fraction on the side where that converges (x below (a + 1) / (a + b + 2)), else 1 minus
    the other side's."""
    a, b = df / 2, 0.5
    if t == 0:
        return 0.5
    t2 = t * t
    log_x, log_1mx = -math.log1p(t2 / df), math.log(t2) - math.log(df + t2)
    front = math.exp(a * log_x + b * log_1mx - log_b)
    if math.exp(log_x) < (a + 1) / (a + b + 2):
        return front * _fraction(a, b, math.exp(log_x)) / a / 2
    return (1 - front * _fraction(b, a, math.exp(log_1mx)) / b) / 2


def _fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), by the modified Lentz method."""
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > TINY else TINY)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d, c = 1 + num * d, 1 + num / c
            d, c = 1 / (d if abs(d) > TINY else TINY), c if abs(c) > TINY else TINY
            h *= d * c
        if abs(d * c - 1) <= EPS:
            return h
    return h


# Stirling's series of log Gamma(x) past (x - 1/2) log x - x + log(2 pi) / 2: B_2k / (2k (2k-1))
STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)


def _stirling(x: float) -> float:
    return sum(c / x ** (2 * k + 1) for k, c in enumerate(STIRLING))


def _log_beta_half(a: float) -> float:
    """log B(a, 1/2) = log Gamma(a) + log Gamma(1/2) - log Gamma(a + 1/2). For large a, as the
    difference of the two Stirling series: lgamma's values there are large, and their
    difference would lose the digits the tail needs."""
    if a < 10:
        return math.lgamma(a) + math.lgamma(0.5) - math.lgamma(a + 0.5)
    # log Gamma(a + 1/2) - log Gamma(a) = log(a) / 2 + (a log(1 + 1/(2a)) - 1/2) + series
    rise = 0.5 * math.log(a) + (a * math.log1p(0.5 / a) - 0.5) + _stirling(a + 0.5) - _stirling(a)
    return math.lgamma(0.5) - rise
