import io
import math

import pytest

from c18n_ae.analysis.stats import summarise


def test_known_sample():
    s = summarise([1, 2, 3, 4, 5])
    assert s["n"] == 5
    assert s["mean"] == 3
    assert s["sd"] == pytest.approx(math.sqrt(2.5))
    assert s["median"] == 3
    assert s["p5"] == pytest.approx(1.2)
    assert s["p95"] == pytest.approx(4.8)
    # t(0.975, 4) = 2.776445105
    half = 2.776445105 * math.sqrt(2.5) / math.sqrt(5)
    assert s["ci95_low"] == pytest.approx(3 - half, rel=1e-6)
    assert s["ci95_high"] == pytest.approx(3 + half, rel=1e-6)
    assert s["n_outliers"] == 0


def test_outliers_by_iqr_rule():
    # q1=2, q3=4 by linear interpolation over 1..5 plus 100: IQR fence excludes only 100
    s = summarise([1, 2, 3, 4, 5, 100])
    assert s["n_outliers"] == 1
    assert s["mean"] == pytest.approx(115 / 6)


def test_nan_is_ignored_and_single_value_has_no_spread():
    s = summarise([float("nan"), 7.0])
    assert s["n"] == 1 and s["mean"] == 7.0 and s["median"] == 7.0
    assert math.isnan(s["sd"]) and math.isnan(s["ci95_low"])


def test_empty_sample():
    s = summarise([])
    assert s["n"] == 0 and math.isnan(s["mean"])


def test_the_grouped_summary_equals_summarise_group_by_group():
    """summary_table aggregates all groups at once; each row must equal summarise() of its group,
    on the study's real files (heavy tails, failed allocations, warm-up rows, E6 categories)."""
    import pandas as pd

    from c18n_ae.analysis.collect import collect
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.analysis.summarise import KEYS, summary_table, with_derived
    from c18n_ae.common import datasets

    files = dataset_files(datasets.load("morello-2024"))
    for experiment in dict.fromkeys(e for e, _, _ in files):
        tidy = collect(experiment, [], [p for e, _, p in files if e == experiment])
        table = summary_table(tidy).set_index(KEYS)
        derived = with_derived(tidy)
        for key, group in derived.groupby(KEYS, sort=True, dropna=False, observed=True):
            row = table.loc[key]
            expected = summarise(group[group.status == "ok"]["value"])
            assert row["n_excluded"] == int((group.status != "ok").sum())
            for field, value in expected.items():
                got = row[field]
                if isinstance(value, float) and math.isnan(value):
                    assert pd.isna(got), (key, field)
                else:
                    assert got == pytest.approx(value, rel=1e-9, abs=1e-12), (key, field)


def test_categories_in_memory_give_the_same_summary_and_comparisons():
    """The analyse step keeps text columns as categories (board-scale memory); its summary and
    comparisons equal those of a table of plain text columns, row for row, on the shipped data."""
    import pandas as pd

    from c18n_ae.analysis.collect import collect
    from c18n_ae.analysis.comparisons import compare
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.analysis.summarise import summary_table, with_derived
    from c18n_ae.common import datasets

    names = ["morello-2024", "cheribsd-22.12"]
    files = [f for n in names for f in dataset_files(datasets.load(n))]
    refs = {n: "hybrid" for n in names}
    for experiment in dict.fromkeys(e for e, _, _ in files):
        tidy = collect(experiment, [], [p for e, _, p in files if e == experiment])
        assert isinstance(tidy.metric.dtype, pd.CategoricalDtype)
        plain = tidy.astype({c: object for c in tidy.columns if tidy[c].dtype == "category"})
        derived = with_derived(tidy)
        assert isinstance(derived.metric.dtype, pd.CategoricalDtype)
        pd.testing.assert_frame_equal(
            summary_table(plain), summary_table(derived, derived=True), check_dtype=False
        )
        key = ["source", "variant", "reference_source", "reference_variant", "parameter_value",
               "metric"]  # fmt: skip
        a = compare(plain, refs, names).astype({"parameter_value": str}).sort_values(key)
        b = compare(derived, refs, names, derived=True).astype({"parameter_value": str})
        pd.testing.assert_frame_equal(
            a.reset_index(drop=True), b.sort_values(key).reset_index(drop=True), check_dtype=False
        )


