"""What a board run checks before it times anything, and what it records: the system's state
(a debug kernel, heap revocation, the c18n default, the CPU frequency policy), that each variant's
process runs in as many compartments as its name says, and that variants built alike run the very
same binary. The shell probes run on the target; the decisions are made here, from what the
probes printed (read by c18n_ae.targets.board_tools)."""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path

from c18n_ae.common import board_config, launchers
from c18n_ae.targets import board_tools


class BoardCheckFailed(RuntimeError):
    pass


# sysctl nodes read before a run: INVARIANTS registers kern.features.invariants (FEATURE() in
# sys/kern/init_main.c), WITNESS the debug.witness tree; revocation's and c18n's defaults are
# security.cheri.runtime_revocation_default and security.cheri.lib_based_c18n_default
# (sys/cheri/cheri_sysctl.c); cpufreq(4) gives dev.cpu.0.freq and freq_levels.
SYSCTLS = (
    "kern.ident",
    "kern.osrelease",
    "kern.features.invariants",
    "debug.witness.watch",
    "security.cheri.runtime_revocation_default",
    "security.cheri.lib_based_c18n_default",
    "dev.cpu.0.freq",
    "dev.cpu.0.freq_levels",
)
STATE_SCRIPT = "".join(f'echo "{n}=$(sysctl -n {n} 2>/dev/null)"\n' for n in SYSCTLS) + (
    "if pgrep -x powerd >/dev/null 2>&1; then echo powerd=running; else echo powerd=absent; fi\n"
)


def system_state(text: str) -> dict:
    """The state probe's output -> the recorded system state (meta.json system_state)."""
    v = board_tools.sysctl_values(text)
    invariants = v.get("kern.features.invariants") == "1"
    witness = v.get("debug.witness.watch") is not None
    freq = v.get("dev.cpu.0.freq")
    return {
        "kernel_ident": v.get("kern.ident"),
        "kernel_release": v.get("kern.osrelease"),
        "invariants": invariants,
        "witness": witness,
        "debug_kernel": invariants or witness,
        "revocation_default": v.get("security.cheri.runtime_revocation_default"),
        "c18n_default": v.get("security.cheri.lib_based_c18n_default"),
        "cpu_freq_mhz": int(freq) if freq and freq.isdigit() else None,
        "cpu_freq_levels": v.get("dev.cpu.0.freq_levels"),
        "powerd": "powerd=running" in text,
    }


def debug_warning(target: str, state: dict) -> str:
    """The run log's warning for a debug kernel ('' for a kernel without INVARIANTS or
    WITNESS)."""
    if not state.get("debug_kernel"):
        return ""
    which = [o for o in ("invariants", "witness") if state.get(o)]
    return (
        f"warning: {target} runs a debug kernel ({state.get('kernel_ident') or 'unknown config'}: "
        f"{', '.join(w.upper() for w in which)} compiled in); its times include the kernel's "
        "checks (CheriBSD recommends a NODEBUG kernel for measurements); the paper says so"
    )


def probe_script(workdir: str, command: list[str], env: list[str], stats: str) -> str:
    """Starts the variant's benchmark as the run would, samples the process with procstat while it
    runs (c18n statistics, mappings) and proccontrol (its revocation), then ends it."""
    run = shlex.join(["env", *env, *command]) if env else shlex.join(command)
    return f"""cd {shlex.quote(workdir)} && rm -f {stats}
{run} </dev/null >/dev/null 2>&1 &
pid=$!
c=; v=; r=; i=0; nl='
'
while kill -0 $pid 2>/dev/null && [ $i -lt 4 ]; do  # all samples kept: the later ones see
  c="$c$(procstat c18n $pid 2>/dev/null)$nl"         # the run-time linker set up
  v="$v$(procstat -v $pid 2>/dev/null)$nl"
  r2=$(proccontrol -m cherirevoke -q -p $pid 2>/dev/null) && r=$r2
  i=$((i+1)); sleep 0.05
done
kill $pid 2>/dev/null; sleep 0.2  # SIGTERM first: E6's program then ends the child it forked
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
echo "@@pid $pid"; echo "@@procstat-c18n"; echo "$c"; echo "@@procstat-v"; echo "$v"
echo "@@revocation"; echo "$r"
echo "@@stats"; [ -f {stats} ] && od -An -v -tx1 {stats}; rm -f {stats}
"""


