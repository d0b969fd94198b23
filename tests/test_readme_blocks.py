"""The README's generated blocks are checked by the command authors run (`c18n-ae readme
--check`), and a module's misspelt hook is refused by the registry instead of being ignored."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

from c18n_ae import experiments

ROOT = Path(__file__).resolve().parents[1]
CLI = str(Path(sys.executable).parent / "c18n-ae")


def check(readme: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CLI, "readme", "--check", "--readme", str(readme)], capture_output=True, text=True
    )


def test_readme_blocks_are_up_to_date_and_the_check_notices_a_stale_list(tmp_path):
    done = check(ROOT / "README.md")
    assert done.returncode == 0, done.stderr
    stale = tmp_path / "README.md"
    text = (ROOT / "README.md").read_text()
    start = text.index("<!-- experiments:start -->")
    first_row = text.index("| E", start)
    stale.write_text(text[:first_row] + text[text.index("\n", first_row) + 1 :])
    done = check(stale)
    assert done.returncode == 1
    assert "the list of experiments differs from the registry" in done.stderr
    assert "Traceback" not in done.stderr


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
