"""A newcomer's experiments from templates/experiment/: three added with its script (E11, E12 and
E13 under distinct names) to a clone after its first quick-profile run (a copy of conftest's
quick_run), run on the quick profile to the PDF with every other experiment, in one Snakemake run
that this file's tests share (the new experiments measured, the others' runs kept). Each new
experiment's table, claim and section reach the paper, none touching another experiment's text, and
the body still ends by page 10 (issue 31: the body must not grow with experiments).

The same clone has any number of data sets: beside the two shipped ones, three unchanged copies of
morello-2024 under other names, added as a user adds one after a first run, reach the PDF in that
run, and the generated prose stays within its length rule however many data sets it compares (a
sentence naming several data sets at most MAX_WORDS words). One run serves both: each is a full
re-analysis to the PDF."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from c18n_ae.report.findings import MAX_WORDS
from conftest import copy_run, snakemake
from test_end_to_end import pages

ADDED = {  # name -> title, in the order they are added (E11, E12, E13)
    "clockread": "Clock reads",
    "timecall": "Timed calls",
    "nowcall": "Calls for the time",
}
CLI = str(Path(sys.executable).parent / "c18n-ae")
COPIES = ["board-a", "board-b", "board-c"]  # of morello-2024, as data sets of their own
SHIPPED = ["morello-2024", "cheribsd-22.12"]
CONFIGS = ("config/quick.yaml", "config/more-datasets.yaml")


def run(project: Path, *command: str) -> subprocess.CompletedProcess:
    """A command in the project, its own package first (the .venv's is the checkout's)."""
    env = {**os.environ, "PYTHONPATH": str(project / "src")}
    return subprocess.run(command, cwd=project, capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def grown(tmp_path_factory, quick_run):
    """(project, the run, the PDF's mtime before it): a clone after a quick-profile run with the
    three experiments added (the README's generated blocks refreshed as the README says) and the
    three copies of morello-2024 with a config naming them, committed, then the quick profile
    again with that config."""
    project = copy_run(quick_run[0], tmp_path_factory.mktemp("template") / "project")
    pdf = (project / "paper" / "main.pdf").stat().st_mtime
    for name, title in ADDED.items():
        done = run(project, sys.executable, "templates/experiment/add.py", name, title)
        assert done.returncode == 0, done.stderr
    done = run(project, CLI, "readme")
    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    for name in COPIES:
        shutil.copytree(project / "datasets" / "morello-2024", project / "datasets" / name)
        meta = project / "datasets" / name / "dataset.yaml"
        meta.write_text(meta.read_text().replace("name: morello-2024", f"name: {name}", 1))
    (project / CONFIGS[1]).write_text(f"datasets: [{', '.join(SHIPPED + COPIES)}]\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(project)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "three experiments and data sets"], check=True)
    done = snakemake(project, configs=CONFIGS, env={"PYTHONPATH": str(project / "src")})
    assert done.returncode == 0, done.stderr[-4000:]
    status = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == "", status.stdout
    return project, done, pdf


@pytest.mark.slow
def test_the_script_numbers_them_on_and_refuses_a_taken_name(grown):
    project, *_ = grown
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
    project, *_ = grown
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
    project, *_ = grown
    for page in range(1, 16):
        if "REFERENCES" in pages(project, page, page):
            break
    assert page <= 10, f"the references start on page {page}"


def sentences(tex: str) -> dict[str, list[str]]:
    """Each generated macro's sentences (a macro file: \\newcommand{\\Name}{text})."""
    tex = re.sub(r"(?m)^%.*$", "", tex)
    parts = re.split(r"\\newcommand\{\\(\w+)\}\{", tex)
    return {
        name: [s for s in re.split(r"(?<=[.?!])\s+(?=[A-Z\\$(])", body.strip()[:-1]) if s]
        for name, body in zip(parts[1::2], parts[2::2])
    }


@pytest.mark.slow
def test_three_copies_of_a_data_set_reach_the_pdf_with_bounded_sentences(grown):
    """The data sets added after a first run reach the PDF; of this machine's experiments only
    the three new ones are measured (the others' runs kept, every output of the data sets made)."""
    project, done, pdf = grown
    assert (project / "paper" / "main.pdf").stat().st_size > 100_000
    assert (project / "paper" / "main.pdf").stat().st_mtime > pdf
    measured = set(re.findall(r"rule (run_\w*)", done.stdout + done.stderr))
    assert measured == {f"run_local_{name}" for name in ADDED}, measured
    generated = project / "paper" / "generated"
    releases = sentences((generated / "releases.tex").read_text())["ReleaseFindings"]
    for name in COPIES:  # each copy compared with the first data set, in sentences of its own,
        # named by its release with its id beside it (names.release_labels)
        assert any(re.search(rf"On the [\d.]+ \({name}\) data", s) for s in releases), name
    too_long = [
        (macro, s)
        for f in ("releases.tex", "findings.tex")
        for macro, said in sentences((generated / f).read_text()).items()
        for s in said
        if len(s.split()) > MAX_WORDS and sum(n in s for n in SHIPPED + COPIES) > 1
    ]
    assert not too_long, too_long
    assert all(len(s.split()) <= MAX_WORDS for s in releases)


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
