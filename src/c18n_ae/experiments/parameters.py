"""An experiment's parameters, declared once in its module: the full profile's value (the study's),
the quick profile's, the allowed range, the program's flag. From these come the config schema's
experiments section, each experiment's settings in a loaded config, and a program's arguments."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from c18n_ae.common import board_config
from c18n_ae.common import config as common_config

PROFILES = ("full", "quick")  # config key profile; config/quick.yaml sets quick
NOT_AN_ARGUMENT = ""  # flag of a parameter the runner or a driver reads, not the program


@dataclass(frozen=True)
class Param:
    name: str
    full: Any  # the value of the full profile (the paper's parameters)
    quick: Any = None  # the quick profile's value; None: the full one
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    max_items: int = 64
    flag: str | None = None  # the program's option without "--"; default: name with dashes
    to_arg: Callable[[Any], str] | None = None  # value -> the option's text (default: as written)

    def value(self, profile: str):
        return self.full if profile == "full" or self.quick is None else self.quick

    def schema(self) -> dict:
        scalar = self.full[0] if isinstance(self.full, list) else self.full
        kind = {bool: "boolean", int: "integer", float: "number", str: "string"}[type(scalar)]
        if kind == "integer" and isinstance(self.quick, float):
            kind = "number"
        item = {"type": kind}
        for key, bound in (
            ("minimum", self.minimum),
            ("maximum", self.maximum),
            ("exclusiveMinimum", self.exclusive_minimum),
        ):
            if bound is not None:
                item[key] = bound
        if isinstance(self.full, list):
            item = {"type": "array", "minItems": 1, "maxItems": self.max_items, "items": item}
        return {**item, "description": self.help} if self.help else item

    def argument(self, value) -> list[str]:
        flag = self.name.replace("_", "-") if self.flag is None else self.flag
        if flag == NOT_AN_ARGUMENT:
            return []
        text = (
            self.to_arg(value)
            if self.to_arg
            else ",".join(map(str, value))
            if isinstance(value, list)
            else str(value)
        )
        return [f"--{flag}", text]


def time_limit(full: float, quick: float) -> Param:
    """The run's time limit (s) of a profile: the runner reads it, the program never sees it."""
    return Param("timeout_s", full, quick, "the run's time limit", exclusive_minimum=0, flag="")


# Keys every experiment accepts besides its parameters.
COMMON = {
    "enabled": {"description": "false leaves the experiment out", "type": "boolean"},
    "variants": {
        "description": "run only these variants (default all of each target)",
        "type": "array",
        "items": {"$ref": "name.schema.yaml"},
    },
    # stopping before the study's count (c18n_ae.experiments.stopping); over a target's
    "precision": {
        "description": "stop once every headline metric's interval between runs is this narrow "
        "(its half-width relative to the mean, e.g. 0.02), or at the study's count",
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 1,
    },
    "budget_s": {
        "description": "stop once the experiment's runs have measured for this many seconds",
        "type": "number",
        "exclusiveMinimum": 0,
    },
}


def arguments(params: tuple[Param, ...], values: dict) -> list[str]:
    """A program's options from the experiment's settings, in the order declared."""
    return [x for p in params if p.flag != NOT_AN_ARGUMENT for x in p.argument(values[p.name])]


def schema(registry: dict) -> dict:
    """The config schema's experiments section: name -> its parameters, all optional (a value not
    given is the profile's)."""
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            name: {
                "type": "object",
                "additionalProperties": False,
                "properties": {**COMMON, **{p.name: p.schema() for p in e.params}},
            }
            for name, e in registry.items()
        },
    }


def resolved(config: dict, registry: dict) -> dict:
    """The config checked against the schema, with every experiment's settings: the profile's
    values, overridden by what the config gives."""
    common_config.validate(config, schema(registry))
    profile = config.get("profile", "full")
    given = config.get("experiments") or {}
    experiments = {
        name: {**{p.name: p.value(profile) for p in e.params}, **given.get(name, {})}
        for name, e in registry.items()
    }
    out = {**config, "experiments": experiments}
    common_config.check_references(out)
    return board_config.checked(out)  # a board's variants: launchers per release, flags


def load(registry: dict, *paths: Path) -> dict:
    """The config files, merged and resolved; a mistake names the files it was found in."""
    config = common_config.merged(*paths)
    try:
        return resolved(config, registry)
    except common_config.ConfigError as e:
        raise common_config.ConfigError(f"{', '.join(map(str, paths))}: {e}") from None
