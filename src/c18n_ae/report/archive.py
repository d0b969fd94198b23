"""Packs the deposit: the tracked sources, configuration, data sets (tracked or dropped in) and
deposit metadata (LICENSE, CITATION.cff, .zenodo.json) and the generated results, raw data and PDF
into one tarball, with a SHA256SUMS manifest of every member (inside the tarball, and beside it
with the tarball's own sum).

Only regular files are packed, never links. A symlink is packed as the file it leads to only when
that file is itself one the deposit packs (tracked, a dropped-in input or a generated result, and
not private below); any other link (out of the project, or to .env, .git/config, .venv/...) is left
out, so the tarball can carry neither an outside or private file's content nor a link recreating
one. Nothing under .git, .venv, .ssh or a cache is packed, tracked or not.

Key-like files are left out wherever they are, tracked or not (KEY_LIKE): private keys and
certificates (id_*, *.pem, *.key, *.p12, *.pfx, *.ppk, *.jks, *.keystore), public keys too (an
id_*.pub names a user or host and no experiment needs one), and credentials (.env, .env.*, .netrc,
.pgpass, authorized_keys, known_hosts). Each file left out is named on stderr (the rule's log).

A file name that SHA256SUMS cannot list one per line (a newline, carriage return, backslash or other
control character, or bytes that are not UTF-8) stops the deposit with a message naming it: a
deposit without one of its files, or with a manifest that lists it wrongly, is not one."""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import io
import os
import re
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
# names of private keys, certificates and credentials (matched on the file name, case-insensitive)
KEY_LIKE = (
    "id_*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.ppk",
    "*.jks",
    "*.keystore",
    ".env",
    ".env.*",
    ".netrc",
    ".pgpass",
    "authorized_keys",
    "known_hosts",
)
# characters sha256sum would escape or that would split a manifest line: refused in a file name
UNLISTABLE = re.compile(r"[\x00-\x1f\x7f\\]")


def key_like(f: Path) -> bool:
    return any(fnmatch.fnmatch(f.name.lower(), pattern) for pattern in KEY_LIKE)


def unlistable(f: Path) -> str:
    """Why SHA256SUMS cannot list this name, or ""."""
    name = f.as_posix()
    if bad := UNLISTABLE.search(name):
        return "a backslash" if bad[0] == "\\" else f"a control character {bad[0]!r}"
    try:
        name.encode()
    except UnicodeEncodeError:
        return "bytes that are not UTF-8"
    return ""


def source_files(root: Path) -> list[Path]:
    """Tracked files when this is a git checkout, otherwise everything but build and cache
    folders."""
    done = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True)
    if done.returncode == 0 and done.stdout:
        return [Path(os.fsdecode(p)) for p in done.stdout.split(b"\0") if p]
    return [p.relative_to(root) for p in root.rglob("*") if "results" not in p.parts[:1]]


def collect(root: Path) -> tuple[list[Path], list[str]]:
    """(the files to pack, relative to root; why each other candidate is left out). Raises
    ValueError naming every file whose name the manifest cannot list."""
    candidates = set(source_files(root))
    for pattern in INPUT_PATTERNS + RESULT_PATTERNS:
        candidates.update(p.relative_to(root) for p in root.glob(pattern))
    # nothing under a skipped folder, not even a mention (.venv holds certificates, .ssh keys)
    candidates = {f for f in candidates if not SKIP_DIRS & set(f.parts[:-1])}
    packable = {f for f in candidates if f.name not in SKIP_DIRS and not key_like(f)}
    files, left_out, refused = [], [], []
    inside = root.resolve()
    for f in sorted(candidates):
        path = root / f
        real = path.resolve()
        if key_like(f) or key_like(real):
            left_out.append(f"{f.as_posix()!r}: a key-like file (archive.KEY_LIKE), left out")
        elif f not in packable:
            continue  # a file named like a skipped folder: a worktree's .git, a logs file
        elif not real.is_relative_to(inside):
            left_out.append(f"{f.as_posix()!r}: a symlink leading outside the project, left out")
        elif real != inside / f and real.relative_to(inside) not in packable:
            to = real.relative_to(inside).as_posix()
            left_out.append(
                f"{f.as_posix()!r}: a symlink to {to!r}, which the deposit does not pack, left out"
            )
        elif path.is_file():
            if why := unlistable(f):
                refused.append(f"{f.as_posix()!r} ({why})")
            else:
                files.append(f)
    if refused:
        raise ValueError(
            "SHA256SUMS cannot list these file names, one per line; rename or remove them: "
            + ", ".join(refused)
        )
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
    try:
        left_out = build(PROJECT_ROOT, a.out, a.sums)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    for why in left_out:
        print(why, file=sys.stderr)
    n = sum(1 for line in a.sums.read_text().splitlines()) - 1
    print(f"archived {n} files into {a.out}, listed in {a.sums}")


if __name__ == "__main__":
    main()
