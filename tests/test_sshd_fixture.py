"""The loopback sshd the tests start must not outlive a test process that is killed."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))
import sshd  # noqa: E402


def test_sshd_dies_when_the_test_process_is_killed():
    script = (
        f"import sys, time; sys.path.insert(0, {str(TESTS)!r}); from sshd import Server; "
        "s = Server(); print(s.proc.pid, s.dir, flush=True); time.sleep(600)"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    pid_text, folder = parent.stdout.readline().split()
    pid = int(pid_text)
    try:
        assert sshd.alive(pid), "the sshd should run while its test process does"
        parent.send_signal(signal.SIGKILL)  # no atexit, no finally: only the kernel can clean up
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while sshd.alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not sshd.alive(pid), f"sshd {pid} outlived its killed test process"
        # no atexit ran: the folder stays until the next server's sweep removes it
        assert Path(folder).is_dir()
        assert Path(folder) in sshd.sweep_stale(Path(folder).parent)
        assert not Path(folder).exists()
    finally:
        parent.kill()
        parent.wait()
        if sshd.alive(pid):  # this test failed: leave no sshd behind all the same
            os.kill(pid, signal.SIGTERM)
        shutil.rmtree(folder, ignore_errors=True)


def test_sshd_folder_removed_when_the_test_process_ends_without_stop():
    script = (
        f"import sys; sys.path.insert(0, {str(TESTS)!r}); from sshd import Server; "
        "s = Server(); print(s.dir, flush=True); s.proc.terminate(); s.proc.wait()"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    folder = Path(done.stdout.strip() or "/nonexistent")
    try:
        assert done.returncode == 0, done.stderr
        assert not folder.exists(), "the sshd's folder outlived its test process"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_sweep_keeps_a_folder_whose_owner_lives_or_is_unknown(tmp_path):
    """Only a folder whose test process has ended goes: another worker's, or one that names no
    owner, stays."""
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    owners = {"gone": ended.stdout.strip(), "mine": str(os.getpid()), "garbled": "x"}
    for name, pid in owners.items():
        (tmp_path / f"{sshd.PREFIX}{name}").mkdir()
        (tmp_path / f"{sshd.PREFIX}{name}" / sshd.OWNER).write_text(pid)
    (tmp_path / f"{sshd.PREFIX}unnamed").mkdir()
    (tmp_path / "other-gone").mkdir()  # not a server's folder
    (tmp_path / "other-gone" / sshd.OWNER).write_text(owners["gone"])
    assert sshd.sweep_stale(tmp_path) == [tmp_path / f"{sshd.PREFIX}gone"]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["c18n-sshd-garbled", "c18n-sshd-mine", "c18n-sshd-unnamed", "other-gone"]
