"""Data sets shipped with the package (datasets/<name>/): measurements made elsewhere, with their
metadata (dataset.yaml), which every stage treats as one more target named after the data set."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import yaml

from c18n_ae import PROJECT_ROOT
from c18n_ae.common.rawcsv import RawDataError

ROOT = PROJECT_ROOT / "datasets"
SCHEMA = PROJECT_ROOT / "workflow" / "schemas" / "dataset.schema.yaml"


def _mistakes(path: Path, meta: dict) -> list[str]:
    """One message per mistake against the schema, naming the key (files[2].layout)."""
    schema = yaml.safe_load(SCHEMA.read_text())
    out = []
    for e in sorted(
        jsonschema.Draft202012Validator(schema).iter_errors(meta),
        key=lambda e: list(map(str, e.absolute_path)),
    ):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
        where = where.lstrip(".") or "(top level)"
        if e.validator == "enum":
            allowed = ", ".join(map(str, e.validator_value))
            out.append(f"{path}: {where}: {e.instance!r} is not allowed; allowed: {allowed}")
        elif e.validator == "additionalProperties":
            out.append(f"{path}: {where}: unknown key ({e.message})")
        else:
            out.append(f"{path}: {where}: {e.message}")
    return out


def directory(name: str, root: Path = ROOT) -> Path:
    return Path(name) if "/" in name else root / name


def load(name: str, root: Path = ROOT) -> dict:
    """The data set's metadata, checked: every key the stages read, every file present, every
    file's variant declared and its layout recognised."""
    d = directory(name, root)
    path = d / "dataset.yaml"
    if not path.exists():
        raise RawDataError(f"data set {name!r}: {path} not found")
    try:
        meta = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as e:
        raise RawDataError(f"{path}: not valid YAML: {e}") from e
    mistakes = _mistakes(path, meta) if isinstance(meta, dict) else [f"{path}: not a mapping"]
    if mistakes:
        raise RawDataError("\n  ".join(mistakes))
    if meta["reference_variant"] not in meta["variants"]:
        raise RawDataError(
            f"{path}: reference_variant {meta['reference_variant']!r} is not among variants "
            f"({', '.join(meta['variants'])})"
        )
    for i, f in enumerate(meta["files"]):
        if f.get("variant") not in meta["variants"]:
            raise RawDataError(
                f"{path}: files[{i}].variant {f.get('variant')!r} is not among variants "
                f"({', '.join(meta['variants'])})"
            )
        if not (d / f["path"]).exists():
            raise RawDataError(f"{path}: files[{i}].path {f['path']}: file not found in {d}")
    for i, doc in enumerate(meta.get("documents", [])):
        if not (d / doc["path"]).exists():
            raise RawDataError(f"{path}: documents[{i}].path {doc['path']}: file not found in {d}")
    meta["directory"] = str(d)
    return meta


def variant_of(path: Path, root: Path = ROOT) -> tuple[str, str]:
    """(data set name, variant) of a file of a data set."""
    name, entry = file_entry(path, root)
    return name, entry["variant"]


def file_entry(path: Path, root: Path = ROOT) -> tuple[str, dict]:
    """(data set name, the file's entry under files in its dataset.yaml)."""
    d = Path(path).resolve()
    for parent in d.parents:
        if (parent / "dataset.yaml").exists():
            meta = load(str(parent), root)
            rel = d.relative_to(parent.resolve()).as_posix()
            for f in meta["files"]:
                if f["path"].rstrip("/") == rel:
                    return meta["name"], f
            raise RawDataError(f"{path}: not listed under files in {parent / 'dataset.yaml'}")
    raise RawDataError(f"{path}: not inside a data set (no dataset.yaml above it)")


def invalid_metrics(metas: list[dict]) -> dict[str, dict[str, dict[str, str]]]:
    """data set name -> experiment -> metric -> why the data set's measurement of that metric is
    not what its name claims (dataset.yaml key invalid)."""
    return {
        m["name"]: {
            e: {x: " ".join(spec["reason"].split()) for x in spec["metrics"]}
            for e, spec in m.get("invalid", {}).items()
        }
        for m in metas
    }
