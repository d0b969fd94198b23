"""Loads and validates the workflow configuration with messages that name the key."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from c18n_ae import PROJECT_ROOT
from c18n_ae.common import paths, schemas, ssh_options
from c18n_ae.common.datasets import ROOT as DATASETS
from c18n_ae.common.datasets import directory as dataset_directory
from c18n_ae.common.datasets import load as load_dataset
from c18n_ae.common.rawcsv import RawDataError

if TYPE_CHECKING:
    import jsonschema

SCHEMA_PATH = PROJECT_ROOT / "workflow" / "schemas" / "config.schema.yaml"


# the workflow's files and folders directly under results/ and under results/<target>/, read from
# its rules (a target or variant named so would clash with one of them)
RULES = [PROJECT_ROOT / "Snakefile", *sorted((PROJECT_ROOT / "workflow" / "rules").glob("*.smk"))]


class ConfigError(ValueError):
    """A configuration problem, phrased for the person who edits config.yaml."""


def _named_path(config: dict, path) -> str:
    """The key path of an error, with list entries shown by their name (targets[local])."""
    out, node = [], config
    for p in path:
        if isinstance(p, int) and isinstance(node, list) and p < len(node):
            item = node[p]
            label = item.get("name", p) if isinstance(item, dict) else p
            out.append(f"[{label}]")
            node = item
        else:
            out.append(("." if out else "") + str(p))
            node = node.get(p) if isinstance(node, dict) else None
    return "".join(out) or "(top level)"


def _describe(error: jsonschema.ValidationError, config: dict) -> str:
    where = _named_path(config, error.absolute_path)
    schema = error.schema
    if schemas.name_problem(error):
        return f"{where}: {schemas.name_problem(error)}"
    if error.validator == "pattern" and "description" in schema:
        shown = schemas.quoted(error.instance)
        return f"{where}: {shown} is not allowed; expected {schema['description']}"
    if error.validator == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        return f"{where}: unknown key {', '.join(map(repr, extra))}; allowed: {', '.join(allowed)}"
    if error.validator == "required":
        return f"{where}: {schemas.short(error.message)}"
    if error.validator == "enum":
        allowed = ", ".join(map(str, schema["enum"]))
        return f"{where}: {schemas.quoted(error.instance)} is not allowed; allowed: {allowed}"
    if error.validator == "type":
        got = f"{type(error.instance).__name__} {schemas.quoted(error.instance)}"
        return f"{where}: expected {schema['type']}, got {got}"
    if error.validator in ("minimum", "exclusiveMinimum", "maximum"):
        bound = f"{error.validator} {error.validator_value}"
        return f"{where}: {schemas.quoted(error.instance)} is out of range ({bound})"
    return f"{where}: {schemas.short(error.message)}"


# The configs a parent process (snakemake, before any job) found valid against the schema, each as
# the digest of the config and the schema, its file and its experiments' part (passed_on): a job
# given one of them skips the schema's check and jsonschema's import (0.1 s a job).
PASSED_ON = "C18N_AE_CONFIG_VALIDATED"
_VALIDATED: set[str] = set()


def _digest(config: dict, experiments_schema: dict) -> str:
    schema = (SCHEMA_PATH.read_bytes(), _canonical(experiments_schema))
    return hashlib.sha256(repr((_canonical(config), schema)).encode()).hexdigest()


def _canonical(value):
    """The value with each mapping's keys in one order (snakemake merges the files in another
    order than merged() does); repr tells 1 from 1.0, True and '1'."""
    if isinstance(value, dict):
        return tuple(sorted((repr(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return repr(value)


def passed_on() -> str:
    """The configs this process has validated, as the value of PASSED_ON for its children."""
    return " ".join(sorted(_VALIDATED))


def validate(config: dict, experiments_schema: dict) -> None:
    """Checks config against the schema, whose experiments section the experiment registry makes
    from the parameters each experiment declares (c18n_ae.experiments.parameters)."""
    if not isinstance(config, dict):
        raise ConfigError("config: expected a mapping at the top level")
    digest = _digest(config, experiments_schema)
    if digest in os.environ.get(PASSED_ON, "").split():
        return  # validated by the parent, as it is
    schema = schemas.load(SCHEMA_PATH.name)
    schema["properties"]["experiments"] = experiments_schema
    validator = schemas.validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise ConfigError(
            "invalid configuration:\n  " + "\n  ".join(_describe(e, config) for e in errors)
        )
    _VALIDATED.add(digest)


def check_references(config: dict) -> None:
    """The cross-references the schema can't express: names used once, variants that exist."""
    problems = []
    names = [t["name"] for t in config["targets"]]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"targets[{dup}]: target name used more than once")
    all_variants = set()
    top, below_target = results_names()
    for t in config["targets"]:
        problems += ssh_options.problems(t)
        if paths.too_long(t.get("identity_file", "")):
            why = paths.too_long(t["identity_file"])
            problems.append(f"targets[{t['name']}].identity_file: {why}")
        if t["name"] in top:
            problems.append(
                f"targets[{t['name']}]: the name of results/{t['name']} the workflow writes; "
                "give the target another name"
            )
        vnames = [v["name"] for v in t["variants"]]
        problems += [
            f"targets[{t['name']}].variants[{v}]: the name of results/{t['name']}/{v} the "
            "workflow writes; give the variant another name"
            for v in vnames
            if v in below_target
        ]
        all_variants.update(vnames)
        for dup in sorted({n for n in vnames if vnames.count(n) > 1}):
            problems.append(
                f"targets[{t['name']}].variants[{dup}]: variant name used more than once"
            )
        if t["reference_variant"] not in vnames:
            problems.append(
                f"targets[{t['name']}].reference_variant: unknown variant "
                f"{t['reference_variant']!r}; "
                f"allowed: {', '.join(vnames)}"
            )
    problems += _dataset_problems(config.get("datasets", []), names)
    for exp, params in config["experiments"].items():
        for v in params.get("variants", []):
            if v not in all_variants:
                problems.append(
                    f"experiments.{exp}.variants: unknown variant {schemas.quoted(v)}; allowed: "
                    f"{', '.join(sorted(all_variants))}"
                )
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))


