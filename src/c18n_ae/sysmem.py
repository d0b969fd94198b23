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
    names = ["hw.physmem", "hw.pagesize", "vm.stats.vm.v_free_count", "vm.stats.vm.v_inactive_count"]
    out = subprocess.run(["sysctl", "-n", *names], capture_output=True, text=True, check=True).stdout.split()
    physmem, page, free, inactive = (int(x) for x in out)
    return physmem, physmem - (free + inactive) * page
