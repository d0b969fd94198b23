"""This machine as a Target (c18n_ae.targets.base): the run unit runs as a child process, in the
driver's process group (so killing the driver's group leaves no unit behind), printing to
results/<target>/_units/<experiment>/progress.log, which poll reads on from where it stopped.
The rows are written in place, so fetch has nothing to do. This machine is never rebooted by the
workflow: reboot (boot_per_run) is refused."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from c18n_ae.common.fsutil import write_json_atomic
from c18n_ae.experiments.commands import launch_command
from c18n_ae.targets import hostinfo
from c18n_ae.targets.base import Poll, TargetError
from c18n_ae.targets.transport import Local


def popen(cmd: list[str], log: Path):
    """The process launcher: cmd with its stderr appended to log."""
    with open(log, "a") as err:
        return subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err
        )


def describe_program(binary: Path, recipe: dict) -> dict:
    out = subprocess.run(
        launch_command(recipe, str(binary), ["--describe"]), capture_output=True, text=True
    )
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"describe_error": (out.stdout + out.stderr).strip()[:500]}


class LogTail:
    """The complete lines appended to a file since the last read."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = path.stat().st_size if path.exists() else 0

    def read(self) -> list[str]:
        if not self.path.exists():
            return []
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self.offset += end
        return data[:end].decode(errors="replace").splitlines()


class LocalTarget:
    def __init__(self, config: dict, results: Path, launch=popen):
        self.name, self.config, self.results = config["name"], config, Path(results)
        self.transport = Local()
        self.launch = launch
        self.proc = self.plan = self.tail = None

    def start(self, plan: dict) -> str:
        self.plan = plan
        udir = self.results / self.name / "_units" / plan["experiment"]
        udir.mkdir(parents=True, exist_ok=True)
        write_json_atomic(udir / "plan.json", plan)
        self.tail = LogTail(udir / "progress.log")
        cmd = [sys.executable, "-m", "c18n_ae.running.unit", "--plan", str(udir / "plan.json")]
        self.proc = self.launch(cmd, udir / "progress.log")
        return f"started here: {' '.join(cmd)}"

    def poll(self) -> Poll:
        code = self.proc.poll()
        lines = self.tail.read()  # after poll(): an ended unit's last lines are in the file
        return Poll(lines, code is not None, code)

    def fetch(self) -> None:
        pass

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    def reboot(self) -> str:
        raise TargetError(
            f"targets[{self.name}].boot_per_run: the workflow never reboots the machine it runs "
            "on; separate boots per run are for ssh and morello targets"
        )

    def describe(self) -> dict:
        recipes = [v["recipe"] for v in self.plan["variants"]]
        return {
            "host": hostinfo.describe_local(),
            "compilers": {r["cc"]: hostinfo.compiler_version(r["cc"]) for r in recipes},
            "programs": {
                v["name"]: describe_program(Path(v["build_files"][0]), v["recipe"])
                for v in self.plan["variants"]
            },
        }
