"""How a CheriBSD release puts a program's libraries into compartments (c18n), one table: the
launcher prefix, the link flags, how the run sees the compartments and whether the run-time linker
counts crossings. A board target declares its release (config key `release`, e.g. "24.05") and
its c18n variants get the row's launcher; the README's table of launchers is made from LAUNCHERS
(a test compares them). Standard library only."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Launcher:
    releases: str  # the releases the row applies to, as the README prints them
    first: tuple[int, int]  # the first release (year, month) of the row
    prefix: tuple[str, ...]  # the command prefix that enables c18n (before the program)
    ldflags: tuple[str, ...]  # link flags a c18n binary needs on this release
    probe: str  # how the run sees the process's compartments
    counts: bool  # the run-time linker counts domain transitions (LD_COMPARTMENT_SWITCH_COUNT)
    overhead: bool  # the run-time linker can add a getpid(2) per transition (..._OVERHEAD)
    source: str  # where the row comes from


LAUNCHERS = (
    Launcher(
        releases="22.12 to 23.11",
        first=(22, 12),
        # The study's own 22.12 commands: linked against the c18n run-time linker and run with
        # the library path variable (original-src/cheri_OS_22_12/memory-performance_cheriOS_22_12/
        # inside-tee-execution/memory-in-experiment.c:39 and :41).
        prefix=("env", "LD_C18N_LIBRARY_PATH=."),
        ldflags=("-Wl,-dynamic-linker,/libexec/ld-elf-c18n.so.1",),
        probe="procstat -v: the c18n run-time linker (ld-elf-c18n.so.1) is mapped",
        counts=False,
        # 22.12's prototype had no overhead injection: it came with the pull request "c18n:
        # Autumn 2023 release" (CTSRD-CHERI/cheribsd#1653, "Compartment transition tracing and
        # overhead simulation"); the row keeps the older release's answer
        overhead=False,
        source="the study's 22.12 programs (original-src/cheri_OS_22_12)",
    ),
    Launcher(
        releases="24.05",
        first=(24, 5),
        # proccontrol(1) sets PROC_CHERI_C18N_CTL and execs the command (CheriBSD
        # usr.bin/proccontrol/proccontrol.c); the study's 24.05 runs used it (e.g.
        # original-src/cpu-performance/inside-tee-execution-purecap/cpu-in-experiment-purecap.c:51).
        prefix=("proccontrol", "-m", "cheric18n", "-s", "enable"),
        ldflags=(),
        # The study's 24.05 procstat -v log maps libc from /usr/lib64cb/c18n/ under c18n
        # (datasets/morello-2024/isolation/study-logs/memory-regions-results.txt).
        # `procstat c18n` (usr.bin/procstat/procstat_c18n.c), the linker's statistics file and
        # switch count (LD_COMPARTMENT_STATS, LD_COMPARTMENT_SWITCH_COUNT) came with
        # CTSRD-CHERI/cheribsd#2079, opened 2024-04-06 and still under review on 2024-06-04;
        # dev was merged to main for 24.05 by #2118 on 2024-06-14. Whether #2079 was in by then
        # is not in the sources reachable here: NOT VERIFIED. So the probe tries `procstat c18n`
        # and falls back to procstat -v, and crossings count as not counted on 24.05.
        probe="procstat -v: libraries mapped from a c18n library directory (.../c18n/)",
        counts=False,
        # LD_COMPARTMENT_OVERHEAD: compartmentalization(7) says each compartment transition then
        # makes a getpid(2) system call; rtld_c18n.c declares ld_compartment_overhead ("Simulate
        # overhead during compartment transitions") and its trampoline hook calls getpid() in
        # every version of the file reachable here, from the 2023 prototype on (#1653 shipped it
        # for 23.11). 24.05's c18n is in the system's run-time linker, so the variable carries
        # its prefix: LD_, LD_64CB_ for the benchmark ABI.
        overhead=True,
        source="CheriBSD usr.bin/proccontrol/proccontrol.c, libexec/rtld-elf/rtld_c18n.c, "
        "share/man/man7/compartmentalization.7; the study's 24.05 commands and logs",
    ),
    Launcher(
        releases="after 24.05",
        first=(24, 6),
        # rtld_c18n.c's ld_compartment_enable, _stats, _switch_count and _overhead (the last
        # calls getpid() on every transition); LD_ for purecap, LD_64CB_ for the benchmark ABI.
        prefix=("env", "{LD}COMPARTMENT_ENABLE=1"),
        ldflags=(),
        probe="procstat c18n: the COMP column (usr.bin/procstat/procstat_c18n.c)",
        counts=True,
        overhead=True,
        source="CheriBSD libexec/rtld-elf/rtld_c18n.c, usr.bin/procstat/procstat_c18n.c, "
        "sys/cheri/c18n.h; security.cheri.lib_based_c18n_default makes c18n the default",
    ),
)

# The run-time linker's variables carry the ABI's prefix (LD_64CB_LIBRARY_PATH for the benchmark
# ABI, as CheriBSD's benchmark-ABI notes and the cheribsd-perf scripts use).
ENV_PREFIX = {"purecap": "LD_", "purecap-benchmark": "LD_64CB_", "hybrid": "LD_64_"}

# Heap revocation per process, on or off: proccontrol's cherirevoke mode (proccontrol.c).
REVOCATION = {
    "on": ("proccontrol", "-m", "cherirevoke", "-s", "enable"),
    "off": ("proccontrol", "-m", "cherirevoke", "-s", "disable"),
}


class UnknownRelease(ValueError):
    pass


def release_key(release: str) -> tuple[int, int]:
    try:
        year, month = (int(x) for x in str(release).split("."))
    except ValueError:
        raise UnknownRelease(f"release {release!r} is not YY.MM (e.g. 24.05)") from None
    return year, month


def for_release(release: str) -> Launcher:
    """The row of the newest mechanism the release has."""
    key = release_key(release)
    rows = [r for r in LAUNCHERS if r.first <= key]
    if not rows:
        raise UnknownRelease(
            f"release {release}: c18n needs CheriBSD 22.12 or later (table starts at "
            f"{LAUNCHERS[0].releases})"
        )
    return rows[-1]


def c18n_prefix(release: str, abi: str | None) -> list[str]:
    """The launcher prefix of a c18n variant of this ABI on this release."""
    prefix = ENV_PREFIX.get(abi or "purecap", "LD_")
    return [p.replace("{LD}", prefix) for p in for_release(release).prefix]


def counting_env(release: str, abi: str | None, stats_file: str) -> list[str]:
    """The variables that make the run-time linker write its statistics, with the switch count,
    to stats_file (rtld_c18n.c: LD_COMPARTMENT_STATS, LD_COMPARTMENT_SWITCH_COUNT); [] where the
    release's linker does not count."""
    if not for_release(release).counts:
        return []
    p = ENV_PREFIX.get(abi or "purecap", "LD_")
    return [f"{p}COMPARTMENT_STATS={stats_file}", f"{p}COMPARTMENT_SWITCH_COUNT=1"]


def overhead_env(release: str, abi: str | None) -> list[str]:
    """The variable that makes every transition also call getpid(2) (rtld_c18n.c)."""
    if not for_release(release).overhead:
        return []
    return [f"{ENV_PREFIX.get(abi or 'purecap', 'LD_')}COMPARTMENT_OVERHEAD=1"]


def readme_table() -> str:
    """The README's table of launchers (checked by a test against this module)."""
    lines = [
        "| release | c18n launcher | link flags | compartments seen by | crossings counted "
        "| overhead injection |",
        "|---|---|---|---|---|---|",
    ]
    for r in LAUNCHERS:
        flags = " ".join(r.ldflags) or "none"
        counted = "yes (`LD_COMPARTMENT_SWITCH_COUNT`)" if r.counts else "no"
        injected = "yes (`LD_COMPARTMENT_OVERHEAD`)" if r.overhead else "no"
        lines.append(
            f"| {r.releases} | `{' '.join(r.prefix).replace('{LD}', 'LD_')}` | `{flags}` | "
            f"{r.probe} | {counted} | {injected} |"
        )
    return "\n".join(lines) + "\n"
