"""Which profile made results/: recorded when a workflow run starts (results/profile.json), so that
a later command with another profile's config (a paper rebuild without the run's --configfile)
stops and says so, instead of planning every benchmark again at the other profile's settings."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

RECORD = Path("results") / "profile.json"


def profile_of(config: dict) -> str:
    return config.get("profile", "full")


def write(config: dict, config_files: list[str], record: Path = RECORD) -> None:
    record.parent.mkdir(parents=True, exist_ok=True)
    made = {"profile": profile_of(config), "config_files": list(config_files)}
    record.write_text(json.dumps(made, indent=2) + "\n")


def conflict(config: dict, config_files: list[str], record: Path = RECORD) -> str | None:
    """The message for a command whose profile differs from the one that made results/, or None."""
    if not record.exists():
        return None
    try:
        made = json.loads(record.read_text())
        profile, files = made["profile"], made["config_files"]
    except (ValueError, KeyError, TypeError):
        return f"{record}: not a record of a run's profile; remove it to go on"
    if profile == profile_of(config):
        return None
    extra = [f for f in files if f not in config_files[:1]]
    again = "snakemake --cores 1 paper" + (f" --configfile {shlex.join(extra)}" if extra else "")
    return (
        f"results/ holds the {profile} profile's measurements, made with the config files"
        f" {', '.join(files)} ({record}); this command's config files ({', '.join(config_files)})"
        f" are the {profile_of(config)} profile's, which would measure every benchmark again."
        f" Give the run's config files, e.g. `{again}`; to measure with the"
        f" {profile_of(config)} profile instead, remove {record} first."
    )
