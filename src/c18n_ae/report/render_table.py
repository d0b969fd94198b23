"""The one renderer of experiment tables: a Table (c18n_ae.experiments.outputs) as booktabs LaTeX,
with each column's unit in its header."""

from __future__ import annotations

from c18n_ae.experiments.outputs import Table
from c18n_ae.experiments.rows import UNIT_TEX


def header(column) -> str:
    return f"{column.label} ({UNIT_TEX[column.unit]})" if column.unit else column.label


def _rows(table: Table) -> list[str]:
    lines = []
    for i, group in enumerate(table.groups):
        if i:
            lines.append(r"\midrule")
        lines += [" & ".join(row) + r" \\" for row in group]
    return lines


def booktabs(table: Table) -> str:
    lines = [
        rf"\begin{{tabular}}{{{''.join(c.align for c in table.columns)}}}",
        r"\toprule",
        " & ".join(header(c) for c in table.columns) + r" \\",
        r"\midrule",
        *_rows(table),
        r"\bottomrule",
        r"\end{tabular}",
    ]
    return "\n".join(lines) + "\n"


# font sizes from the smallest up: a table takes the largest up to its own that fits the text, and
# in the appendix none larger than the claims table's (its tables are for looking up, not reading)
SIZES = ("tiny", "scriptsize")


def appendix_table(experiment, table: Table) -> str:
    """The experiment's table as the appendix sets it (one column), through paper/main.tex's
    \\appendixtable: a long table with caption and label tab:<name>, which runs on from the text
    before it and breaks across pages with its header repeated, so that tables of any length leave
    no half-empty page; in its own font size (at most the claims table's), or the largest smaller
    one in which it fits the text's width, whatever the number of targets, variants and settings."""
    largest = SIZES.index(table.size) if table.size in SIZES else len(SIZES) - 1
    sizes = "".join(f"\\{s}" for s in SIZES[: largest + 1])
    head = " & ".join(header(c) for c in table.columns) + r" \\"
    return (
        rf"\appendixtable{{{sizes}}}{{{''.join(c.align for c in table.columns)}}}"
        + "\n"
        + rf"{{\caption{{{table.caption}}}\label{{tab:{experiment.name}}}}}"
        + "\n"
        + f"{{{head}}}\n{{\n"
        + "\n".join(_rows(table))
        + "\n}\n"
    )
