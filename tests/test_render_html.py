"""An experiment's full table as the HTML report's page (c18n_ae.report.render_html) and its line
in the PDF's appendix (render_table.appendix_entry): the same cells, markup turned into HTML."""

import pytest

from c18n_ae import experiments as exp
from c18n_ae.experiments.outputs import Column, Table
from c18n_ae.report.render_html import page, to_html
from c18n_ae.report.render_table import appendix_entry


@pytest.mark.parametrize(
    "latex, html",
    [
        (r"4.53 $\pm$ 3.46", "4.53 ± 3.46"),
        (r"1.33$\times$ [1.32, 1.33]", "1.33× [1.32, 1.33]"),
        (r"13 ticks of 7.81 \si{\milli\second}", "13 ticks of 7.81 ms"),
        (r"in \si{\giga\byte\per\second}", "in GB/s"),
        (r"\texttt{malloc} \& \emph{invalid}", "<code>malloc</code> &amp; <em>invalid</em>"),
        (r"MiB, $2^{20}$ bytes", "MiB, 2<sup>20</sup> bytes"),
        (r"1--4, 0.5\,s, \texttt{interval\_s}", "1–4, 0.5\u2009s, <code>interval_s</code>"),
        (r"95\,\% interval$^\dagger$", "95\u2009% interval<sup>†</sup>"),
        ("a < b", "a &lt; b"),
    ],
)
def test_markup_becomes_html(latex, html):
    assert to_html(latex, 10) == html


def test_a_cell_below_the_claims_minimum_of_trials_says_so_as_the_pdf_did():
    """outputs.if_enough_trials is a TeX conditional on \\ClaimMinTrials: resolved here with the
    same minimum (config/claims.yaml), both ways."""
    cell = r"\ifnum3<\ClaimMinTrials\relax 4.41\textsuperscript{f}\else 4.41\fi{}"
    assert to_html(cell, 10) == "4.41<sup>f</sup>"
    assert to_html(cell, 3) == "4.41"
    assert to_html(r"Fewer than \ClaimMinTrials{} samples", 10) == "Fewer than 10 samples"


@pytest.mark.parametrize("latex", [r"\textcolor{red}{x}", r"\si{\furlong}", r"\ref{tab:x}"])
def test_markup_it_does_not_know_stops_with_its_name(latex):
    with pytest.raises(ValueError, match="not known to render_html"):
        to_html(latex, 10)


def test_the_page_holds_every_row_and_the_pdf_a_line_naming_it():
    table = Table(
        columns=(Column("Source", align="l"), Column("write", "ms")),
        groups=[[["local", r"1.0 $\pm$ 0.1"]], [["board", "2.0"]]],
        caption=r"E2 memory: mean $\pm$ sd.",
    )
    html = page(2, "memory", table, 10)
    assert "<caption><b>Table E2.</b> E2 memory: mean ± sd.</caption>" in html
    assert "<th>Source</th><th>write (ms)</th>" in html
    assert '<tr><td>local</td><td class="r">1.0 ± 0.1</td></tr>' in html
    assert html.count('<tbody class="group">') == 2  # the rule between groups
    entry = appendix_entry(exp.get("memory"), table)
    assert entry == r"\reporttable{memory}{E2}{E2 memory: mean $\pm$ sd.}" + "\n"
    assert "1.0" not in entry  # no row in the PDF
    # a long caption: its first sentence in the PDF's line, the whole of it on the HTML page
    long = Table(columns=table.columns, groups=table.groups, caption="E2 memory: a. Invalid: b.")
    entry = appendix_entry(exp.get("memory"), long)
    assert entry == r"\reporttable{memory}{E2}{E2 memory: a.}" + "\n"
    assert "Invalid: b." in page(2, "memory", long, 10)
