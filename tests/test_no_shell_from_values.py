"""No value reaches a shell as shell syntax: every word a rule's command takes from a file name,
the config or a wildcard is quoted (`{...:q}`, or shell_words for what wiring.smk pastes in), so a
hostile config file name or data-set file name is a word, never a command."""

from __future__ import annotations

import ast
import re
import shlex
import shutil
import string
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, SNAKEMAKE

RULES = sorted((ROOT / "workflow" / "rules").glob("*.smk"))
# config file names a hostile contributor could hand a reviewer: each would run `touch pwned`
HOSTILE_CONFIGS = [
    "config/x;touch pwned;.yaml",
    "config/with space.yaml",
    "config/$(touch pwned).yaml",
    "config/`touch pwned`.yaml",
    "config/{log}.yaml",  # braces: snakemake's own formatting must not read it
]
HOSTILE_FILE = "memory/a b;touch pwned;$(touch pwned)`touch pwned`.csv"


def shell_commands(smk: Path) -> list[tuple[int, ast.expr]]:
    """Each rule's `shell:` command in a rule file, parsed as the Python expression it is."""
    lines = smk.read_text().splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.strip() != "shell:":
            continue
        indent = len(line) - len(line.lstrip())
        body = []
        for following in lines[i + 1 :]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following)
        found.append((i + 1, ast.parse("(" + "\n".join(body) + ")", mode="eval").body))
    return found


def unquoted(command: ast.expr) -> list[str]:
    """The parts of a command that could put a value into the shell unquoted: a snakemake
    placeholder without `:q`, or a Python value pasted in other than CONFIG_FILES or
    shell_words(...)."""
    wrong = []
    parts = command.values if isinstance(command, ast.JoinedStr) else [command]
    for part in parts:
        if isinstance(part, ast.Constant):
            for _, field, spec, _ in string.Formatter().parse(part.value):
                if field is not None and spec != "q":
                    wrong.append("{" + field + (":" + spec if spec else "") + "}")
        else:
            value = part.value
            if isinstance(value, ast.IfExp):  # shell_words(...) if ... else ''
                value = value.body
            pasted = ast.unparse(value)
            if pasted != "CONFIG_FILES" and not pasted.startswith("shell_words("):
                wrong.append("{" + pasted + "}")
    return wrong


def test_every_rule_quotes_every_value_it_passes_to_the_shell():
    commands = [(smk, line, c) for smk in RULES for line, c in shell_commands(smk)]
    assert len(commands) >= 15  # every rule with a command, found
    wrong = [f"{smk.name}:{line}: {w}" for smk, line, c in commands for w in unquoted(c)]
    assert wrong == []
    wiring = (ROOT / "workflow" / "rules" / "wiring.smk").read_text()
    assert re.search(r"^shell\.prefix\(f'export PATH=\{shell_words\(", wiring, re.M)


def hostile_project(project: Path) -> None:
    """Hostile config file names holding the quick profile, one small experiment and a data set
    whose file name is made of shell syntax."""
    hostile = project / "datasets" / "hostile"
    shutil.copytree(project / "datasets" / "cheribsd-22.12", hostile)
    (hostile / "memory" / "hybrid.csv").rename(hostile / HOSTILE_FILE)
    meta = hostile / "dataset.yaml"
    text = re.sub(r"(?m)^name: .*$", "name: hostile", meta.read_text())
    meta.write_text(text.replace("{path: memory/hybrid.csv,", f"{{path: {HOSTILE_FILE!r},"))
    contents = [
        {"profile": "quick"},
        {"datasets": ["hostile"]},
        {"experiments": {"memory": {"variants": ["O2"], "trials": 1, "block_sizes_mib": [1]}}},
        {},
        {},
    ]
    for name, content in zip(HOSTILE_CONFIGS, contents, strict=True):
        (project / name).write_text(yaml.safe_dump(content))


def pwned(project: Path) -> list[Path]:
    """Files a hostile name's `touch pwned` would have made: in the project or beside it."""
    return list(project.parent.rglob("pwned"))


def test_hostile_config_and_data_set_file_names_run_nothing(project_copy):
    hostile_project(project_copy)
    configs = ["--configfile", *HOSTILE_CONFIGS]
    # every command of the whole plan holds each config file name as one word
    plan = subprocess.run(
        [*SNAKEMAKE, "-n", "-F", "-p", "--cores", "1", *configs],
        cwd=project_copy, capture_output=True, text=True,
    )  # fmt: skip
    assert plan.returncode == 0, plan.stderr[-3000:]
    commands = re.findall(r"^Shell command: (?!None$)(.*)$", plan.stdout, re.M)
    assert len(commands) > 20
    for command in commands:
        words = shlex.split(command)
        if "--config" in words:
            assert all(name in words for name in HOSTILE_CONFIGS), command
    # a real build, run and analysis, the last reading the data set's hostile file
    done = subprocess.run(
        [*SNAKEMAKE, "--cores", "1", "results/tidy/memory.csv", *configs],
        cwd=project_copy, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    tidy = (project_copy / "results" / "tidy" / "memory.csv").read_text()
    assert re.search(r"^hostile,hybrid,memory,", tidy, re.M)
    assert pwned(project_copy) == []


@pytest.mark.parametrize("name", ["x;touch pwned;", "x$(touch pwned)", "x`touch pwned`", "x y"])
def test_a_hostile_data_set_folder_name_is_refused_by_name(project_copy, name):
    folder = project_copy / "datasets" / name
    shutil.copytree(project_copy / "datasets" / "cheribsd-22.12", folder)
    for entry in (name, f"datasets/{name}"):
        (project_copy / "config" / "extra.yaml").write_text(yaml.safe_dump({"datasets": [entry]}))
        done = subprocess.run(
            [*SNAKEMAKE, "--cores", "1", "--configfile", "config/quick.yaml", "config/extra.yaml"],
            cwd=project_copy, capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode != 0
        message = done.stdout + done.stderr
        assert f"datasets[0]: {entry!r} is not allowed" in message, message[-2000:]
        assert "Traceback" not in message
    assert pwned(project_copy) == []
    assert not (project_copy / "results").exists()