def test_grid_steps_of_the_study_clocks():
    """The step of each clock as the data show it: times written in µs (whole thousands of ns),
    clock() at 128 ticks a second written in whole ms (differences of 7 and 8 ms: a tick of
    7.8125 ms), memory in 4 KiB pages (1/256 MB); none in a continuous quantity."""
    import numpy as np

    from c18n_ae.analysis.stats import grid_step, written_step

    rng = np.random.default_rng(1)
    assert grid_step(np.array([2, 3, 3, 5, 9]) * 1000.0) == 1000.0
    ticks = np.round(rng.integers(5900, 6100, 300) * 7.8125)  # whole ms of a 128 Hz clock
    assert written_step(ticks) == 1.0
    assert grid_step(ticks) == pytest.approx(7.8125, rel=0.01)
    assert grid_step(rng.integers(340000, 350000, 500) / 256) == pytest.approx(1 / 256)
    assert math.isnan(grid_step(rng.lognormal(0, 1, 100)))  # no grid: floating point
    assert math.isnan(grid_step([5.0, 5.0]))  # one distinct value: nothing to see
    # float noise of decimal files (0.1 + 0.2) does not hide the written step
    assert grid_step(np.array([1, 2, 4]) * 0.1 + 456386.0) == pytest.approx(0.1)


def test_summary_counts_runs_and_their_spread_and_the_grid():
    """Two runs of three trials, run means 10 and 14 (sd of run means 2*sqrt(2)); a data set of
    one run has no between-run spread; values on a 1 µs grid give resolution 1000 ns."""
    import pandas as pd

    from c18n_ae.analysis.summarise import summary_table
    from c18n_ae.analysis.tidy import TIDY_COLUMNS

    rows = [
        ("b", "v", "cpu", run, t, "p", 1, "x_cpu_ns", v * 1000.0, "ns", "ok")
        for run, values in ((1, (9, 10, 11)), (2, (13, 14, 15)))
        for t, v in enumerate(values, start=1)
    ] + [("set", "v", "cpu", 1, t, "p", 1, "x_cpu_ns", 1000.0 * t, "ns", "ok") for t in (1, 2, 4)]
    s = summary_table(pd.DataFrame(rows, columns=TIDY_COLUMNS)).set_index("source")
    assert s.loc["b", "runs"] == 2 and s.loc["b", "run_sd"] == pytest.approx(4000 / math.sqrt(2))
    assert s.loc["set", "runs"] == 1 and math.isnan(s.loc["set", "run_sd"])
    assert (s["resolution"] == 1000.0).all()


def test_a_raw_file_of_several_runs_is_read_run_by_run(tmp_path):
    """The unit runner writes the run as the raw file's last column; trials restart per run."""
    from c18n_ae.analysis.collect import tidy_run
    from c18n_ae.common.rawcsv import RawDataError

    raw = tmp_path / "raw.csv"
    head = "block_mib,trial,status,malloc_ns,write_ns,read_ns,free_ns,checksum,run\n"
    raw.write_text(head + "100,1,ok,10,2000,1000,30,5,1\n100,1,ok,12,2100,1000,30,5,2\n")
    df = tidy_run(raw, "local", "O2", "memory")
    assert sorted(set(zip(df.run, df.trial))) == [(1, 1), (2, 1)]
    assert df[(df.run == 2) & (df.metric == "malloc_ns")].value.tolist() == [12]
    raw.write_text(head + "100,1,ok,10,2000,1000,30,5,0\n")
    with pytest.raises(RawDataError, match=r"raw.csv:2: column run: '0' is not a run >= 1"):
        tidy_run(raw, "local", "O2", "memory")


def shipped_tidy(name: str, experiment: str):
    from c18n_ae.analysis.collect import collect
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.analysis.summarise import with_derived
    from c18n_ae.common import datasets

    files = dataset_files(datasets.load(name))
    return with_derived(collect(experiment, [], [p for e, _, p in files if e == experiment]))


