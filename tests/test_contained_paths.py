"""A data set received from someone else reaches only its own folder, and the names that become
folders and words of shell commands are checked once, by the schemas: a hostile dataset.yaml or
config stops the dry run before any job, with one message per path or name."""

import copy
import re
import subprocess

import pytest
import yaml

from c18n_ae import experiments as exp
from c18n_ae.common import config as cfg
from c18n_ae.common import datasets
from c18n_ae.common.rawcsv import RawDataError
from conftest import ROOT, SNAKEMAKE

BASE = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
MEMORY = (ROOT / "datasets" / "morello-2024" / "memory" / "hybrid.csv").read_text()


def meta(files, documents=()) -> dict:
    return {
        "name": "evil",
        "title": "a folder as a stranger might send it",
        "measured_by": "someone",
        "measured_when": "now",
        "source": {"repository": "r", "commit": "abcdef0", "license": "MIT"},
        "host": {"model": "m", "os": "o", "arch": "a"},
        "reference_variant": "a",
        "variants": {"a": {"description": "d", "abi": "hybrid", "c18n": False}},
        "files": [{"path": p, "variant": "a"} for p in files],
        "documents": [{"path": p, "what": "notes"} for p in documents],
    }


def hostile(folder, outside):
    """A data set whose paths leave it every way there is; outside: a file beyond its folder."""
    folder.mkdir(parents=True)
    (folder / "ok.csv").write_text(MEMORY)
    (folder / "link.csv").symlink_to(outside)
    (folder / "logs").mkdir()
    (folder / "logs" / "execution-results.txt").symlink_to(outside)
    (folder / "linked-dir").symlink_to(outside.parent, target_is_directory=True)
    m = meta(
        ["ok.csv", "../../../../etc/passwd", "/etc/passwd", "link.csv", "logs", "linked-dir/x"],
        ["../NOTICE", "~/.ssh/id_rsa"],
    )
    m["source"]["shipped"] = "../.."
    (folder / "dataset.yaml").write_text(yaml.safe_dump(m, sort_keys=False))


EXPECTED = [
    "files[1].path ../../../../etc/passwd: outside {d}",
    "files[2].path /etc/passwd: an absolute path; give it relative to {d}",
    "files[3].path link.csv: a symlink leading outside {d}",
    "files[4].path logs: holds logs/execution-results.txt, a symlink leading outside {d}",
    "files[5].path linked-dir/x: a symlink leading outside {d}",
    "documents[0].path ../NOTICE: outside {d}",
    "documents[1].path ~/.ssh/id_rsa: an absolute path; give it relative to {d}",
    "source.shipped ../..: outside {d}",
]


