"""The study's E6 logs of one board run, read into E6's tidy rows (the rows this package's own E6
driver makes): the strings the libraries exchanged (execution-results.txt), the process's regions
from `procstat -v` (memory-regions-results.txt, parsed as the scraper parses it on a board), and
what an unprivileged reader of the process printed (memory-reading-results.txt, raw bytes).

The reading log names no PID: its regions' addresses are the first process listed by procstat
(the parent, which forked the child, so the child's regions start at the same addresses). The
rows are therefore the parent's; the child's reading is not recorded."""

from __future__ import annotations

import re
from pathlib import Path

from c18n_ae.common.rawcsv import RawDataError
from c18n_ae.experiments.drivers.scraper import parse_procstat_v

EXECUTION, REGIONS, READING = (
    "execution-results.txt",
    "memory-regions-results.txt",
    "memory-reading-results.txt",
)
# a procstat -v line: PID START END PRT RES PRES REF SHD FLAG TP [PATH]
REGION = re.compile(
    r"[0-9]+\s+0x[0-9a-f]+\s+0x[0-9a-f]+\s+[-rwxRW]+\s+(?:-?[0-9]+\s+){4}\S+\s+\S+(?:\s+\S.*)?"
)
SENT = re.compile(r"msg received from child process (\S+) :")
READ = re.compile(rb"Data read from memory \(from (0x[0-9a-fA-F]+) to (0x[0-9a-fA-F]+)\):")


def strings_sent(path: Path) -> list[str]:
    sent = SENT.findall(path.read_text(encoding="utf-8", errors="replace"))
    if not sent:
        raise RawDataError(f"{path}: no line 'msg received from child process <string> :'")
    return sent


def regions_by_pid(path: Path) -> dict[str, list]:
    """procstat -v lines grouped by their PID column, in the order listed."""
    lines: dict[str, list[str]] = {}
    text = path.read_text(encoding="utf-8", errors="replace")
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if parts and parts[0].isdigit():  # a region line: every column procstat prints, checked
            if not REGION.fullmatch(line.strip()):
                raise RawDataError(
                    f"{path}:{n}: not a procstat -v region line (PID START END PRT RES PRES REF "
                    "SHD FLAG TP [PATH], addresses in hexadecimal)"
                )
            lines.setdefault(parts[0], []).append(line)
    if not lines:
        raise RawDataError(f"{path}: no procstat -v region line (PID START END PRT ...)")
    return {pid: parse_procstat_v("\n".join(ls)) for pid, ls in lines.items()}


def reads(path: Path) -> dict[int, bytes]:
    """Start address -> the bytes the reader printed for that region."""
    data = path.read_bytes()
    heads = list(READ.finditer(data))
    if not heads:
        raise RawDataError(f"{path}: no 'Data read from memory (from 0xA to 0xB):' block")
    out = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(data)
        out[int(m.group(1), 16)] = data[m.end() : end]
    return out


def import_logs(folder: Path) -> tuple[list[tuple], dict]:
    """E6 tidy rows (trial, parameter, value, metric, value, unit, status) of the parent."""
    folder = Path(folder)
    for name in (EXECUTION, REGIONS, READING):
        if not (folder / name).exists():
            raise RawDataError(
                f"{folder / name}: file not found (an isolation-logs folder holds "
                f"{EXECUTION}, {REGIONS} and {READING})"
            )
        if (folder / name).stat().st_size == 0:
            raise RawDataError(f"{folder / name}: empty file")
    sent = strings_sent(folder / EXECUTION)
    pids = regions_by_pid(folder / REGIONS)
    parent = next(iter(pids))
    got = reads(folder / READING)
    needles = [s.encode() for s in sent]
    rows, found = [], set()
    for index, region in enumerate(pids[parent], start=1):
        data = got.get(region.start)
        hits = {s for s in needles if data is not None and s in data}
        found |= hits
        rows += [
            (
                index,
                "role",
                "parent",
                "region_rw",
                float(region.perms.startswith("rw")),
                "flag",
                "ok",
            ),
            (index, "role", "parent", "region_read", float(data is not None), "flag", "ok"),
            (
                index,
                "role",
                "parent",
                "region_read_bytes",
                float(region.end - region.start if data is not None else 0),
                "bytes",
                "ok",
            ),
            (index, "role", "parent", "region_strings_found", float(len(hits)), "count", "ok"),
        ]
    unmatched = sorted(set(got) - {r.start for r in pids[parent]})
    if unmatched:
        raise RawDataError(
            f"{folder / READING}: region at {hex(unmatched[0])} is not in the procstat listing of "
            f"PID {parent}"
        )
    read_bytes = sum(r.end - r.start for r in pids[parent] if r.start in got)
    rows += [
        (0, "role", "parent", "strings_found_distinct", float(len(found)), "count", "ok"),
        (0, "role", "parent", "strings_sent", float(len(sent)), "count", "ok"),
        (0, "role", "parent", "access_granted", float(bool(got)), "flag", "ok"),
        (0, "role", "parent", "process_read_bytes", float(read_bytes), "bytes", "ok"),
    ]
    meta = {
        "file": str(folder),
        "layout": "isolation-logs",
        "footer": None,
        "units": {},
        "pid": parent,
        "strings_sent": len(sent),
        "strings_found": len(found),
        "regions_read": len(got),
    }
    return rows, meta
