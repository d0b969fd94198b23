"""The generated blocks of README.md and CLAIMS.md are checked by the command authors run
(`c18n-ae readme --check`), and a module's misspelt hook is refused by the registry instead of
being ignored."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

from c18n_ae import experiments

ROOT = Path(__file__).resolve().parents[1]
CLI = str(Path(sys.executable).parent / "c18n-ae")


def check(readme: Path, claims_md: Path = ROOT / "CLAIMS.md") -> subprocess.CompletedProcess:
    command = [CLI, "readme", "--check", "--readme", str(readme), "--claims-md", str(claims_md)]
    return subprocess.run(command, capture_output=True, text=True)


def without_line(path: Path, tmp_path: Path, after: str, starting: str) -> Path:
    """A copy of path without the first line starting with `starting` after the marker `after`."""
    text = path.read_text()
    first = text.index("\n" + starting, text.index(after)) + 1
    stale = tmp_path / path.name
    stale.write_text(text[:first] + text[text.index("\n", first) + 1 :])
    return stale


def test_readme_blocks_are_up_to_date_and_the_check_notices_a_stale_list(tmp_path):
    done = check(ROOT / "README.md")
    assert done.returncode == 0, done.stderr
    readme = ROOT / "README.md"
    for marker, row, says in (
        ("<!-- experiments:start -->", "| E", "the list of experiments differs from the registry"),
        (
            "<!-- verdicts:start -->",
            "| math-cost",
            "the verdicts block differs from the data sets'",
        ),
    ):
        done = check(without_line(readme, tmp_path, marker, row))
        assert done.returncode == 1 and says in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    stale = without_line(ROOT / "CLAIMS.md", tmp_path, "<!-- claims:start -->", "| alloc-10x")
    done = check(readme, stale)
    assert done.returncode == 1 and "the claims block differs" in done.stderr, done.stderr
    done = check(readme, tmp_path / "absent.md")
    assert done.returncode == 1 and "no generated block <!-- claims:start -->" in done.stderr


def test_the_map_of_the_tree_comes_before_the_claims_and_the_claims_file_is_linked():
    """A newcomer meets the quick start and the map first; every claim in full is one link away."""
    text = (ROOT / "README.md").read_text()
    order = ["## Quick start", "## Where things are", "## Results: the paper's claims"]
    assert [text.index(h) for h in order] == sorted(text.index(h) for h in order)
    assert "<!-- claims:start -->" not in text and "[CLAIMS.md](CLAIMS.md)" in text
    claims = (ROOT / "CLAIMS.md").read_text()
    assert "(README.md#results-the-papers-claims)" in claims
    # the README's pointer for a newcomer names the minimal template and its script, which exist
    adding = text.split("## Adding an experiment", 1)[1].split("\n## ", 1)[0]
    assert "`templates/experiment/`" in adding
    template = ROOT / "templates" / "experiment"
    for f in ("program.c.in", "module.py.in", "section.tex.in", "add.py"):
        assert f"`{f}`" in adding or f"templates/experiment/{f}" in adding, f
        assert (template / f).is_file(), f
    assert "time_limit(full_s, quick_s)" in adding and "means_over_calls" in adding


def _module(**functions) -> types.ModuleType:
    module = types.ModuleType("c18n_ae.experiments.newcomer")
    for name, f in functions.items():
        f.__module__ = module.__name__
        setattr(module, name, f)
    return module


def test_a_misspelt_hook_is_named_with_the_hook_it_resembles():
    def tables(inputs):
        return None

    def study_rows(path):  # a helper of another name is not a hook, and not a mistake
        return []

    wrong = experiments.misspelt_hooks(_module(tables=tables, study_rows=study_rows))
    assert wrong == ["c18n_ae.experiments.newcomer.tables: not a hook; did you mean table?"]
    assert experiments.misspelt_hooks(_module(table=tables, study_rows=study_rows)) == []


@pytest.mark.parametrize("name", experiments.names())
def test_no_experiment_module_has_a_misspelt_hook(name):
    import importlib

    module = importlib.import_module(f"c18n_ae.experiments.{name}")
    assert experiments.misspelt_hooks(module) == []


def test_readme_is_quiet_unless_asked():
    """Nothing on success but what went wrong; -v shows the line each data set's file gave."""
    done = check(ROOT / "README.md")
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stderr[-2000:]
    command = [CLI, "readme", "-v", "--check", "--claims-md", str(ROOT / "CLAIMS.md")]
    loud = subprocess.run(command, capture_output=True, text=True)
    assert loud.returncode == 0 and "data set morello-2024, variant hybrid:" in loud.stderr


def test_e_numbers_with_a_gap_or_a_repeat_are_refused_naming_the_module():
    """E1 to E12 with no E11 is no paper order: the registry says which module to renumber."""
    import dataclasses

    declared = [(f"c18n_ae.experiments.{e.name}", e) for e in experiments.registry().values()]
    assert experiments.numbering(declared) == ""
    last = declared[-1][1]
    gap = dataclasses.replace(last, name="newcomer", number=last.number + 2)
    said = experiments.numbering([*declared, ("c18n_ae.experiments.newcomer", gap)])
    assert said == (
        f"c18n_ae.experiments.newcomer declares E{last.number + 2} but no experiment declares "
        f"E{last.number + 1}: E-numbers run from 1 to {len(declared) + 1} without gaps "
        f"(renumber it E{last.number + 1})"
    )
    repeat = dataclasses.replace(last, name="newcomer")
    said = experiments.numbering([*declared, ("c18n_ae.experiments.newcomer", repeat)])
    assert said.startswith(f"E{last.number} is declared twice: by c18n_ae.experiments.")
    assert said.endswith(
        "and by c18n_ae.experiments.newcomer (E10)".replace("10", str(last.number))
    )
