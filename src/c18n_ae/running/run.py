"""Runs one experiment on one target for its variants (a run unit, c18n_ae.running.unit), each
variant repeated in `runs` separate runs: interleaved in a seeded order, a few units per process,
resumed where a killed run stopped (or, with the target's boot_per_run, one run per boot, the
target rebooted between runs); raw.csv (with its `run` column) and meta.json per variant.
The target is this machine or an SSH host (c18n_ae.targets.local, .remote); the driver
(c18n_ae.running.driver) starts, polls, fetches and writes meta.json. Ctrl-C, SIGTERM and the time
limit end the running benchmark and keep every row measured. A failed run leaves run-failed.json
and its segments."""

from __future__ import annotations

import argparse
import json
import signal
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import config
from c18n_ae.experiments.plan import plan_for
from c18n_ae.running import checks
from c18n_ae.running.driver import RunFailed, drive
from c18n_ae.targets.base import Clock
from c18n_ae.targets.local import LocalTarget
from c18n_ae.targets.remote import SSHTarget

__all__ = ["RunFailed", "run_unit", "run", "main"]
LOCAL_POLL_S = 0.2


def plan_on(target: dict, experiment: str, recipes, params, results: Path, options) -> dict:
    """The plan as the target's run unit reads it: absolute paths here, paths relative to the
    remote working directory (and the target's python) on an SSH target."""
    local = target["kind"] == "local"
    if local and target.get("boot_per_run"):
        raise RunFailed(
            f"targets[{target['name']}].boot_per_run: a local target is never rebooted by the "
            "workflow; separate boots per run are for ssh and morello targets"
        )
    return plan_for(
        experiment,
        recipes,
        params,
        results if local else Path("results"),
        target["name"],
        options,
        python=None if local else target.get("python", "python3"),
        resolve=local,
        boot_per_run=bool(target.get("boot_per_run", False)),
        target_config=target,
    )


def run_unit(
    *,
    target: dict | str,
    experiment: str,
    recipes: list[dict],
    params: dict,
    results: Path,
    log: Path,
    options: dict | None = None,
    timeout_s: float | None = None,
    poll_s: float | None = None,
    clock: Clock | None = None,
) -> dict[str, dict]:
    """Runs the variants of one experiment on a target (its config, or "local"); writes each
    variant's raw.csv and meta.json. timeout_s: the whole run unit's time limit (default: the
    plan's, from the experiment's). Raises RunFailed, keeping every measured row."""
    target = {"name": target, "kind": "local"} if isinstance(target, str) else target
    plan = plan_on(target, experiment, recipes, params, results, options or {})
    plan["timeout_s"] = timeout_s = timeout_s or plan["timeout_s"]
    if target["kind"] == "local":
        machine, poll_s = LocalTarget(target, results), poll_s or LOCAL_POLL_S
    else:
        machine = SSHTarget(target, results, clock, patience_s=timeout_s or 86400)
        poll_s = poll_s or target.get("poll_s", 5.0)
    before, after = checks.for_run(target, recipes, experiment)
    return drive(
        machine,
        plan,
        results=results,
        log=log,
        clock=clock,
        poll_s=poll_s,
        timeout_s=timeout_s,
        before=before,
        after=after,
    )


def run(*, variant: str, recipe: dict, out_dir: Path, **kw) -> dict:
    """One variant alone (its folders laid out as results/<target>/<variant>/{bin,<experiment>})."""
    results = out_dir.parent.parent.parent
    kw.pop("bin_dir", None)
    return run_unit(recipes=[{**recipe, "name": variant}], results=results, **kw)[variant]


def _terminate(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    config.add_arguments(ap)
    ap.add_argument("--target", required=True, help="a target's name (with --config), or its JSON")
    ap.add_argument("--experiment", required=True)
    ap.add_argument(
        "--variants",
        nargs="+",
        help="variant names (with --config; default: the config's variants of the experiment on"
        " the target, as the workflow runs them)",
    )
    ap.add_argument(
        "--recipes", help="the variants' recipes as a JSON list (instead of --variants)"
    )
    ap.add_argument("--params", help="experiment parameters as JSON (default: from --config)")
    ap.add_argument("--options", help="run options as JSON (default: the config's run key)")
    ap.add_argument("--results", type=Path, default=Path("results"), help="results folder")
    ap.add_argument("--log", required=True, type=Path)
    a = ap.parse_args(argv)
    cfg = exp.config_from_arguments(a)
    target = config.target_from(cfg, a.target)
    if a.recipes:
        recipes = json.loads(a.recipes)
    elif a.variants is None and cfg is None:
        raise SystemExit("error: name the variants (--variants with --config, or --recipes)")
    else:
        names = a.variants or [v for t, v in config.runs(cfg, a.experiment) if t == target["name"]]
        recipes = [config.variant(cfg, target["name"], v) for v in names]
    params = json.loads(a.params) if a.params else cfg["experiments"][a.experiment]
    options = json.loads(a.options) if a.options else (cfg or {}).get("run", {})
    signal.signal(signal.SIGTERM, _terminate)
    try:
        run_unit(
            target=target,
            experiment=a.experiment,
            recipes=recipes,
            params=params,
            results=a.results,
            log=a.log,
            options=options,
        )
    except RunFailed as e:
        raise SystemExit(f"error: {e}")


if __name__ == "__main__":
    main()
