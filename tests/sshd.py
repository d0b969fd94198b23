"""A real OpenSSH server on loopback for the tests: a free port, its own host key, a client key
in its own authorized_keys, and nothing of the machine's own ssh configuration touched."""

from __future__ import annotations

import atexit
import getpass
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


# the sshd is exec'd by setpriv (util-linux, on every Debian) with a parent-death signal: Linux
# sends the listener SIGTERM when the test process that started it dies, so a killed pytest (a
# timeout, a cancelled CI job) leaves no listener behind. Sessions still open then end with their
# clients. No preexec_fn: code run between fork and exec in a threaded process can deadlock.
DIE_WITH_PARENT = ["setpriv", "--pdeathsig", "TERM"]


PREFIX = "c18n-sshd-"
OWNER = "owner.pid"  # the test process that made the folder


def alive(pid: int) -> bool:
    """Whether a process runs: it exists (another user's too) and is no zombie, which still
    answers kill(0) until it is reaped (gone in between: not alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        pass
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def sweep_stale(root: Path) -> list[Path]:
    """Remove the folders of servers whose test process is gone: a process killed by a signal
    runs no atexit, so its folder stays until the next server starts. A folder whose owner lives
    (another xdist worker, another suite) or that names no owner stays; a reused pid keeps one."""
    removed = []
    for folder in root.glob(PREFIX + "*"):
        try:
            pid = int((folder / OWNER).read_text())
        except (OSError, ValueError):
            continue
        if not alive(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def set_env(path_first: Path | None, env: dict | None) -> str:
    """sshd's SetEnv line (sshd takes the first SetEnv only: every variable on one line). SHLVL=1:
    a session's shell starts as a board's does, without this machine's ~/.bashrc (bash reads it
    in an SSH session only below level 2; here it runs pyenv's set-up, 0.1 s of CPU a session,
    and puts a shim before every python3)."""
    pairs = [f"PATH={path_first}:/usr/local/bin:/usr/bin:/bin"] if path_first else []
    pairs += [f"{k}={v}" for k, v in {"SHLVL": "1", **(env or {})}.items()]
    return f"SetEnv {' '.join(pairs)}\n"


class Server:
    def __init__(self, path_first: Path | None = None, env: dict | None = None):
        """path_first: a folder put first on PATH of every session (the simulated CheriBSD
        tools, tests/cheribsd_sim), through sshd's SetEnv, with env's variables (no spaces)."""
        sweep_stale(Path(tempfile.gettempdir()))
        self.dir = Path(tempfile.mkdtemp(prefix=PREFIX))
        (self.dir / OWNER).write_text(str(os.getpid()))
        # removed at exit even when a test fails before stop(); a test process killed by a
        # signal leaves only this folder (its listener dies with it: DIE_WITH_PARENT), which the
        # next server's sweep_stale removes
        atexit.register(shutil.rmtree, self.dir, ignore_errors=True)
        self.port = free_port()
        for name in ("host_key", "client_key"):
            subprocess.run(
                ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.dir / name)],
                check=True,
            )
        (self.dir / "authorized_keys").write_text((self.dir / "client_key.pub").read_text())
        # the server's key known beforehand: the client checks it, as against a real board
        key = " ".join((self.dir / "host_key.pub").read_text().split()[:2])
        (self.dir / "known_hosts").write_text(f"[127.0.0.1]:{self.port} {key}\n")
        os.chmod(self.dir / "authorized_keys", 0o600)
        (self.dir / "sshd_config").write_text(
            f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {self.dir / 'host_key'}\n"
            f"AuthorizedKeysFile {self.dir / 'authorized_keys'}\nPidFile {self.dir / 'sshd.pid'}\n"
            "PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nStrictModes "
            "no\n"
            "PermitRootLogin prohibit-password\nSubsystem sftp internal-sftp\nMaxStartups "
            "100\nMaxSessions 100\n"
            # the default key exchange (sntrup761x25519, post-quantum) cost the client 50 ms of
            # CPU a connection, and the tests open hundreds: curve25519 alone, 10 ms
            "KexAlgorithms curve25519-sha256\n" + set_env(path_first, env)
        )
        Path("/run/sshd").mkdir(exist_ok=True)  # privilege separation directory
        self.proc = subprocess.Popen(
            [*DIE_WITH_PARENT, SSHD, "-D", "-e", "-f", str(self.dir / "sshd_config")],
            stderr=open(self.dir / "sshd.log", "w"),
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if subprocess.run(self.ssh_command("true"), capture_output=True).returncode == 0:
                return
            time.sleep(0.2)
        raise RuntimeError(f"sshd did not come up: {(self.dir / 'sshd.log').read_text()[-1000:]}")

    @property
    def options(self) -> list[str]:
        return [
            "-o",
            "StrictHostKeyChecking=yes",
            "-o",
            f"UserKnownHostsFile={self.dir / 'known_hosts'}",
            "-o",
            "LogLevel=ERROR",
        ]

    def ssh_command(self, command: str) -> list[str]:
        return [
            "ssh",
            "-p",
            str(self.port),
            "-i",
            str(self.dir / "client_key"),
            "-o",
            "BatchMode=yes",
            *self.options,
            f"{getpass.getuser()}@127.0.0.1",
            command,
        ]

    def target(self, name: str, workdir: Path, variants: list[dict], **extra) -> dict:
        return {
            "name": name,
            "kind": "ssh",
            "host": "127.0.0.1",
            "port": self.port,
            "user": getpass.getuser(),
            "identity_file": str(self.dir / "client_key"),
            "ssh_options": self.options,
            "workdir": str(workdir),
            "python": "python3",
            "poll_s": 0.3,
            "reference_variant": variants[0]["name"],
            "variants": variants,
            **extra,
        }

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
