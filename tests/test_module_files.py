"""A job's code inputs are derived from the imports of the module it runs (common.module_files),
never listed by hand: every module it imports at any depth counts, an import inside a function
too, one for type checkers only not; and every rule that runs a module of the package lists it
and what it imports (builds and runs excepted: a change to the runner must not re-measure)."""

import re
import subprocess
from pathlib import Path

import pytest

from c18n_ae.common.module_files import module_files
from conftest import SNAKEMAKE


def write(path, text=""):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_imports_at_any_depth_count_and_type_checking_ones_do_not(tmp_path):
    src = tmp_path / "src"
    pkg = src / "c18n_ae"
    write(pkg / "__init__.py")
    write(pkg / "top.py", "import json\nfrom c18n_ae.sub import middle\n")
    write(pkg / "sub" / "__init__.py")
    write(pkg / "sub" / "middle.py", "def f():\n    from .deep import g\n    return g()\n")
    write(
        pkg / "sub" / "deep.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from c18n_ae import typing_only\n"
        "import c18n_ae.leaf\ndef g():\n    return 1\n",
    )
    write(pkg / "leaf.py")
    write(pkg / "typing_only.py")
    write(pkg / "unrelated.py", "import c18n_ae.top\n")
    files = module_files("c18n_ae.top", src=src)
    assert files == sorted(
        str(pkg / f)
        for f in ("__init__.py", "top.py", "sub/__init__.py", "sub/middle.py", "sub/deep.py")
        + ("leaf.py",)
    )


def test_an_import_of_a_missing_module_is_named(tmp_path):
    src = tmp_path / "src"
    write(src / "c18n_ae" / "__init__.py")
    write(src / "c18n_ae" / "top.py", "from c18n_ae.gone import x\n")
    with pytest.raises(ModuleNotFoundError, match=r"module c18n_ae\.gone: neither"):
        module_files("c18n_ae.top", src=src)


def jobs(text):
    """(rule, wildcards, inputs, shell command) of each job a dry run prints."""
    for block in re.split(r"\n(?=(?:local)?rule \w+:)", text):
        rule = re.match(r"(?:local)?rule (\w+):", block)
        shell = re.search(r"^Shell command: (.*)$", block, re.M)
        if rule and shell:
            inputs = re.search(r"^\s+input: (.*)$", block, re.M)
            wildcards = re.search(r"^\s+wildcards: (.*)$", block, re.M)
            yield (
                rule.group(1),
                wildcards.group(1) if wildcards else "",
                set(inputs.group(1).split(", ")) if inputs else set(),
                shell.group(1),
            )


def test_every_rule_lists_the_code_it_runs(project_copy):
    done = subprocess.run(
        [*SNAKEMAKE, "-n", "-F", "-p", "--cores", "1", "--configfile", "config/quick.yaml"],
        cwd=project_copy,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = {}
    for rule, wildcards, inputs, shell in jobs(done.stdout):
        module = re.search(r"python -m (c18n_ae\.[\w.]+)", shell)
        if not module or rule.startswith(("build_", "run_", "provenance_")):
            continue
        files = module_files(module.group(1), src=project_copy / "src")
        wanted = {str(Path(f).relative_to(project_copy)) for f in files}
        assert wanted <= inputs, f"{rule} {wildcards}: not listed: {sorted(wanted - inputs)}"
        seen[(rule, wildcards)] = inputs
    assert len(seen) > 20
    # an experiment's module and what it alone imports re-make that experiment's results only
    isolation_logs = "src/c18n_ae/experiments/isolation_logs.py"
    assert isolation_logs in seen[("analyse", "experiment=isolation")]
    assert isolation_logs not in seen[("analyse", "experiment=pipe")]
    assert "src/c18n_ae/experiments/pipe.py" in seen[("macros", "")]
