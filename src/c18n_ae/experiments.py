"""What each experiment needs: its benchmark program, its arguments and its raw columns.

Adding an experiment means adding one entry here, a C program in src/benchmarks/,
its schema properties and its summary/plot code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Experiment:
    name: str
    benchmark: str  # program in src/benchmarks/<benchmark>.c
    args: Callable[[dict], list[str]]  # experiment params -> program arguments (without --out)
    parameter: str  # raw column that is the swept parameter
    metrics: dict[str, str]  # raw column -> unit, each measured per trial
    raw_columns: tuple[str, ...]
    trials: Callable[[dict], int]  # params -> number of trials the run will make


MEMORY = Experiment(
    name="memory",
    benchmark="memory",
    args=lambda p: ["--sizes-mib", ",".join(map(str, p["block_sizes_mib"])), "--trials", str(p["trials"])],
    parameter="block_mib",
    metrics={"malloc_ns": "ns", "write_ns": "ns", "read_ns": "ns", "free_ns": "ns"},
    raw_columns=("block_mib", "trial", "status", "malloc_ns", "write_ns", "read_ns", "free_ns", "checksum"),
    trials=lambda p: len(p["block_sizes_mib"]) * p["trials"],
)

EXPERIMENTS = {e.name: e for e in (MEMORY,)}


def get(name: str) -> Experiment:
    try:
        return EXPERIMENTS[name]
    except KeyError:
        raise KeyError(f"unknown experiment {name!r}; known: {', '.join(EXPERIMENTS)}") from None
