"""What the drivers share: arguments, starting the variant's programs, and ending them all."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import time
from pathlib import Path


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True, type=Path)
    ap.add_argument("--recipe", required=True, help="variant recipe as JSON (launcher, c18n)")
    ap.add_argument("--params", required=True, help="experiment parameters as JSON")
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    a.recipe = json.loads(a.recipe)
    a.params = json.loads(a.params)
    return a


def in_compartment(recipe: dict) -> bool:
    return bool(recipe.get("c18n", False))


class Processes:
    """Starts programs under the variant's launcher, each in its own process group, and ends
    every one of them on exit, error, Ctrl-C or SIGTERM (use as a context manager)."""

    def __init__(self, recipe: dict):
        self.launcher = recipe.get("launcher", [])
        self.procs: list[subprocess.Popen] = []

    def start(self, program: Path, *args: str, **popen) -> subprocess.Popen:
        p = subprocess.Popen([*self.launcher, str(program), *args], start_new_session=True, **popen)
        self.procs.append(p)
        return p

    def __enter__(self):
        self._old = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        return self

    def _on_signal(self, signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    def stop_all(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 5
        for p in self.procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        self.procs.clear()

    def __exit__(self, *exc):
        self.stop_all()
        for s, h in self._old.items():
            signal.signal(s, h)
        return False


class Lines:
    """Collects a program's stdout lines in a thread, so waiting for one never blocks the run."""

    def __init__(self, proc: subprocess.Popen):
        import queue
        import threading

        self.proc, self.lines, self.queue = proc, [], queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def wait_for(self, prefix: str, timeout: float = 60.0) -> str:
        import queue

        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(
                    f"no line starting {prefix!r} within {timeout} s from {self.proc.args}"
                )
            try:
                line = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(
                    f"{self.proc.args} ended (exit status {self.proc.wait()}) before printing "
                    f"{prefix!r}"
                )
            self.lines.append(line)
            if line.startswith(prefix):
                return line


def ready_pids(lines: Lines, timeout: float = 60.0) -> list[int]:
    """Waits for the program's 'ready PID [PID...]' line and returns the pids."""
    return [int(x) for x in lines.wait_for("ready", timeout).split()[1:]]
