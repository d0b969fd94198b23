"""Packs sources, configuration, raw results, metadata and the PDF into one tarball with a
SHA256SUMS list (inside the tarball, and beside it), ready for a DOI archive."""

from __future__ import annotations

import argparse
import hashlib
import io
import subprocess
import tarfile
from pathlib import Path

from c18n_ae import PROJECT_ROOT

RESULT_PATTERNS = [
    "results/*/*/*/raw.csv",
    "results/*/*/*/meta.json",
    "results/*/*/bin/*.build.json",
    "results/*/provenance.json",
    "results/tidy/*.csv",
    "results/summary/*.csv",
    "results/claims.csv",
    "results/comparisons.csv",
    "results/published/*",
    "paper/generated/*",
    "paper/main.pdf",
    "results/*/*/*/*.txt",
]
SKIP_DIRS = {
    ".git",
    ".venv",
    ".snakemake",
    "logs",
    "__pycache__",
    ".pytest_cache",
    "archive",
    ".cache",
}


def source_files(root: Path) -> list[Path]:
    """Tracked files when this is a git checkout, otherwise everything but build and cache
    folders."""
    done = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True)
    if done.returncode == 0 and done.stdout:
        return [Path(p) for p in done.stdout.decode().split("\0") if p and (root / p).is_file()]
    return [
        p.relative_to(root)
        for p in root.rglob("*")
        if p.is_file()
        and not SKIP_DIRS & set(p.relative_to(root).parts)
        and "results" not in p.parts[:1]
    ]


def collect(root: Path) -> list[Path]:
    files = set(source_files(root))
    for pattern in RESULT_PATTERNS:
        files.update(p.relative_to(root) for p in root.glob(pattern) if p.is_file())
    return sorted(files)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def build(root: Path, tarball: Path, sums: Path, prefix: str = "c18n-ae") -> int:
    files = collect(root)
    listing = "".join(f"{sha256(root / f)}  {f.as_posix()}\n" for f in files)
    tarball.parent.mkdir(parents=True, exist_ok=True)
    tmp = tarball.with_name(tarball.name + ".partial")
    with tarfile.open(tmp, "w:gz") as tar:
        for f in files:
            tar.add(root / f, arcname=f"{prefix}/{f.as_posix()}", recursive=False)
        data = listing.encode()
        info = tarfile.TarInfo(f"{prefix}/SHA256SUMS")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    tmp.replace(tarball)
    sums.write_text(listing + f"{sha256(tarball)}  {tarball.name}\n")
    return len(files)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--sums", required=True, type=Path)
    a = ap.parse_args(argv)
    n = build(PROJECT_ROOT, a.out, a.sums)
    print(f"archived {n} files into {a.out}")


if __name__ == "__main__":
    main()
