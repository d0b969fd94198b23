"""conftest's quick_run_everywhere, read by every test of one file (pytest-xdist's --dist
loadfile gives a file's tests to one worker, so the run is made once): a board variant rehearsed
here (cross-compiled for AArch64, run through a launcher prefix, qemu-user, as proccontrol is on a
board), an SSH target on the loopback sshd, and a data set of E1 at board scale, each through to
the PDF."""

import json
import subprocess

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.experiments import programs
from conftest import BIG_E1
from test_end_to_end import pdf_words


def test_quick_profile_with_an_aarch64_variant_under_qemu(quick_run_everywhere):
    """conftest's quick_run_everywhere runs with config/aarch64.yaml: its variant is built for
    AArch64, run under qemu-aarch64, found hybrid by the ABI check and printed in the PDF."""
    project, _ = quick_run_everywhere
    root = project / "results" / "local" / "aarch64-qemu"
    for name in exp.names():
        meta = json.loads((root / name / "meta.json").read_text())
        assert meta["launcher"] == ["qemu-aarch64"] and meta["status"] == "ok", name
        assert meta["abi"] == "hybrid", name
        assert (root / name / "raw.csv").stat().st_size > 0, name
    for prog in programs.catalogue().values():
        info = json.loads((root / "bin" / f"{prog.output}.build.json").read_text())
        assert info["abi"] == "hybrid" and "aarch64" in info["file"].lower(), prog.name
    text = subprocess.run(
        ["pdftotext", str(project / "paper" / "main.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "aarch64-qemu" in text


def test_quick_profile_end_to_end_on_an_ssh_target(quick_run_everywhere):
    """conftest's quick_run_everywhere holds an SSH target, loopback, with the variant O2 the local
    target has too: built and run on the target, its rows reach the tables, the PDF and the spread
    between the two machines."""
    project, remote = quick_run_everywhere
    for e in exp.names():
        assert (project / "results" / "loopback" / "O2" / e / "raw.csv").exists(), e
        assert (remote / "results" / "loopback" / "O2" / e / "raw.csv").exists(), e
    setup = (project / "paper" / "generated" / "tab-setup.tex").read_text()
    assert "loopback" in setup and "Debian" in setup
    text = subprocess.run(
        ["pdftotext", str(project / "paper" / "main.pdf"), "-"], capture_output=True, text=True
    ).stdout
    assert "loopback" in text
    spread = (project / "results" / "summary" / "spread-between-targets.csv").read_text()
    assert "local loopback" in spread and "roundtrip_ns" in spread


def test_a_data_set_of_100000_e1_instances_builds_the_paper(quick_run_everywhere):
    """E1 at board scale: 10^5 instances in the study's layout (a data set of conftest's
    quick_run_everywhere) draw a decimated figure, and the CSV beside it keeps every point."""
    project, _ = quick_run_everywhere
    series = pd.read_csv(project / "paper" / "generated" / "scale-series.csv")
    assert len(series) >= BIG_E1  # every instance in the data beside the figure
    figure = (project / "paper" / "generated" / "fig-scale.tex").read_text()
    assert "big-e1" in figure and figure.count("(") < 6 * 1000  # decimated for display
    assert f"reached {BIG_E1} instances" in pdf_words(project)
