"""Packs the deposit: the tracked sources, configuration, data sets (tracked or dropped in) and
deposit metadata (LICENSE, CITATION.cff, .zenodo.json) and the generated results, raw data and PDF
into one tarball, with a SHA256SUMS manifest of every member (inside the tarball, and beside it
with the tarball's own sum).

Only regular files whose real location lies inside the project are packed: a symlink is packed as
the file it leads to when that file is inside the project and left out (and said so) when it leads
out, so the tarball can neither carry an outside file's content nor a link that recreates one;
nothing under .git, .venv, .ssh or a cache is packed, tracked or not."""

from __future__ import annotations

import argparse
import hashlib
import io
import subprocess
import sys
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
    "paper/generated/*",
    "paper/main.pdf",
    "results/*/*/*/*.txt",
    "results/comparisons/*.csv",
    "results/headline.csv",
    "results/claims.md",
]
# inputs a reviewer may add without committing them: a data set dropped into datasets/, a config
INPUT_PATTERNS = ["datasets/**/*", "config/*.yaml"]
SKIP_DIRS = {
    ".git",
    ".venv",
    ".env",
    ".ssh",
    ".gnupg",
    ".snakemake",
    "logs",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    "archive",
    ".cache",
}


def source_files(root: Path) -> list[Path]:
    """Tracked files when this is a git checkout, otherwise everything but build and cache
    folders."""
    done = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True)
    if done.returncode == 0 and done.stdout:
        return [Path(p) for p in done.stdout.decode().split("\0") if p]
    return [p.relative_to(root) for p in root.rglob("*") if "results" not in p.parts[:1]]


def collect(root: Path) -> tuple[list[Path], list[str]]:
    """(the files to pack, relative to root; why each other candidate is left out)."""
    candidates = set(source_files(root))
    for pattern in INPUT_PATTERNS + RESULT_PATTERNS:
        candidates.update(p.relative_to(root) for p in root.glob(pattern))
    files, left_out = [], []
    inside = root.resolve()
    for f in sorted(candidates):
        path = root / f
        if SKIP_DIRS & set(f.parts):
            continue
        if not path.resolve().is_relative_to(inside):
            left_out.append(f"{f.as_posix()}: a symlink leading outside the project, left out")
        elif path.is_file():
            files.append(f)
    return files, left_out


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def build(root: Path, tarball: Path, sums: Path, prefix: str = "c18n-ae") -> list[str]:
    """Writes the tarball and SHA256SUMS; returns what was left out, and why."""
    files, left_out = collect(root)
    listing = "".join(f"{sha256(root / f)}  {f.as_posix()}\n" for f in files)
    tarball.parent.mkdir(parents=True, exist_ok=True)
    tmp = tarball.with_name(tarball.name + ".partial")
    with tarfile.open(tmp, "w:gz") as tar:
        for f in files:
            # always a regular member with the file's content: never a symlink or hard link
            st = (root / f).stat()
            info = tarfile.TarInfo(f"{prefix}/{f.as_posix()}")
            info.size, info.mtime, info.mode = st.st_size, int(st.st_mtime), st.st_mode & 0o777
            with open(root / f, "rb") as content:
                tar.addfile(info, content)
        data = listing.encode()
        info = tarfile.TarInfo(f"{prefix}/SHA256SUMS")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    tmp.replace(tarball)
    sums.write_text(listing + f"{sha256(tarball)}  {tarball.name}\n")
    return left_out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--sums", required=True, type=Path)
    a = ap.parse_args(argv)
    left_out = build(PROJECT_ROOT, a.out, a.sums)
    for why in left_out:
        print(why, file=sys.stderr)
    n = sum(1 for line in a.sums.read_text().splitlines()) - 1
    print(f"archived {n} files into {a.out}, listed in {a.sums}")


if __name__ == "__main__":
    main()
