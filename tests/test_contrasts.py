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


def test_heap_revocation_confounds_the_studys_malloc_and_free_but_not_its_write():
    """24.05: the purecap variants are CheriABI processes on a kernel that revokes by default (the
    study's log, memory-regions-results.txt:56), hybrid's libc does not revoke; the timed regions
    of E2's malloc and free, and E4's wait (the child's malloc and free of each message), are
    confounded by it; a pipe write, a CPU workload, are not."""
    k = known()
    revoking = "heap revocation on against off"
    for experiment, metric in (
        ("memory", "malloc_ns"),
        ("memory", "free_ns"),
        ("pipe", "message_wait_ns"),
        ("pipe", "message_wait_incl_warmup_ns"),
    ):
        assert (
            contrasts.confounded_by(k, "morello-2024", "purecap-c18n", "hybrid", experiment, metric)
            == revoking
        )
        mixed = contrasts.confounded_by(
            k, "morello-2024", "benchmark-c18n", "hybrid", experiment, metric
        )
        assert revoking in mixed and "optimisation -O2 against -O0" in mixed
    assert contrasts.contrast_name(
        k, "morello-2024", "purecap-c18n", "hybrid", "memory", "free_ns"
    ) == (
        "purecap (heap revocation on) in compartments against hybrid (heap revocation off) without"
    )
    for experiment, metric in (
        ("pipe", "write_ns"),
        ("memory", "write_ns"),
        ("cpu", "math_cpu_ns"),
    ):
        assert (
            contrasts.confounded_by(k, "morello-2024", "purecap-c18n", "hybrid", experiment, metric)
            == ""
        )
    # no metric named: only what applies to the whole experiment (the build)
    assert contrasts.confounded_by(k, "morello-2024", "purecap-c18n", "hybrid", "memory") == ""
    # both purecap variants revoke: their contrast mixes the build alone
    assert "revocation" not in contrasts.confounded_by(
        k, "morello-2024", "benchmark-c18n", "purecap-c18n", "memory", "free_ns"
    )


def test_22_12_records_no_revocation_so_none_is_claimed():
    k = known()
    mixed = contrasts.confounded_by(
        k, "cheribsd-22.12", "purecap-c18n", "hybrid", "memory", "free_ns"
    )
    assert mixed == "compiler clang-morello against clang"


def test_the_comparisons_are_annotated_per_metric():
    import pandas as pd

    rows = pd.DataFrame(
        [
            {"comparison": "variant", "source": "morello-2024", "reference_source": "morello-2024",
             "variant": "purecap-c18n", "reference_variant": "hybrid", "experiment": e,
             "metric": m}
            for e, m in (("memory", "free_ns"), ("pipe", "write_ns"))
        ]
    )  # fmt: skip
    out = contrasts.annotate(rows, known())
    assert list(out.confounded_by) == ["heap revocation on against off", ""]
