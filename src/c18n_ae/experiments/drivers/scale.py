"""E1 compartments at scale: start idle instances of the integration process one after another
and record, after each, how many run, the system memory in use and the time elapsed.

It stops at whichever comes first: memory in use passing the configured fraction of total
memory (the study: 90 %), the memory added since the start passing a budget, or an instance
cap, and records which stopped it. Every instance is ended on completion, error, Ctrl-C and
SIGTERM."""

from __future__ import annotations

import subprocess
import sys
import time

from c18n_ae.experiments.drivers.launch import Lines, Processes, parse_args, ready_pids
from c18n_ae.experiments.drivers.rowwriter import RowWriter
from c18n_ae.experiments.drivers.sysmem import meminfo, rss_bytes

COLUMNS = (
    "instances",
    "memory_used_mib",
    "instances_rss_mib",
    "elapsed_ms",
    "status",
    "stop_reason",
)
MIB = 2**20  # the study's unit too: psutil's bytes over 1024 * 1024 (it labelled them MB)


def main(argv=None) -> None:
    a = parse_args(argv)
    p = a.params
    fraction, budget_mib, cap = p["memory_fraction"], p["budget_mib"], p["max_instances"]
    interval = p.get("interval_s", 0.5)
    with RowWriter(a.out, COLUMNS, "scale", cap) as writer:
        with Processes(a.recipe) as procs:
            total, used0 = meminfo()
            start = time.monotonic()
            writer.row(
                instances=0,
                memory_used_mib=round(used0 / MIB, 1),
                instances_rss_mib=0.0,
                elapsed_ms=0.0,
                status="ok",
            )
            pids = []
            reason = ""
            for n in range(1, cap + 1):
                proc = procs.start(
                    a.bin_dir / "integration", "--idle", stdout=subprocess.PIPE, text=True
                )
                pids += ready_pids(Lines(proc), timeout=120)
                time.sleep(interval)
                _, used = meminfo()
                rss = rss_bytes(pids)  # the instances' own memory, steadier than system-wide use
                elapsed = (time.monotonic() - start) * 1000
                if used >= fraction * total:
                    reason = "memory_fraction"
                elif used - used0 >= budget_mib * MIB:
                    reason = "budget"
                elif n == cap:
                    reason = "max_instances"
                writer.row(
                    instances=n,
                    memory_used_mib=round(used / MIB, 1),
                    instances_rss_mib=round(rss / MIB, 2),
                    elapsed_ms=round(elapsed, 1),
                    status="ok",
                    stop_reason=reason,
                )
                writer.progress(n)
                if reason:
                    break
            print(f"stopped after {n} instances: {reason}", file=sys.stderr)


if __name__ == "__main__":
    main()
