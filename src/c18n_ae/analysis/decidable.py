"""Which claims a plan within a budget can decide on a target (`c18n-ae plan --budget`): a claim can
be decided when its experiment fits in the budget (c18n_ae.running.budget), the target has the
variants it compares, and the experiment's runs together make at least the claim's min_trials."""

from __future__ import annotations

from c18n_ae import PROJECT_ROOT
from c18n_ae import experiments as exp
from c18n_ae.analysis.claims import load
from c18n_ae.experiments import plan as planning


def trials_per_setting(cfg, experiment: str) -> int | None:
    e = exp.get(experiment)
    name = planning.repeat_param(e)
    if name is None:
        return None
    options = cfg.get("run", {})
    per_run = planning.run_params(
        e,
        cfg["experiments"][experiment],
        int(options.get("runs", planning.DEFAULT_RUNS)),
        bool(options.get("split_trials", False)),
    )
    return sum(int(p[name]) for p in per_run)


def verdicts(cfg, target, cs: list) -> list[tuple[str, bool, str]]:
    """(claim id, can be decided, why) for each claim on an experiment this target runs (cs: the
    experiments' costs, each with experiment, fits and bound)."""
    by_name = {c.experiment: c for c in cs}
    variants = {v["name"] for v in target["variants"]}
    has_c18n = {bool(v.get("c18n")) for v in target["variants"]}
    out = []
    for claim in load(PROJECT_ROOT / "config" / "claims.yaml"):
        c = by_name.get(claim.experiment)
        if c is None:
            continue
        n = trials_per_setting(cfg, claim.experiment)
        missing = [v for v in (claim.subject, claim.baseline) if v and v not in variants]
        if claim.kind not in ("ratio", "ratio_near"):
            missing = []  # subject and baseline name metrics or published rows, not variants
        if missing:
            out.append((claim.id, False, f"no variant {', '.join(missing)} on this target"))
        elif claim.c18n is not None and claim.c18n not in has_c18n:
            kind = "c18n" if claim.c18n else "non-c18n"
            out.append((claim.id, False, f"no {kind} variant on this target"))
        elif not c.fits:
            out.append((claim.id, False, f"{claim.experiment} does not fit in the budget"))
        elif claim.statistic in ("mean", "median") and n is not None and n < claim.min_trials:
            out.append((claim.id, False, f"{n} trials a setting, fewer than {claim.min_trials}"))
        else:
            how = "within the budget" + (" if it ends within its time limit" if c.bound else "")
            out.append((claim.id, True, how))
    return out
