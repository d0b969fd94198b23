"""The house: an installed package with a console command, no path tricks, formatters and
linters."""

import re
import subprocess

from conftest import ROOT


def test_console_command_and_installed_package():
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "c18n-ae"), "abi", "/bin/sh"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == "/bin/sh: native\n"
    usage = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "c18n-ae")], capture_output=True, text=True
    )
    assert usage.returncode == 2 and "c18n-ae timings" in usage.stderr


def test_no_module_edits_sys_path_and_no_rule_sets_pythonpath():
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "bench").glob("*.py")]:
        assert "sys.path" not in path.read_text(), path
    for path in [ROOT / "Snakefile", *(ROOT / "workflow" / "rules").glob("*.smk")]:
        text = path.read_text()
        assert "PYTHONPATH" not in text and "sys.path" not in text, path


def run(*cmd):
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, capture_output=True, text=True)


def test_python_is_formatted_and_linted_by_ruff():
    ruff = ROOT / ".venv" / "bin" / "ruff"  # configured in pyproject.toml: line length 100
    fmt = run(ruff, "format", "--check", "src", "tests", "bench")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
    lint = run(ruff, "check", "src", "tests", "bench")
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_c_is_formatted_by_clang_format():
    sources = sorted((ROOT / "src" / "benchmarks").glob("*.[ch]"))
    done = run("clang-format", "--dry-run", "-Werror", *sources)
    assert done.returncode == 0, done.stderr[-3000:]


def test_snakemake_lint_asks_for_nothing_but_software_environments():
    done = run(ROOT / ".venv" / "bin" / "snakemake", "--lint")
    items = re.findall(r"^\s+\* (.*)$", done.stdout + done.stderr, re.M)
    assert items, "snakemake --lint printed no lint at all: did it run?"
    assert {i.strip() for i in items} == {
        "Specify a conda environment or container for each rule.:"
    }
