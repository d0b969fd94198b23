"""What an archive deposit needs: the package's license, its citation metadata (checked against the
Citation File Format's own schema), the deposit's metadata, and badge text that claims nothing the
deposit has not yet given."""

import copy
import json
import re
import tomllib

import jsonschema
import pytest
import yaml

from conftest import ROOT

# The Citation File Format 1.2.0 schema (CC-BY-4.0, citation-file-format), as cffconvert 2.0.0
# ships it; cffconvert itself pins jsonschema < 4, which this environment cannot take.
CFF_SCHEMA = json.loads((ROOT / "tests" / "data" / "citation-cff-1.2.0.schema.json").read_text())


def cff_errors(cff: dict) -> list[str]:
    validator = jsonschema.Draft7Validator(CFF_SCHEMA, format_checker=jsonschema.FormatChecker())
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(cff)]


@pytest.fixture(scope="module")
def cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())  # its dates are quoted: strings


def test_citation_cff_is_valid(cff):
    assert cff_errors(cff) == []
    assert cff["license"] == "Apache-2.0"
    assert cff["authors"] == [{"name": "c18n-ae contributors"}]
    study = cff["references"][0]
    assert [a["family-names"] for a in study["authors"]] == ["Schuch", "Molina-Jimenez"]


def test_the_schema_check_finds_a_bad_citation(cff):
    bad = copy.deepcopy(cff)
    del bad["authors"]
    bad["license"] = "no such license"
    bad["date-released"] = "23 November"
    errors = " ".join(cff_errors(bad))
    assert "'authors' is a required property" in errors
    assert "license" in errors and "date-released" in errors


def test_deposit_metadata_agrees_with_the_citation_and_the_package(cff):
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert zenodo["title"] == cff["title"]
    assert zenodo["version"] == cff["version"] == project["version"]
    assert zenodo["license"] == cff["license"] == project["license"]["text"]
    assert [c["name"] for c in zenodo["creators"]] == [a["name"] for a in cff["authors"]]
    assert zenodo["upload_type"] == "software" and zenodo["description"]


def test_license_is_apache_2_like_the_shipped_data():
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("Apache License\n") and "Version 2.0, January 2004" in text
    for dataset in (ROOT / "datasets").iterdir():
        if (dataset / "LICENSE").exists():  # the data keep their own license: the same text here
            assert (dataset / "LICENSE").read_text() == text, dataset.name


def test_badge_text_says_what_remains_for_available():
    """Neither README nor appendix claims Artifacts Available: both name the missing deposit and
    its DOI, and the appendix prints the config's doi once set."""
    readme = (ROOT / "README.md").read_text()
    badges = readme.split("### Badges", 1)[1].split("<!--", 1)[0]
    assert not re.search(r"claims the ACM badges \*Artifacts Available\*", badges)
    assert "DOI" in badges and "`doi:`" in badges and "snakemake archive" in badges
    appendix = (ROOT / "paper" / "sections" / "appendix.tex").read_text()
    assert "applies for the ACM badges \\emph{Artifacts Available}" not in appendix
    assert "\\IfDoi{\\texttt{doi:\\ArtifactDoi}}{pending" in appendix


def test_a_doi_in_the_config_reaches_the_macros(tmp_path):
    from c18n_ae.report import macros

    config = tmp_path / "doi.yaml"
    config.write_text("doi: 10.5281/zenodo.1234567\n")
    out = tmp_path / "macros.tex"
    macros.main(
        [
            "--config",
            str(ROOT / "config" / "config.yaml"),
            str(ROOT / "config" / "quick.yaml"),
            str(config),
            "--out",
            str(out),
        ]
    )
    assert "\\newcommand{\\ArtifactDoi}{10.5281/zenodo.1234567}" in out.read_text()
