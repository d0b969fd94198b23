"""The claims' verdicts and everything the paper says about them, in one process: claims
(c18n_ae.analysis.claims), their tables, the headline table, the release comparison and the
generated findings, each step a command of its own too. One process instead of five: the chain
sits at the end of every run, between the last experiment and LaTeX."""

from __future__ import annotations

import argparse

from c18n_ae.analysis import claims
from c18n_ae.report import claim_tables, findings, headline, releases


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--config", nargs="+", required=True)
    ap.add_argument("--experiments", nargs="+", required=True, help="every experiment that ran")
    ap.add_argument("--headline-experiments", nargs="*", default=[])
    ap.add_argument("--summaries", nargs="*", default=[], help="E=path for the findings (E1, E6)")
    ap.add_argument("--release", action="append", default=[])
    ap.add_argument("--claims", required=True)
    ap.add_argument("--out", nargs=8, required=True, metavar="PATH", help=(
        "claims.csv tab-claims.tex claims.md headline.csv tab-headline.tex tab-releases.tex "
        "releases.tex findings.tex"))  # fmt: skip
    a = ap.parse_args(argv)
    csv, tab_claims, md, head_csv, tab_head, tab_rel, rel_tex, found = a.out
    config = ["--config", *a.config]
    claims.main([*config, "--claims", a.claims, "--experiments", *a.experiments, "--csv", csv])
    releases_args = [f"--release={r}" for r in a.release]
    claim_tables.main(["--claims", csv, "--tex", tab_claims, "--markdown", md, *releases_args])
    chosen = ["--experiments", *a.headline_experiments] if a.headline_experiments else []
    headline.main([*config, *chosen, "--claims", a.claims, "--verdicts", csv,
                   "--csv", head_csv, "--tex", tab_head])  # fmt: skip
    releases.main([*config, *chosen, "--tex", tab_rel, "--macros", rel_tex])
    summaries = [f"--summary={s}" for s in a.summaries]
    findings.main([*config, "--headline", head_csv, "--verdicts", csv, *summaries, "--out", found])


if __name__ == "__main__":
    main()
