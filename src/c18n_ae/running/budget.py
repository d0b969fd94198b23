"""What each experiment will cost on a target before anything runs (`c18n-ae plan --budget`, whose
claims part is c18n_ae.analysis.decidable).

An experiment's cost on a target is the sum over its variants of (seconds per unit) x (units its
runs will make, from its parameters and the run options, c18n_ae.experiments.plan). Seconds per
unit come from, in this order:
  1. an earlier run at the same settings (the number of trials and the time limit aside): the
     variant's meta.json under results/, its segments' seconds over their units;
  2. a short calibration: one trial of every setting (the units of one repetition) at the
     experiment's own parameters, run once per variant on the target, timed by the clock
     (a benchmark program windowed with --skip/--limit; a driver experiment runs whole and is not
     calibrated);
  3. else the experiment's time limit (timeout_s, scaled to its runs as the plan scales it): an
     upper bound, printed "at most".
Experiments are taken in the paper's order; one that does not fit in what is left of the budget
is left out and the rest still considered."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import config as common_config
from c18n_ae.experiments import plan as planning
from c18n_ae.running.unit import segment_seconds
from c18n_ae.targets import transport
from c18n_ae.targets.base import Clock

CALIBRATION_TIMEOUT_S = 900  # one repetition of one variant; a longer one is no calibration
UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


def seconds(text: str) -> float:
    """'4h', '90m', '1.5h', '300s' or '300' as seconds."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(s|m|min|h|d)?\s*", text)
    if not m:
        raise ValueError(f"--budget {text!r}: give a number with s, m, h or d, e.g. 4h or 90m")
    return float(m.group(1)) * UNITS[m.group(2) or "s"]


@dataclass
class Cost:
    experiment: str
    variants: list[str]
    units: int  # of every variant, all runs
    seconds: float
    source: str  # where seconds per unit came from
    bound: bool = False  # seconds is an upper bound (the time limit), not an estimate
    fits: bool = False


# settings that change how many units run or when they stop, not what one unit costs
NOT_PACE = (*planning.REPEATS, "timeout_s", "enabled", "variants", "precision", "budget_s")


def pace(params: dict) -> dict:
    return {k: v for k, v in params.items() if k not in NOT_PACE}


def earlier_rate(
    results: Path, target: str, variant: str, experiment: str, params: dict
) -> float | None:
    """Seconds per unit of an earlier run of the variant (its meta.json's segments) at the same
    settings (a unit of the quick profile costs far less than one of the full), or None."""
    meta = results / target / variant / experiment / "meta.json"
    if not meta.exists():
        return None
    m = json.loads(meta.read_text())
    if pace(m.get("parameters", {})) != pace(params):
        return None
    segments = m.get("segments", [])
    units = sum(max(0, s.get("units_measured", 0)) for s in segments)
    return sum(segment_seconds(s) for s in segments) / units if units else None


def calibrate(target: dict, plan: dict, variant: dict, units: int, clock) -> float:
    """Seconds per unit of the variant's first `units` units at the plan's parameters, run once on
    the target (in its working directory when remote); raises RuntimeError when it cannot run."""
    run = variant["runs"][0]
    out = f"{variant['dir']}/calibration.csv"
    absent = [f for f in variant["build_files"] if not Path(f).exists()]
    if target["kind"] == "local" and absent:
        raise RuntimeError(f"not built yet ({Path(absent[0]).name} of {variant['name']})")
    cmd = [*run["command"], "--skip", "0", "--limit", str(units), "--out", out]
    where = transport.for_target(target)
    text = shlex.join(cmd)
    local = target["kind"] == "local"
    if not local:
        text = f"cd {shlex.quote(target.get('workdir', 'c18n-ae'))} && mkdir -p "
        text += f"{shlex.quote(variant['dir'])} && {shlex.join(cmd)}"
    else:
        Path(variant["dir"]).mkdir(parents=True, exist_ok=True)
    start = clock.monotonic()
    try:
        where.run(text, timeout=CALIBRATION_TIMEOUT_S)
    finally:
        rm = f"rm -f {shlex.quote(out)}"
        where.run(
            rm if local else f"cd {shlex.quote(target.get('workdir', 'c18n-ae'))} && {rm}",
            check=False,
        )
    return (clock.monotonic() - start) / units