def test_the_shipped_data_show_the_clocks_their_sources_read():
    """Each data set's grid, estimated from its values alone, against the clock its dataset.yaml
    cites: times written in ms with three decimals (steps of 1 µs), clock() at 128 ticks a
    second (7.8125 ms) written in whole ms (within that written step: a workload whose values
    take three distinct ticks shows 8 ms), memory in use in 4 KiB pages."""
    from c18n_ae.analysis.stats import grid_steps

    clocks = {"memory": (1000.0, 0), "pipe": (1000.0, 0), "cpu": (1e9 / 128, 1e6)}
    for name, experiments in SHIPPED.items():
        for experiment in experiments:
            steps = grid_steps(shipped_tidy(name, experiment)).set_index("metric")["resolution"]
            if experiment in clocks:
                tick, written = clocks[experiment]
                times = steps[steps.index.str.endswith("_ns")]
                assert len(times) >= 3 and ((times - tick).abs() <= written).all(), (name, steps)
            elif experiment == "scale":
                assert steps["memory_used_mib"] == pytest.approx(4096 / 2**20)
                assert math.isnan(steps["elapsed_ms"])  # written with 8 decimals: no grid


def shipped_experiments(name: str) -> tuple[str, ...]:
    """The experiments a shipped data set holds timed or E1 rows for, read from its files (E6's
    pipe and logs have no grid of their own to check)."""
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.common import datasets

    return tuple(
        e
        for e in dict.fromkeys(e for e, _, _ in dataset_files(datasets.load(name)))
        if e != "isolation"
    )


SHIPPED = {name: shipped_experiments(name) for name in ("morello-2024", "cheribsd-22.12")}


def test_the_summary_checks_each_grid_against_the_clock_its_data_set_declares():
    """The summary of the shipped files: the 24.05 and 22.12 CPU times, written in whole ms on a
    7.8125 ms tick, print that tick as their resolution and as the declared clock_step (the
    grid the values alone show, 7.75 to 8 ms, is a multiple of it within the written step); the
    pipe times at 1 µs; the E1 script's time.time() declares no step, and says so; memory in use
    is no time and has no clock."""
    from c18n_ae.analysis.summarise import summary_table

    for name, experiments in SHIPPED.items():
        for experiment in experiments:
            s = summary_table(shipped_tidy(name, experiment), derived=True)
            s = s.drop_duplicates("metric").set_index("metric")
            times = s[s.index.str.endswith("_ns")]
            if experiment == "cpu":
                assert len(times) == 4 and (times.resolution == 7812500.0).all()
                assert (times.clock_step == 7812500.0).all()
            elif experiment != "scale":
                assert (times.resolution == 1000.0).all() and (times.clock_step == 1000.0).all()
            assert (times.resolution_note.fillna("") == "").all(), times.resolution_note
            if experiment == "scale":
                assert s.loc["elapsed_ms", "resolution_note"].startswith("no clock step declared")
                assert math.isnan(s.loc["memory_used_mib", "clock_step"])
                assert s.loc["memory_used_mib", "resolution_note"] == ""


def test_a_clock_the_shipped_values_disagree_with_is_named_never_silently():
    """The 24.05 CPU times against clocks they do not fit: declared as 5 ms, their 7.8 ms grid
    is no multiple of it (the grid is printed); declared as 20 ms, the grid is finer than the
    clock could give (the clock's step is printed). The resolution printed is never finer than
    the declared step, and the note gives both steps."""
    import copy

    from c18n_ae.analysis.clocks import clock_steps
    from c18n_ae.analysis.stats import grid_steps
    from c18n_ae.common import datasets

    tidy = shipped_tidy("morello-2024", "cpu")
    for declared, resolution, said in (
        (5, None, "no multiple of the clock's declared step (grid 7."),
        (20, 2e7, "finer than the clock's declared step (grid 7."),
    ):
        meta = copy.deepcopy(datasets.load("morello-2024"))
        meta["timing"]["cpu"]["step"] = {"value": declared, "unit": "ms"}
        steps = grid_steps(tidy, clocks=clock_steps(tidy, sets={"morello-2024": meta}))
        for r in steps.itertuples():
            assert r.clock_step == declared * 1e6
            assert said in r.resolution_note and f"clock step {declared} ms)" in r.resolution_note
            if resolution is None:  # the grid, coarser than the clock, as the data show it
                assert 7.75e6 <= r.resolution <= 8e6
            else:
                assert r.resolution == resolution


