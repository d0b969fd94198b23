"""Adds an experiment made from this template: its C program, its module and its paper section,
with the next E-number.

    .venv/bin/python templates/experiment/add.py NAME "Title of the experiment"

NAME: 1 to 24 lower-case letters and digits, starting with a letter (its config key, rule, results/
folder and program). Writes src/benchmarks/NAME.c, src/c18n_ae/experiments/NAME.py and
paper/sections/NAME.tex; never overwrites a file. Then change the timed call in the program, and
see README.md, "Adding an experiment", for the rest."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from c18n_ae.common.latex import gen_name

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the project: templates/experiment/ -> .
# template -> where the copy goes, relative to the project
FILES = {
    "program.c.in": "src/benchmarks/{name}.c",
    "module.py.in": "src/c18n_ae/experiments/{name}.py",
    "section.tex.in": "paper/sections/{name}.tex",
}
NAME = re.compile(r"[a-z][a-z0-9]{0,23}")  # at most 24: the copies keep lines under 100
DECLARED = re.compile(r"^\s+number=(\d+),", re.M)  # an Experiment's E-number, one per module
RULE = re.compile(r"^rule (\w+):", re.M)


def rules(root: Path) -> set[str]:
    """The workflow's own rules (all, paper, archive, ...): an experiment's rule takes its name."""
    files = [root / "Snakefile", *(root / "workflow" / "rules").glob("*.smk")]
    return {r for f in files if f.is_file() for r in RULE.findall(f.read_text())}


def next_number(root: Path) -> int:
    """One more than the largest E-number the experiment modules declare."""
    modules = (root / "src" / "c18n_ae" / "experiments").glob("*.py")
    return 1 + max((int(n) for m in modules for n in DECLARED.findall(m.read_text())), default=0)


def add(root: Path, name: str, title: str) -> list[Path]:
    """Writes the three files; returns them. Raises ValueError naming what is wrong."""
    if not NAME.fullmatch(name):
        raise ValueError(
            f"{name!r}: a name is 1 to 24 lower-case letters and digits, a letter first"
        )
    if not title.strip() or len(title) > 60 or any(c in title for c in "\\{}%$&#^_~\n"):
        raise ValueError(
            f"{title!r}: a title is 1 to 60 characters of plain text, no LaTeX specials"
        )
    if name in rules(root):
        raise ValueError(f"{name!r} is the name of a rule of the workflow; choose another")
    targets = {t: root / p.format(name=name) for t, p in FILES.items()}
    if taken := [str(p.relative_to(root)) for p in targets.values() if p.exists()]:
        raise ValueError(f"{name!r} is taken: {', '.join(taken)} exists")
    number = next_number(root)
    tokens = {"@NAME@": name, "@NUMBER@": str(number), "@TITLE@": title.strip()}
    tokens["@SAYS@"] = gen_name(name, "says")
    for template, path in targets.items():
        text = (HERE / template).read_text()
        for token, value in tokens.items():
            text = text.replace(token, value)
        path.write_text(text)
    return list(targets.values())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("title")
    ap.add_argument("--root", type=Path, default=ROOT, help="the project (default: this one)")
    a = ap.parse_args(argv)
    try:
        written = add(a.root, a.name, a.title)
    except ValueError as e:
        sys.exit(f"error: {e}")
    for path in written:
        print(f"wrote {path.relative_to(a.root)}")
    print("next: change the timed call in the program; then `c18n-ae readme` (the README's list)")


if __name__ == "__main__":
    main()
