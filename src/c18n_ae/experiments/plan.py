"""The plan of a run unit (c18n_ae.running.unit): each variant's runs (commands, units), folder
and build files, and how to interleave them, from the experiment registry and the config's run
options.

Each variant runs `runs` times (default 3), each run in processes of its own. With `split_trials`
(both profiles: the study's count is the promise, the runs share it, and the interval between
runs still sees their variation) the experiment's repetitions are divided between the runs, so
that several runs take no longer than one; otherwise every run makes them all. The repetitions
are the first of REPEATS among the experiment's parameters; an experiment without one (a series,
such as E1's instances, or a fixed pair of scrapes) cannot share them out: split, it runs once,
whole, and the plan says why (UNDIVIDED); `runs` times otherwise. The experiment's time limit
(timeout_s) is for one run's worth of trials: the plan's limit grows with the trials of all its
runs. A precision or budget_s (c18n_ae.experiments.stopping) lets the run unit stop before the
count.

A target's `boot_per_run` (ssh and morello targets) becomes the plan's: the run unit runs one run
per boot and the driver reboots the target between runs (c18n_ae.running.unit)."""

from __future__ import annotations

from pathlib import Path

from c18n_ae import experiments as exp

DEFAULT_RUNS = 3
REPEATS = ("trials", "samples", "repeats")  # parameters that repeat each setting


UNDIVIDED = (
    "{name} has no repetition parameter ({repeats}): its units are one series or a fixed set (E1 "
    "starts instances one after another until memory runs out), which runs cannot share; it runs "
    "once, whole, and its interval is within that run"
)


def undivided(e, split: bool) -> str | None:
    """Why an experiment's trials are not shared between runs when split (None: they are)."""
    if not split or repeat_param(e) is not None:
        return None
    return UNDIVIDED.format(name=e.name, repeats=", ".join(REPEATS))


def repeat_param(e) -> str | None:
    names = [p.name for p in e.params]
    return next((n for n in REPEATS if n in names), None)


def run_params(e, params: dict, runs: int, split: bool) -> list[dict]:
    """Each run's parameters: the repetitions shared out between runs (at least one each) when
    split, else the same for every run."""
    name = repeat_param(e)
    if name is None:
        return [params] * (1 if split else runs)
    if not split:
        return [params] * runs
    total = int(params[name])
    return [{**params, name: max(1, total // runs + (r < total % runs))} for r in range(runs)]


def build_files(e, bin_dir: Path) -> list[str]:
    """The files a run of the experiment executes: its programs and the libraries they link (the
    program started first)."""
    from c18n_ae.experiments import programs

    names = [n for p in e.programs for n in (p.name, *p.links)]
    return [str(bin_dir / programs.get(n).output) for n in dict.fromkeys(names)]


def time_limit(e, params: dict, per_run: list[dict]) -> float | None:
    """The experiment's timeout_s (for its trials once) scaled to the trials of every run."""
    if not params.get("timeout_s"):
        return None
    return float(params["timeout_s"]) * sum(e.trials(p) for p in per_run) / max(1, e.trials(params))


def plan_for(
    experiment: str,
    recipes: list[dict],
    params: dict,
    results: Path,
    target: str,
    options: dict,
    python: str | None = None,
    resolve: bool = True,
    boot_per_run: bool = False,
    target_config: dict | None = None,
) -> dict:
    """The run unit's plan: every variant's runs, folder and build files, how to interleave them,
    whether each run has a boot of its own, and what the run's meta.json repeats (recipe,
    parameters)."""
    from c18n_ae.experiments import stopping

    e = exp.get(experiment)
    runs = int(options.get("runs", DEFAULT_RUNS))
    per_run = run_params(e, params, runs, bool(options.get("split_trials", False)))
    variants = []
    for recipe in recipes:
        bin_dir = results / target / recipe["name"] / "bin"
        bin_dir = bin_dir.resolve() if resolve else bin_dir
        out_dir = results / target / recipe["name"] / experiment

        def command(p: dict) -> list[str]:
            cmd = e.command(p, bin_dir, recipe, Path("OUT"), python=python)
            assert cmd[-2:] == ["--out", "OUT"], cmd  # the unit runner adds --out per segment
            return cmd[:-2]

        variants.append(
            {
                "name": recipe["name"],
                "dir": str(out_dir.resolve() if resolve else out_dir),
                "windowed": e.driver is None,
                "build_files": build_files(e, bin_dir),
                "recipe": recipe,
                "runs": [
                    {"run": i + 1, "command": command(p), "units": e.trials(p)}
                    for i, p in enumerate(per_run)
                ],
            }
        )
    return {
        "experiment": experiment,
        "target": target,
        "parameters": params,
        "seed": options.get("seed", 1),
        "chunk_units": options.get("chunk_units") if options.get("interleave", True) else None,
        "max_unit_s": options.get("max_unit_s"),
        "timeout_s": time_limit(e, params, per_run),
        "split_trials": bool(options.get("split_trials", False)),
        **({"undivided": why} if (why := undivided(e, options.get("split_trials"))) else {}),
        "boot_per_run": bool(boot_per_run),
        **({"stopping": rule} if (rule := stopping.rule(e, params, target_config)) else {}),
        "variants": variants,
    }


def description(plan: dict) -> dict:
    """How a run unit ran its variants, for each variant's meta.json."""
    return {
        "variants": [v["name"] for v in plan["variants"]],
        "interleaved": bool(plan["chunk_units"]),
        "chunk_units": plan["chunk_units"],
        "seed": plan["seed"],
        "max_unit_s": plan["max_unit_s"],
        "runs": len(plan["variants"][0]["runs"]) if plan["variants"] else 0,
        "split_trials": plan.get("split_trials", False),
        **{k: plan[k] for k in ("undivided", "stopping") if k in plan},
        **({"boot_per_run": True} if plan.get("boot_per_run") else {}),
    }
