"""Build and run on an SSH target (any POSIX host or a Morello board).

Sources are shipped with rsync and compiled on the target with the variant's flags. SSHTarget
(c18n_ae.targets.base) starts a run unit (every variant and run of one experiment, interleaved)
detached on the remote side (nohup), so it survives the SSH link dropping: it writes each run's
segments row by row, its lines to progress.log and, when it ends, its exit status to exit_status.
This side polls over short SSH connections, reading progress.log on from where it stopped,
retries through a dropped link until the run's time limit, and fetches the variants' folders.
Run again, it resumes: a run still going under the same plan is re-attached; otherwise the unit
starts again on the target, where it goes on from the last row measured of the same build
(c18n_ae.running.unit), or, when everything is measured, only checks the build and writes
raw.csv.

Between two runs of a boot_per_run plan, reboot runs the target's reboot_command (default
`shutdown -r now`, as the SSH user, who must be allowed to) detached, its output in
_units/<experiment>/reboot.log, then polls every BOOT_POLL_S until SSH answers with another boot
id (Linux's /proc/sys/kernel/random/boot_id, else `sysctl -n kern.boottime`, as the run unit
reads it), for at most boot_wait_s (default 900)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from c18n_ae import PROJECT_ROOT
from c18n_ae.experiments import programs
from c18n_ae.experiments.commands import compile_command
from c18n_ae.targets import provenance
from c18n_ae.targets.base import Clock, Poll, TargetError
from c18n_ae.targets.transport import SSH, LinkError

STATUS_SCRIPT = r"""
cd {dir} 2>/dev/null || {{ echo exit=absent; echo ---; exit 0; }}
if [ -f exit_status ]; then echo "exit=$(cat exit_status)"; else echo exit=none; fi
if [ -f pid ] && kill -0 "$(cat pid)" 2>/dev/null; then echo alive=1; else echo alive=0; fi
echo "size=$(wc -c < progress.log 2>/dev/null || echo 0)"
echo ---
tail -c +{start} progress.log 2>/dev/null | head -c 262144
"""
LOST = "lost (the process is gone and left no exit status: killed, or the target rebooted)"
BOOT_ID_SCRIPT = (
    "if [ -r /proc/sys/kernel/random/boot_id ]; then cat /proc/sys/kernel/random/boot_id; "
    "else sysctl -n kern.boottime 2>/dev/null; fi"
)
REBOOT_EXIT = "6"  # the run unit's EXIT["reboot"] (c18n_ae.running.unit; targets import no running)
DEFAULT_REBOOT_COMMAND = "shutdown -r now"
DEFAULT_BOOT_WAIT_S = 900.0
BOOT_POLL_S = 10.0


def ship_sources(t: SSH) -> None:
    t.put(
        [str(PROJECT_ROOT / "src" / "benchmarks"), str(PROJECT_ROOT / "src" / "c18n_ae")],
        f"{t.workdir}/src",
    )


def ship_binary(target: dict, recipe: dict, program: programs.Program, bin_dir: Path) -> str:
    """A binary built here goes to the target's results/<target>/<variant>/bin/, beside the
    libraries it links (shipped when they were built), with the sources the drivers import."""
    t = SSH.from_target(target)
    ship_sources(t)
    rel_bin = f"results/{target['name']}/{recipe['name']}/bin"
    t.put([str(bin_dir / program.output)], f"{t.workdir}/{rel_bin}")
    return f"{t.destination}:{t.workdir}/{rel_bin}/{program.output}"


def build_remote(target: dict, recipe: dict, program: programs.Program, bin_dir: Path) -> dict:
    t = SSH.from_target(target)
    ship_sources(t)
    rel_bin = f"results/{target['name']}/{recipe['name']}/bin"
    cmd = compile_command(recipe, program, "src/benchmarks", rel_bin)
    print(f"build on {t.destination}: {shlex.join(cmd)}", file=sys.stderr)
    t.run(f"cd {shlex.quote(t.workdir)} && mkdir -p {rel_bin} && {shlex.join(cmd)}", timeout=900)
    file_out = t.run(
        f"cd {shlex.quote(t.workdir)} && file -b {rel_bin}/{program.output}", check=False
    ).stdout.strip()
    t.get([f"{t.workdir}/{rel_bin}/{program.output}"], bin_dir)
    return {
        "compile_command": cmd,
        "file": file_out,
        "remote": t.destination,
        "remote_workdir": t.workdir,
        "compiler_version": t.run(
            f"{shlex.quote(recipe['cc'])} --version 2>&1 | head -n 1", check=False
        ).stdout.strip(),
    }


def start_script(workdir: str, rel: str, cmd: list[str]) -> str:
    """Starts cmd detached from the SSH session; its stderr is the progress log, its pid in
    unit.pid (for stop) and its exit status, once it ends, in exit_status."""
    status_file = f"{rel}/exit_status"
    inner = (
        f"{shlex.join(cmd)} 2>> {rel}/progress.log & echo $! > {rel}/unit.pid; wait $!; "
        f"echo $? > {status_file}.tmp; mv {status_file}.tmp {status_file}"
    )
    return (
        f"cd {shlex.quote(workdir)} && mkdir -p {rel} && rm -f {rel}/exit_status && "
        f"if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; "
        f"$S nohup sh -c {shlex.quote(inner)} </dev/null >/dev/null 2>&1 & echo $! > {rel}/pid"
    )


def status(t: SSH, rel: str, offset: int = 0) -> tuple[dict, str]:
    """The run's state (exit, alive, size of progress.log) and progress.log from offset on."""
    out = t.run(
        STATUS_SCRIPT.format(dir=shlex.quote(f"{t.workdir}/{rel}"), start=offset + 1), timeout=60
    ).stdout
    head, _, text = out.partition("---\n")
    return dict(line.split("=", 1) for line in head.splitlines() if "=" in line), text


