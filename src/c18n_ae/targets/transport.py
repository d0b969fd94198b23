"""How commands and files reach a target: directly on this machine, or over SSH.

SSH uses the system's ssh/scp/rsync with BatchMode (never a password prompt), a connect timeout
and keep-alives, so a dropped link fails fast and the caller can retry."""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


class LinkError(RuntimeError):
    """The SSH link failed (ssh exited 255): the remote side may be fine; try again later."""


@dataclass
class Local:
    kind: str = "local"

    def run(
        self, command: str, *, timeout: float = 600, check: bool = True
    ) -> subprocess.CompletedProcess:
        done = subprocess.run(
            ["sh", "-c", command], capture_output=True, text=True, timeout=timeout
        )
        if check and done.returncode != 0:
            raise RuntimeError(
                f"{command!r} failed ({done.returncode}): {done.stderr.strip()[-500:]}"
            )
        return done


@dataclass
class SSH:
    host: str
    user: str | None = None
    port: int = 22
    identity_file: str | None = None
    options: list[str] = field(default_factory=list)
    workdir: str = "c18n-ae"
    kind: str = "ssh"

    @classmethod
    def from_target(cls, target: dict) -> "SSH":
        return cls(
            host=target["host"],
            user=target.get("user"),
            port=target.get("port", 22),
            identity_file=target.get("identity_file"),
            options=list(target.get("ssh_options", [])),
            workdir=target.get("workdir", "c18n-ae"),
            kind=target["kind"],
        )

    @property
    def destination(self) -> str:
        return f"{self.user}@{self.host}" if self.user else self.host

    def ssh_base(self) -> list[str]:
        base = [
            "ssh",
            "-p",
            str(self.port),
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=15",
            "-o",
            "ServerAliveInterval=5",
            "-o",
            "ServerAliveCountMax=3",
        ]
        if self.identity_file:
            base += ["-i", str(Path(self.identity_file).expanduser())]
        return base + self.options

    def command(self, command: str) -> list[str]:
        """The exact ssh command line for a remote shell command (run from the home directory)."""
        return [*self.ssh_base(), self.destination, command]

    def run(
        self, command: str, *, timeout: float = 600, check: bool = True
    ) -> subprocess.CompletedProcess:
        try:
            done = subprocess.run(
                self.command(command),
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as e:
            raise LinkError(
                f"ssh to {self.destination}:{self.port} timed out after {timeout} s"
            ) from e
        if done.returncode == 255:
            raise LinkError(
                f"ssh to {self.destination}:{self.port} failed: {done.stderr.strip()[-300:]}"
            )
        if check and done.returncode != 0:
            raise RuntimeError(
                f"on {self.destination}: {command!r} failed ({done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[-500:]}"
            )
        return done

    def rsh(self) -> str:
        return shlex.join(self.ssh_base())

    def put(self, local_paths: list[str], remote_dir: str) -> None:
        """Copies files or directories (trailing-slash rules of rsync) into remote_dir."""
        self.run(f"mkdir -p {shlex.quote(remote_dir)}")
        cmd = [
            "rsync",
            "-a",
            "--delete-after",
            "-e",
            self.rsh(),
            *local_paths,
            f"{self.destination}:{remote_dir}/",
        ]
        self._transfer(cmd)

    def get(self, remote_paths: list[str], local_dir: Path) -> None:
        Path(local_dir).mkdir(parents=True, exist_ok=True)
        srcs = [f"{self.destination}:{p}" for p in remote_paths]
        self._transfer(["rsync", "-a", "-e", self.rsh(), *srcs, f"{local_dir}/"])

    def _transfer(self, cmd: list[str]) -> None:
        done = subprocess.run(
            cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=1800
        )
        if done.returncode in (12, 255) or "connection" in done.stderr.lower() and done.returncode:
            raise LinkError(f"rsync to {self.destination}: {done.stderr.strip()[-300:]}")
        if done.returncode != 0:
            raise RuntimeError(
                f"{shlex.join(cmd)} failed ({done.returncode}): {done.stderr.strip()[-500:]}"
            )


def for_target(target: dict):
    return Local() if target["kind"] == "local" else SSH.from_target(target)
