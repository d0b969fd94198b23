"""Contained paths: a path that a shared file (a data set's dataset.yaml, a config) names must lead
to a place inside the folder it is relative to, so that a folder received from someone else can
only make the workflow read its own files."""

from __future__ import annotations

import os
from pathlib import Path

from c18n_ae import PROJECT_ROOT


def shown(folder: Path) -> str:
    """A folder as a message shows it: relative to the project when inside it."""
    try:
        return Path(folder).resolve().relative_to(PROJECT_ROOT.resolve()).as_posix() or "."
    except ValueError:
        return str(folder)


NAME_MAX, PATH_MAX = 255, 4096  # bytes of one name and of a whole path (Linux, FreeBSD's 1024)


def too_long(path) -> str | None:
    """Why the system would refuse to open path (a name or the whole too long), else None; said
    before any call that would raise OSError on it."""
    raw = os.fsencode(path)
    if len(raw) >= PATH_MAX:
        return f"a path of {len(raw)} bytes; the system takes fewer than {PATH_MAX}"
    longest = max(raw.split(b"/"), key=len)
    if len(longest) > NAME_MAX:
        return f"a name of {len(longest)} bytes in it; the system takes at most {NAME_MAX}"
    return None


def escape(folder: Path, path: str, below: bool = True) -> str | None:
    """Why path, relative to folder, leaves it (an absolute path, a '..' that climbs out, a
    symlink on the way or at the end whose target lies outside) or cannot be opened (too long),
    or None when it stays inside. A folder is checked with every link below it, unless below is
    False."""
    if not path or "\0" in path:
        return "not a path"
    if too_long(Path(folder) / path):
        return too_long(Path(folder) / path)
    if Path(path).is_absolute() or path.startswith("~"):
        return f"an absolute path; give it relative to {shown(folder)}"
    if os.path.normpath(path).split(os.sep)[0] == "..":
        return f"outside {shown(folder)}"
    base = Path(folder).resolve()
    target = Path(folder) / path
    if not _inside(target, base):
        return f"a symlink leading outside {shown(folder)}"
    if below and target.is_dir() and not target.is_symlink():
        for below in sorted(target.rglob("*")):
            if below.is_symlink() and not _inside(below, base):
                rel = below.relative_to(folder).as_posix()
                return f"holds {rel}, a symlink leading outside {shown(folder)}"
    return None


def _inside(path: Path, base: Path) -> bool:
    return path.resolve().is_relative_to(base)
