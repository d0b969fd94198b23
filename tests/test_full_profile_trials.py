"""The full profile makes the study's trials once, shared between its runs (split_trials): three
runs together make the study's count, and an experiment without repetitions (E1's series) runs
once, whole, saying why. A claim whose experiment's count is below the claims' min_trials cannot
be decided by the full profile: the README's full-reproduction section names each such claim
with its count (E7's 5 repeats against 10)."""

from c18n_ae import experiments as exp
from c18n_ae.analysis.claims import load
from c18n_ae.analysis.decidable import trials_per_setting
from c18n_ae.experiments import plan
from conftest import ROOT


def full():
    return exp.load_config(ROOT / "config" / "config.yaml")


def test_the_runs_together_make_the_studys_count():
    config = full()
    runs, shared = config["run"]["runs"], config["run"]["split_trials"]
    assert runs == 3 and shared
    undivided = []
    for name, e in exp.registry().items():
        repeat = plan.repeat_param(e)
        per_run = plan.run_params(e, config["experiments"][name], runs, shared)
        if repeat is None:
            assert len(per_run) == 1, name  # a series runs once, whole
            undivided.append(name)
            assert name in plan.undivided(e, shared) and "runs once, whole" in plan.undivided(
                e, shared
            )
            continue
        study = next(p.full for p in e.params if p.name == repeat)
        assert len(per_run) == runs and sum(p[repeat] for p in per_run) == study, name
        assert plan.undivided(e, shared) is None
    assert "scale" in undivided  # E1's instances


def test_the_claims_the_full_profile_cannot_decide_on_trials_are_in_the_readme():
    config = full()
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Full reproduction") :]
    section = section[: section.index("\n## ", 1)]
    short = {}
    for claim in load(ROOT / "config" / "claims.yaml"):
        n = trials_per_setting(config, claim.experiment)
        if claim.statistic in ("mean", "median") and n is not None and n < claim.min_trials:
            short[claim.id] = n
            assert f"`{claim.id}`" in section, claim.id
            assert f"{n} trials a setting" in section, (claim.id, n)
    assert short == {"plugin-cheaper-than-ipc": 5}, short


def test_shared_trials_do_not_grow_with_the_runs():
    config = full()
    counts = {}
    for runs in (1, 3, 5):
        config["run"] = {**config["run"], "runs": runs}
        counts[runs] = trials_per_setting(config, "packet")
    assert counts == {1: 5, 3: 5, 5: 5}
