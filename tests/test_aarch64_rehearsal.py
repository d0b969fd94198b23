"""A board variant rehearsed here: cross-compiled for AArch64, run through a launcher prefix
(qemu-user, as proccontrol is on a board), the quick profile through to the PDF."""

import json
import subprocess

from c18n_ae import experiments as exp
from c18n_ae.experiments import programs


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
