"""Shared by the simulated CheriBSD tools of the tests (sysctl, procstat, proccontrol, kenv,
pmcstat in this folder): the simulated board's state, state.json beside them (written by the
test), and the marks proccontrol leaves per process. Every tool answers in its real output
format, cited in its own file; the state says what the board would show."""

from __future__ import annotations

import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULTS = {
    "release": "24.05",
    "sysctl": {
        "kern.ident": "GENERIC-MORELLO-PURECAP-NODEBUG",
        "kern.osrelease": "15.0-CURRENT",
        "security.cheri.runtime_revocation_default": "1",
        "security.cheri.lib_based_c18n_default": "0",
        "dev.cpu.0.freq": "2500",
        "dev.cpu.0.freq_levels": "2500/-1",
        "hw.machine_arch": "aarch64c",
        "hw.model": "Morello (simulated)",
    },
    "kenv": {"smbios.system.product": "Morello System Development Platform (simulated)"},
    "compartments": 4,  # what procstat c18n shows for a process in compartments
    # the simulated processes' ABI: where procstat -v maps a c18n process's libraries from
    # (procstat: C18N_DIRS; purecap /usr/lib/c18n, purecap-benchmark /usr/lib64cb/c18n)
    "abi": "purecap",
    "launcher_works": True,  # false: proccontrol's cheric18n mode is ignored (a broken launcher)
    # the release's procstat has the c18n command (on 24.05 not verified: README, board section;
    # tests set it false to rehearse the procstat -v fallback)
    "procstat_c18n": True,
    "cycles_per_ns": 2.5,  # pmcstat's CPU_CYCLES per nanosecond of the command's run
}


def state() -> dict:
    path = HERE / "state.json"
    given = json.loads(path.read_text()) if path.exists() else {}
    out = {**DEFAULTS, **given}
    out["sysctl"] = {**DEFAULTS["sysctl"], **given.get("sysctl", {})}
    return out


def marks_dir() -> Path:
    d = HERE / "marks"
    d.mkdir(exist_ok=True)
    return d


def mark(pid: int, mode: str, value: str) -> None:
    (marks_dir() / f"{pid}.{mode}").write_text(value)


def marked(pid: int, mode: str) -> str | None:
    p = marks_dir() / f"{pid}.{mode}"
    return p.read_text() if p.exists() else None


def environ(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def in_compartments(pid: int) -> bool:
    """As the run-time linker decides: proccontrol's cheric18n mode, LD_*COMPARTMENT_ENABLE in
    the environment, else the system default (security.cheri.lib_based_c18n_default)."""
    s = state()
    mode = marked(pid, "cheric18n")
    if mode is not None and s["launcher_works"]:
        return mode == "enable"
    if any(e.split("=", 1)[0].endswith("COMPARTMENT_ENABLE") for e in environ(pid)):
        return True
    return s["sysctl"].get("security.cheri.lib_based_c18n_default") == "1"


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and os.path.exists(f"/proc/{pid}/maps")
