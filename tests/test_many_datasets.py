"""Any number of data sets: the two shipped ones and three unchanged copies of morello-2024 under
other names reach the PDF, and the generated prose stays within its length rule however many
data sets it compares (a sentence naming several data sets at most MAX_WORDS words). The data
sets are added to a copy of conftest's quick_run, as a user adds one after a first run: this
machine's runs are not measured again, every output of the data sets is made."""

import re
import shutil

from c18n_ae.report.findings import MAX_WORDS
from conftest import copy_run, snakemake

COPIES = ["board-a", "board-b", "board-c"]
SHIPPED = ["morello-2024", "cheribsd-22.12"]


def sentences(tex: str) -> dict[str, list[str]]:
    """Each generated macro's sentences (a macro file: \\newcommand{\\Name}{text})."""
    tex = re.sub(r"(?m)^%.*$", "", tex)
    parts = re.split(r"\\newcommand\{\\(\w+)\}\{", tex)
    return {
        name: [s for s in re.split(r"(?<=[.?!])\s+(?=[A-Z\\$(])", body.strip()[:-1]) if s]
        for name, body in zip(parts[1::2], parts[2::2])
    }


def test_three_copies_of_a_data_set_reach_the_pdf_with_bounded_sentences(quick_run, tmp_path):
    project = copy_run(quick_run[0], tmp_path / "project")
    pdf = (project / "paper" / "main.pdf").stat().st_mtime
    for name in COPIES:
        shutil.copytree(project / "datasets" / "morello-2024", project / "datasets" / name)
        meta = project / "datasets" / name / "dataset.yaml"
        meta.write_text(meta.read_text().replace("name: morello-2024", f"name: {name}", 1))
    more = project / "config" / "more-datasets.yaml"
    more.write_text(f"datasets: [{', '.join(SHIPPED + COPIES)}]\n")
    done = snakemake(project, configs=("config/quick.yaml", "config/more-datasets.yaml"))
    assert done.returncode == 0, done.stderr[-4000:]
    assert (project / "paper" / "main.pdf").stat().st_size > 100_000
    assert (project / "paper" / "main.pdf").stat().st_mtime > pdf
    assert "rule run_" not in done.stdout + done.stderr  # nothing of this machine's measured again
    generated = project / "paper" / "generated"
    releases = sentences((generated / "releases.tex").read_text())["ReleaseFindings"]
    for name in COPIES:  # each copy compared with the first data set, in sentences of its own
        assert any(f"On \\texttt{{{name}}}" in s for s in releases), name
    too_long = [
        (macro, s)
        for f in ("releases.tex", "findings.tex")
        for macro, said in sentences((generated / f).read_text()).items()
        for s in said
        if len(s.split()) > MAX_WORDS and sum(n in s for n in SHIPPED + COPIES) > 1
    ]
    assert not too_long, too_long
    assert all(len(s.split()) <= MAX_WORDS for s in releases)
