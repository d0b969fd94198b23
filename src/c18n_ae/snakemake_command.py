"""The `snakemake` command of .venv: snakemake itself, after one check of its arguments that
snakemake makes too late. `--configfile` takes every word after it, so a target named after it
(`snakemake -n --configfile config/quick.yaml memory`) is read as a config file, and snakemake
stops with a FileNotFoundError traceback before any of the workflow's code runs. Here such a word
gets the README's advice instead; everything else goes to snakemake unchanged.

Two fixes to snakemake's own cost as well (patch_snakemake), each applied only when the pinned
snakemake has the method it replaces: its scheduler's timers, which made a run's own CPU time grow
with the square of its jobs, and its import of pandas to compare params, a third of a no-op's
time in a workflow whose params are text."""

from __future__ import annotations

import shlex
import sys
import threading
from pathlib import Path

OPTIONS = ("--configfile", "--configfiles")


def missing_config_files(argv: list[str]) -> list[str]:
    """The words snakemake would read as config files that are no file."""
    words = []
    taking = False
    for arg in argv:
        name, _, value = arg.partition("=")
        if name in OPTIONS:
            words += [value] if value else []
            taking = not value
        elif arg.startswith("-"):
            taking = False
        elif taking:
            words.append(arg)
    return [w for w in words if not Path(w).is_file()]


def advice(argv: list[str], missing: list[str]) -> str:
    """The message for words after --configfile that are no file: the same command with them
    moved before it, where snakemake reads them as targets."""
    rest = [a for a in argv if a not in missing]
    first = next(i for i, a in enumerate(rest) if a.partition("=")[0] in OPTIONS)
    again = shlex.join(["snakemake", *rest[:first], *missing, *rest[first:]])
    return (
        f"snakemake: no config file {', '.join(missing)}: --configfile takes every word after it"
        " as a config file, so a target (an experiment, a rule or a file) goes before it"
        f" (README.md, Running parts). If you meant a target: {again}"
    )


def one_reevaluation_timer(scheduler, delay: float) -> None:
    """Snakemake's JobScheduler._schedule_reevalutation, which wakes the scheduler after the
    rate limiter's timespan (1 s by default): snakemake arms a new timer at the end of every pass
    of its loop, the passes a timer wakes included, so each finished job adds one more timer that
    fires every second until the run ends. With the quick profile's 68 jobs that is thousands of
    job selections, each re-reading the size of every input of every ready job: 36 s of CPU time
    in snakemake itself beside 80 s in the jobs (issue 33). One pending timer wakes the loop just
    as soon; a daemon one, so that the process does not wait for it at exit."""
    pending = getattr(scheduler, "_c18n_reevaluation", None)
    if pending is not None and pending.is_alive():
        return
    timer = threading.Timer(delay, scheduler._open_jobs.release)
    timer.daemon = True
    scheduler._c18n_reevaluation = timer
    timer.start()


def param_without_pandas(persistence, value):
    """Snakemake's PersistenceBase._serialize_param_pandas, which imports pandas (0.3 s) to ask
    whether a param is a pandas object whenever pandas is installed: a param can only be one when
    pandas was imported already, so until then the builtin serialisation is the same answer."""
    if "pandas" in sys.modules:
        return _SERIALIZE_PANDAS(persistence, value)
    return persistence._serialize_param_builtin(value)


_SERIALIZE_PANDAS = None


def patch_snakemake() -> None:
    """one_reevaluation_timer and param_without_pandas in place of snakemake's methods, when the
    installed snakemake has them (a snakemake without them runs unchanged)."""
    global _SERIALIZE_PANDAS
    from snakemake.persistence import PersistenceBase
    from snakemake.scheduling.job_scheduler import JobScheduler

    if hasattr(JobScheduler, "_schedule_reevalutation"):
        JobScheduler._schedule_reevalutation = one_reevaluation_timer
    serialize = getattr(PersistenceBase, "_serialize_param_pandas", None)
    if serialize is not None and serialize is not param_without_pandas:
        _SERIALIZE_PANDAS = serialize
        PersistenceBase._serialize_param_pandas = param_without_pandas


def main() -> None:
    missing = missing_config_files(sys.argv[1:])
    if missing:
        sys.exit(advice(sys.argv[1:], missing))
    patch_snakemake()
    from snakemake.cli import main as snakemake

    sys.exit(snakemake())