def one_repetition(e, params: dict) -> int:
    """Units of one trial of every setting (the whole run when the experiment has no repeats)."""
    name = planning.repeat_param(e)
    return e.trials({**params, name: 1}) if name else e.trials(params)


def cost_of(cfg, target, experiment, results: Path, clock, calibrating: bool) -> Cost:
    e = exp.get(experiment)
    params = cfg["experiments"][experiment]
    names = [v for t, v in common_config.runs(cfg, experiment) if t == target["name"]]
    recipes = [common_config.variant(cfg, target["name"], v) for v in names]
    local = target["kind"] == "local"
    plan = planning.plan_for(
        experiment,
        recipes,
        params,
        results if local else Path("results"),
        target["name"],
        cfg.get("run", {}),
        python=None if local else target.get("python", "python3"),
        resolve=local,
    )
    units = {v["name"]: sum(r["units"] for r in v["runs"]) for v in plan["variants"]}
    total = sum(units.values())
    rates = {v: earlier_rate(results, target["name"], v, experiment, params) for v in names}
    if rates and all(r is not None for r in rates.values()):
        spent = sum(rates[v] * units[v] for v in names)
        return Cost(experiment, names, total, spent, "earlier run (meta.json)")
    why = "not calibrated (--no-calibrate)"
    if calibrating and e.driver is None:
        k = min(one_repetition(e, params), plan["variants"][0]["runs"][0]["units"])
        try:
            spent = sum(
                calibrate(target, plan, v, k, clock) * units[v["name"]] for v in plan["variants"]
            )
            return Cost(experiment, names, total, spent, f"calibration ({k} units a variant)")
        except Exception as err:  # an unreachable board, a program not built yet
            why = f"not calibrated: {str(err).splitlines()[0][:80]}"
    elif e.driver is not None:
        why = "a driver runs whole, not calibrated"
    limit = plan["timeout_s"]
    if limit is None:
        return Cost(experiment, names, total, float("inf"), f"{why}; no time limit", bound=True)
    return Cost(experiment, names, total, limit, f"{why}; its time limit", bound=True)


def costs(cfg, target, results: Path, clock=None, calibrating=True, budget_s=float("inf")):
    """Every enabled experiment's Cost on the target, in the paper's order, each marked whether
    it fits in what is left of the budget."""
    out, left = [], budget_s
    for name in common_config.enabled_experiments(cfg):
        if not any(t == target["name"] for t, _ in common_config.runs(cfg, name)):
            continue
        c = cost_of(cfg, target, name, results, clock or Clock(), calibrating)
        c.fits = c.seconds <= left
        left -= c.seconds if c.fits else 0
        out.append(c)
    return out


def minutes(s: float) -> str:
    return "unbounded" if s == float("inf") else f"{s / 60:.1f} min"


def report(target: dict, budget_s: float, cs: list[Cost], verdicts) -> str:
    lines = [
        f"plan for {target['name']} within {minutes(budget_s)}:",
        "| experiment | variants | units (all variants and runs) | cost | from | in the budget |",
        "|---|---|---|---|---|---|",
    ]
    for c in cs:
        cost = ("at most " if c.bound else "") + minutes(c.seconds)
        fits = "yes" if c.fits else "no"
        lines.append(
            f"| {c.experiment} | {', '.join(c.variants)} | {c.units} | {cost} | {c.source} | "
            f"{fits} |"
        )
    used = sum(c.seconds for c in cs if c.fits)
    lines.append(f"| in the budget, together | | | {minutes(used)} | | |")
    lines.append("")
    decided = [f"  {i}: {why}" for i, ok, why in verdicts if ok]
    not_decided = [f"  {i}: {why}" for i, ok, why in verdicts if not ok]
    lines += [f"claims the budget can decide ({len(decided)}):", *decided]
    lines += [f"claims it cannot ({len(not_decided)}):", *(not_decided or ["  none"])]
    return "\n".join(lines) + "\n"
