"""A board variant rehearsed here: cross-compiled for AArch64, run through a launcher prefix
(qemu-user, as proccontrol is on a board), the quick profile through to the PDF."""

import json
import subprocess

from c18n_ae import experiments as exp
from c18n_ae.experiments import programs
from conftest import SNAKEMAKE, copy_project


def test_quick_profile_with_an_aarch64_variant_under_qemu(tmp_path):
    project = copy_project(tmp_path / "project")
    done = subprocess.run(
        [*SNAKEMAKE, "--cores", "2", "--configfile", "config/quick.yaml", "config/aarch64.yaml"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-4000:]
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
