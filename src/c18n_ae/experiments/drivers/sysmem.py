"""System memory in use, on Linux (/proc/meminfo) and FreeBSD/CheriBSD (sysctl)."""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path


def meminfo() -> tuple[int, int]:
    """(total bytes, bytes in use); in use = total minus what is available without swapping."""
    if platform.system() == "Linux":
        fields = {}
        for line in Path("/proc/meminfo").read_text().splitlines():
            key, value = line.split(":", 1)
            fields[key] = int(value.split()[0]) * 1024
        return fields["MemTotal"], fields["MemTotal"] - fields["MemAvailable"]
    names = [
        "hw.physmem",
        "hw.pagesize",
        "vm.stats.vm.v_free_count",
        "vm.stats.vm.v_inactive_count",
    ]
    out = subprocess.run(
        ["sysctl", "-n", *names], capture_output=True, text=True, check=True
    ).stdout.split()
    physmem, page, free, inactive = (int(x) for x in out)
    return physmem, physmem - (free + inactive) * page


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of the given processes together (VmRSS on Linux, ps rss elsewhere)."""
    if not pids:
        return 0
    if platform.system() == "Linux":
        total = 0
        for pid in pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            except OSError:
                pass  # ended meanwhile
        return total
    out = subprocess.run(
        ["ps", "-o", "rss=", "-p", ",".join(map(str, pids))], capture_output=True, text=True
    ).stdout
    return sum(int(x) * 1024 for x in out.split())
