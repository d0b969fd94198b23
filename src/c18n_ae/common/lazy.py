"""pandas and numpy, imported on first use. Every job and snakemake itself load the experiments'
registry (each experiment's module), but only the analysis and report steps use pandas: a build,
a run or the DAG should not pay for its import (about half a second a process)."""

from __future__ import annotations

import importlib


class _OnFirstUse:
    """Stands for a module; the first attribute looked up imports it and copies its names in,
    so that later look-ups are as fast as on the module itself."""

    def __init__(self, name: str):
        self.__dict__["_module_name"] = name

    def __getattr__(self, attr: str):
        module = importlib.import_module(self.__dict__["_module_name"])
        self.__dict__.update(vars(module))
        return getattr(module, attr)


pd = _OnFirstUse("pandas")
np = _OnFirstUse("numpy")
