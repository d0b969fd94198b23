"""The workflow's printed commands stay short however many data sets it reads: rules pass names
and their inputs list the files (a 1,500-character command is unreadable in a log)."""

import re
import shutil
import subprocess

import yaml

from conftest import SNAKEMAKE

LONGEST = 400


def test_three_more_data_sets_print_no_long_command(project_copy):
    config = yaml.safe_load((project_copy / "config" / "config.yaml").read_text())
    names = list(config["datasets"])
    for extra in ("extra-alpha-2024", "extra-beta-2024", "extra-gamma-2024"):
        folder = project_copy / "datasets" / extra
        shutil.copytree(project_copy / "datasets" / names[0], folder)
        meta = folder / "dataset.yaml"
        meta.write_text(re.sub(r"(?m)^name: .*$", f"name: {extra}", meta.read_text()))
        names.append(extra)
    (project_copy / "config" / "more.yaml").write_text(yaml.safe_dump({"datasets": names}))
    done = subprocess.run(
        [
            *SNAKEMAKE,
            "-n",
            "-F",
            "-p",
            "--cores",
            "1",
            "--configfile",
            "config/quick.yaml",
            "config/more.yaml",
        ],  # fmt: skip
        cwd=project_copy,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    commands = re.findall(r"^Shell command: (.*)$", done.stdout + done.stderr, re.M)
    assert len(commands) > 50
    # every data set is read: the analyse jobs name the extra data sets' files as inputs
    assert "datasets/extra-gamma-2024/memory/" in done.stdout + done.stderr
    longest = max(commands, key=len)
    assert len(longest) <= LONGEST, f"{len(longest)} characters: {longest}"
