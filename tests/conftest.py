"""Shared fixtures: the project root, a compiler, fresh copies of the project, and the
quick-profile runs the slow tests share."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]  # c18n_ae itself is installed (editable) in .venv
SNAKEMAKE = [str(Path(sys.executable).parent / "snakemake")]

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


def copy_run(project: Path, dest: Path) -> Path:
    """A copy of a project after a run, Snakemake's records included: a test that changes a shared
    run (re-runs jobs, edits files) works on one, so the run stays as the other tests read it."""
    shutil.copytree(project, dest, symlinks=True, ignore=shutil.ignore_patterns("locks"))
    return dest


def snakemake(project: Path, *args: str, configs=("config/quick.yaml",), timeout=1800, env=None):
    """snakemake --cores 2 in a project, the quick profile by default (--configfile takes several
    values, so it goes last); env: variables added to this process's."""
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "2", *args, "--configfile", *configs],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


# The quick-profile runs the slow tests share. A session fixture is made once per pytest-xdist
# worker (a process), so a run more than one test file reads (quick_run) is made through made_once:
# by the first worker that asks, under a lock the others wait on; they carry the `slow` marker.
SHARED_RUNS = ("quick_run", "quick_run_everywhere")


# The files with the longest set-up, longest first: pyproject.toml's --no-loadscope-reorder keeps
# this order, so pytest-xdist starts both shared runs at once, one on each worker, and hands out
# the short files around them (by default it would start the files with most tests first, and
# test_everywhere.py's three would come last, alone). The files that copy quick_run follow.
FIRST = ("test_everywhere.py", "test_end_to_end.py", "test_template_experiments.py")


def pytest_collection_modifyitems(items):
    for item in items:
        if any(run in item.fixturenames for run in SHARED_RUNS):
            item.add_marker(pytest.mark.slow)
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))  # stable: the rest in order


def made_once(tmp_path_factory, name: str, make) -> tuple[Path, dict]:
    """(folder, what make returned): make(folder) fills a folder of this session's that every
    xdist worker sees; the first worker to ask makes it under a lock file the others wait on,
    and they reuse it (make's return value goes through JSON). A failed make fails each asker."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # workers' common base
    folder, record = root / name, root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the worker dies
        if not record.exists():
            folder.mkdir()
            try:
                record.write_text(json.dumps({"made": make(folder)}))
            except BaseException as failed:
                record.write_text(json.dumps({"failed": f"{type(failed).__name__}: {failed}"}))
                raise
    said = json.loads(record.read_text())
    if "failed" in said:
        pytest.fail(f"{name}, made by another worker, failed: {said['failed'][:4000]}")
    return folder, said["made"]


def make_quick_run(folder: Path) -> dict:
    project = copy_project(folder / "project")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(project)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "fresh clone"], check=True)
    for outputs in ("results", "paper/generated"):
        shutil.rmtree(project / outputs, ignore_errors=True)
    stale = project / "paper" / "main.pdf"
    stale.write_text("%PDF-1.5 a stale PDF from an earlier run\n")
    os.utime(stale, (1e9, 1e9))
    done = snakemake(project)
    assert done.returncode == 0, done.stderr[-4000:]
    status = subprocess.run(
        [*git, "status", "--porcelain"], capture_output=True, text=True, check=True
    ).stdout
    assert status == "", f"a workflow run left git status unclean:\n{status}"
    return {"args": done.args, "returncode": 0, "stdout": done.stdout, "stderr": done.stderr}


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory):
    """The quick profile as a user starts it: a fresh clone (a git repository) with no results/
    or paper/generated/ beside an old PDF that must not survive, run to the PDF; after it, git
    status is clean. Made once per session (made_once), whichever worker asks first. Tests read
    it; one that changes it works on a copy_run."""
    folder, done = made_once(tmp_path_factory, "quick", make_quick_run)
    return folder / "project", subprocess.CompletedProcess(**done)


BIG_E1 = 100_000  # instances of the generated E1 data set in quick_run_everywhere


@pytest.fixture(scope="session")
def quick_run_everywhere(tmp_path_factory, sshd):
    """One quick-profile run from a fresh copy to the PDF with every kind of source the plain one
    lacks, so that three slow tests share it: config/aarch64.yaml's variant (cross-compiled for
    AArch64, run under qemu-user), an SSH target on the loopback sshd (its own workdir, the same
    variant O2 as here, running at the same time as the local target), and a generated data set of
    BIG_E1 E1 instances in the study's layout. What quick_run has already covered is left out:
    the local O0 variant, and E1 past three instances (each one makes an RSA key, slow under
    qemu-user)."""
    import numpy as np
    import yaml

    project = copy_project(tmp_path_factory.mktemp("everywhere") / "project")
    remote = project.parent / "remote"
    o2 = {"name": "O2", "cc": "cc", "cflags": ["-O2"], "launcher": []}
    aarch64 = yaml.safe_load((project / "config" / "aarch64.yaml").read_text())
    for target in aarch64["targets"]:
        target["variants"] = [v for v in target["variants"] if v["name"] != "O0"]
    shipped = yaml.safe_load((project / "config" / "config.yaml").read_text())["datasets"]
    (project / "config" / "everywhere.yaml").write_text(
        yaml.safe_dump(
            {
                "targets": [*aarch64["targets"], sshd.target("loopback", remote, [o2])],
                "datasets": [*shipped, "big-e1"],
                "experiments": {"scale": {"max_instances": 3}},
            }
        )
    )
    big = project / "datasets" / "big-e1"
    big.mkdir()
    rng = np.random.default_rng(0)
    memory = 1600 + 1.4 * np.arange(1, BIG_E1 + 1) + rng.normal(0, 5, BIG_E1)
    rows = "\n".join(f"{i},{m:.3f},{i * 510.5:.3f}" for i, m in enumerate(memory, start=1))
    (big / "scale.csv").write_text(
        "Number of Processes,Memory Used (MB),Time Elapsed (ms)\n" + rows + "\n"
    )
    meta = {
        "name": "big-e1",
        "title": "a generated E1 run of 100,000 instances",
        "measured_by": "this test",
        "measured_when": "generated",
        "source": {"repository": "none", "commit": "0000000", "license": "none"},
        "host": {"model": "generated", "os": "generated", "arch": "none"},
        "reference_variant": "purecap-c18n",
        "variants": {"purecap-c18n": {"description": "d", "abi": "purecap", "c18n": True}},
        "files": [{"path": "scale.csv", "variant": "purecap-c18n", "layout": "scale"}],
    }
    (big / "dataset.yaml").write_text(yaml.safe_dump(meta))
    configs = ("config/quick.yaml", "config/aarch64.yaml", "config/everywhere.yaml")
    done = snakemake(project, configs=configs)
    assert done.returncode == 0, done.stderr[-4000:]
    return project, remote


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
