"""Booktabs tables for the paper, with units in every header."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from .fsutil import write_text_atomic
from . import exp
from .latex import escape, fmt

def setup_table(provenance: list[dict], metas: list[dict]) -> str:
    """One column per target that ran, from the description collected from each target."""
    targets = sorted({p["target"] for p in provenance})
    by_target = {p["target"]: p for p in provenance}
    timers = {}
    for m in metas:
        res = m.get("program", {}).get("timer_resolution_ns")
        if res is not None:
            timers.setdefault(m["target"], set()).add(str(res))
    rows = [
        ("Operating system", lambda p: p.get("os")),
        ("Kernel", lambda p: p.get("kernel")),
        ("Machine or board", lambda p: p.get("model") or "not reported"),
        ("Architecture", lambda p: p.get("arch")),
        ("CPU", lambda p: p.get("cpu_model")),
        ("CPU cores", lambda p: str(p.get("cpu_count"))),
        (r"Memory (\si{\gibi\byte})", lambda p: fmt(p["mem_total_bytes"] / 2**30)),
        ("Compiler", lambda p: "; ".join(p.get("compilers", {}).values())),
        (r"Timer resolution (\si{\nano\second})", lambda p: ", ".join(sorted(timers.get(p["target"], {"unknown"})))),
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
    s.add_argument("--provenance", action="append", required=True, type=Path)
    s.add_argument("meta", nargs="*", type=Path)
    a = ap.parse_args(argv)
    if a.which == "experiment":
        refs = dict(r.split("=", 1) for r in a.reference)
        write_text_atomic(a.out, exp.get(a.experiment).table(pd.read_csv(a.summary), pd.read_csv(a.tidy), refs))
    else:
        write_text_atomic(a.out, setup_table([json.loads(p.read_text()) for p in a.provenance],
                                             [json.loads(p.read_text()) for p in a.meta]))


if __name__ == "__main__":
    main()
