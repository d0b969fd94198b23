"""Prints the machine's own Debian apt sources (one-line and deb822 files), each with the
non-free component added, for a private apt configuration; the machine's sources stay untouched.
Only entries of the machine's Debian release are kept (the ones whose suites or distributions
the release's name starts), so third-party repositories are not queried."""

from __future__ import annotations

import glob
import re
import sys


def one_line(path: str) -> list[str]:
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line.startswith("deb ") and "non-free" not in line.split()[3:]:
            line += " non-free"
        if line.startswith("deb "):
            out.append(line)
    return out


def deb822(path: str) -> list[str]:
    """Each stanza as one-line entries: deb [options] URI suite components."""
    out = []
    for stanza in re.split(r"\n\s*\n", open(path, encoding="utf-8").read()):
        fields = {}
        for line in stanza.splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            key, value = line.split(":", 1)
            fields[key.strip().lower()] = value.strip()
        if "deb" not in fields.get("types", "").split() or fields.get("enabled", "yes") == "no":
            continue
        components = fields.get("components", "main").split()
        if "non-free" not in components:
            components.append("non-free")
        opts = (
            f"[signed-by={fields['signed-by']}] "
            if fields.get("signed-by", "").startswith("/")
            else ""
        )
        for uri in fields.get("uris", "").split():
            for suite in fields.get("suites", "").split():
                out.append(f"deb {opts}{uri} {suite} {' '.join(components)}")
    return out


def main() -> None:
    release = sys.argv[1] if len(sys.argv) > 1 else "bookworm"
    entries = []
    for path in ["/etc/apt/sources.list", *sorted(glob.glob("/etc/apt/sources.list.d/*.list"))]:
        try:
            entries += one_line(path)
        except FileNotFoundError:
            pass
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        entries += deb822(path)
    # the release's own suites only (bookworm, bookworm-updates, ...): no third-party repository
    entries = [e for e in entries if re.search(rf"\s{re.escape(release)}(-\S+)?\s", e)]
    if not entries:
        sys.exit(f"error: no apt source of Debian {release} found in /etc/apt")
    print("\n".join(dict.fromkeys(entries)))


if __name__ == "__main__":
    main()
