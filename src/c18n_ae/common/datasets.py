"""Data sets shipped with the package (datasets/<name>/): measurements made elsewhere, with their
metadata (dataset.yaml), which every stage treats as one more target named after the data set."""

from __future__ import annotations

import copy
import hashlib
import os
from pathlib import Path

from c18n_ae import PROJECT_ROOT
from c18n_ae.common import call_sites, evidence, paths, schemas
from c18n_ae.common.rawcsv import RawDataError

ROOT = PROJECT_ROOT / "datasets"
SCHEMA = PROJECT_ROOT / "workflow" / "schemas" / "dataset.schema.yaml"


def _mistakes(path: Path, meta: dict) -> list[str]:
    """One message per mistake against the schema, naming the key (files[2].layout)."""
    out = []
    for e in sorted(
        schemas.validator(schemas.load(SCHEMA.name)).iter_errors(meta),
        key=lambda e: list(map(str, e.absolute_path)),
    ):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
        where = where.lstrip(".") or "(top level)"
        if schemas.name_problem(e):
            out.append(f"{path}: {where}: {schemas.name_problem(e)}")
        elif e.validator == "enum":
            allowed = ", ".join(map(str, e.validator_value))
            shown = schemas.quoted(e.instance)
            out.append(f"{path}: {where}: {shown} is not allowed; allowed: {allowed}")
        elif e.validator == "additionalProperties":
            out.append(f"{path}: {where}: unknown key ({schemas.short(e.message)})")
        else:
            out.append(f"{path}: {where}: {schemas.short(e.message)}")
    return out


def _references(d: Path, meta: dict) -> list[str]:
    """The mistakes the schema can't see: variants that are not declared, and paths that leave
    the data set's folder (checked before they are opened) or name no file."""
    out = []
    variants = ", ".join(meta["variants"])
    if meta["reference_variant"] not in meta["variants"]:
        out.append(
            f"reference_variant {meta['reference_variant']!r} is not among variants ({variants})"
        )
    out += _paths_out(d, meta)
    for key in ("files", "documents"):
        for i, entry in enumerate(meta.get(key, [])):
            if key == "files" and entry["variant"] not in meta["variants"]:
                out.append(
                    f"files[{i}].variant {entry['variant']!r} is not among variants ({variants})"
                )
            if not paths.escape(d, entry["path"]) and not (d / entry["path"]).exists():
                out.append(f"{key}[{i}].path {schemas.cut(entry['path'])}: file not found in {d}")
    return out + _repeated_files(d, meta["files"])


def _repeated_files(d: Path, files: list[dict]) -> list[str]:
    """A file listed twice (under one variant or two, by another spelling of its path or a link)
    would count its rows twice or under two labels: one message per repeat, naming both entries."""
    out, first = [], {}
    for i, entry in enumerate(files):
        if paths.escape(d, entry["path"]) or not (d / entry["path"]).exists():
            continue  # said above
        target = d / entry["path"]
        seen = first.setdefault(_identity(target), i)
        if seen != i:
            also, shown = files[seen], schemas.cut(entry["path"])
            out.append(
                f"files[{i}].path {shown}: the file of files[{seen}] ({schemas.cut(also['path'])}, "
                f"variant {also['variant']}) listed again (variant {entry['variant']}); list each "
                "file once"
            )
    return out


def _identity(path: Path) -> tuple[int, int]:
    """The same file however it is reached (another spelling, a symlink, a hard link)."""
    st = path.stat()
    return st.st_dev, st.st_ino


def _paths_out(d: Path, meta) -> list[str]:
    """Each path (source.shipped, files[], documents[]) that leaves the data set's folder, read
    defensively so that
    a file the schema refuses still has its paths reported beside the schema's mistakes."""
    out = []
    source = meta.get("source") if isinstance(meta, dict) else None
    shipped = source.get("shipped") if isinstance(source, dict) else None
    if isinstance(shipped, str) and paths.escape(d, shipped):
        out.append(f"source.shipped {schemas.cut(shipped)}: {paths.escape(d, shipped)}")
    for key in ("files", "documents"):
        entries = meta.get(key) if isinstance(meta, dict) else None
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            path = entry.get("path") if isinstance(entry, dict) else None
            why = paths.escape(d, path) if isinstance(path, str) else None
            if why:
                out.append(f"{key}[{i}].path {schemas.cut(path)}: {why}")
    return out


def directory(name: str, root: Path = ROOT) -> Path:
    return Path(name) if "/" in name else root / name