def earlier(exit_status: str | None) -> str:
    """What an earlier run unit left on the target, in words ("" when there was none)."""
    if exit_status in (None, "absent"):
        return ""
    if exit_status == "0":
        return "finished earlier on the target: starting it again to check its build"
    if exit_status == REBOOT_EXIT:
        return "the earlier run unit finished a run and asked for a reboot: going on with the next"
    how = (
        "left no exit status" if exit_status == "none" else f"ended with exit status {exit_status}"
    )
    return f"an earlier run {how}: continuing where it stopped"


class SSHTarget:
    """An SSH host or board as a Target. `clock` waits between retries through a dropped link,
    which are given up `patience_s` after start (the run's time limit)."""

    def __init__(self, config: dict, results: Path, clock: Clock | None = None, patience_s=86400):
        self.name, self.config, self.results = config["name"], config, Path(results)
        self.transport = self.t = SSH.from_target(config)
        self.clock, self.patience_s = clock or Clock(), float(patience_s)
        self.plan, self.rel, self.offset, self.gone = None, "", 0, False
        self.notes: list[str] = []  # messages for the run's log, handed over with the next poll

    def retry(self, call, what: str):
        """Calls through dropped links until the patience runs out."""
        delay = 1.0
        while True:
            try:
                return call()
            except LinkError as e:
                if self.clock.monotonic() > self.until:
                    raise TargetError(f"{what}: SSH link still down at the time limit: {e}") from e
                self.notes.append(f"link lost during {what} ({e}); retrying in {delay:.0f} s")
                self.clock.sleep(delay)
                delay = min(delay * 2, 30.0)

    def on_target(self, plan: dict) -> dict:
        """The plan as the target runs it: drivers import the package shipped to src/."""
        plan = json.loads(json.dumps(plan))
        for v in plan["variants"]:
            for r in v["runs"] if not v.get("windowed", True) else []:
                r["command"] = ["env", "PYTHONPATH=src", *r["command"]]
        return plan

    def start(self, plan: dict) -> str:
        self.plan, self.until = plan, self.clock.monotonic() + self.patience_s
        self.rel = f"results/{self.name}/_units/{plan['experiment']}"
        remote_plan = self.on_target(plan)
        state, _ = self.retry(lambda: status(self.t, self.rel, 10**12), "checking the run")
        self.offset = int(state.get("size") or 0)
        # an exit status means the unit ended: a live pid then is another process (after a reboot)
        if state.get("alive") == "1" and state.get("exit") in (None, "none"):
            if self.running_plan() == remote_plan:
                return "; ".join([*self.take_notes(), "still running on the target: re-attaching"])
            self.stop()
            self.wait_gone()
        how = earlier(state.get("exit"))
        self.launch(remote_plan)
        return "; ".join(
            [*self.take_notes(), *([how] if how else []), f"started on {self.t.destination}"]
        )

    def running_plan(self) -> dict | None:
        text = self.retry(
            lambda: (
                self.t.run(
                    f"cat {shlex.quote(self.t.workdir)}/{self.rel}/plan.json", check=False
                ).stdout
            ),
            "reading the running plan",
        )
        try:
            return json.loads(text)
        except ValueError:
            return None

    def wait_gone(self) -> None:
        for _ in range(60):
            if (
                self.retry(lambda: status(self.t, self.rel, 10**12), "stopping")[0].get("alive")
                != "1"
            ):
                return
            self.clock.sleep(1.0)
        raise TargetError(f"the earlier run in {self.rel} did not stop")

    def launch(self, plan: dict) -> None:
        python = self.config.get("python", "python3")
        cmd = [
            "env",
            "PYTHONPATH=src",
            python,
            "-m",
            "c18n_ae.running.unit",
            "--plan",
            f"{self.rel}/plan.json",
        ]
        put_plan = (
            f"cd {shlex.quote(self.t.workdir)} && mkdir -p {self.rel} && "
            f"cat > {self.rel}/plan.json <<'PLAN'\n{json.dumps(plan)}\nPLAN"
        )
        self.retry(lambda: self.t.run(put_plan, timeout=60), "sending the plan")
        self.retry(
            lambda: self.t.run(start_script(self.t.workdir, self.rel, cmd), timeout=60),
            "starting the run",
        )
        self.gone = False

    def take_notes(self) -> list[str]:
        notes, self.notes = self.notes, []
        return notes

    def poll(self) -> Poll:
        state, text = self.retry(lambda: status(self.t, self.rel, self.offset), "polling the run")
        data = text.encode()
        end = data.rfind(b"\n") + 1
        self.offset += end
        lines = self.take_notes() + data[:end].decode(errors="replace").splitlines()
        if state.get("exit") not in (None, "none", "absent"):
            code = state["exit"].strip()
            return Poll(lines, True, int(code) if code.lstrip("-").isdigit() else code)
        if state.get("alive") == "1":
            self.gone = False
            return Poll(lines)
        # the exit status is written just after the process ends: gone twice in a row is lost
        ended, self.gone = self.gone, True
        return Poll(lines, ended, LOST if ended else None)

    def fetch(self) -> None:
        for v in self.plan["variants"]:  # every row measured so far comes home, finished or not
            vrel = f"results/{self.name}/{v['name']}/{self.plan['experiment']}"
            out_dir = self.results / self.name / v["name"] / self.plan["experiment"]
            out_dir.mkdir(parents=True, exist_ok=True)
            self.until = max(self.until, self.clock.monotonic() + 600)
            self.retry(
                lambda: self.t.get([f"{self.t.workdir}/{vrel}/"], out_dir), "fetching the results"
            )

    def stop(self) -> None:
        self.retry(
            lambda: self.t.run(
                f"cd {shlex.quote(self.t.workdir)} && kill -TERM $(cat {self.rel}/unit.pid) "
                "2>/dev/null",
                check=False,
            ),
            "stopping the run",
        )

    def boot_id(self) -> str | None:
        return self.t.run(BOOT_ID_SCRIPT, timeout=60, check=False).stdout.strip() or None

    def reboot(self) -> str:
        """Runs reboot_command detached (the SSH session ends before the machine goes down), then
        waits for the machine in a new boot."""
        self.until = self.clock.monotonic() + 600
        before = self.retry(self.boot_id, "reading the boot id")
        if before is None:
            raise TargetError(
                f"{self.t.destination}: no boot id (neither /proc/sys/kernel/random/boot_id nor "
                "sysctl kern.boottime): a reboot could not be told from none"
            )
        command = self.config.get("reboot_command", DEFAULT_REBOOT_COMMAND)
        inner = f"sleep 2; {command}"
        try:
            self.t.run(
                f"cd {shlex.quote(self.t.workdir)} && mkdir -p {self.rel} && nohup sh -c "
                f"{shlex.quote(inner)} </dev/null >{self.rel}/reboot.log 2>&1 &",
                timeout=60,
                check=False,
            )
        except LinkError:
            pass  # the link may drop as the machine goes down
        return self.wait_boot(before, command)

    def wait_boot(self, before: str, command: str) -> str:
        """Polls until SSH answers with a boot id other than `before`, up to boot_wait_s."""
        wait_s = float(self.config.get("boot_wait_s", DEFAULT_BOOT_WAIT_S))
        start, silent, now = self.clock.monotonic(), 0, before
        while self.clock.monotonic() - start < wait_s:
            self.clock.sleep(BOOT_POLL_S)
            try:
                now = self.boot_id()
            except LinkError:
                silent += 1
                continue
            if now is not None and now != before:
                took = self.clock.monotonic() - start
                return (
                    f"{self.t.destination} rebooted: boot {before} -> {now}, answering after "
                    f"{took:.0f} s ({silent} polls unanswered)"
                )
        try:
            log = f"{shlex.quote(self.t.workdir)}/{self.rel}/reboot.log"
            said = self.t.run(f"cat {log}", check=False).stdout
        except LinkError:
            said = "(not answering)"
        raise TargetError(
            f"{self.t.destination} did not come back in a new boot within boot_wait_s "
            f"{wait_s:.0f} s of {command!r} (boot id still {now}); the SSH user must be allowed "
            f"to run reboot_command; its output: {said.strip()[-300:] or 'none'}"
        )

    def describe(self) -> dict:
        host = self.retry(lambda: provenance.describe(self.config), "describing the target")
        return {
            "host": host,
            "compilers": host.get("compilers", {}),
            "programs": {v["name"]: self.describe_program(v) for v in self.plan["variants"]},
            "remote": self.t.destination,
            "remote_workdir": self.t.workdir,
        }

    def describe_program(self, v: dict) -> dict:
        prog = shlex.join([*v["recipe"].get("launcher", []), v["build_files"][0], "--describe"])
        out = self.retry(
            lambda: self.t.run(f"cd {shlex.quote(self.t.workdir)} && {prog}", check=False).stdout,
            "describing the program",
        )
        try:
            return json.loads(out)
        except ValueError:
            return {"describe_error": out[:300]}
