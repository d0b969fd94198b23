"""`c18n-ae plan --budget`: each experiment's cost on a target before anything runs (from an earlier
run's meta.json, else a short calibration on the target, else its time limit) and the claims the
budget can decide; calibrated on the simulated board over the loopback sshd, timed by a fake
clock so that the plan's numbers are known."""

from __future__ import annotations

import json

import pytest
import yaml

from c18n_ae import budget_plan
from c18n_ae import experiments as exp
from c18n_ae.cli import main as cli
from c18n_ae.running import budget
from conftest import ROOT
from test_board import SIM_C18N, SIM_PURE, build_here, sim, sim_target  # noqa: F401 (fixture)


class FakeClock:
    """Each reading is `step` seconds after the one before: a calibration of one variant (two
    readings) takes exactly `step`."""

    def __init__(self, step: float):
        self.t, self.step = 0.0, step

    def monotonic(self) -> float:
        self.t += self.step
        return self.t


def only(experiment: str, tmp_path, targets, **params) -> dict:
    """The default config with only `experiment` enabled, on these targets."""
    off = {name: {"enabled": False} for name in exp.names() if name != experiment}
    path = tmp_path / "plan.yaml"
    body = {"targets": targets, "datasets": [], "experiments": {**off, experiment: params}}
    path.write_text(yaml.safe_dump(body))
    return exp.load_config(ROOT / "config" / "config.yaml", path)


def test_the_budget_reads_units_and_hours():
    assert budget.seconds("4h") == 14400 and budget.seconds("90m") == 5400
    assert budget.seconds("300") == 300 and budget.seconds("1.5h") == 5400
    with pytest.raises(ValueError, match="--budget 'four hours'"):
        budget.seconds("four hours")


def test_a_plan_for_the_morello_config_without_a_board(capsys):
    cli(["plan", "--config", str(ROOT / "config/morello.yaml"), "--budget", "4h", "--no-calibrate"])
    out = capsys.readouterr().out
    board = out[out.index("plan for morello within 240.0 min:") :]
    for name in exp.names():
        assert (
            f"| {name} | hybrid, purecap, purecap-c18n, benchmark-c18n, purecap-c18n-norevoke"
            in (board)
        )
    # not calibrated, no earlier run: each experiment's time limit, an upper bound
    assert (
        "| memory | " in board and "| at most 240.0 min | not calibrated (--no-calibrate)" in board
    )
    assert "claims the budget can decide (" in board and "claims it cannot (" in board
    # the study's count: E7's 5 repeats shared by three runs are fewer than the claim's 10 trials
    assert "plugin-cheaper-than-ipc: 5 trials a setting, fewer than 10" in board
    assert "alloc-10x: memory does not fit in the budget" in board


def test_a_calibration_on_the_simulated_board_with_a_fake_clock(sim, tmp_path):  # noqa: F811
    server, _ = sim
    target = sim_target(server, tmp_path / "remote")
    for recipe in (SIM_PURE, SIM_C18N):
        build_here(target, recipe, tmp_path / "results")
    cfg = only("memory", tmp_path, [target], block_sizes_mib=[16, 32], trials=30)
    results = tmp_path / "results"
    # one repetition is 2 units (a trial of each block size); 60 units a variant in all; each
    # calibration 90 s by the fake clock: 45 s a unit, 45 min a variant, 90 min for both
    text = budget_plan.plan_text(cfg, budget.seconds("2h"), results, clock=FakeClock(90.0))
    assert (
        "| memory | purecap, purecap-c18n | 120 | 90.0 min | calibration (2 units a variant)"
        in (text)
    )
    assert "| yes |" in text
    assert "write-slower-in-compartment: no variant hybrid on this target" in text
    tight = budget_plan.plan_text(cfg, budget.seconds("1h"), results, clock=FakeClock(90.0))
    assert "| 90.0 min | calibration (2 units a variant) | no |" in tight
    # the calibration ran the real program on the board and left no rows behind
    remote = tmp_path / "remote" / "results" / "sim"
    assert not list(remote.glob("*/memory/calibration.csv*"))
    assert not (results / "sim" / "purecap" / "memory" / "meta.json").exists()


def test_an_earlier_run_gives_the_pace(tmp_path):
    local = {
        "name": "local",
        "kind": "local",
        "reference_variant": "O2",
        "variants": [{"name": "O2", "cc": "cc", "cflags": ["-O2"], "abi": "native"}],
    }
    cfg = only("cpu", tmp_path, [local], trials=30)
    run = tmp_path / "results" / "local" / "O2" / "cpu"
    run.mkdir(parents=True)
    # an earlier run: 40 units in 20 s (one segment timed to the second, one with its seconds)
    segments = [
        {
            "run": 1,
            "start": "2026-01-01T10:00:00+00:00",
            "end": "2026-01-01T10:00:12+00:00",
            "units_measured": 20,
        },
        {
            "run": 2,
            "start": "2026-01-01T10:01:00+00:00",
            "end": "2026-01-01T10:01:09+00:00",
            "seconds": 8.0,
            "units_measured": 20,
        },
    ]
    # at the same settings but 100 trials: the count does not change a unit's cost
    same = {**cfg["experiments"]["cpu"], "trials": 100}
    (run / "meta.json").write_text(json.dumps({"segments": segments, "parameters": same}))
    text = budget_plan.plan_text(cfg, 3600, tmp_path / "results", calibrating=False)
    # 120 units (30 trials of 4 workloads, shared by the runs) at 0.5 s a unit
    assert "| cpu | O2 | 120 | 1.0 min | earlier run (meta.json) | yes |" in text
    # a run of the quick profile's sizes says nothing of the full profile's units
    quick = {**same, "iterations": 1_000_000}
    (run / "meta.json").write_text(json.dumps({"segments": segments, "parameters": quick}))
    text = budget_plan.plan_text(cfg, 3600, tmp_path / "results", calibrating=False)
    assert "| cpu | O2 | 120 | at most 240.0 min | not calibrated (--no-calibrate)" in text
