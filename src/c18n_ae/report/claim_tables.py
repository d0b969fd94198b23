"""The claims' verdicts (results/claims.csv) as the paper's appendix table, the run's Markdown
table (results/claims.md) and the README's block."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import escape

README_START, README_END = "<!-- claims:start -->", "<!-- claims:end -->"


def result_text(r) -> str:
    """The verdict, and the other statistic's when it differs ('inconclusive; median: fails')."""
    text = r.result
    if not agrees(r.statistics_agree):
        other = other_statistic(r.statistic)
        text += f"; {other}: {getattr(r, f'{other}_result')}"
    return text


def agrees(value) -> bool:
    """A claims.csv statistics_agree cell (a bool, or its text once read back) as a bool."""
    return str(value).lower() not in ("false", "0")


def other_statistic(statistic: str) -> str:
    return "median" if statistic == "mean" else "mean"


def _measured(r) -> str:
    has = isinstance(r.measured, str) and r.measured
    return r.detail if not has else f"{r.measured} ({r.detail})"


def release_disagreements(results: pd.DataFrame, sources: list[str]) -> list[tuple[str, str]]:
    """(claim, 'holds on a and fails on b') for each claim decided differently on two data sets
    (releases); verdicts 'not applicable' do not count."""
    out = []
    mine = results[results.source.isin(sources) & (results.result != "not applicable")]
    for claim, g in mine.groupby("claim", sort=False):
        if g.result.nunique() > 1:
            out.append((claim, " and ".join(f"{r.result} on {r.source}" for r in g.itertuples())))
    return out


def latex_table(results: pd.DataFrame) -> str:
    rag = r">{\raggedright\arraybackslash}"
    lines = [
        rf"\begin{{tabular}}{{{rag}p{{0.27\textwidth}}{rag}p{{0.07\textwidth}}l"
        rf"{rag}p{{0.09\textwidth}}{rag}p{{0.3\textwidth}}{rag}p{{0.12\textwidth}}}}",
        r"\toprule",
        r"Claim & Target & Statistic & Result & Measured here & Published \\",
        r"\midrule",
    ]
    for r in results.itertuples(index=False):
        # long metric names may break after an underscore
        measured = escape(_measured(r)).replace(r"\_", r"\_\allowbreak{}")
        lines.append(
            " & ".join(
                [
                    f"\\textbf{{{escape(r.claim)}}}: {escape(r.text)}",
                    escape(r.source),
                    escape(r.statistic),
                    escape(result_text(r)),
                    measured,
                    escape(r.published),
                ]
            )
            + r" \\"
        )
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def markdown_table(results: pd.DataFrame, releases: list[str] = ()) -> str:
    """The README's results table; the evidence column maps each claim to its outputs. releases:
    the data sets whose verdicts are set side by side below the table."""
    lines = [
        "| claim | target | statistic | result | measured here | published | evidence |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results.itertuples(index=False):
        evidence = (
            f"`snakemake {r.experiment}`: `results/summary/{r.experiment}.csv`, "
            f"`results/comparisons/{r.experiment}.csv`, `paper/generated/tab-{r.experiment}.tex`"
        )
        lines.append(
            f"| {r.claim}: {r.text} | {r.source} | {r.statistic} | **{result_text(r)}** | "
            f"{_measured(r)} | {r.published} | {evidence} |"
        )
    differ = release_disagreements(results, list(releases))
    if differ:
        lines += ["", "Claims decided differently on the data sets (releases):", ""]
        lines += [f"- {claim}: {text}." for claim, text in differ]
    return "\n".join(lines) + "\n"


def update_readme(readme: Path, table: str, start=README_START, end=README_END) -> None:
    """Replaces the README's text between two markers (a generated block)."""
    text = readme.read_text()
    if start not in text or end not in text:
        raise ValueError(f"{readme}: markers {start} and {end} not found")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    write_text_atomic(readme, f"{head}{start}\n{table}{end}{tail}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claims", required=True, type=Path, help="results/claims.csv")
    ap.add_argument("--tex", required=True, type=Path)
    ap.add_argument("--markdown", required=True, type=Path)
    ap.add_argument("--release", action="append", default=[], help="a data set (release)")
    a = ap.parse_args(argv)
    results = pd.read_csv(a.claims, keep_default_na=False, na_values=[""])
    results["measured"] = results["measured"].fillna("")
    write_text_atomic(a.tex, latex_table(results))
    write_text_atomic(a.markdown, markdown_table(results, a.release))


if __name__ == "__main__":
    main()
