"""Contrasts named by everything that differs, on the shipped data sets' recorded builds."""

from c18n_ae.analysis import contrasts
from c18n_ae.common import datasets


def known():
    return {n: datasets.load(n)["variants"] for n in ("morello-2024", "cheribsd-22.12")}


def test_the_study_s_benchmark_builds_mix_the_optimisation_level_and_compiler():
    """24.05: purecap-benchmark's CPU program was built `cc -g -O2`, hybrid's with clang-morello
    and no -O flag (cpu-in-experiment-purecap-benchmark.c:51, cpu-out-experiment.c:45)."""
    k = known()
    mixed = contrasts.confounded_by(k, "morello-2024", "benchmark-c18n", "hybrid", "cpu")
    assert "optimisation -O2 against -O0" in mixed and "compiler cc against clang-morello" in mixed
    assert contrasts.contrast_name(k, "morello-2024", "benchmark-c18n", "hybrid", "cpu") == (
        "purecap-benchmark cc -O2 in compartments against hybrid clang-morello -O0 without"
    )
    # purecap and hybrid were both built by clang-morello without -O: a compartment contrast
    assert contrasts.confounded_by(k, "morello-2024", "purecap-c18n", "hybrid", "cpu") == ""
    assert contrasts.contrast_name(k, "morello-2024", "purecap-c18n", "hybrid", "cpu") == (
        "purecap in compartments against hybrid without"
    )


def test_a_build_not_recorded_is_no_difference():
    k = known()
    assert (
        contrasts.confounded_by(k, "morello-2024", "benchmark-c18n", "purecap-c18n", "scale") == ""
    )


def test_two_optimisation_levels_of_one_abi_are_the_contrast_not_a_confound():
    a = contrasts.facts({"abi": "native", "cc": "cc", "cflags": ["-O0"]})
    b = contrasts.facts({"abi": "native", "cc": "cc", "cflags": ["-O2"]})
    assert contrasts.confounds(a, b) == []
    assert (
        contrasts.name(a, b, "O0", "O2") == "native -O0 against native -O2, neither in compartments"
    )
    # the same two levels beside a change of ABI are a confound
    c = contrasts.facts({"abi": "purecap", "cc": "cc", "cflags": ["-O2"], "c18n": True})
    assert contrasts.confounds(c, a) == ["optimisation -O2 against -O0"]