def test_every_path_that_leaves_a_data_set_is_one_message(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("password\n")
    d = tmp_path / "datasets" / "evil"
    hostile(d, secret)
    with pytest.raises(RawDataError) as caught:
        datasets.load(str(d))
    lines = str(caught.value).splitlines()
    for want in EXPECTED:
        assert sum(want.format(d=d) in line for line in lines) == 1, (want, lines)
    assert len(lines) == len(EXPECTED), lines  # ok.csv is fine: nothing said about it
    assert "password" not in str(caught.value)


def test_a_dataset_yaml_the_schema_refuses_still_has_its_paths_reported(tmp_path):
    """Schema mistakes and paths that leave the folder come in one report, whichever fails."""
    secret = tmp_path / "secret.txt"
    secret.write_text("password\n")
    d = tmp_path / "datasets" / "evil"
    hostile(d, secret)
    m = yaml.safe_load((d / "dataset.yaml").read_text())
    del m["title"]
    m["files"].append({"path": "../x.csv"})  # no variant either
    (d / "dataset.yaml").write_text(yaml.safe_dump(m, sort_keys=False))
    with pytest.raises(RawDataError) as caught:
        datasets.load(str(d))
    said = str(caught.value)
    assert "(top level): 'title' is a required property" in said
    assert "files[6]: 'variant' is a required property" in said
    for want in [*EXPECTED, "files[6].path ../x.csv: outside {d}"]:
        assert want.format(d=d) in said, (want, said)


def test_a_dataset_yaml_that_is_a_symlink_out_is_refused(tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(yaml.safe_dump(meta(["x.csv"])))
    d = tmp_path / "evil"
    d.mkdir()
    (d / "x.csv").write_text(MEMORY)
    (d / "dataset.yaml").symlink_to(outside)
    with pytest.raises(RawDataError, match="dataset.yaml: a symlink leading outside"):
        datasets.load(str(d))


def test_a_symlink_that_stays_inside_is_fine(tmp_path):
    d = tmp_path / "fine"
    d.mkdir()
    (d / "memory").mkdir()
    (d / "memory" / "x.csv").write_text(MEMORY)
    (d / "x.csv").symlink_to("memory/x.csv")
    (d / "dataset.yaml").write_text(yaml.safe_dump({**meta(["memory/../x.csv"])}))
    assert datasets.load(str(d))["name"] == "evil"


def test_the_dry_run_stops_before_any_job(project_copy, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("password\n")
    hostile(project_copy / "datasets" / "evil", secret)
    (project_copy / "datasets" / "linked").symlink_to(tmp_path, target_is_directory=True)
    (project_copy / "config" / "evil.yaml").write_text(
        yaml.safe_dump({"datasets": ["morello-2024", "evil", "linked"]})
    )
    done = subprocess.run(
        [*SNAKEMAKE, "-n", "--cores", "1", "--configfile", "config/evil.yaml"],
        cwd=project_copy,
        capture_output=True,
        text=True,
    )
    out = done.stdout + done.stderr
    assert done.returncode != 0
    assert "Traceback" not in out
    assert "Job stats" not in out and "--dataset-file" not in out  # nothing planned
    for want in EXPECTED:
        assert (
            f"datasets[evil]: {project_copy}/datasets/evil/dataset.yaml: "
            + want.format(d="datasets/evil")
            in out
        ), (want, out[-3000:])
    assert "datasets[linked]: a symlink leading outside datasets" in out


@pytest.mark.parametrize(
    "entry, why",
    [
        ("../evil", "is not allowed"),  # the schema: a letter or digit first
        ("/tmp/evil", "is not allowed"),
        ("datasets/../../evil", "outside ."),
    ],
)
def test_a_config_names_data_sets_inside_the_project(entry, why):
    with pytest.raises(cfg.ConfigError) as caught:
        exp.resolved_config({**BASE, "datasets": [entry]})
    assert why in str(caught.value), caught.value


HOSTILE_NAMES = [
    "a b",
    "a;rm -rf ~",
    "$(id)",
    "`id`",
    "a'b",
    'a"b',
    "..",
    "../x",
    "-oProxyCommand=x",
]


def _with(mutate):
    c = copy.deepcopy(BASE)
    mutate(c)
    return c


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize(
    "where, mutate",
    [
        ("targets[{n}].name", lambda c, n: c["targets"][0].update(name=n)),
        (
            "targets[local].variants[{n}].name",
            lambda c, n: c["targets"][0]["variants"][0].update(name=n),
        ),
        (
            "targets[local].reference_variant",
            lambda c, n: c["targets"][0].update(reference_variant=n),
        ),
        (
            "experiments.memory.variants[0]",
            lambda c, n: c.update(experiments={"memory": {"variants": [n]}}),
        ),
    ],
)
def test_a_config_name_that_could_reach_a_shell_is_refused_by_name(name, where, mutate):
    with pytest.raises(cfg.ConfigError) as caught:
        exp.resolved_config(_with(lambda c: mutate(c, name)))
    message = str(caught.value)
    assert f"{where.format(n=name)}: {name!r} is not allowed as a name (a letter first" in message


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_an_experiment_name_that_could_reach_a_shell_is_refused_by_name(name):
    with pytest.raises(cfg.ConfigError, match=re.escape(f"unknown key {name!r}")):
        exp.resolved_config({**BASE, "experiments": {name: {"trials": 1}}})


def test_every_registered_experiment_name_fits_the_pattern():
    pattern = yaml.safe_load((ROOT / "workflow" / "schemas" / "name.schema.yaml").read_text())
    assert all(re.fullmatch(pattern["pattern"], n) for n in exp.names())
    assert not any(re.fullmatch(pattern["pattern"], n) for n in HOSTILE_NAMES)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize(
    "where, mutate",
    [
        ("name", lambda m, n: m.update(name=n)),
        ("reference_variant", lambda m, n: m.update(reference_variant=n)),
        ("variants", lambda m, n: m["variants"].update({n: m["variants"]["a"]})),
        ("files[0].variant", lambda m, n: m["files"][0].update(variant=n)),
    ],
)
def test_a_data_set_name_that_could_reach_a_shell_is_refused_by_name(name, where, mutate, tmp_path):
    m = meta(["x.csv"])
    mutate(m, name)
    (tmp_path / "x.csv").write_text(MEMORY)
    (tmp_path / "dataset.yaml").write_text(yaml.safe_dump(m))
    with pytest.raises(RawDataError) as caught:
        datasets.load(str(tmp_path))
    assert f"dataset.yaml: {where}: {name!r} is not allowed as a name" in str(caught.value)


@pytest.mark.parametrize(
    "key, value",
    [("host", "-oProxyCommand=touch /tmp/x"), ("user", "a b"), ("workdir", "w; rm -rf ~")],
)
def test_ssh_words_are_checked_too(key, value):
    target = {
        "name": "board",
        "kind": "ssh",
        "host": "board.example",
        "reference_variant": "O2",
        "variants": BASE["targets"][0]["variants"],
        key: value,
    }
    with pytest.raises(cfg.ConfigError, match=rf"targets\[board\]\.{key}: "):
        exp.resolved_config({**BASE, "targets": [target]})


@pytest.mark.parametrize(
    "options", [["-o", "StrictHostKeyChecking=no"], ["-oUserKnownHostsFile=/dev/null"]]
)
def test_a_config_cannot_turn_host_key_checking_off(options):
    target = {
        "name": "board",
        "kind": "ssh",
        "host": "board.example",
        "ssh_options": options,
        "reference_variant": "O2",
        "variants": BASE["targets"][0]["variants"],
    }
    with pytest.raises(cfg.ConfigError, match=r"targets\[board\]\.ssh_options: .* host-key check"):
        exp.resolved_config({**BASE, "targets": [target]})


def test_ssh_keeps_host_key_checking_on():
    from c18n_ae.targets.transport import SSH

    base = SSH(host="board").ssh_base()
    assert "BatchMode=yes" in base
    assert not any("StrictHostKeyChecking" in w or "UserKnownHostsFile" in w for w in base)
