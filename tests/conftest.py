"""Shared fixtures: the project root, a compiler, and fresh copies of the project."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]  # c18n_ae itself is installed (editable) in .venv

# What a fresh clone would not have: never copied into a test's project copy.
NOT_IN_A_CLONE = {
    ".venv",
    ".git",
    ".snakemake",
    "logs",
    "__pycache__",
    ".pytest_cache",
    "report.html",
}


def copy_project(dest: Path) -> Path:
    def ignore(directory, names):
        d = Path(directory)
        skip = {n for n in names if n in NOT_IN_A_CLONE}
        if d == ROOT:
            skip |= {"results"}  # outputs only: a clone has none
        if d == ROOT / "paper":
            skip |= {
                n for n in names if n == "generated" or n.startswith("main.") and n != "main.tex"
            }
        return skip

    shutil.copytree(ROOT, dest, ignore=ignore)
    return dest


@pytest.fixture
def project_copy(tmp_path) -> Path:
    return copy_project(tmp_path / "project")


@pytest.fixture(scope="session")
def sshd():
    """A real sshd on a free loopback port (artifact/install installs openssh-server and rsync)."""
    from sshd import Server

    server = Server()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def cc() -> str:
    path = shutil.which("cc")
    assert path, "a C compiler (cc) is required; artifact/install installs gcc"
    return path


def compile_benchmark(cc: str, name: str, out: Path, *flags: str) -> Path:
    """Builds a program with the project's own compile command (warnings as errors), to out."""
    from c18n_ae.experiments import commands, programs

    program = programs.get(name)
    recipe = {"name": "test", "cc": cc, "cflags": ["-O2", "-Werror", *flags]}
    build_dir = out.parent / f".build-{out.name}"
    build_dir.mkdir(parents=True, exist_ok=True)
    cmd = commands.compile_command(
        recipe, program, str(ROOT / "src" / "benchmarks"), str(build_dir)
    )
    subprocess.run(cmd, check=True)
    (build_dir / program.output).rename(out)
    return out


SNAKEMAKE = [str(Path(sys.executable).parent / "snakemake")]


def published_table(name: str):
    import pandas as pd

    return pd.read_csv(ROOT / "published" / f"{name}.csv")


def table_tex(name, summary, tidy=None, references=None, comparisons=None) -> str:
    """An experiment's table as the workflow renders it (its module's Table, the one renderer)."""
    from c18n_ae import experiments as exp
    from c18n_ae.experiments.outputs import Inputs
    from c18n_ae.experiments.rows import mark_invalid
    from c18n_ae.report.render_table import booktabs

    e = exp.get(name)
    published = {n: published_table(n) for n in e.published}
    data = Inputs(mark_invalid(summary, {}), tidy, comparisons, references or {}, published)
    return booktabs(e.table(data))


def related_pairs(name: str) -> list[dict]:
    """The published figures an experiment's module pairs with its own metrics."""
    from c18n_ae import experiments as exp

    e = exp.get(name)
    return e.related.pairs(published_table(e.published[0]))