@functools.cache
def results_names() -> tuple[frozenset[str], frozenset[str]]:
    """(names the rules write directly under results/, names they write under results/<target>/
    beside its variants' folders), from the paths in the rules' text: results/tidy/{experiment}.csv
    gives tidy, results/{t}/provenance.json gives provenance.json."""
    text = "\n".join(p.read_text() for p in RULES)
    word = r"([A-Za-z0-9][^/{}\"'\s]*)"
    top = re.findall(rf"[\"']results/{word}", text)
    below = re.findall(rf"[\"']results/\{{[^}}]+\}}/{word}", text)
    return frozenset(top), frozenset(below)


def _dataset_problems(entries: list[str], targets: list[str]) -> list[str]:
    """Each data set the config lists: inside the project, valid, listed once (its rows would count
    twice), in a folder named as its name: says, a name no other data set or target has."""
    problems, folders, named = [], {}, {}
    for name in entries:
        outside = dataset_folder_problem(name)
        if outside:
            problems.append(f"datasets[{name}]: {outside}")
            continue
        folder = dataset_directory(name).resolve()
        if folder in folders:
            problems.append(
                f"datasets[{name}]: the data set of datasets[{folders[folder]}] listed again; "
                "list each data set once (its rows would count twice)"
            )
            continue
        folders[folder] = name
        try:
            meta = load_dataset(name)
        except RawDataError as e:
            problems += [f"datasets[{name}]: {line.strip()}" for line in str(e).splitlines()]
            continue
        yaml_file = f"{paths.shown(folder)}/dataset.yaml"
        if meta["name"] != folder.name:
            problems.append(
                f"datasets[{name}]: {yaml_file}: name {meta['name']!r} differs from its folder's "
                f"name {folder.name!r}; a copy of a data set takes a name of its own, in both"
            )
        if meta["name"] in targets:
            problems.append(f"datasets[{name}]: its name {meta['name']!r} is also a target's name")
        if meta["name"] in named:
            problems.append(
                f"datasets[{name}]: {yaml_file}: name {meta['name']!r} is also the name of "
                f"datasets[{named[meta['name']]}]; its rows would merge into that data set's"
            )
        named.setdefault(meta["name"], name)
    return problems


def dataset_folder_problem(entry: str) -> str | None:
    """A data set the config names is a folder under datasets/ (by name) or inside the project
    (by relative path), never one reached through '..', an absolute path or a symlink out."""
    if "/" not in entry:
        return paths.escape(DATASETS, entry, below=False)
    return paths.escape(PROJECT_ROOT, entry, below=False)


