"""E5 trust model: can a memory scraper read the integration process's secrets?

The workload (integration --serve) runs under the variant's launcher and receives purchase
records encrypted to its public key from the feeder. The scraper then reads its memory once as
root and once as a dedicated unprivileged user, and reports whether access was granted and
whether plaintext records or the private key were visible. When this run is not root, the root
trial is recorded as not run, with the reason, and the ordinary trial runs as the current user."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from c18n_ae.experiments.drivers.launch import (
    Lines,
    Processes,
    in_compartment,
    parse_args,
    ready_pids,
)
from c18n_ae.experiments.drivers.rowwriter import RowWriter

COLUMNS = (
    "trial",
    "environment",
    "privileges",
    "scraper_uid",
    "workload_uid",
    "status",
    "reason",
    "access",
    "records_sent",
    "records_found",
    "key_found",
    "regions_total",
    "regions_rw",
    "regions_read",
    "bytes_read",
    "elapsed_ms",
)
SCRAPER = Path(__file__).resolve().parent / "scraper.py"
DEFAULT_USER = "c18n-scraper"


def ordinary_user(name: str) -> pwd.struct_passwd:
    """The dedicated unprivileged account, created when missing (needs root)."""
    try:
        return pwd.getpwnam(name)
    except KeyError:
        pass
    if shutil.which("useradd"):
        cmd = ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name]
    else:  # FreeBSD / CheriBSD
        cmd = ["pw", "useradd", name, "-d", "/nonexistent", "-s", "/usr/sbin/nologin"]
    subprocess.run(cmd, check=True, capture_output=True)
    return pwd.getpwnam(name)


def system_python() -> str:
    """A python3 that any user can run (the project's .venv may sit in root's home)."""
    for p in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(p, os.X_OK):
            return p
    return sys.executable


def run_scraper(share: Path, pid: int, user: pwd.struct_passwd | None, max_seconds: float) -> dict:
    cmd = [
        system_python(),
        str(share / "scraper.py"),
        "--pid",
        str(pid),
        "--needles",
        str(share / "needles.txt"),
        "--expect-ppid",
        str(os.getpid()),
        "--max-seconds",
        str(max_seconds),
    ]
    extra = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []} if user else {}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=max_seconds + 60, **extra)
    if done.returncode != 0:
        raise RuntimeError(f"scraper failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def main(argv=None) -> None:
    a = parse_args(argv)
    p = a.params
    env = "in_compartment" if in_compartment(a.recipe) else "out_of_compartment"
    is_root = os.geteuid() == 0
    work = a.out.parent / "trust-work"
    work.mkdir(parents=True, exist_ok=True)
    integration = a.bin_dir / "integration"
    with RowWriter(a.out, COLUMNS, "trust", 2) as writer:
        with (
            Processes(a.recipe) as procs,
            tempfile.TemporaryDirectory(prefix="c18n-trust-") as share_dir,
        ):
            share = Path(share_dir)
            share.chmod(0o755)  # the ordinary user reads the scraper and needles from here
            pubkey, key, plain = work / "public.pem", work / "private.pem", work / "records.txt"
            for f in (pubkey, key, plain):
                f.unlink(missing_ok=True)
            workload = procs.start(
                integration,
                "--serve",
                "--pubkey-out",
                str(pubkey),
                "--key-out",
                str(key),
                "--threshold",
                str(p.get("threshold", 300)),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            lines = Lines(workload)
            pid = ready_pids(lines)[0]
            feeder = subprocess.run(
                [
                    *a.recipe.get("launcher", []),
                    str(integration),
                    "--feed",
                    "--pubkey",
                    str(pubkey),
                    "--count",
                    str(p["records"]),
                    "--plain-out",
                    str(plain),
                ],
                capture_output=True,
                text=True,
                timeout=300,
            )
            if feeder.returncode != 0:
                raise RuntimeError(f"feeder failed: {feeder.stderr.strip()}")
            workload.stdin.write(feeder.stdout)
            workload.stdin.close()
            summary = lines.wait_for("processed", timeout=300)
            print(f"workload: {summary}", file=sys.stderr)
            (work / "workload-log.txt").write_text("\n".join(lines.lines) + "\n")

            records = [line.split()[0] for line in plain.read_text().splitlines() if line]
            key_line = key.read_text().splitlines()[1]  # a 64-character line of the PEM body
            shutil.copy(SCRAPER, share / "scraper.py")
            (share / "needles.txt").write_text("\n".join(records + [key_line]) + "\n")
            for f in share.iterdir():
                f.chmod(0o644)
            workload_uid = (
                os.stat(f"/proc/{pid}").st_uid if Path(f"/proc/{pid}").exists() else os.getuid()
            )

            for trial, privileges in enumerate(("root", "ordinary"), start=1):
                row = dict(
                    trial=trial,
                    environment=env,
                    privileges=privileges,
                    workload_uid=workload_uid,
                    records_sent=len(records),
                )
                if privileges == "root" and not is_root:
                    writer.row(**row, status="not_run", reason="this run is not root")
                    writer.progress()
                    continue
                user = (
                    ordinary_user(p.get("user", DEFAULT_USER))
                    if privileges == "ordinary" and is_root
                    else None
                )
                res = run_scraper(share, pid, user, p.get("max_seconds", 60))
                found = set(res["found"])
                rw = [r for r in res["regions"] if r["perms"].startswith("rw")]
                writer.row(
                    **row,
                    scraper_uid=res["uid"],
                    status="ok",
                    reason=res["error"],
                    access=res["access"],
                    records_found=sum(1 for i in range(len(records)) if i in found),
                    key_found=int(len(records) in found),
                    regions_total=len(res["regions"]),
                    regions_rw=len(rw),
                    regions_read=sum(1 for r in rw if r["status"] == "read"),
                    bytes_read=res["bytes_read"],
                    elapsed_ms=round(res.get("elapsed_s", 0) * 1000, 1),
                )
                writer.progress()


if __name__ == "__main__":
    main()