def test_an_own_run_is_checked_against_the_clocks_its_meta_json_declares(tmp_path, capsys):
    """A run of this package: E3's CPU times are checked against the program's CPU clock
    (cpu_timer_resolution_ns), its wall times against CLOCK_MONOTONIC (timer_resolution_ns).
    CPU times on a 1 µs grid fit a 1 µs CPU clock; wall times on a 1 ns grid under a clock that
    declares 1 µs cannot be: the summary prints the clock's step and says so, and the log names
    the source, the metric and both steps."""
    import json

    import pandas as pd

    from c18n_ae.analysis import analyse

    run = tmp_path / "results" / "board" / "O2" / "cpu"
    run.mkdir(parents=True)
    rows = ["trial,workload,iterations,status,cpu_ns,wall_ns,checksum,run"]
    for r in (1, 2):
        for t in range(1, 21):  # CPU times repeat: their 1 µs grid shows
            cpu, wall = 1000 * (5000 + t % 4 + r), 5_000_000 + 7 * t + r * 13
            rows.append(f"{t},math,1000,ok,{cpu},{wall},1,{r}")
    (run / "raw.csv").write_text("\n".join(rows) + "\n")
    program = {"timer_resolution_ns": 1000, "cpu_timer_resolution_ns": 1000}
    meta = {"target": "board", "variant": "O2", "program": program}
    (run / "meta.json").write_text(json.dumps(meta))
    out = {k: tmp_path / f"{k}.csv" for k in ("tidy", "summary", "comparisons")}
    analyse.main(
        ["--experiment", "cpu", *(x for k, p in out.items() for x in (f"--{k}", str(p)))]
        + [str(run / "raw.csv")]
    )
    s = pd.read_csv(out["summary"]).set_index("metric")
    assert s.loc["math_cpu_ns", "runs"] == 2
    assert s.loc["math_cpu_ns", ["resolution", "clock_step"]].tolist() == [1000.0, 1000.0]
    assert pd.isna(s.loc["math_cpu_ns", "resolution_note"])
    assert s.loc["math_wall_ns", ["resolution", "clock_step"]].tolist() == [1000.0, 1000.0]
    note = "values on a grid finer than the clock's declared step (grid 1 ns, clock step 1 µs)"
    assert s.loc["math_wall_ns", "resolution_note"] == note
    assert f"warning: board, math_wall_ns: {note}" in capsys.readouterr().err


def test_a_few_distinct_values_far_apart_show_no_tick_of_their_own():
    """Ten wall times in whole ns, none repeated: the smallest gap between them is no clock tick."""
    from c18n_ae.analysis.stats import grid_step

    x = [15483285, 15530816, 15578347, 23857746, 23905277, 15125000, 14999999, 24000001, 9e6, 8e6]
    assert grid_step(x) == 1.0


@pytest.mark.parametrize(
    "experiment, metric",
    [
        ("pipe", "roundtrip_ns"),
        ("packet", "plugin_latency_us"),
        ("ipc", "pipe_roundtrip_us"),
        ("alloc", "alloc_ns"),
        ("crossing", "library_call_ns"),
    ],
)
def test_a_mean_over_many_calls_is_no_grid_finer_than_its_clock(experiment, metric):
    """E4, E7-E10 declare these metrics a clock interval divided by the calls it timed
    (Experiment.means_over_calls): their values, on a grid a tenth of the clock's step, get no
    warning, while the same values as a metric timed by one clock reading per value do; the
    resolution printed is the clock's step either way."""
    import pandas as pd

    from c18n_ae.analysis.clocks import NS
    from c18n_ae.analysis.stats import grid_steps
    from c18n_ae.analysis.summarise import warn

    unit = metric.rsplit("_", 1)[1]
    one = 1000 / NS[unit]  # a 1 µs clock in the metric's unit
    values = [one * (5 + k / 10) for k in range(40)]
    single = "write_ns" if unit == "ns" else "single_read_us"
    rows = [
        ("board", "purecap", experiment, 1, trial, "p", 1, m, v, unit, "ok")
        for m in (metric, single)
        for trial, v in enumerate(values, 1)
    ]
    columns = ["source", "variant", "experiment", "run", "trial", "parameter", "parameter_value"]
    tidy = pd.DataFrame(rows, columns=[*columns, "metric", "value", "unit", "status"])
    clocks = {("board", m): 1000.0 for m in (metric, single)}
    steps = grid_steps(tidy, clocks=clocks).set_index("metric")
    assert steps.loc[metric, "resolution_note"] == ""
    assert steps.loc[single, "resolution_note"].startswith(
        "values on a grid finer than the clock's declared step"
    )
    assert (steps.resolution == one).all()
    out = io.StringIO()
    warn(steps.reset_index(), out)
    assert out.getvalue().count("warning:") == 1 and f", {single}: " in out.getvalue()
