"""Booktabs tables for the paper, with units in every header."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from .fsutil import write_text_atomic
from . import exp
from .latex import escape, fmt

def setup_table(metas: list[dict]) -> str:
    """One column per target, built from the host description each run recorded."""
    by_target: dict[str, dict] = {}
    for m in metas:
        by_target.setdefault(m["target"], m)
    targets = sorted(by_target)
    rows = [
        ("Operating system", lambda m: m["host"]["os"]),
        ("Kernel", lambda m: m["host"]["kernel"]),
        ("Architecture", lambda m: m["host"]["arch"]),
        ("CPU", lambda m: m["host"]["cpu_model"]),
        ("CPU cores", lambda m: str(m["host"]["cpu_count"])),
        (r"Memory (\si{\gibi\byte})", lambda m: fmt(m["host"]["mem_total_bytes"] / 2**30)),
        ("Compiler", lambda m: m["compiler_version"]),
        (r"Timer resolution (\si{\nano\second})", lambda m: str(m["program"].get("timer_resolution_ns", "unknown"))),
    ]
    spec = "l" + "p{0.55\\columnwidth}" * len(targets)
    lines = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(["Property"] + [escape(t) for t in targets]) + r" \\", r"\midrule"]
    for label, get in rows:
        vals = []
        for t in targets:
            try:
                vals.append(escape(get(by_target[t])))
            except (KeyError, TypeError):
                vals.append("unknown")
        lines.append(" & ".join([label] + vals) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="which", required=True)
    m = sub.add_parser("experiment")
    m.add_argument("--experiment", required=True)
    m.add_argument("--summary", required=True, type=Path)
    m.add_argument("--tidy", required=True, type=Path)
    m.add_argument("--reference", action="append", default=[], help="TARGET=VARIANT")
    m.add_argument("--out", required=True, type=Path)
    s = sub.add_parser("setup")
    s.add_argument("--out", required=True, type=Path)
    s.add_argument("meta", nargs="+", type=Path)
    a = ap.parse_args(argv)
    if a.which == "experiment":
        refs = dict(r.split("=", 1) for r in a.reference)
        write_text_atomic(a.out, exp.get(a.experiment).table(pd.read_csv(a.summary), pd.read_csv(a.tidy), refs))
    else:
        write_text_atomic(a.out, setup_table([json.loads(p.read_text()) for p in a.meta]))


if __name__ == "__main__":
    main()
