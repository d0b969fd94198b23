"""Writes the claims table into README.md between its claims markers (the results section)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .claims import update_readme
from .fsutil import write_text_atomic


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--markdown", required=True, type=Path)
    ap.add_argument("--readme", required=True, type=Path)
    ap.add_argument("--stamp", required=True, type=Path)
    a = ap.parse_args(argv)
    table = a.markdown.read_text()
    update_readme(a.readme, table)
    write_text_atomic(a.stamp, table)


if __name__ == "__main__":
    main()
