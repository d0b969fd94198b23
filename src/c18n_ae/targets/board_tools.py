"""Readers of what CheriBSD's tools print, each after the tool's own source (cited per function):
procstat c18n, procstat -v, proccontrol -q, sysctl -n, pmcstat's counting output and the run-time
linker's statistics file. A reader returns None (or an empty result) for output it does not
recognise, never a guess."""

from __future__ import annotations

import re
import struct


def procstat_c18n(text: str, pid: int) -> dict | None:
    """`procstat c18n PID` (usr.bin/procstat/procstat_c18n.c): a header
    `  PID COMM                 COMP  STKS  TRMPS TRPGS   MEM`, then per process its pid, command
    and the run-time linker's counts, or '-' in each column when the process has no c18n
    statistics. Several samples of one process may follow each other: the one with the most
    compartments counts (the first may predate the run-time linker's set-up). Returns
    {"compartments", "stacks", "trampolines", "tramp_pages"} (0 for '-')."""
    best = None
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 7 or fields[0] != str(pid):
            continue
        counts = fields[-5:-1]  # MEM is humanised ("1.2M"): not needed
        if all(c == "-" for c in counts):
            counts = ["0"] * 4
        try:
            comp, stacks, tramps, pages = (int(c) for c in counts)
        except ValueError:
            continue
        if best is None or comp > best["compartments"]:
            best = {
                "compartments": comp,
                "stacks": stacks,
                "trampolines": tramps,
                "tramp_pages": pages,
            }
    return best


def procstat_vm(text: str, pid: int) -> dict | None:
    """`procstat -v PID` (usr.bin/procstat/procstat_vm.c; the study's own log in
    datasets/morello-2024/isolation/study-logs/memory-regions-results.txt): a header
    `  PID START END PRT RES PRES REF SHD FLAG TP PATH`, then one line per mapping, the path last
    (empty for anonymous ones). Returns the mapped files: {"paths": [...], "c18n_rtld": bool,
    "c18n_libraries": [...]}."""
    paths = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 11 and fields[0] == str(pid) and fields[1].startswith("0x"):
            if fields[10].startswith("/") and fields[10] not in paths:
                paths.append(fields[10])
    if not paths:
        return None
    libraries = [p for p in paths if "/c18n/" in p]
    rtld = any(re.search(r"/ld-elf[0-9a-z]*-c18n\.so", p) for p in paths)
    return {"paths": paths, "c18n_rtld": rtld, "c18n_libraries": libraries}


def proccontrol_query(text: str) -> dict | None:
    """`proccontrol -m cherirevoke -q -p PID` (usr.bin/proccontrol/proccontrol.c): "force
    enabled", "force disabled" or "not forced", then ", active" or ", not active"."""
    m = re.match(r"\s*(force enabled|force disabled|not forced), (active|not active)\s*$", text)
    if not m:
        return None
    return {"forced": m.group(1), "active": m.group(2) == "active"}


def sysctl_values(text: str) -> dict[str, str | None]:
    """NAME=VALUE lines that the state probe prints from `sysctl -n NAME` (VALUE empty when the
    kernel has no such node: sysctl then says "unknown oid 'NAME'" on stderr, sbin/sysctl/sysctl.c)
    -> {NAME: VALUE or None}."""
    out: dict[str, str | None] = {}
    for line in text.splitlines():
        if "=" in line:
            name, value = line.split("=", 1)
            out[name.strip()] = value.strip() or None
    return out


COUNT = re.compile(r"[0-9]{1,20}")  # a 64-bit counter in decimal ASCII digits


def pmcstat_counts(text: str) -> dict[str, int] | None:
    """pmcstat's counting output (usr.sbin/pmcstat/pmcstat.c, pmcstat_print_headers and
    pmcstat_print_counters; PRINT_HEADER_PREFIX "# "): a header `# p/EVENT p/EVENT ...`, then
    lines of counts in that order; the last line holds the counts at the process's exit.
    Returns {EVENT: count}."""
    names, last = None, None
    for line in text.splitlines():
        if line.startswith("# "):
            names = [f.split("/", 1)[-1] for f in line[2:].split()]
        elif names and line.split() and all(COUNT.fullmatch(f) for f in line.split()):
            last = [int(f) for f in line.split()]
    if not names or not last or len(last) != len(names):
        return None
    return dict(zip(names, last))


STATS_FIELDS = (
    "version",
    "compartments",
    "stacks",
    "trampolines",
    "tramp_pages",
    "bytes_total",
    "switches",
)


def rtld_stats(data: bytes) -> dict | None:
    """The run-time linker's statistics file (LD_COMPARTMENT_STATS): struct rtld_c18n_stats of
    sys/cheri/c18n.h, seven size_t in the board's byte order (little-endian AArch64): version,
    rcs_compart, rcs_ustack, rcs_tramp, rcs_tramp_page, rcs_bytes_total, rcs_switch (counted only
    with LD_COMPARTMENT_SWITCH_COUNT). None unless the version is RTLD_C18N_STATS_VERSION (1)."""
    if len(data) < 8 * len(STATS_FIELDS):
        return None
    values = dict(zip(STATS_FIELDS, struct.unpack_from("<7Q", data)))
    return values if values["version"] == 1 else None


def od_bytes(text: str) -> bytes:
    """The bytes of `od -An -v -tx1 FILE` (POSIX od: hexadecimal bytes, blank-separated)."""
    return bytes(int(h, 16) for h in text.split() if re.fullmatch(r"[0-9a-fA-F]{2}", h))
