"""A newcomer's experiments from templates/experiment/: three added with its script (E11, E12 and
E13 under distinct names) to a clone after its first quick-profile run (a copy of conftest's
quick_run), run on the quick profile to the PDF with every other experiment, in one Snakemake run
that this file's tests share (the new experiments measured, the others' runs kept). Each new
experiment's table, claim and section reach the paper, none touching another experiment's text, and
the body still ends by page 10 (issue 31: the body must not grow with experiments)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from conftest import copy_run, snakemake
from test_end_to_end import pages

ADDED = {  # name -> title, in the order they are added (E11, E12, E13)
    "clockread": "Clock reads",
    "timecall": "Timed calls",
    "nowcall": "Calls for the time",
}
CLI = str(Path(sys.executable).parent / "c18n-ae")


def run(project: Path, *command: str) -> subprocess.CompletedProcess:
    """A command in the project, its own package first (the .venv's is the checkout's)."""
    env = {**os.environ, "PYTHONPATH": str(project / "src")}
    return subprocess.run(command, cwd=project, capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def grown(tmp_path_factory, quick_run):
    """(project, the run): a clone after a quick-profile run with the three experiments added and
    committed (the README's generated blocks refreshed as the README says), then the quick
    profile again."""
    project = copy_run(quick_run[0], tmp_path_factory.mktemp("template") / "project")
    for name, title in ADDED.items():
        done = run(project, sys.executable, "templates/experiment/add.py", name, title)
        assert done.returncode == 0, done.stderr
    done = run(project, CLI, "readme")
    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(project)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "three experiments from the template"], check=True)
    done = snakemake(project, env={"PYTHONPATH": str(project / "src")})
    assert done.returncode == 0, done.stderr[-4000:]
    status = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == "", status.stdout
    return project, done


@pytest.mark.slow
def test_the_script_numbers_them_on_and_refuses_a_taken_name(grown):
    project, _ = grown
    for number, name in enumerate(ADDED, 11):
        module = (project / "src" / "c18n_ae" / "experiments" / f"{name}.py").read_text()
        assert f"    number={number},\n" in module and f'title="E{number} {ADDED[name]}"' in module
    done = run(project, sys.executable, "templates/experiment/add.py", "clockread", "Again")
    assert done.returncode == 1 and "'clockread' is taken" in done.stderr
    done = run(project, sys.executable, "templates/experiment/add.py", "Bad-Name", "Title")
    assert done.returncode == 1 and "lower-case letters and digits" in done.stderr
    assert not (project / "src" / "benchmarks" / "Bad-Name.c").exists()


@pytest.mark.slow
def test_each_new_experiment_reaches_the_paper_with_its_table_and_claim(grown):
    project, _ = grown
    text = " ".join(
        subprocess.run(
            ["pdftotext", str(project / "paper" / "main.pdf"), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    )
    squeezed = "".join(text.split())
    claims = pd.read_csv(project / "results" / "claims.csv")
    for number, (name, title) in enumerate(ADDED.items(), 11):
        # its table on its page of the HTML report, listed by its caption in the PDF's appendix
        entry = (project / "paper" / "generated" / f"tab-{name}.tex").read_text()
        assert entry.startswith(f"\\reporttable{{{name}}}{{E{number}}}"), name
        table = (project / "results" / "tables" / f"{name}.html").read_text()
        assert "<tr><td>local</td><td>O2</td>" in table, name
        assert f"E{number} {title}: mean time of one call" in text, name  # the table's caption
        assert f"{title} (E{number})" in text, name  # the section's heading
        mine = claims[(claims.claim == f"{name}-under-ten-us") & (claims.source == "local")]
        assert list(mine.result) == ["holds"], (name, mine.to_dict("records"))
        assert f"{name}-under-ten-us" in squeezed, name
        summary = pd.read_csv(project / "results" / "summary" / f"{name}.csv")
        # a mean over many calls: no warning that its grid is finer than the clock's
        assert summary.resolution_note.isna().all(), (name, set(summary.resolution_note))
        log = (project / "logs" / "analyse" / f"{name}.log").read_text()
        assert "grid finer" not in log, log
    assert text.count("one call took") >= len(ADDED)


@pytest.mark.slow
def test_body_fits_ten_pages_with_three_more_experiments(grown):
    """As tests/test_end_to_end.py's test_body_fits_ten_pages, with three more experiments."""
    project, _ = grown
    for page in range(1, 16):
        if "REFERENCES" in pages(project, page, page):
            break
    assert page <= 10, f"the references start on page {page}"


@pytest.mark.parametrize(
    "name, title, said",
    [
        ("paper", "A title", "'paper' is the name of a rule of the workflow"),
        ("crossing", "A title", "'crossing' is taken: src/benchmarks/crossing.c"),
        ("integration", "A title", "src/benchmarks/integration.c"),  # a program, not a module
        ("two_words", "A title", "1 to 24 lower-case letters and digits"),
        ("fine", "50% \\emph{more}", "a title is 1 to 60 characters of plain text"),
    ],
)
def test_the_script_refuses_a_name_or_title_it_cannot_use(project_copy, name, title, said):
    """Refused with a message, and nothing written."""
    before = sorted(p for p in project_copy.rglob("*") if p.is_file())
    done = run(project_copy, sys.executable, "templates/experiment/add.py", name, title)
    assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr
    assert sorted(p for p in project_copy.rglob("*") if p.is_file()) == before
