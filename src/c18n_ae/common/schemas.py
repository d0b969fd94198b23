"""The workflow's JSON schemas (workflow/schemas/), loaded with the one name pattern they share
(name.schema.yaml) and validated with messages that say what a name may be."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource

from c18n_ae import PROJECT_ROOT

FOLDER = PROJECT_ROOT / "workflow" / "schemas"
NAME = "name.schema.yaml"
MAX_BYTES = 1 << 20  # a hand-written YAML file (config, dataset.yaml) is small
MAX_LINE = 10_000
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when built with it


class YamlFileError(ValueError):
    """A YAML file that is not a readable mapping, named with its line."""


def read_yaml(path: Path) -> dict:
    """A hand-written YAML file's mapping: UTF-8 text, no NUL byte, no line over MAX_LINE
    characters, at most MAX_BYTES, valid YAML (safe_load), a mapping; otherwise one message naming
    the file and line."""
    path = Path(path)
    if path.stat().st_size > MAX_BYTES:
        raise YamlFileError(f"{path}: larger than {MAX_BYTES} bytes; not a hand-written file")
    raw = path.read_bytes()
    if b"\0" in raw:
        line = raw[: raw.index(b"\0")].count(b"\n") + 1
        raise YamlFileError(f"{path}:{line}: a NUL byte; not a text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise YamlFileError(f"{path}:{line}: not UTF-8 text (a UTF-16 or binary file?)") from None
    for n, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE:
            raise YamlFileError(f"{path}:{n}: line longer than {MAX_LINE} characters")
    try:
        data = yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise YamlFileError(f"{path}{where}: not valid YAML: {problem}") from None
    if data is None:
        raise YamlFileError(f"{path}: empty file (nothing but comments or blank lines)")
    if not isinstance(data, dict):
        raise YamlFileError(f"{path}: expected a mapping of keys, got {type(data).__name__}")
    return data


def load(file: str) -> dict:
    """A schema, as a fresh copy (callers may fill in parts of it)."""
    return copy.deepcopy(_parsed(file))


@functools.cache
def _parsed(file: str) -> dict:
    return yaml.load((FOLDER / file).read_text(), Loader=SAFE_LOADER)


def validator(schema: dict) -> jsonschema.Draft202012Validator:
    """A validator that resolves $ref: name.schema.yaml."""
    registry = Registry().with_resource(NAME, Resource.from_contents(load(NAME)))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def is_name(text) -> bool:
    """Whether text is a name by the one pattern (name.schema.yaml)."""
    return not list(validator({"$ref": NAME}).iter_errors(text))


def name_problem(error: jsonschema.ValidationError) -> str | None:
    """The message for a name that breaks the name pattern, else None."""
    if error.schema.get("$id") != NAME or error.validator not in ("pattern", "type", "maxLength"):
        return None
    return f"{error.instance!r} is not allowed as a name ({error.schema['description']})"