# (working directory, folder as named) -> (the folder's state, its checked metadata): the workflow
# loads each data set about ten times while it parses, and every job several times; its checks
# (schema, evidence lines, the binaries' machine code) take a tenth of a second each time.
_CHECKED: dict[tuple[str, str], tuple[tuple, dict]] = {}
# The data sets a parent process (snakemake, which checks the config's before any job) found
# valid, each as the digest of its key and state (passed_on): a job whose data set is still as the
# parent checked it reads its dataset.yaml without checking it again (some 60 jobs, 0.15 s each).
PASSED_ON = "C18N_AE_DATASETS_CHECKED"


def _digest(key: tuple[str, str], state: tuple) -> str:
    return hashlib.sha256(repr((key, state)).encode()).hexdigest()


def passed_on() -> str:
    """The data sets this process has checked, as the value of PASSED_ON for its children."""
    return " ".join(sorted(_digest(key, state) for key, (state, _) in _CHECKED.items()))


def _state(d: Path) -> tuple:
    """All that the checks of a data set read, as the file system has it now: dataset.yaml's text,
    and each entry below the folder (the checks refuse a path or link leading out of it) with its
    kind, inode, size, change times and a link's target; the schema's file too. Any edit, added,
    removed or replaced file changes it."""
    entries = []
    for top, dirs, files in os.walk(d):
        for name in (*dirs, *files):
            f = os.path.join(top, name)
            st = os.lstat(f)
            link = os.readlink(f) if os.path.islink(f) else None
            entries.append(
                (f, st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, link)
            )
    schema, meta = SCHEMA.stat(), d / "dataset.yaml"
    # its text (a rewrite within the clock's tick keeps the times), unless read_yaml refuses it
    text = meta.read_bytes() if meta.stat().st_size <= schemas.MAX_BYTES else None
    return (text, tuple(sorted(entries)), schema.st_mtime_ns, schema.st_size)


def load(name: str, root: Path = ROOT) -> dict:
    """The data set's metadata, checked: every key the stages read, every file present, every
    file's variant declared and its layout recognised. Checked once while the folder stays as it
    was (_state); a copy each time, so that a caller's changes stay its own."""
    d = directory(name, root)
    path = d / "dataset.yaml"
    if paths.too_long(path):
        raise RawDataError(f"data set {schemas.quoted(name)}: {paths.too_long(path)}")
    if not path.exists():
        raise RawDataError(f"data set {name!r}: {path} not found")
    if paths.escape(d, "dataset.yaml"):
        raise RawDataError(f"{path}: a symlink leading outside {paths.shown(d)}")
    key, state = (os.getcwd(), str(d)), _state(d)
    if key in _CHECKED and _CHECKED[key][0] == state:
        return copy.deepcopy(_CHECKED[key][1])
    if _digest(key, state) in os.environ.get(PASSED_ON, "").split():
        meta = {**schemas.read_yaml(path), "directory": str(d)}  # checked by the parent as it is
    else:
        meta = _checked(d, path)
    _CHECKED[key] = (state, copy.deepcopy(meta))
    return meta


def _checked(d: Path, path: Path) -> dict:
    """The checks of load, on the data set's folder d and its dataset.yaml path."""
    try:
        meta = schemas.read_yaml(path)
    except schemas.YamlFileError as e:
        raise RawDataError(str(e)) from None
    mistakes = _mistakes(path, meta)
    if mistakes:  # with the paths that leave the folder, which the schema cannot see
        mistakes += [f"{path}: {m}" for m in _paths_out(d, meta)]
        raise RawDataError("\n  ".join(mistakes))
    mistakes = [
        f"{path}: {m}"
        for m in _references(d, meta) + evidence.mistakes(d, meta) + call_sites.mistakes(d, meta)
    ]
    if mistakes:
        raise RawDataError("\n  ".join(mistakes))
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
    return _invalid_by_metric(metas, "reason")


def invalid_cells(metas: list[dict]) -> dict[str, dict[str, dict[str, str]]]:
    """data set name -> experiment -> metric -> the reason of invalid_metrics in a few words for
    a table's cell (dataset.yaml invalid.<experiment>.cell; '' where it gives none)."""
    return _invalid_by_metric(metas, "cell")


def _invalid_by_metric(metas: list[dict], field: str) -> dict[str, dict[str, dict[str, str]]]:
    """One field of each invalid entry, whitespace collapsed, for each of its metrics."""
    return {
        m["name"]: {
            e: {x: " ".join(spec.get(field, "").split()) for x in spec["metrics"]}
            for e, spec in m.get("invalid", {}).items()
        }
        for m in metas
    }


def build_of(meta: dict, variant: str, experiment: str) -> dict:
    """How the data set's variant built its program of this experiment (variants.<v>.builds:
    compiler, cflags, ldflags, optimisation, evidence), or one marked "not recorded"."""
    for b in meta["variants"][variant].get("builds", []):
        if experiment in b["experiments"]:
            return b
    return {"experiments": [experiment], "compiler": "not recorded", "optimisation": "not recorded"}