PMC_EVENTS = ("CPU_CYCLES", "INST_RETIRED")  # the Morello PMU's cycles and instructions
PMC_SECONDS = 1  # how long pmcstat counts the benchmark (pmcstat -l)


def counter_script(workdir: str, command: list[str]) -> str:
    """Counts the benchmark's cycles and instructions for PMC_SECONDS with pmcstat (counting mode,
    -o a file; usr.sbin/pmcstat), timed by the target's python3 (the run unit's interpreter);
    prints nothing where pmcstat is missing or cannot count."""
    events = " ".join(f"-p {e}" for e in PMC_EVENTS)
    timed = (
        "import subprocess, sys, time; t = time.monotonic(); subprocess.call(sys.argv[1:], "
        "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "print('@@elapsed_ns', int((time.monotonic() - t) * 1e9))"
    )
    return (
        f"cd {shlex.quote(workdir)} && command -v pmcstat >/dev/null 2>&1 || exit 0\n"
        f"python3 -c {shlex.quote(timed)} pmcstat -l {PMC_SECONDS} {events} -o pmc.out "
        f"{shlex.join(command)} </dev/null\ncat pmc.out 2>/dev/null; rm -f pmc.out\n"
    )


def counters(text: str) -> dict | None:
    """The counter probe's output -> {CPU_CYCLES, INST_RETIRED, elapsed_ns, cycles_per_ns,
    instructions_per_cycle}, or None where nothing was counted."""
    counts = board_tools.pmcstat_counts(text)
    elapsed = [int(line.split()[1]) for line in text.splitlines() if line.startswith("@@elapsed")]
    if not counts or not elapsed or not elapsed[0] or not counts.get("CPU_CYCLES"):
        return None
    cycles = counts["CPU_CYCLES"]
    return {
        **counts,
        "elapsed_ns": elapsed[0],
        "cycles_per_ns": cycles / elapsed[0],
        "instructions_per_cycle": counts.get("INST_RETIRED", 0) / cycles,
    }


def _sections(text: str) -> tuple[int | None, dict[str, str]]:
    pid, parts, name = None, {}, None
    for line in text.splitlines():
        if line.startswith("@@pid "):
            pid = int(line.split()[1]) if line.split()[1].isdigit() else None
        elif line.startswith("@@"):
            name = line[2:].strip()
            parts[name] = ""
        elif name:
            parts[name] += line + "\n"
    return pid, parts


def compartments_seen(text: str) -> dict:
    """The probe's output -> what was seen: compartments (None when nothing could be seen),
    the tool that saw them, the process's revocation, the linker's counts where it wrote them."""
    pid, parts = _sections(text)
    c18n = board_tools.procstat_c18n(parts.get("procstat-c18n", ""), pid) if pid else None
    vm = board_tools.procstat_vm(parts.get("procstat-v", ""), pid) if pid else None
    seen = {
        "compartments": None,
        "tool": "none",
        "evidence": "nothing: the process could not be"
        " inspected (it ended first, or procstat is missing)",
    }
    if c18n is not None:
        seen = {
            "compartments": c18n["compartments"],
            "tool": "procstat c18n",
            "evidence": f"COMP {c18n['compartments'] or '-'}, {c18n['trampolines']} trampolines",
        }
    elif vm is not None:
        c18n_mapped = vm["c18n_rtld"] or bool(vm["c18n_libraries"])
        objects = len([p for p in vm["paths"] if ".so" in p or p == vm["paths"][0]])
        seen = {
            "compartments": objects if c18n_mapped else 0,
            "tool": "procstat -v",
            "evidence": (
                f"{objects} objects mapped under the c18n run-time linker or "
                f"libraries ({', '.join(vm['c18n_libraries'][:3]) or 'c18n rtld'})"
                if c18n_mapped
                else "no c18n run-time linker or c18n library mapped"
            ),
        }
    revocation = board_tools.proccontrol_query(parts.get("revocation", ""))
    stats = board_tools.rtld_stats(board_tools.od_bytes(parts.get("stats", "")))
    return {**seen, "process_revocation": revocation, "rtld_stats": stats}


