"""The full profile can decide every claim on trials: each experiment a claim compares variants
of makes at least the claims' min_trials trials per variant and setting (its repetitions in all
of a variant's runs). E7's five repeats alone left plugin-cheaper-than-ipc "inconclusive: too few
trials" even in the full profile; its three runs of five make fifteen."""

from c18n_ae import experiments as exp
from c18n_ae.analysis.claims import load
from c18n_ae.experiments import plan
from conftest import ROOT


def trials_per_setting(name: str, config: dict) -> int | None:
    """A variant's trials at one setting of the experiment over all its runs (None: no
    repetition parameter, a series or fixed scrapes)."""
    e = exp.get(name)
    repeat = plan.repeat_param(e)
    if repeat is None:
        return None
    options = config.get("run", {})
    params = config["experiments"][name]
    runs = plan.run_params(
        e, params, int(options.get("runs", plan.DEFAULT_RUNS)), options.get("split_trials", False)
    )
    return sum(int(r[repeat]) for r in runs)


def test_the_full_profile_makes_enough_trials_for_every_claim():
    config = exp.load_config(ROOT / "config" / "config.yaml")
    claims = load(ROOT / "config" / "claims.yaml")  # the modules' own claims too
    checked = {}
    for claim in claims:
        if claim.statistic not in ("mean", "median"):
            continue  # flags: one observation decides
        n = trials_per_setting(claim.experiment, config)
        if n is not None:
            checked[claim.id] = n
            assert n >= claim.min_trials, (claim.id, n, claim.min_trials)
    assert checked["plugin-cheaper-than-ipc"] >= 10
    assert len(checked) >= 5, checked


def test_the_check_counts_runs():
    """One run of E7's paper parameters is too few: the count rests on the runs."""
    config = exp.load_config(ROOT / "config" / "config.yaml")
    config["run"] = {**config.get("run", {}), "runs": 1}
    assert (
        trials_per_setting("packet", config) < load(ROOT / "config" / "claims.yaml")[0].min_trials
    )
