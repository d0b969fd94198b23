"""The one renderer of experiment tables: a Table (c18n_ae.experiments.outputs) as booktabs LaTeX,
with each column's unit in its header."""

from __future__ import annotations

from c18n_ae.experiments.outputs import Table
from c18n_ae.experiments.rows import UNIT_TEX


def header(column) -> str:
    return f"{column.label} ({UNIT_TEX[column.unit]})" if column.unit else column.label


def booktabs(table: Table) -> str:
    lines = [
        rf"\begin{{tabular}}{{{''.join(c.align for c in table.columns)}}}",
        r"\toprule",
        " & ".join(header(c) for c in table.columns) + r" \\",
        r"\midrule",
    ]
    for i, group in enumerate(table.groups):
        if i:
            lines.append(r"\midrule")
        lines += [" & ".join(row) + r" \\" for row in group]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def appendix_table(experiment, table: Table) -> str:
    """The experiment's table as the appendix sets it: caption, label tab:<name>, font size;
    scaled down where it would be wider than the text or taller than the page, so that nothing
    is cut off whatever the number of targets, variants and settings."""
    return (
        "\\begin{table*}[!tp]\n"
        f"  \\caption{{{table.caption}}}\n"
        f"  \\label{{tab:{experiment.name}}}\n"
        f"  \\{table.size}\n"
        "  \\begin{adjustbox}{max width=\\textwidth, max totalheight=0.85\\textheight}\n"
        + booktabs(table)
        + "\\end{adjustbox}\n\\end{table*}\n"
    )
