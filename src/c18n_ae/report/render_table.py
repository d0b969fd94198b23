"""The one renderer of experiment tables as LaTeX: a Table (c18n_ae.experiments.outputs) as
booktabs, with each column's unit in its header, and its entry in the appendix's list of full
tables (the rows are on an HTML page: c18n_ae.report.render_html)."""

from __future__ import annotations

import re

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


def appendix_entry(experiment, table: Table) -> str:
    """The experiment's line in the appendix's list of full tables, through paper/main.tex's
    \\reporttable: "Table E<n>" and its caption, labelled tab:<name> for the text's references.
    The rows are on its HTML page (report.render_html), not in the PDF: an experiment adds a line
    there, not a table's pages. The line gives the caption's first sentence: the whole caption
    heads the HTML page."""
    first = re.split(r"(?<=\.)\s+(?=[A-Z])", table.caption.strip(), maxsplit=1)[0]
    return rf"\reporttable{{{experiment.name}}}{{E{experiment.number}}}{{{first}}}" + "\n"