def judge(target: dict, variant: dict, seen: dict) -> str:
    """'' when the process ran in as many compartments as the variant's name says; otherwise the
    reason the run stops, naming the launcher, the release and what was seen."""
    n = seen["compartments"]
    launcher = " ".join(variant.get("launcher", [])) or "no launcher"
    where = f"{target['name']} (CheriBSD {target.get('release', 'release not declared')})"
    if variant.get("c18n") and (n is None or n < 2):
        what = "nothing" if n is None else ("no compartment" if n == 0 else "one compartment")
        return (
            f"{variant['name']} is a c18n variant but its process showed {what} on {where}: "
            f"launcher `{launcher}`; seen by {seen['tool']}: {seen['evidence']}. Check the "
            "launcher for this release (README, launchers per release)"
        )
    if not variant.get("c18n") and n is not None and n >= 2:
        return (
            f"{variant['name']} is meant to run without compartments but its process showed {n} "
            f"on {where}: launcher `{launcher}`; seen by {seen['tool']}: {seen['evidence']}. Is "
            "security.cheri.lib_based_c18n_default set?"
        )
    return ""


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build_key(recipe: dict) -> tuple:
    """What makes a binary: variants alike in all of it must run the same one."""
    return (
        recipe["cc"],
        tuple(recipe["cflags"]),
        tuple(recipe.get("ldflags", [])),
        recipe.get("abi"),
    )


def same_binary_problems(recipes: list[dict], hashes: dict[str, str]) -> list[str]:
    """Variants built with the same compiler, flags and ABI (purecap and purecap-c18n) must have
    binaries of one hash; each group that does not is named with its hashes."""
    groups: dict[tuple, list[str]] = {}
    for r in recipes:
        groups.setdefault(build_key(r), []).append(r["name"])
    out = []
    for names in groups.values():
        found = {hashes.get(n) for n in names}
        if len(names) > 1 and len(found) > 1:
            listed = ", ".join(f"{n} {str(hashes.get(n))[:12]}" for n in names)
            out.append(
                f"variants {', '.join(names)} are built with the same compiler and flags but "
                f"their binaries differ ({listed}): rebuild them before comparing"
            )
    return out


STATE_KEYS = board_config.STATE_KEYS  # the system state each variant records


def variant_state(system: dict, seen: dict, variant: dict) -> dict:
    """The state one variant ran under, flat, for meta.json system_state: a contrast between two
    variants whose states differ is confounded by each key that differs."""
    rev = seen.get("process_revocation") or {}
    out = {k: system.get(k) for k in STATE_KEYS}
    out["process_revocation"] = (
        ("on" if rev.get("active") else "off") if rev else variant.get("revocation", "unknown")
    )
    out["compartments"] = seen.get("compartments")
    return out


def differing(states: dict[str, dict], recipes: dict[str, dict] | None = None) -> dict[str, dict]:
    """{key: {variant: value}} for each state key whose value is not the same for all variants:
    compartments excepted (what the names say, judged per variant), and process revocation
    excepted for a variant whose recipe declares it (`revocation: on|off`), so a difference is
    named only where the variants that do not declare it differ among themselves
    (common.board_config.state_differences, which the analysis applies per contrast)."""
    return board_config.state_differences(states, recipes)


def launcher_row(target: dict) -> dict:
    release = target.get("release")
    if not release:
        return {}
    row = launchers.for_release(release)
    return {"releases": row.releases, "probe": row.probe, "counts": row.counts}
