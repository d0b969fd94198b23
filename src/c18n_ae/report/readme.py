"""The generated blocks of README.md and CLAIMS.md: the list of experiments (from the registry),
and the paper's claims evaluated on the shipped data sets, which give the same verdicts on every
machine: in full in CLAIMS.md, at a glance in the README. A workflow run never writes either (its
own verdicts go to results/claims.md); the authors refresh the blocks with `c18n-ae readme`, and
a test fails when one is out of date (`c18n-ae readme --check`)."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

import pandas as pd

from c18n_ae import PROJECT_ROOT
from c18n_ae import experiments as exp
from c18n_ae.analysis import contrasts
from c18n_ae.analysis.claims import evaluate, load
from c18n_ae.analysis.collect import collect
from c18n_ae.analysis.comparisons import compare
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.common import datasets
from c18n_ae.report.claim_tables import (
    OVERVIEW_END,
    OVERVIEW_START,
    README_END,
    README_START,
    markdown_table,
    overview_table,
    update_readme,
)

README = PROJECT_ROOT / "README.md"
CLAIMS_MD = PROJECT_ROOT / "CLAIMS.md"  # every claim's verdicts in full, linked from the README
CLAIMS = PROJECT_ROOT / "config" / "claims.yaml"


def dataset_claims(names: list[str], claims_path: Path = CLAIMS) -> pd.DataFrame:
    """Collect, summarise, compare and evaluate in-process, as the workflow does, for data sets
    only."""
    metas = [datasets.load(n) for n in names]
    files: dict[str, list[Path]] = {}
    for meta in metas:
        for experiment, _, path in dataset_files(meta):
            files.setdefault(experiment, []).append(path)
    summaries, comparisons, tidies = {}, {}, {}
    known = {m["name"]: contrasts.dataset_variants(m) for m in metas}
    for experiment, paths in files.items():
        tidy = collect(experiment, [], paths)
        tidies[experiment] = tidy
        summaries[experiment] = summary_table(tidy)
        compared = compare(tidy, {m["name"]: m["reference_variant"] for m in metas})
        comparisons[experiment] = contrasts.annotate(compared, known)
    targets = {
        m["name"]: {v: bool(s.get("c18n", False)) for v, s in m["variants"].items()} for m in metas
    }
    invalid = datasets.invalid_metrics(metas)
    releases = {m["name"]: m.get("release", "") for m in metas}
    study_data = {m["name"] for m in metas if m.get("study_data")}
    results = evaluate(
        load(claims_path), summaries, targets, comparisons, tidies, invalid, releases, study_data
    )
    absent = results.detail.str.startswith("experiment ") & results.detail.str.endswith(
        " did not run"
    )
    results.loc[absent, "detail"] = (
        "the data set has no " + results.loc[absent, "experiment"] + " measurements"
    )
    return results


def shipped() -> list[str]:
    """The data sets config/config.yaml includes, in its order."""
    from c18n_ae.common import schemas

    return schemas.read_yaml(PROJECT_ROOT / "config" / "config.yaml")["datasets"]


EXPERIMENTS_START, EXPERIMENTS_END = "<!-- experiments:start -->", "<!-- experiments:end -->"


def block(path: Path = CLAIMS_MD, start=README_START, end=README_END) -> str:
    """A generated block of a Markdown file (by default, CLAIMS.md's claims)."""
    text = path.read_text()
    return text.split(start, 1)[1].split(end, 1)[0].lstrip("\n")


def _value(v) -> str:
    if isinstance(v, list):
        return ", ".join(map(str, v)) if len(v) <= 4 else f"{v[0]}, {v[1]}, ..., {v[-1]}"
    return str(v)


def _profile(e, profile: str) -> str:
    """The parameters of one profile, as the module declares them (the run's time limit apart)."""
    return "; ".join(
        f"{p.name} {_value(p.value(profile))}" for p in e.params if p.name != "timeout_s"
    )


def experiments_table() -> str:
    """One row per experiment of the registry: id, name, what it measures, its programs and
    driver, and both profiles' parameters."""
    lines = [
        "| id | name | what it measures | programs | full profile (the paper's parameters) "
        "| quick profile |",
        "|---|---|---|---|---|---|",
    ]
    for e in exp.registry().values():
        sources = [s for prog in e.programs for s in prog.sources]
        programs = " + ".join(f"`{s}`" for s in sources)
        if e.driver:
            programs += f" + `{e.driver.rsplit('.', 2)[-2]}/{e.driver.rsplit('.', 1)[-1]}.py`"
        lines.append(
            f"| E{e.number} | `{e.name}` | {e.measures} | {programs} | {_profile(e, 'full')} "
            f"| {_profile(e, 'quick')} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--dataset",
        action="append",
        default=None,
        help="data set name (default: those config/config.yaml lists)",
    )
    ap.add_argument(
        "--check", action="store_true", help="exit 1 when a generated block is out of date"
    )
    ap.add_argument("--readme", type=Path, default=README, help="the README to check or refresh")
    ap.add_argument("--claims-md", type=Path, default=CLAIMS_MD, help="the claims file, likewise")
    ap.add_argument(
        "-v", "--verbose", action="store_true", help="show what each data set's file read gave"
    )
    a = ap.parse_args(argv)
    names = a.dataset or shipped()
    # the collect stage's line per file read belongs in a run's log, not here unless asked
    with contextlib.nullcontext() if a.verbose else contextlib.redirect_stderr(io.StringIO()):
        results = dataset_claims(names)
    blocks = [  # (file, markers, its text, what it is when it differs)
        (a.claims_md, README_START, README_END, markdown_table(results, names),
         "the claims block differs from the data sets' verdicts"),
        (a.readme, OVERVIEW_START, OVERVIEW_END, overview_table(results),
         "the verdicts block differs from the data sets' verdicts"),
        (a.readme, EXPERIMENTS_START, EXPERIMENTS_END, experiments_table(),
         "the list of experiments differs from the registry"),
    ]  # fmt: skip
    for path, start, end, text, differs in blocks:
        if start not in (path.read_text() if path.is_file() else ""):
            sys.exit(f"{path}: no generated block {start} ... {end}")
        if a.check and block(path, start, end) != text:
            sys.exit(f"{path}: {differs}; run c18n-ae readme")
        if not a.check:
            update_readme(path, text, start, end)


if __name__ == "__main__":
    main()
