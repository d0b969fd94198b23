"""The step each source's clock declares for its times, which the grid the values show is checked
against (c18n_ae.analysis.stats.grid_steps): for a data set, its dataset.yaml
`timing.<experiment>.step` (the clock's tick, or the written step where coarser); for a run of
this package, its meta.json `program.timer_resolution_ns` (clock_getres of CLOCK_MONOTONIC, which
the programs time with), and `program.<name>_timer_resolution_ns` for the metrics named
`..._<name>_ns` (E3's `cpu_timer_resolution_ns`, CLOCK_PROCESS_CPUTIME_ID, for `math_cpu_ns`)."""

from __future__ import annotations

import json
import math
from pathlib import Path

NS = {"ns": 1.0, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}  # a time unit in nanoseconds
RESOLUTION_KEY = "timer_resolution_ns"


def in_unit(step_ns: float, unit: str) -> float:
    """A step in nanoseconds in a metric's unit; NaN where the unit is not a time (a clock
    declares nothing about bytes or counts)."""
    return step_ns / NS[unit] if unit in NS else math.nan


def dataset_steps(meta: dict) -> dict[str, float]:
    """experiment -> the step its timing entry declares, in ns."""
    return {
        e: t["step"]["value"] * NS[t["step"]["unit"]]
        for e, t in meta.get("timing", {}).items()
        if "step" in t
    }


def program_step(program: dict, metric: str) -> float:
    """The clock step, in ns, a run's program declares for a metric: <name>_timer_resolution_ns
    for a metric ending in _<name>_ns, else timer_resolution_ns; NaN where it gives none."""
    for key, value in program.items():
        name = key[: -len(RESOLUTION_KEY) - 1]
        if key.endswith("_" + RESOLUTION_KEY) and metric.endswith(f"_{name}_ns"):
            return float(value)
    value = program.get(RESOLUTION_KEY)
    return float(value) if isinstance(value, (int, float)) and value > 0 else math.nan


def run_programs(raws) -> dict[tuple[str, str], dict]:
    """(target, variant) -> the `program` facts of the meta.json beside each raw.csv (checked
    by c18n_ae.analysis.collect.run_of when the runs were read)."""
    out = {}
    for raw in raws:
        meta = json.loads((Path(raw).parent / "meta.json").read_text(encoding="utf-8"))
        out[(meta["target"], meta["variant"])] = meta.get("program") or {}
    return out


def clock_steps(tidy, programs: dict | None = None, sets: dict | None = None) -> dict:
    """(source, metric) -> the clock step in ns its source declares (the coarsest over the
    source's variants), for every source and metric of the tidy table that has one. programs:
    run_programs of the runs; sets: data set name -> its dataset.yaml, by default each source
    that names a shipped data set. One pass over the table's distinct keys."""
    from c18n_ae.analysis.groups import Groups  # its codes: no copy of a board's table

    programs = programs or {}
    found = Groups(tidy, ["source", "variant", "experiment", "metric"]).keys
    keys = found.itertuples(index=False, name=None)
    by_set: dict[str, dict[str, float]] = {}
    out: dict[tuple[str, str], float] = {}
    for source, variant, experiment, metric in keys:
        if (source, variant) in programs:
            step = program_step(programs[(source, variant)], metric)
        else:
            if source not in by_set:
                meta = (sets or {}).get(source) or _shipped(source)
                by_set[source] = dataset_steps(meta) if meta else {}
            step = by_set[source].get(experiment, math.nan)
        if step > 0:
            out[(source, metric)] = max(step, out.get((source, metric), 0.0))
    return out


def _shipped(name: str) -> dict | None:
    """The dataset.yaml of a shipped data set of this name, or None."""
    from c18n_ae.common import datasets  # its schema checks load only where a data set is read

    if not isinstance(name, str) or "/" in name:
        return None
    if not (datasets.ROOT / name / "dataset.yaml").is_file():
        return None
    return datasets.load(name)
