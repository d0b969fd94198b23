"""The board check a run makes before timing on a CheriBSD target (kind morello): the system's state
(debug kernel, revocation, c18n default, CPU frequency policy), each variant's process seen in as
many compartments as its name says, and one binary for variants built alike. Its facts land in
every variant's meta.json under checks["board"]:

    release, simulated, launchers (the release's row), system (the state probe), warnings,
    variants: {variant: {compartments, seen_by, evidence, probes, process_revocation, rtld_stats,
                         binary_sha256, counters (pmcstat's CPU_CYCLES, INST_RETIRED,
                         elapsed_ns, cycles_per_ns), crossings (E10's c18n variants: a library
                         call's crossings as the linker counts them, per_library_call, or
                         why not), state}},
    state_differs: {key: {variant: value}}  (keys of `state` that are not alike across variants,
                   a variant's declared axis left out: bc.differing)

`state` is flat (kernel_ident, debug_kernel, revocation_default, c18n_default, cpu_freq_mhz,
powerd, process_revocation, compartments): the analysis names a contrast of two variants whose
states differ in a key as confounded by it (c18n_ae.analysis.contrasts), compartments and a
declared axis aside. A refusal raises RunRefused (c18n_ae.running.driver) naming what was
seen."""

from __future__ import annotations

import shlex
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import launchers
from c18n_ae.experiments.plan import repeat_param
from c18n_ae.running import crossing_runs
from c18n_ae.running.driver import RunRefused
from c18n_ae.targets import board_checks as bc

STATS_FILE = "c18n-ae-rtld-stats.bin"  # in the target's workdir, removed after each probe
PROBES = 3  # probes of a variant before what they saw refuses the run
PROBE_REPEATS = 100_000  # repetitions of a probe's benchmark: it runs until the probe ends it


class BoardCheck:
    name = "board"

    def __init__(self, target: dict):
        self.config = target

    def __call__(self, target, plan: dict) -> dict:
        t = target.transport
        system = bc.system_state(t.run(bc.STATE_SCRIPT, timeout=120, check=False).stdout)
        warning = bc.debug_warning(self.config["name"], system)
        hashes = {v["name"]: self.binary_hash(t, v) for v in plan["variants"]}
        problems = bc.same_binary_problems([v["recipe"] for v in plan["variants"]], hashes)
        if problems:
            raise RunRefused("; ".join(problems))
        variants = {}
        for v in plan["variants"]:
            seen, refusal = self.probed(t, plan, v)
            if refusal:
                raise RunRefused(refusal)
            seen = seen or {
                "compartments": None,
                "tool": "not probed",
                "evidence": "a driver experiment that declares no probe_args",
            }
            variants[v["name"]] = {
                "compartments": seen["compartments"],
                "seen_by": seen["tool"],
                "evidence": seen["evidence"],
                "probes": seen.get("probes"),
                "process_revocation": seen.get("process_revocation"),
                "rtld_stats": seen.get("rtld_stats"),
                "binary_sha256": hashes[v["name"]],
                "counters": self.counted(t, plan, v),
                "crossings": self.crossings(t, plan, v),
                "state": bc.variant_state(system, seen, v["recipe"]),
            }
        return {
            "release": self.config.get("release"),
            "simulated": bool(self.config.get("simulated")),
            "launchers": bc.launcher_row(self.config),
            "system": system,
            "warnings": [warning] if warning else [],
            "variants": variants,
            "state_differs": bc.differing(
                {k: x["state"] for k, x in variants.items()},
                {v["name"]: v["recipe"] for v in plan["variants"]},
            ),
        }

    @staticmethod
    def binary_hash(t, v: dict) -> str | None:
        """The SHA-256 of the program the variant runs, computed where it runs (sha256sum, or
        FreeBSD's sha256 -q)."""
        f = shlex.quote(v["build_files"][0])
        out = t.run(
            f"cd {shlex.quote(getattr(t, 'workdir', '.'))} && "
            f"{{ sha256sum {f} 2>/dev/null || sha256 -q {f}; }}",
            check=False,
        ).stdout
        return out.split()[0] if out.split() else None

    @staticmethod
    def probe_command(plan: dict, v: dict) -> list[str] | None:
        """The variant's benchmark as its runs start it, with PROBE_REPEATS repetitions so that it
        lives until the probe has seen it (the probe ends it); rows go to /dev/null. A driver
        experiment's first program under the variant's launcher with its probe_args (as its
        driver starts it, living until ended); None where it declares none."""
        e = exp.get(plan["experiment"])
        bin_dir = Path(v["build_files"][0]).parent
        if e.driver:
            if not e.probe_args:
                return None
            program = str(bin_dir / e.programs[0].output)
            return [*v["recipe"].get("launcher", []), program, *e.probe_args]
        name = repeat_param(e)
        params = {**plan["parameters"], **({name: PROBE_REPEATS} if name else {})}
        return e.command(params, bin_dir, v["recipe"], Path("/dev/null"))

    def counted(self, t, plan: dict, v: dict) -> dict | None:
        """The benchmark's cycles and instructions for a second, where pmcstat counts (E10 gives
        its crossings in cycles from them); None for driver experiments."""
        if exp.get(plan["experiment"]).driver:
            return None
        script = bc.counter_script(getattr(t, "workdir", "."), self.probe_command(plan, v))
        return bc.counters(t.run(script, timeout=120, check=False).stdout)

    def crossings(self, t, plan: dict, v: dict) -> dict | None:
        """E10's library call in crossings, counted by the run-time linker where the release
        counts them (E10's table gives the extra time per counted crossing); None for other
        experiments and variants without c18n."""
        if plan["experiment"] != "crossing" or not v["recipe"].get("c18n"):
            return None
        release = self.config.get("release")
        if not release:
            return {"per_library_call": None, "why": "the target declares no release"}
        return crossing_runs.count(t, plan, v, release)

    def probed(self, t, plan: dict, v: dict) -> tuple[dict | None, str]:
        """What the probe saw and the refusal ('' for none). A short benchmark may end before
        the run-time linker is seen set up, so a refusal stands only after PROBES probes agree."""
        for attempt in range(1, PROBES + 1):
            seen = self.seen(t, plan, v)
            refusal = bc.judge(self.config, v["recipe"], seen) if seen else ""
            if not refusal:
                break
        if refusal:
            refusal += f" (the same in {PROBES} probes)"
        return ({**seen, "probes": attempt} if seen else None), refusal

    def seen(self, t, plan: dict, v: dict) -> dict | None:
        """Runs the variant's benchmark (a driver experiment's program) briefly under procstat;
        None where there is nothing to probe."""
        command = self.probe_command(plan, v)
        if command is None:
            return None
        release, abi = self.config.get("release"), v["recipe"].get("abi")
        env = launchers.counting_env(release, abi, STATS_FILE) if release else []
        script = bc.probe_script(getattr(t, "workdir", "."), command, env, STATS_FILE)
        return bc.compartments_seen(t.run(script, timeout=120, check=False).stdout)


def for_target(target: dict) -> list:
    """The checks before a run on this target: the board check on a CheriBSD target."""
    return [BoardCheck(target)] if target.get("kind") == "morello" else []
