"""Memory scraper: lists a process's readable-writable regions and reads them through
/proc/PID/mem, looking for given byte strings.

It reads only a process the run itself started (the caller names the expected parent pid),
skips a region that fails, and stops at a time and byte budget. On Linux the regions come from
/proc/PID/maps; on CheriBSD from `procstat -v PID` (reading also needs procfs mounted on /proc)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

CHUNK = 1 << 20


@dataclass
class Region:
    start: int
    end: int
    perms: str
    path: str


def parse_proc_maps(text: str) -> list[Region]:
    regions = []
    for line in text.splitlines():
        parts = line.split(None, 5)
        if len(parts) < 5:
            continue
        start, end = (int(x, 16) for x in parts[0].split("-"))
        regions.append(Region(start, end, parts[1], parts[5].strip() if len(parts) > 5 else ""))
    return regions


def parse_procstat_v(text: str) -> list[Region]:
    """procstat -v columns: PID START END PRT RES PRES REF SHD FLAG TP PATH (CheriBSD adds
    capability permissions to PRT, e.g. 'rw-RW'); only the first three permission letters matter."""
    regions = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 4 or not parts[1].startswith("0x"):
            continue
        prt = parts[3][:3]
        perms = prt + "p"
        path = parts[10] if len(parts) > 10 else ""
        regions.append(Region(int(parts[1], 16), int(parts[2], 16), perms, path))
    return regions


def list_regions(pid: int) -> list[Region]:
    if platform.system() == "Linux":
        return parse_proc_maps(Path(f"/proc/{pid}/maps").read_text())
    out = subprocess.run(["procstat", "-v", str(pid)], capture_output=True, text=True, check=True)
    return parse_procstat_v(out.stdout)


def parent_pid(pid: int) -> int:
    if platform.system() == "Linux":
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat.rsplit(")", 1)[1].split()[1])
    out = subprocess.run(
        ["ps", "-o", "ppid=", "-p", str(pid)], capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip())


def scrape(
    pid: int,
    needles: list[bytes],
    *,
    expect_ppid: int | None = None,
    max_seconds: float = 30.0,
    max_bytes: int = 1 << 30,
) -> dict:
    """Returns access (granted/denied), per-region results and which needles were found."""
    t0 = time.monotonic()
    result = {
        "pid": pid,
        "uid": os.getuid(),
        "access": "denied",
        "error": "",
        "regions": [],
        "found": [],
        "bytes_read": 0,
        "timed_out": False,
    }
    if expect_ppid is not None and parent_pid(pid) != expect_ppid:
        raise PermissionError(
            f"pid {pid} is not a child of {expect_ppid}: the scraper reads only processes the run "
            f"started"
        )
    try:
        regions = list_regions(pid)
    except OSError as e:
        result["error"] = f"listing regions: {e}"
        return result
    found: set[int] = set()
    overlap = max((len(n) for n in needles), default=1) - 1
    try:
        mem = open(f"/proc/{pid}/mem", "rb", buffering=0)
    except OSError as e:
        result["error"] = f"opening /proc/{pid}/mem: {e.strerror}"
        result["regions"] = [
            dict(asdict(r), status="not_read", bytes_read=0, found=0) for r in regions
        ]
        return result
    result["access"] = "granted"
    with mem:
        for r in regions:
            entry = dict(asdict(r), status="skipped", bytes_read=0, found=0)
            result["regions"].append(entry)
            if not (r.perms.startswith("rw")):
                continue
            if time.monotonic() - t0 > max_seconds or result["bytes_read"] >= max_bytes:
                result["timed_out"] = True
                entry["status"] = "budget"
                continue
            here, tail, pos = set(), b"", r.start
            try:
                while pos < r.end:
                    mem.seek(pos)
                    data = mem.read(min(CHUNK, r.end - pos))
                    if not data:
                        break
                    window = tail + data
                    for i, n in enumerate(needles):
                        if n in window:
                            here.add(i)
                    tail = window[-overlap:] if overlap else b""
                    pos += len(data)
                    entry["bytes_read"] += len(data)
                entry["status"] = "read"
            except OSError as e:
                entry["status"] = f"failed: {e.strerror}"
            result["bytes_read"] += entry["bytes_read"]
            entry["found"] = len(here)
            found |= here
    result["found"] = sorted(found)
    result["elapsed_s"] = round(time.monotonic() - t0, 3)
    return result


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument(
        "--needles", type=Path, required=True, help="file with one string to look for per line"
    )
    ap.add_argument("--expect-ppid", type=int)
    ap.add_argument("--max-seconds", type=float, default=30.0)
    a = ap.parse_args(argv)
    needles = [line.encode() for line in a.needles.read_text().splitlines() if line]
    json.dump(
        scrape(a.pid, needles, expect_ppid=a.expect_ppid, max_seconds=a.max_seconds), sys.stdout
    )


if __name__ == "__main__":
    main()
