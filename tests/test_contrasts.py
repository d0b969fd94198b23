"""Contrasts named by everything that differs, on the shipped data sets' recorded builds."""

import json

import pandas as pd

from c18n_ae.analysis import contrasts
from c18n_ae.common import datasets


def known():
    """source -> variant -> its entry with its files' hosts, as variants_of gives a data set's."""
    return {
        n: contrasts.dataset_variants(datasets.load(n)) for n in ("morello-2024", "cheribsd-22.12")
    }


def test_the_study_s_benchmark_builds_mix_the_optimisation_level_and_compiler():
    """24.05: purecap-benchmark's CPU program was built `cc -g -O2`, hybrid's with clang-morello
    and no -O flag (cpu-in-experiment-purecap-benchmark.c:51, cpu-out-experiment.c:45): the level
    confounds; the compiler's name is said beside it, possibly also, only where no binary records
    the build (E2 memory): the E3 binaries record one clang 14.0.0 build for every variant."""
    k = known()
    mixed = contrasts.confounded_by(k, "morello-2024", "benchmark-c18n", "hybrid", "cpu")
    assert mixed == "optimisation -O2 against -O0"
    maybe = contrasts.possibly_also(k, "morello-2024", "benchmark-c18n", "hybrid", "cpu")
    # the benchmark CPU file ran on morello-camb-3; hybrid's names no host: perhaps two boards
    # said in words, never 'board morello-camb-3 against not recorded'
    two = "so the two may come from different boards"
    assert maybe == (
        "the benchmark-c18n files name host morello-camb-3 but the hybrid files name no host, "
        + two
    )
    memory = contrasts.possibly_also(k, "morello-2024", "benchmark-c18n", "hybrid", "memory")
    assert memory.startswith("compiler cc against clang-morello; the benchmark-c18n files"), memory
    assert contrasts.possibly_also(k, "morello-2024", "purecap-c18n", "hybrid", "cpu") == (
        f"the purecap-c18n files name host morello-camb-3 but the hybrid files name no host, {two}"
    )
    assert contrasts.possibly_also(k, "morello-2024", "hybrid", "purecap-c18n", "cpu") == (
        f"the purecap-c18n files name host morello-camb-3 but the hybrid files name no host, {two}"
    )
    assert contrasts.contrast_name(k, "morello-2024", "benchmark-c18n", "hybrid", "cpu") == (
        "purecap-benchmark -O2 in compartments against hybrid -O0 without"
    )
    assert contrasts.contrast_name(k, "morello-2024", "benchmark-c18n", "hybrid", "memory") == (
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
    """22.12: no revocation recorded; the two builds differ only in the compiler's name, both
    without -O: not a confound, said beside the verdict as possibly also where no binary records
    the build (E2), and not at all where the binaries record one (E3's clang 13.0.0)."""
    k = known()
    mixed = contrasts.confounded_by(
        k, "cheribsd-22.12", "purecap-c18n", "hybrid", "memory", "free_ns"
    )
    assert mixed == ""
    maybe = contrasts.possibly_also(k, "cheribsd-22.12", "purecap-c18n", "hybrid", "memory")
    assert maybe == "compiler clang-morello against clang"
    assert contrasts.possibly_also(k, "cheribsd-22.12", "purecap-c18n", "hybrid", "cpu") == ""
    # one recorded build for two names is one compiler; two builds stay two names
    a = contrasts.facts({"abi": "purecap", "cc": "clang-morello", "c18n": True})
    b = contrasts.facts({"abi": "hybrid", "cc": "clang"})
    one = {"compiler_build": "clang version 13.0.0 (x)"}
    assert contrasts.possibly({**a, **one}, {**b, **one}) == []
    two = {**b, "compiler_build": "clang version 14.0.0 (y)"}
    assert contrasts.possibly({**a, **one}, two) == ["compiler clang-morello against clang"]


def test_a_name_alone_is_possibly_also_and_a_level_is_a_confound():
    a = contrasts.facts({"abi": "purecap", "cc": "clang-morello", "cflags": [], "c18n": True})
    b = contrasts.facts({"abi": "hybrid", "cc": "clang", "cflags": []})
    assert contrasts.confounds(a, b) == []
    assert contrasts.possibly(a, b) == ["compiler clang-morello against clang"]
    c = contrasts.facts({"abi": "hybrid", "cc": "clang", "cflags": ["-O2"]})
    assert contrasts.confounds(a, c) == ["optimisation -O0 against -O2"]


def test_files_from_two_hosts_confound_their_contrast_where_recorded():
    """24.05: E4's hybrid program was built and run on morello-camb-2 (pipe-out-experiment.c:19,
    21), its purecap-benchmark one on morello-camb-3 (pipe-in-experiment.c:34): two boards. The
    purecap one is camb-2's too: no board between it and hybrid. Memory's hybrid file names no
    host: nothing is claimed."""
    k = known()
    pipe = contrasts.confounded_by(
        k, "morello-2024", "benchmark-c18n", "hybrid", "pipe", "write_ns"
    )
    assert "board morello-camb-3 against morello-camb-2" in pipe
    same = contrasts.confounded_by(k, "morello-2024", "purecap-c18n", "hybrid", "pipe", "write_ns")
    assert same == ""
    memory = contrasts.confounded_by(
        k, "morello-2024", "purecap-c18n", "hybrid", "memory", "write_ns"
    )
    assert "board" not in memory


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
    assert list(out.possibly_also) == ["", ""]


# --- a board run's recorded state (meta.json checks.board.variants.<v>.state) -------------------


def board_meta(results, variant, recipe, system_text, process_revocation):
    """A meta.json as a board run writes it beside its raw.csv: the state made by the board
    check's own code from the state probe's output and what proccontrol showed."""
    from c18n_ae.targets import board_checks as bc

    system = bc.system_state(system_text)
    seen = {"compartments": 4 if recipe.get("c18n") else 0}
    if process_revocation:
        seen["process_revocation"] = {"active": process_revocation == "on"}
    state = bc.variant_state(system, seen, recipe)
    meta = {
        "target": "board",
        "variant": variant,
        "checks": {"board": {"system": system, "variants": {variant: {"state": state}}}},
    }
    run = results / "board" / variant / "memory"
    run.mkdir(parents=True)
    (run / "meta.json").write_text(json.dumps(meta))
    return run / "raw.csv"


NODEBUG = (
    "kern.ident=GENERIC-MORELLO-PURECAP-NODEBUG\nkern.features.invariants=\n"
    "security.cheri.runtime_revocation_default=1\nsecurity.cheri.lib_based_c18n_default=0\n"
    "dev.cpu.0.freq=2500\npowerd=absent\n"
)
DEBUG = NODEBUG.replace("-NODEBUG", "").replace("invariants=\n", "invariants=1\n")
BOARD = {
    "hybrid": {"name": "hybrid", "cc": "clang-morello", "abi": "hybrid", "cflags": ["-O2"]},
    "purecap-c18n": {
        "name": "purecap-c18n",
        "cc": "clang-morello",
        "abi": "purecap",
        "cflags": ["-O2"],
        "c18n": True,
    },
    "purecap-c18n-norevoke": {
        "name": "purecap-c18n-norevoke",
        "cc": "clang-morello",
        "abi": "purecap",
        "cflags": ["-O2"],
        "c18n": True,
        "revocation": "off",
    },
}


def board_rows(*pairs):
    return pd.DataFrame(
        [
            {"comparison": "variant", "source": "board", "reference_source": "board",
             "variant": a, "reference_variant": b, "experiment": "memory", "metric": "free_ns"}
            for a, b in pairs
        ]
    )  # fmt: skip


def test_a_boards_recorded_state_that_differs_confounds_the_contrast(tmp_path):
    """hybrid ran under a NODEBUG kernel without revocation, purecap-c18n under a debug kernel
    with it: both name the contrast; compartments (0 against 4) never do."""
    raws = [
        board_meta(tmp_path, "hybrid", BOARD["hybrid"], NODEBUG, "off"),
        board_meta(tmp_path, "purecap-c18n", BOARD["purecap-c18n"], DEBUG, "on"),
    ]
    states = contrasts.run_states(raws)
    assert states[("board", "hybrid")]["debug_kernel"] is False
    out = contrasts.annotate(board_rows(("purecap-c18n", "hybrid")), {"board": BOARD}, states)
    mixed = out.confounded_by.iloc[0]
    assert mixed == (
        "kernel GENERIC-MORELLO-PURECAP against GENERIC-MORELLO-PURECAP-NODEBUG; "
        "debug kernel yes against no; heap revocation on against off"
    )
    assert contrasts.confound_kinds(mixed) == ["kernel", "debug kernel", "heap revocation"]
    # without the recorded states (a local run, or no meta.json read) nothing is claimed
    assert (
        contrasts.annotate(board_rows(("purecap-c18n", "hybrid")), {"board": BOARD})
        .iloc[0]
        .confounded_by
        == ""
    )


def test_a_declared_axis_is_the_contrast_not_a_confound(tmp_path):
    """purecap-c18n-norevoke declares `revocation: "off"`: its revocation differing from
    purecap-c18n's is what the contrast measures; purecap-c18n against hybrid, which declare
    nothing, stays confounded by it; a key named in `differs:` is declared likewise."""
    raws = [
        board_meta(tmp_path, "hybrid", BOARD["hybrid"], NODEBUG, "off"),
        board_meta(tmp_path, "purecap-c18n", BOARD["purecap-c18n"], NODEBUG, "on"),
        board_meta(tmp_path, "purecap-c18n-norevoke", BOARD["purecap-c18n-norevoke"], NODEBUG, ""),
    ]
    states = contrasts.run_states(raws)
    assert states[("board", "purecap-c18n-norevoke")]["process_revocation"] == "off"
    rows = board_rows(
        ("purecap-c18n-norevoke", "purecap-c18n"),
        ("purecap-c18n", "hybrid"),
        ("purecap-c18n-norevoke", "hybrid"),
    )
    out = contrasts.annotate(rows, {"board": BOARD}, states)
    assert list(out.confounded_by) == ["", "heap revocation on against off", ""]
    # the same state without the declaration: the difference is a confound again
    undeclared = {**BOARD, "purecap-c18n-norevoke": {**BOARD["purecap-c18n"]}}
    out = contrasts.annotate(rows.iloc[:1], {"board": undeclared}, states)
    assert out.confounded_by.iloc[0] == "heap revocation off against on"
    # a state key named in differs: is declared too (here the CPU frequency)
    faster = tmp_path / "faster"
    raws = [
        board_meta(faster, "hybrid", BOARD["hybrid"], NODEBUG, "on"),
        board_meta(
            faster, "purecap-c18n", BOARD["purecap-c18n"], NODEBUG.replace("2500", "2000"), "on"
        ),
    ]
    states = contrasts.run_states(raws)
    out = contrasts.annotate(board_rows(("purecap-c18n", "hybrid")), {"board": BOARD}, states)
    assert out.confounded_by.iloc[0] == "CPU frequency 2000 MHz against 2500 MHz"
    declared = {**BOARD, "hybrid": {**BOARD["hybrid"], "differs": ["cpu_freq_mhz"]}}
    out = contrasts.annotate(board_rows(("purecap-c18n", "hybrid")), {"board": declared}, states)
    assert out.confounded_by.iloc[0] == ""


def test_the_analysis_step_reads_each_variants_state_beside_its_raw_csv(tmp_path):
    """analyse (the workflow's step) reads each run's meta.json: hybrid's debug kernel against
    purecap-c18n's NODEBUG one confounds their rows in comparisons.csv."""
    from c18n_ae.analysis import analyse

    raws = [
        board_meta(tmp_path, "hybrid", BOARD["hybrid"], DEBUG, "off"),
        board_meta(tmp_path, "purecap-c18n", BOARD["purecap-c18n"], NODEBUG, "off"),
    ]
    for i, raw in enumerate(raws):
        rows = ["trial,block_mib,status,malloc_ns,write_ns,read_ns,free_ns,run"]
        rows += [f"{t},16,ok,{100 + t + i},{200 + t},{300 + t},{400 + t + i},1" for t in range(20)]
        raw.write_text("\n".join(rows) + "\n")
    out = {k: tmp_path / f"{k}.csv" for k in ("tidy", "summary", "comparisons")}
    analyse.main(
        ["--experiment", "memory", "--reference", "board=hybrid"]
        + [x for k, p in out.items() for x in (f"--{k}", str(p))]
        + [str(r) for r in raws]
    )
    compared = pd.read_csv(out["comparisons"], keep_default_na=False)
    assert len(compared) and set(compared.confounded_by) == {
        "kernel GENERIC-MORELLO-PURECAP-NODEBUG against GENERIC-MORELLO-PURECAP; "
        "debug kernel no against yes"
    }


def test_possibly_also_reads_back_into_its_parts():
    """The words possibly() writes read back into parts (read_possibly), so that the paper can
    word them without variant IDs or host names; words of another shape stay whole."""
    host = contrasts.HOST_ONE_SIDE.format(
        named="purecap-c18n", host="morello-camb-3", other="hybrid"
    )
    parts = contrasts.read_possibly(f"compiler clang-morello against clang; {host}; odd words")
    assert parts == [
        {"kind": "compiler", "subject": "clang-morello", "baseline": "clang"},
        {"kind": "host", "named": "purecap-c18n", "host": "morello-camb-3", "other": "hybrid"},
        {"kind": "", "text": "odd words"},
    ]
    assert contrasts.read_possibly("") == []
