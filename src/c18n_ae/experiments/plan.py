"""The plan of a run unit (c18n_ae.running.unit): each variant's command, folder and number of
units, and how to interleave them, from the experiment registry and the config's run options."""

from __future__ import annotations

from pathlib import Path

from c18n_ae import experiments as exp


def plan_for(
    experiment: str,
    recipes: list[dict],
    params: dict,
    results: Path,
    target: str,
    options: dict,
    python: str | None = None,
    resolve: bool = True,
) -> dict:
    """The run unit's plan: every variant's command, folder and units, and how to interleave
    them."""
    e = exp.get(experiment)
    variants = []
    for recipe in recipes:
        bin_dir = results / target / recipe["name"] / "bin"
        out_dir = results / target / recipe["name"] / experiment
        cmd = e.command(
            params, bin_dir.resolve() if resolve else bin_dir, recipe, Path("OUT"), python=python
        )
        assert cmd[-2:] == ["--out", "OUT"], cmd  # the unit runner adds --out per segment
        variants.append(
            {
                "name": recipe["name"],
                "dir": str(out_dir.resolve() if resolve else out_dir),
                "command": cmd[:-2],
                "units": e.trials(params),
                "windowed": e.driver is None,
            }
        )
    return {
        "experiment": experiment,
        "seed": options.get("seed", 1),
        "chunk_units": options.get("chunk_units") if options.get("interleave", True) else None,
        "max_unit_s": options.get("max_unit_s"),
        "timeout_s": params.get("timeout_s"),
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
    }
