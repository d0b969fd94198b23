"""Describes the machine a run happens on (provenance for meta.json and the setup table)."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

from c18n_ae import PROJECT_ROOT


def _first_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
        text = (out.stdout or out.stderr).strip()
        return text.splitlines()[0] if text else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _mem_total_bytes() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _os_name() -> str:
    try:
        fields = dict(
            line.split("=", 1)
            for line in Path("/etc/os-release").read_text().splitlines()
            if "=" in line
        )
        return fields.get("PRETTY_NAME", "").strip('"')
    except OSError:
        return platform.system()


def describe_local() -> dict:
    return {
        "hostname": platform.node(),
        "os": _os_name(),
        "kernel": f"{platform.system()} {platform.release()}",
        "uname": " ".join(platform.uname()),
        "arch": platform.machine(),
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "mem_total_bytes": _mem_total_bytes(),
    }


def compiler_version(cc: str) -> str:
    return _first_line([cc, "--version"])


def git_revision() -> str:
    rev = _first_line(["git", "-C", str(PROJECT_ROOT), "rev-parse", "HEAD"])
    if not rev or " " in rev:
        return "unknown (not a git checkout)"
    dirty = subprocess.run(
        ["git", "-C", str(PROJECT_ROOT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return rev + ("-dirty" if dirty else "")