def merged(*files: Path) -> dict:
    """Reads config files in order, later ones overriding earlier (as snakemake --configfile
    does)."""
    out: dict = {}
    for p in files:
        if paths.too_long(p):
            raise ConfigError(f"{str(p)[:200]}: {paths.too_long(p)}")
        if not Path(p).is_file():
            raise ConfigError(f"{p}: file not found")
        try:
            data = schemas.read_yaml(Path(p))
        except schemas.YamlFileError as e:
            raise ConfigError(str(e)) from None
        out = deep_merge(out, data)
    return out


def deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = (
            deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
        )
    return out


def target(config: dict, name: str) -> dict:
    return next(t for t in config["targets"] if t["name"] == name)


def variant(config: dict, target_name: str, variant_name: str) -> dict:
    return next(v for v in target(config, target_name)["variants"] if v["name"] == variant_name)


def enabled_experiments(config: dict) -> list[str]:
    return [e for e, p in config["experiments"].items() if p.get("enabled", True)]


def datasets(config: dict) -> list[dict]:
    """Metadata of each data set the run includes (already checked by validate)."""
    return [load_dataset(n) for n in config.get("datasets", [])]


def references(config: dict) -> dict[str, str]:
    """target or data set name -> the variant its ratios are taken against."""
    out = {t["name"]: t["reference_variant"] for t in config["targets"]}
    out.update({d["name"]: d["reference_variant"] for d in datasets(config)})
    return out


def c18n_variants(config: dict) -> dict[str, dict[str, bool]]:
    """target or data set name -> {variant: runs in compartments}."""
    out = {
        t["name"]: {v["name"]: bool(v.get("c18n", False)) for v in t["variants"]}
        for t in config["targets"]
    }
    out.update(
        {
            d["name"]: {v: bool(s.get("c18n", False)) for v, s in d["variants"].items()}
            for d in datasets(config)
        }
    )
    return out


def invalid_metrics(config: dict) -> dict[str, dict[str, dict[str, str]]]:
    """data set name -> experiment -> metric -> why the data set's measurement of that metric is
    not what its name claims (dataset.yaml key invalid)."""
    from c18n_ae.common.datasets import invalid_metrics as of_datasets

    return of_datasets(datasets(config))


def runs(config: dict, experiment: str) -> list[tuple[str, str]]:
    """(target, variant) pairs that an experiment runs on."""
    wanted = config["experiments"][experiment].get("variants")
    return [
        (t["name"], v["name"])
        for t in config["targets"]
        for v in t["variants"]
        if wanted is None or v["name"] in wanted
    ]


def add_experiment_arguments(ap, *kinds: str) -> None:
    """--experiments NAME...: the files of each kind (summary, tidy, comparisons) are read from
    results/<kind>/<experiment>.csv, as if given one by one with --<kind> EXPERIMENT=path."""
    ap.add_argument("--experiments", nargs="+", default=[], metavar="NAME")
    ap.add_argument("--results", type=Path, default=Path("results"))
    for kind in kinds:
        ap.add_argument(f"--{kind}", action="append", default=[], help="EXPERIMENT=path")


def experiment_files(a, kind: str) -> dict[str, Path]:
    """EXPERIMENT -> path of one kind of file, from --experiments and any --<kind> E=path given."""
    folder = {"summary": "summary", "tidy": "tidy", "comparisons": "comparisons"}[kind]
    out = {e: a.results / folder / f"{e}.csv" for e in a.experiments}
    out.update((k, Path(v)) for k, v in (item.split("=", 1) for item in getattr(a, kind)))
    return out


def add_arguments(ap) -> None:
    """--config FILE...: the config files in effect (the workflow passes them; later ones win)."""
    ap.add_argument(
        "--config",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="config files in effect, e.g. config/config.yaml config/quick.yaml",
    )


def target_from(config: dict | None, arg: str) -> dict:
    """A target by name from the config, or given whole as JSON (for calls outside the workflow)."""
    if arg.lstrip().startswith("{"):
        return json.loads(arg)
    if config is None:
        raise SystemExit(f"error: target {arg!r} named without --config FILE...")
    names = [t["name"] for t in config["targets"]]
    if arg not in names:
        raise SystemExit(f"error: no target {arg!r} in {', '.join(names)}")
    return target(config, arg)
