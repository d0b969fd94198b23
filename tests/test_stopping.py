"""Precision instead of counts (c18n_ae.experiments.stopping, the run unit's "Stopping early"): a
real E3 run on this machine stops once every headline metric's interval between runs is narrow
enough, or its budget is spent, or at the study's count, and meta.json and the setup table say
which, with the runs and rows."""

import pytest

from c18n_ae.report.setup_table import stops, stops_text
from c18n_ae.running import run as runner
from c18n_ae.running import unit
from conftest import compile_benchmark

RECIPES = [
    {"name": "O2", "cc": "cc", "cflags": ["-O2"], "launcher": []},
    {"name": "O0", "cc": "cc", "cflags": ["-O0"], "launcher": []},
]
# the study's count here: 60 trials of each workload (240 rows a variant), shared by three runs
PARAMS = {"trials": 60, "iterations": 200_000, "array_size": 200_000}
OPTIONS = {"runs": 3, "split_trials": True, "chunk_units": 8, "seed": 3}
STUDY_ROWS = 4 * PARAMS["trials"]


@pytest.fixture
def results(tmp_path, cc):
    root = tmp_path / "results"
    for r in RECIPES:
        compile_benchmark(cc, "cpu", root / "local" / r["name"] / "bin" / "cpu", "-lm")
    return root


def run(results, tmp_path, target=None, **params):
    return runner.run_unit(
        target=target or {"name": "local", "kind": "local"},
        experiment="cpu",
        recipes=RECIPES,
        params={**PARAMS, **params},
        results=results,
        log=tmp_path / "run.log",
        options=OPTIONS,
    )


def rows(results, variant="O2"):
    return (results / "local" / variant / "cpu" / "raw.csv").read_text().splitlines()[1:]


def test_a_precision_stops_the_runs_early_and_says_why(results, tmp_path):
    metas = run(results, tmp_path, precision=0.5)
    for variant, meta in metas.items():
        stop = meta["stopped"]
        assert stop["reason"] == "precision", stop
        assert stop["runs"] == 3 and len(stop["units_per_run"]) == 3
        assert 0 < sum(stop["units_per_run"]) < STUDY_ROWS, stop  # early, not at the count
        assert min(stop["units_per_run"]) > 0  # every run has rows: an interval between runs
        # stopped at the end of a round: every run had its chunks, none more than one ahead
        assert max(stop["units_per_run"]) - min(stop["units_per_run"]) <= OPTIONS["chunk_units"]
        assert set(stop["precision_reached"]) == {f"{w}_cpu_ns" for w in unit_workloads()}
        assert all(w <= 0.5 for w in stop["precision_reached"].values())
        assert len(rows(results, variant)) == sum(stop["units_per_run"])
        assert meta["run_unit"]["stopping"]["precision"] == 0.5
    text = stops_text(stops(list(metas.values()))["local"])
    rows_o2 = sum(metas["O2"]["stopped"]["units_per_run"])
    assert text == f"each variant: E3 3 runs, {rows_o2} rows; stopped once precise enough", text
    # started again under the same rule: nothing more is measured, the stop stays recorded
    before = rows(results)
    again = run(results, tmp_path, precision=0.5)
    assert rows(results) == before and again["O2"]["stopped"] == metas["O2"]["stopped"]
    assert "stopped earlier" in (tmp_path / "run.log").read_text()


def unit_workloads():
    from c18n_ae.experiments.stopping import KINDS

    return KINDS


def test_a_budget_from_the_target_stops_the_runs(results, tmp_path):
    target = {"name": "local", "kind": "local", "budget_s": 0.001}
    stop = run(results, tmp_path, target=target)["O0"]["stopped"]
    assert stop["reason"] == "budget" and "budget_s 0.001 spent" in stop["why"]
    assert 0 < sum(stop["units_per_run"]) < STUDY_ROWS


def test_a_precision_out_of_reach_ends_at_the_studys_count(results, tmp_path):
    stop = run(results, tmp_path, precision=1e-9, trials=3)["O2"]["stopped"]
    assert stop["reason"] == "count" and "before the precision 1e-09" in stop["why"], stop
    assert stop["units_per_run"] == [4, 4, 4]  # 3 trials of 4 workloads, shared by three runs


def test_without_a_rule_the_count_is_recorded(results, tmp_path):
    meta = run(results, tmp_path, trials=3)["O2"]
    assert meta["stopped"] == {
        "reason": "count",
        "why": "the study's count",
        "runs": 3,
        "units_per_run": [4, 4, 4],
    }
    assert "stopping" not in meta["run_unit"]


def test_the_interval_between_runs():
    assert unit.relative_half_width([10.0]) == float("inf")  # one run: no interval
    # three runs 9, 10, 11: sd 1, t(2) 4.303, half-width 4.303 / sqrt(3) of the mean 10
    assert unit.relative_half_width([9.0, 10.0, 11.0]) == pytest.approx(4.303 / 3**0.5 / 10)
    assert unit.relative_half_width([5.0, 5.0]) == 0.0


def test_a_precision_on_one_run_per_boot_is_refused(tmp_path):
    plan = {
        "experiment": "cpu",
        "boot_per_run": True,
        "stopping": {"precision": 0.1},
        "variants": [],
    }
    with pytest.raises(unit.UnitFailed, match="boot_per_run"):
        unit.Unit(plan, boot=lambda: None)


def test_the_config_takes_a_precision_per_experiment_and_per_target():
    from c18n_ae import experiments as exp
    from c18n_ae.common.config import ConfigError
    from conftest import ROOT

    cfg = exp.load_config(ROOT / "config" / "config.yaml")
    cfg["experiments"]["cpu"]["precision"] = 0.02
    cfg["targets"][0]["budget_s"] = 600
    exp.resolved_config(cfg)
    cfg["experiments"]["cpu"]["precision"] = 0
    with pytest.raises(ConfigError, match="precision"):
        exp.resolved_config(cfg)
