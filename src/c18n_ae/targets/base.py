"""What a run needs of a machine: the Target interface the driver (c18n_ae.running.driver) runs a
plan through, and the clock it waits on. As in Snakemake's remote executors (run_job,
check_active_jobs, cancel_jobs), a target starts a run unit detached, is polled for what it
printed and whether it ended, brings the rows home, stops a run, reboots between two runs of a
boot_per_run plan, and describes itself. Local
(targets.local) and SSH (targets.remote) implement it; tests use a fake target and clock."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Protocol


class TargetError(RuntimeError):
    """A target could not do what the driver asked (e.g. its link stayed down past the limit)."""


@dataclass
class Poll:
    """One look at a started run unit: the complete lines it printed since the last look, and
    whether it ended (exit_status: its exit status, or a sentence saying why there is none)."""

    lines: list[str] = field(default_factory=list)
    ended: bool = False
    exit_status: int | str | None = None


class Target(Protocol):
    """A machine that runs plans. `name` is the config's; `transport` runs a shell command there
    (`.run(command, timeout=, check=)`), for checks."""

    name: str
    transport: object

    def start(self, plan: dict) -> str:
        """Starts the plan's run unit (or re-attaches to one still running, or finds it finished);
        returns a sentence for the log saying which."""

    def poll(self) -> Poll: ...

    def fetch(self) -> None:
        """Brings every row measured so far to results/<target>/<variant>/<experiment>/."""

    def stop(self) -> None:
        """Ends the run unit, which ends its benchmark process and keeps every row."""

    def reboot(self) -> str:
        """Reboots the machine and returns once it answers again in a new boot (its boot id
        differs from before); returns a sentence for the log. Raises TargetError when the
        machine cannot be rebooted (this machine) or does not come back in a new boot in time."""

    def describe(self) -> dict:
        """Facts for meta.json: host, compilers (cc -> version), programs (variant -> the
        program's --describe), and where it ran (remote, remote_workdir) when not here."""


class Clock:
    """Wall and monotonic time, and waiting; tests give a fake that advances on sleep."""

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    def now(self) -> str:
        return datetime.now(timezone.utc).isoformat(timespec="seconds")
