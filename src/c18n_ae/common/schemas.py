"""The workflow's JSON schemas (workflow/schemas/), loaded with the one name pattern they share
(name.schema.yaml) and validated with messages that say what a name may be."""

from __future__ import annotations

import jsonschema
import yaml
from referencing import Registry, Resource

from c18n_ae import PROJECT_ROOT

FOLDER = PROJECT_ROOT / "workflow" / "schemas"
NAME = "name.schema.yaml"


def load(file: str) -> dict:
    return yaml.safe_load((FOLDER / file).read_text())


def validator(schema: dict) -> jsonschema.Draft202012Validator:
    """A validator that resolves $ref: name.schema.yaml."""
    registry = Registry().with_resource(NAME, Resource.from_contents(load(NAME)))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def name_problem(error: jsonschema.ValidationError) -> str | None:
    """The message for a name that breaks the name pattern, else None."""
    if error.schema.get("$id") != NAME or error.validator not in ("pattern", "type", "maxLength"):
        return None
    return f"{error.instance!r} is not allowed as a name ({error.schema['description']})"
