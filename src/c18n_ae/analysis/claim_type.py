"""The Claim type: one claim of config/claims.yaml (or of an experiment's module), checked against
workflow/schemas/claims.schema.yaml and built once; everything after reads its fields."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from c18n_ae import PROJECT_ROOT
from c18n_ae import experiments as exp
from c18n_ae.common import schemas

if TYPE_CHECKING:
    import jsonschema

SCHEMA = PROJECT_ROOT / "workflow" / "schemas" / "claims.schema.yaml"
# The claims documents a parent process (snakemake, while it loads) found valid against the
# schema, each as the digest of the document and the schema (passed_on): a job given one of them,
# as it is, skips the schema's check and jsonschema's import (0.05 to 0.1 s in each of a dozen
# jobs), as it does for the config (common.config.PASSED_ON).
PASSED_ON = "C18N_AE_CLAIMS_VALIDATED"
_VALIDATED: set[str] = set()


class ClaimError(ValueError):
    pass


@dataclass(frozen=True)
class Study:
    """The claim in the study's words and where they stand; by: a study other than the one
    re-analysed."""

    says: str
    where: str
    statements: str = ""
    by: str = ""
    departs: str = ""  # where this package's claim departs from the study's words
    brief: str = ""  # what the study's files show in place of its words, in a few words


@dataclass(frozen=True)
class Counts:
    """What a flag's evidence counts: `found` of `of` (two metrics), named `what`."""

    found: str
    of: str
    what: str


@dataclass(frozen=True)
class OnPublished:
    """Decide on a study's printed table: rows selected by `where`, for the data sets of `release`
    or as a row of its own `source`; a flag on `column`, or subject/baseline pairs grouped by
    `by`."""

    file: str
    column: str
    release: str = ""
    source: str = ""
    where: tuple[tuple[str, str], ...] = ()
    is_one: str = "1"
    subject: str = ""
    baseline: str = ""
    by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """A claim as the schema declares it; which fields a kind needs is the schema's to say.
    Absent numbers are None, absent names "", min_trials is filled in from the file or the
    schema's default."""

    id: str
    text: str
    experiment: str
    kind: str
    min_trials: int
    statistic: str = ""  # mean or median; "" for a flag
    metric: str = ""
    baseline_metric: str = ""
    subject: str = ""
    baseline: str = ""
    op: str = ""
    threshold: float | None = None
    unit: str = ""  # the threshold's unit (absolute claims)
    expected: float | None = None
    tolerance: float | None = None
    scope: str = "all"
    parameter_value: str | float | None = None
    c18n: bool | None = None  # None: either setting
    variants: tuple[str, ...] | None = None  # None: every variant
    restates: str = ""
    published: str = ""
    study: Study | None = None
    counts: Counts | None = None
    threshold_from: str = ""
    reading: str = ""
    on_published: OnPublished | None = None
    why: str = ""  # an unmeasurable claim: why no data here can decide it

    @classmethod
    def of(cls, item: dict, min_trials: int) -> Claim:
        """A validated claims.yaml item as a Claim."""
        fields = {**item, "min_trials": item.get("min_trials", min_trials)}
        if "study" in fields:
            fields["study"] = Study(**fields["study"])
        if "counts" in fields:
            fields["counts"] = Counts(**fields["counts"])
        if "on_published" in fields:
            spec = dict(fields["on_published"])
            spec["where"] = tuple((k, str(v)) for k, v in spec.get("where", {}).items())
            spec["by"] = tuple(spec.get("by", ()))
            fields["on_published"] = OnPublished(**spec)
        if "variants" in fields:
            fields["variants"] = tuple(fields["variants"])
        return cls(**fields)

    @property
    def origin(self) -> str:
        """Whose claim: the re-analysed study's, another published study's (study.by), or this
        package's own (no study block)."""
        if not self.study:
            return "own"
        return "related study" if self.study.by else "study"


def schema() -> dict:
    return schemas.load(SCHEMA.name)


def passed_on() -> str:
    """The claims documents this process has validated, as the value of PASSED_ON for its
    children."""
    return " ".join(sorted(_VALIDATED))


def default_min_trials() -> int:
    return schema()["properties"]["min_trials"]["default"]


def read(path: Path) -> tuple[list[Claim], int]:
    """The claims of a file and of the experiments' modules (their own claims, checked alike and
    following the file's), and the file's min_trials (the schema's default when it names none)."""
    try:
        data = schemas.read_yaml(Path(path))  # strict: a repeated key is refused, not kept last
    except (schemas.YamlFileError, OSError) as e:
        raise ClaimError(str(e)) from None
    own = [{**c, "experiment": e.name} for e in exp.registry().values() for c in e.claims]
    if own:
        data = {**data, "claims": [*(data.get("claims") or []), *own]}
    return parse(data, str(path))


def parse(data: dict, where: str = "claims given") -> tuple[list[Claim], int]:
    """A claims document ({min_trials, claims: [...]}) checked against the schema (one message
    per mistake, naming the claim and key) and built into Claims."""
    s = schema()
    digest = hashlib.sha256(repr((data, s)).encode()).hexdigest()
    if digest not in os.environ.get(PASSED_ON, "").split():
        import jsonschema

        errors = list(jsonschema.Draft202012Validator(s).iter_errors(data))
        if errors:
            raise ClaimError("\n".join(_describe(where, data, e) for e in errors))
        _VALIDATED.add(digest)
    least = data.get("min_trials", s["properties"]["min_trials"]["default"])
    return [Claim.of(c, least) for c in data["claims"]], least


def _describe(path: str, data: dict, error: jsonschema.ValidationError) -> str:
    where = f"{path}: claims"
    parts = list(error.absolute_path)
    if parts[:1] == ["claims"] and len(parts) > 1:
        claim = data["claims"][parts[1]]
        label = claim.get("id", parts[1]) if isinstance(claim, dict) else parts[1]
        where += f"[{label}]" + "".join(f".{p}" for p in parts[2:])
    elif parts:
        where = f"{path}: " + ".".join(map(str, parts))
    if error.validator == "enum":
        allowed = ", ".join(map(str, error.validator_value))
        return f"{where}: {error.instance!r} is not allowed; allowed: {allowed}"
    if error.validator == "required":
        return f"{where}: {error.message}"
    if error.validator == "additionalProperties":
        return f"{where}: unknown key ({error.message})"
    if error.validator == "oneOf" and all("required" in o for o in error.validator_value):
        keys = " or ".join(k for o in error.validator_value for k in o["required"])
        return f"{where}: give exactly one of {keys}"
    return f"{where}: {error.message}"
