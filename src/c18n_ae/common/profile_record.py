"""Which profile and machines made results/: recorded when a workflow run starts
(results/profile.json), so that a later command with another config (a paper rebuild without the
run's --configfile) stops and says so, instead of measuring every benchmark again at the other
profile's settings or leaving a machine's measurements out of the paper."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

RECORD = Path("results") / "profile.json"


def made_by(config: dict, config_files: list[str]) -> dict:
    return {
        "profile": config.get("profile", "full"),
        "targets": [t["name"] for t in config["targets"]],
        "config_files": list(config_files),
    }


def write(config: dict, config_files: list[str], record: Path = RECORD) -> None:
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(made_by(config, config_files), indent=2) + "\n")


def conflict(config: dict, config_files: list[str], record: Path = RECORD) -> str | None:
    """Why this command's config cannot go on with what made results/, or None: another profile
    (every benchmark measured again), or a machine of the run left out (its rows left out)."""
    if not record.exists():
        return None
    now = made_by(config, config_files)
    try:
        made = json.loads(record.read_text())
        profile, targets, files = made["profile"], made["targets"], made["config_files"]
    except (ValueError, KeyError, TypeError):
        return f"{record}: not a record of a run's profile and targets; remove it to go on"
    if profile != now["profile"]:
        why = (
            f"results/ holds the {profile} profile's measurements; this command's config is the"
            f" {now['profile']} profile's, which would measure every benchmark again"
        )
    elif left_out := [t for t in targets if t not in now["targets"]]:
        why = (
            f"results/ holds measurements of {', '.join(left_out)}, which this command's config"
            " has no target for, so the paper would leave them out"
        )
    else:
        return None
    extra = [f for f in files if f != "config/config.yaml"]
    again = "snakemake --cores 1 paper" + (f" --configfile {shlex.join(extra)}" if extra else "")
    return (
        f"{why}. The run was made with the config files {', '.join(files)} ({record}); this"
        f" command's are {', '.join(config_files)}. Give the run's config files, e.g. `{again}`;"
        f" to go on with this config instead, remove {record} first."
    )
