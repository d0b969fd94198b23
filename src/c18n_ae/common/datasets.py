"""Data sets shipped with the package (datasets/<name>/): measurements made elsewhere, with their
metadata (dataset.yaml), which every stage treats as one more target named after the data set."""

from __future__ import annotations

from pathlib import Path

import yaml

from c18n_ae import PROJECT_ROOT
from c18n_ae.common.rawcsv import RawDataError

ROOT = PROJECT_ROOT / "datasets"
REQUIRED = (
    "name",
    "title",
    "measured_by",
    "measured_when",
    "source",
    "host",
    "reference_variant",
    "variants",
    "files",
)


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
    missing = [k for k in REQUIRED if k not in meta]
    if missing:
        raise RawDataError(f"{path}: missing {', '.join(missing)}")
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
    meta["directory"] = str(d)
    return meta


def variant_of(path: Path, root: Path = ROOT) -> tuple[str, str]:
    """(data set name, variant) of a file of a data set."""
    d = Path(path).resolve()
    for parent in d.parents:
        if (parent / "dataset.yaml").exists():
            meta = load(str(parent), root)
            rel = d.relative_to(parent.resolve()).as_posix()
            for f in meta["files"]:
                if f["path"] == rel:
                    return meta["name"], f["variant"]
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
