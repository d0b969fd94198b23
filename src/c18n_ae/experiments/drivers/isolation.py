"""E6 memory isolation with two shared libraries: while the parent (library A) and the child
(library B) run, read every region of both and look for the strings A sent to B.

Output: raw CSV with one row per region (permissions, whether it was read, strings found in it)
and one 'total' row per process (distinct strings found of those sent); beside it the program's
execution log and the list of strings sent."""

from __future__ import annotations

import os
import subprocess
import sys

from c18n_ae.experiments.drivers.launch import Lines, Processes, parse_args, ready_pids
from c18n_ae.experiments.drivers.rowwriter import RowWriter
from c18n_ae.experiments.drivers.scraper import scrape

COLUMNS = (
    "role",
    "pid",
    "region_index",
    "start",
    "end",
    "perms",
    "path",
    "status",
    "bytes_read",
    "strings_found",
    "strings_sent",
)


def main(argv=None) -> None:
    a = parse_args(argv)
    out_dir = a.out.parent
    sent_path, log_path = out_dir / "strings-sent.txt", out_dir / "execution-log.txt"
    with RowWriter(a.out, COLUMNS, "isolation", 2) as writer:
        with Processes(a.recipe) as procs:
            main_proc = procs.start(
                a.bin_dir / "isolation",
                "--strings",
                str(a.params["strings"]),
                "--sent",
                str(sent_path),
                "--log",
                str(log_path),
                stdout=subprocess.PIPE,
                text=True,
            )
            parent, child = ready_pids(Lines(main_proc))
            needles = [s.encode() for s in sent_path.read_text().splitlines() if s]
            for role, pid, ppid in (("parent", parent, os.getpid()), ("child", child, parent)):
                res = scrape(
                    pid, needles, expect_ppid=ppid, max_seconds=a.params.get("max_seconds", 60)
                )
                for i, r in enumerate(res["regions"], start=1):
                    writer.row(
                        role=role,
                        pid=pid,
                        region_index=i,
                        start=hex(r["start"]),
                        end=hex(r["end"]),
                        perms=r["perms"],
                        path=r["path"],
                        status=r["status"],
                        bytes_read=r["bytes_read"],
                        strings_found=r["found"],
                        strings_sent=len(needles),
                    )
                writer.row(
                    role=role,
                    pid=pid,
                    region_index=0,
                    path="(all regions)",
                    status="total" if res["access"] == "granted" else "denied",
                    bytes_read=res["bytes_read"],
                    strings_found=len(res["found"]),
                    strings_sent=len(needles),
                )
                print(
                    f"{role} {pid}: access {res['access']}, {len(res['found'])} of {len(needles)} "
                    f"strings found "
                    f"in {res['bytes_read']} bytes",
                    file=sys.stderr,
                )
                writer.progress()


if __name__ == "__main__":
    main()
