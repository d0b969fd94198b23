"""Where the report steps write, in one place: the rules declare these files as their outputs and
the commands write them by default, so a rule's command names the experiment, not the files, and
stays short however many experiments and data sets there are. Standard library only: the
Snakefile reads it when it loads."""

from __future__ import annotations

GENERATED = "paper/generated"


def experiment_outputs(experiment: str) -> dict[str, str]:
    """An experiment's table, figure sources and preview (c18n_ae.report.experiment_outputs)."""
    return {
        "table": f"{GENERATED}/tab-{experiment}.tex",  # its line in the appendix's list
        "html": f"results/tables/{experiment}.html",  # the full table, in the HTML report
        "pdf": f"results/plots/{experiment}.pdf",
        "png": f"results/plots/{experiment}.png",
        "pgfplots": f"{GENERATED}/fig-{experiment}.tex",
        "series": f"{GENERATED}/{experiment}-series.csv",
    }


# The claims' verdicts and what the paper says about them (c18n_ae.report.verdicts_and_findings).
VERDICTS = {
    "csv": "results/claims.csv",
    "tab_claims": f"{GENERATED}/tab-claims.tex",
    "markdown": "results/claims.md",
    "headline": "results/headline.csv",
    "tab_headline": f"{GENERATED}/tab-headline.tex",
    "tab_confounded": f"{GENERATED}/tab-headline-confounded.tex",  # written beside tab_headline
    "tab_releases": f"{GENERATED}/tab-releases.tex",
    "releases": f"{GENERATED}/releases.tex",
    "findings": f"{GENERATED}/findings.tex",
}

# The extra time of one call into another library and what the paper says of it
# (c18n_ae.analysis.per_call writes the csv, c18n_ae.report.call_cost the rest).
PER_CALL = {
    "csv": "results/per_call.csv",
    "published": "published/morello_performance_2023.csv",
    "reduction": "published/libm_argument_reduction.csv",  # a library's path for large arguments
    "table": f"{GENERATED}/tab-per-call.tex",
    "figure": f"{GENERATED}/fig-per-call.tex",
    "macros": f"{GENERATED}/per-call.tex",
}
