"""E10's short runs for the board checks, on the target, apart from its timed runs: the crossing
program of one variant run to its end with chosen kinds of call and the run-time linker's
variables (c18n_ae.targets.crossing_probes prints and reads them), and a library call's crossings
as the linker counts them (switch count per call, from a run of one trial and one of two)."""

from __future__ import annotations

from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import launchers
from c18n_ae.targets import crossing_probes as cp

STATS_FILE = "c18n-ae-crossing-stats.bin"  # in the target's workdir, removed after each run
COUNT_CALLS = 100_000  # library calls of the loop the count is taken over


def command(plan: dict, v: dict, kinds: str, calls: int, trials: int) -> list[str]:
    """The variant's crossing program as its runs start it, with these kinds, calls and trials,
    its rows to crossing_probes.OUT_FILE."""
    params = {**plan["parameters"], "calls": calls, "trials": trials}
    bin_dir = Path(v["build_files"][0]).parent
    out = Path(cp.OUT_FILE)
    return [*exp.get("crossing").command(params, bin_dir, v["recipe"], out), "--kinds", kinds]


def run(t, plan: dict, v: dict, kinds: str, calls: int, trials: int, env=()) -> dict:
    """One run to its end on the target (t: its transport): crossing_probes.read_run's dict."""
    script = cp.run_script(
        getattr(t, "workdir", "."), command(plan, v, kinds, calls, trials), list(env), STATS_FILE
    )
    return cp.read_run(t.run(script, timeout=900, check=False).stdout)


def count(t, plan: dict, v: dict, release: str, extra_env=()) -> dict:
    """A library call's crossings as the release's run-time linker counts them (its switch count,
    LD_COMPARTMENT_SWITCH_COUNT, written to LD_COMPARTMENT_STATS's file): {"per_library_call",
    "switches" (of the two runs), "calls", "counted_by"}, or {"per_library_call": None, "why"}."""
    abi = v["recipe"].get("abi")
    if not launchers.for_release(release).counts:
        return {
            "per_library_call": None,
            "why": f"no switch count on CheriBSD {release} (README, launchers per release)",
        }
    env = [*launchers.counting_env(release, abi, STATS_FILE), *extra_env]
    one, two = (run(t, plan, v, "library", COUNT_CALLS, n, env) for n in (1, 2))
    why = cp.failure(one, "the count's first run") or cp.failure(two, "the count's second run")
    per = cp.switches_per_call(one, two, COUNT_CALLS)
    if why or per is None:
        return {"per_library_call": None, "why": why or "the linker wrote no statistics file"}
    return {
        "per_library_call": per,
        "switches": [one["stats"]["switches"], two["stats"]["switches"]],
        "calls": COUNT_CALLS,
        "counted_by": f"the run-time linker's switch count ({env[1].split('=')[0]})",
    }
