"""Booktabs tables for the paper, with units in every header."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from .fsutil import write_text_atomic
from .latex import escape, fmt

NS_PER = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
UNIT_TEX = {"us": r"\si{\micro\second}", "ms": r"\si{\milli\second}", "s": r"\si{\second}",
            "GB/s": r"\si{\giga\byte\per\second}"}


def _cell(summary: pd.DataFrame, target, variant, block, metric, scale=1.0, with_sd=True) -> str:
    row = summary[(summary.target == target) & (summary.variant == variant)
                  & (summary.parameter_value == block) & (summary.metric == metric)]
    if row.empty or row.iloc[0]["n"] == 0:
        return "not run" if row.empty else "failed"
    r = row.iloc[0]
    text = fmt(r["mean"] / scale)
    if with_sd and pd.notna(r["sd"]):
        text += r" $\pm$ " + fmt(r["sd"] / scale)
    return text


def memory_table(summary: pd.DataFrame) -> str:
    """Mean (and sd) per block size and variant; one table* listing every target and variant that ran."""
    cols = [("malloc_ns", "us", r"\texttt{malloc}"), ("write_ns", "ms", "write"),
            ("read_ns", "ms", "read"), ("free_ns", "ms", r"\texttt{free}")]
    head = " & ".join(
        ["Target", "Variant", r"Block (\si{\mebi\byte})"]
        + [f"{label} ({UNIT_TEX[u]})" for _, u, label in cols]
        + [f"write ({UNIT_TEX['GB/s']})", f"read ({UNIT_TEX['GB/s']})"]
    )
    lines = [r"\begin{tabular}{lllrrrrrr}", r"\toprule", head + r" \\", r"\midrule"]
    pairs = summary[["target", "variant"]].drop_duplicates().itertuples(index=False)
    for i, (target, variant) in enumerate(pairs):
        if i:
            lines.append(r"\midrule")
        blocks = sorted(summary[(summary.target == target) & (summary.variant == variant)].parameter_value.unique())
        for block in blocks:
            cells = [escape(target), escape(variant), f"{block:.0f}"]
            cells += [_cell(summary, target, variant, block, m, NS_PER[u]) for m, u, _ in cols]
            cells += [_cell(summary, target, variant, block, f"{p}_GBps", with_sd=False) for p in ("write", "read")]
            lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


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
    m = sub.add_parser("memory")
    m.add_argument("--summary", required=True, type=Path)
    m.add_argument("--out", required=True, type=Path)
    s = sub.add_parser("setup")
    s.add_argument("--out", required=True, type=Path)
    s.add_argument("meta", nargs="+", type=Path)
    a = ap.parse_args(argv)
    if a.which == "memory":
        write_text_atomic(a.out, memory_table(pd.read_csv(a.summary)))
    else:
        write_text_atomic(a.out, setup_table([json.loads(p.read_text()) for p in a.meta]))


if __name__ == "__main__":
    main()
