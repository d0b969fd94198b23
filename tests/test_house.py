"""The house: an installed package with a console command, no path tricks, formatters and linters."""

import re
import shutil
import subprocess
from pathlib import Path

from conftest import ROOT

VENV_BIN = Path(shutil.which("python") or "").parent


def test_console_command_and_installed_package():
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "c18n-ae"), "abi", "/bin/sh"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "/bin/sh: native\n"
    usage = subprocess.run([str(ROOT / ".venv" / "bin" / "c18n-ae")], capture_output=True, text=True)
    assert usage.returncode == 2 and "c18n-ae timings" in usage.stderr


def test_no_module_edits_sys_path_and_no_rule_sets_pythonpath():
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "bench").glob("*.py")]:
        assert "sys.path" not in path.read_text(), path
    for path in [ROOT / "Snakefile", *(ROOT / "workflow" / "rules").glob("*.smk")]:
        text = path.read_text()
        assert "PYTHONPATH" not in text and "sys.path" not in text, path
