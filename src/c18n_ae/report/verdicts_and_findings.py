"""The claims' verdicts and everything the paper says about them, in one process: claims
(c18n_ae.analysis.claims), their tables, the headline table, the release comparison and the
generated findings, each step a command of its own too. One process instead of five: the chain
sits at the end of every run, between the last experiment and LaTeX. What it reads and writes
follows from the config and the registry (the experiments enabled, the data sets, report.files),
so that the rule's command stays short whatever their number; each may also be given."""

from __future__ import annotations

import argparse
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.analysis import claims
from c18n_ae.common import config as cfg
from c18n_ae.report import claim_tables, files, findings, headline, releases


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--config", nargs="+", required=True)
    ap.add_argument("--experiments", nargs="+", help="default: the config's enabled experiments")
    ap.add_argument("--headline-experiments", nargs="*", help="default: those with a headline")
    ap.add_argument("--summaries", nargs="*", help="E=path for the findings (default: E's summary)")
    ap.add_argument("--release", action="append", help="default: the config's data sets")
    ap.add_argument("--claims", required=True)
    ap.add_argument("--out", nargs=9, default=list(files.VERDICTS.values()), metavar="PATH", help=(
        "claims.csv tab-claims.tex claims.md headline.csv tab-headline.tex "
        "tab-headline-confounded.tex tab-releases.tex releases.tex findings.tex"))  # fmt: skip
    a = ap.parse_args(argv)
    loaded = exp.load_config(*map(Path, a.config))
    if a.experiments is None:
        a.experiments = cfg.enabled_experiments(loaded)
    if a.headline_experiments is None:
        a.headline_experiments = [e for e in a.experiments if exp.get(e).headline]
    if a.summaries is None:
        a.summaries = [f"{e}=results/summary/{e}.csv" for e in a.experiments if exp.get(e).findings]
    if a.release is None:
        a.release = list(loaded.get("datasets", []))
    csv, tab_claims, md, head_csv, tab_head, tab_mixed, tab_rel, rel_tex, found = a.out
    config = ["--config", *a.config]
    claims.main([*config, "--claims", a.claims, "--experiments", *a.experiments, "--csv", csv])
    releases_args = [f"--release={r}" for r in a.release]
    claim_tables.main(
        [
            "--claims",
            csv,
            "--tex",
            tab_claims,
            "--markdown",
            md,
            *releases_args,
            *config,
            "--claim-file",
            a.claims,
        ]  # fmt: skip
    )
    chosen = ["--experiments", *a.headline_experiments] if a.headline_experiments else []
    headline.main([*config, *chosen, "--claims", a.claims, "--verdicts", csv,
                   "--csv", head_csv, "--tex", tab_head, "--confounded", tab_mixed])  # fmt: skip
    releases.main([*config, *chosen, "--tex", tab_rel, "--macros", rel_tex, "--headline", head_csv])
    summaries = [f"--summary={s}" for s in a.summaries]
    findings.main([*config, "--headline", head_csv, "--verdicts", csv, *summaries,
                   "--out", found])  # fmt: skip


if __name__ == "__main__":
    main()
