"""An experiment's full table (c18n_ae.experiments.outputs.Table) as an HTML page for the HTML
report (`snakemake --report`): the PDF lists each table with its caption and points here, so
that the paper does not grow by a table's pages with each experiment. The cells are the same
LaTeX the booktabs renderer sets; the little markup they use is turned into HTML here, and
anything else stops the rule with the text it could not read."""

from __future__ import annotations

import html
import re

from c18n_ae.experiments.outputs import Table
from c18n_ae.experiments.rows import UNIT_TEX

# \ifnum<n><\ClaimMinTrials\relax <few>\else <enough>\fi{} (outputs.if_enough_trials)
_ENOUGH = re.compile(r"\\ifnum(\d+)<\\ClaimMinTrials\\relax (.*?)\\else (.*?)\\fi\{\}", re.S)
_UNIT_WORDS = {
    "nano": "n",
    "micro": "µ",
    "milli": "m",
    "giga": "G",
    "mega": "M",
    "kilo": "k",
    "mebi": "Mi",
    "kibi": "Ki",
    "byte": "B",
    "second": "s",
    "percent": "%",
}
_SYMBOLS = {
    r"\langle": "⟨",  # the timer's range (latex.ratio_text)
    r"\rangle": "⟩",
    r"\rightarrow": "→",  # a few ticks: second, then first
    r"\infty": "∞",
    r"\pm": "±",
    r"\times": "×",
    r"\dagger": "†",
    r"\ddagger": "‡",
    r"\S": "§",
    r"\textbackslash{}": "&#92;",
    r"\textasciitilde{}": "~",
    r"\textasciicircum{}": "^",
    r"\%": "%",
    r"\_": "_",
    r"\&amp;": "&amp;",
    r"\#": "#",
    r"\$": "$",
    r"\{": "&#123;",
    r"\}": "&#125;",
    r"\,": "\u2009",
    "---": "—",
    "--": "–",
    "~": "\u00a0",
}
_WRAP = {"texttt": "code", "emph": "em", "textit": "em", "textbf": "b", "textsuperscript": "sup"}
_ARGUMENT = r"\{([^{}]*)\}"
_SUPERSCRIPT = r"\^\{([^{}]*)\}|\^(\\[A-Za-z]+|\w)"  # ^{20}, ^\dagger, ^2


def _unit(words: str) -> str:
    r"""\si's argument ('\micro\second', '\giga\byte\per\second') in plain units."""
    out = ""
    for word in re.findall(r"\\(\w+)", words):
        if word == "per":
            out += "/"
        elif word in _UNIT_WORDS:
            out += _UNIT_WORDS[word]
        else:
            raise ValueError(f"unit \\{word} in \\si{{{words}}}: not known to render_html")
    return out


def to_html(text: str, min_trials: int) -> str:
    """One cell or caption of LaTeX as HTML; a command this function does not know is an error
    naming it, never a backslash on the page."""
    text = _ENOUGH.sub(lambda m: m[2] if int(m[1]) < min_trials else m[3], text)
    text = html.escape(text.replace(r"\ClaimMinTrials{}", str(min_trials)), quote=False)
    text = text.replace(r"\ClaimMinTrials", str(min_trials))
    text = re.sub(r"\\si" + _ARGUMENT, lambda m: _unit(m[1]), text)
    text = re.sub(_SUPERSCRIPT, lambda m: f"<sup>{m[1] or m[2]}</sup>", text)
    for command, tag in _WRAP.items():
        text = re.sub(rf"\\{command}" + _ARGUMENT, rf"<{tag}>\1</{tag}>", text)
    for latex, plain in _SYMBOLS.items():
        text = text.replace(latex, plain)
    text = text.replace("$", "").replace("{}", "").replace("{", "").replace("}", "")
    left = re.search(r"\\\W?\w*", text)
    if left:
        raise ValueError(f"LaTeX {left[0]!r} in {text!r}: not known to render_html")
    return text


def _header(column, min_trials: int) -> str:
    label = to_html(column.label, min_trials)
    unit = to_html(UNIT_TEX[column.unit], min_trials) if column.unit else ""
    return f"{label} ({unit})" if unit else label


STYLE = (
    "body{font-family:sans-serif;font-size:13px}"
    "table{border-collapse:collapse}th,td{padding:2px 8px;text-align:left}"
    "thead th{border-bottom:1px solid #000}tbody.group{border-top:1px solid #888}"
    "td.r{text-align:right}"
)


def page(number: int, name: str, table: Table, min_trials: int) -> str:
    """The table with its caption, one <tbody> per group of rows (the booktabs rule between
    groups), right-aligned where the PDF's column is."""
    aligns = ["r" if c.align == "r" else "" for c in table.columns]
    head = "".join(f"<th>{_header(c, min_trials)}</th>" for c in table.columns)
    groups = []
    for group in table.groups:
        rows = [
            "<tr>"
            + "".join(
                f'<td class="{a}">{to_html(cell, min_trials)}</td>'
                if a
                else f"<td>{to_html(cell, min_trials)}</td>"
                for a, cell in zip(aligns, row)
            )
            + "</tr>"
            for row in group
        ]
        groups.append('<tbody class="group">' + "\n".join(rows) + "</tbody>")
    caption = to_html(table.caption, min_trials)
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Table E{number} ({name})</title><style>{STYLE}</style></head><body>\n"
        f"<table><caption><b>Table E{number}.</b> {caption}</caption>\n"
        f"<thead><tr>{head}</tr></thead>\n" + "\n".join(groups) + "\n</table>\n</body></html>\n"
    )
