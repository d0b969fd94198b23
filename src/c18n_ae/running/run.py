"""Runs one experiment on one target for its variants (a run unit, c18n_ae.running.unit):
interleaved in a seeded order, a few units per process, resumed where a killed run stopped;
raw.csv and meta.json (with the segments that made it) per variant. Progress goes to the log
and, at most every 2 s, to the terminal; Ctrl-C, SIGTERM and the timeout end the running
benchmark's whole process group and keep every row measured. A failed run leaves
run-failed.json and its segments."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import TERMINAL_EVERY_S, config
from c18n_ae.common.fsutil import write_json_atomic
from c18n_ae.experiments.commands import launch_command
from c18n_ae.experiments.plan import description as plan_description
from c18n_ae.experiments.plan import plan_for
from c18n_ae.running.unit import UnitFailed, execute
from c18n_ae.targets import abi, hostinfo


class RunFailed(RuntimeError):
    pass


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def describe_program(binary: Path, recipe: dict) -> dict:
    out = subprocess.run(
        launch_command(recipe, str(binary), ["--describe"]), capture_output=True, text=True
    )
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"describe_error": (out.stdout + out.stderr).strip()[:500]}


def run_unit(
    *,
    target: str,
    experiment: str,
    recipes: list[dict],
    params: dict,
    results: Path,
    log: Path,
    options: dict | None = None,
    timeout_s: float | None = None,
) -> dict[str, dict]:
    """Runs the variants of one experiment on this machine, interleaved and resumable
    (c18n_ae.running.unit); writes each variant's raw.csv and meta.json. Raises RunFailed, keeping
    every measured row."""
    options = options or {}
    e = exp.get(experiment)
    plan = plan_for(
        experiment,
        recipes,
        {**params, "timeout_s": timeout_s or params.get("timeout_s")},
        results,
        target,
        options,
    )
    log.parent.mkdir(parents=True, exist_ok=True)
    metas = {}
    for recipe in recipes:
        out_dir = results / target / recipe["name"] / experiment
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "run-failed.json").unlink(missing_ok=True)
        metas[recipe["name"]] = {
            "target": target,
            "variant": recipe["name"],
            "experiment": experiment,
            "parameters": params,
            "trials_planned": e.trials(params),
            "command": plan["variants"][len(metas)]["command"],
            "launcher": recipe.get("launcher", []),
            "compiler": recipe["cc"],
            "compiler_version": hostinfo.compiler_version(recipe["cc"]),
            "cflags": recipe["cflags"],
            "host": hostinfo.describe_local(),
            "program": describe_program(
                results / target / recipe["name"] / "bin" / e.programs[0].output, recipe
            ),
            "git_revision": hostinfo.git_revision(),
            "started_at": _now(),
            "abi": abi.of_build(results / target / recipe["name"] / "bin" / e.programs[0].output),
            "run_unit": plan_description(plan),
        }
    last = {"progress": ""}
    shown = [0.0]
    status, error = "ok", ""
    with open(log, "a") as logf:

        def say(msg: str, progress: bool = False) -> None:
            logf.write(f"{msg}\n" if progress else f"[{_now()}] {msg}\n")
            logf.flush()
            if progress:
                last["progress"] = msg.split("] ", 1)[-1]
                if time.monotonic() - shown[0] < TERMINAL_EVERY_S:
                    return
                shown[0] = time.monotonic()
            print(f"[{target}/{experiment}] {msg}", file=sys.stderr, flush=True)

        def on_signal(signum, _frame):
            raise KeyboardInterrupt(f"signal {signum}")

        old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        say(
            f"run unit: {experiment} on {target}, variants {', '.join(metas)}"
            + (
                f", interleaved {plan['chunk_units']} units at a time (seed {plan['seed']})"
                if plan["chunk_units"]
                else ""
            )
        )
        try:
            execute(plan, say)
        except UnitFailed as err:
            status, error = ("timeout" if "timeout_s reached" in str(err) else "failed"), str(err)
        except KeyboardInterrupt:
            status, error = "interrupted", "interrupted"
        finally:
            for s, h in old.items():
                signal.signal(s, h)
        say(f"{status}{': ' + error if error else ''}")
    for recipe in recipes:
        name = recipe["name"]
        out_dir = results / target / name / experiment
        meta = metas[name]
        history = (
            json.loads((out_dir / "segments.json").read_text())
            if (out_dir / "segments.json").exists()
            else []
        )
        meta.update(
            finished_at=_now(),
            segments=history,
            last_progress=last["progress"],
            status=status,
            exit_status=history[-1]["exit_status"] if history else None,
        )
        if status != "ok":
            write_json_atomic(out_dir / "run-failed.json", meta)
        else:
            write_json_atomic(out_dir / "meta.json", meta)
    if status != "ok":
        raise RunFailed(
            f"{target}/{experiment}: run {status} ({error}); last progress: "
            f"{last['progress'] or 'none'}; "
            f"rows measured so far are kept in results/{target}/<variant>/{experiment}/segments/ "
            f"and the "
            f"next run continues from them; details in run-failed.json and {log}"
        )
    return metas


def run(
    *,
    target: str,
    variant: str,
    experiment: str,
    recipe: dict,
    params: dict,
    bin_dir: Path,
    out_dir: Path,
    log: Path,
    timeout_s: float | None = None,
    options: dict | None = None,
) -> dict:
    """One variant alone (its folders laid out as results/<target>/<variant>/{bin,<experiment>})."""
    results = out_dir.parent.parent.parent
    assert bin_dir.resolve() == (results / target / variant / "bin").resolve(), (bin_dir, out_dir)
    return run_unit(
        target=target,
        experiment=experiment,
        recipes=[{**recipe, "name": variant}],
        params=params,
        results=results,
        log=log,
        options=options,
        timeout_s=timeout_s,
    )[variant]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    config.add_arguments(ap)
    ap.add_argument("--target", required=True, help="a target's name (with --config), or its JSON")
    ap.add_argument("--experiment", required=True)
    ap.add_argument("--variants", nargs="+", help="variant names (with --config)")
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
    else:
        recipes = [config.variant(cfg, target["name"], v) for v in a.variants]
    params = json.loads(a.params) if a.params else cfg["experiments"][a.experiment]
    options = json.loads(a.options) if a.options else (cfg or {}).get("run", {})
    if target["kind"] != "local":
        from c18n_ae.targets.remote import RemoteRunFailed, run_remote

        try:
            run_remote(
                target=target,
                recipes=recipes,
                experiment=a.experiment,
                params=params,
                results=a.results,
                log=a.log,
                timeout_s=params.get("timeout_s"),
                options=options,
            )
        except RemoteRunFailed as e:
            raise SystemExit(f"error: {e}")
        return
    try:
        run_unit(
            target=target["name"],
            experiment=a.experiment,
            recipes=recipes,
            params=params,
            results=a.results,
            log=a.log,
            options=options,
            timeout_s=params.get("timeout_s"),
        )
    except RunFailed as e:
        raise SystemExit(f"error: {e}")


if __name__ == "__main__":
    main()
