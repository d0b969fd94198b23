"""What a later command re-makes after a run: a deleted raw folder is measured again, a variant's
description rebuilds and re-measures nothing, and a command of another profile than the one that
made results/ stops before planning (a paper rebuild must not measure every benchmark again)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
import yaml

from conftest import SNAKEMAKE, copy_project

SMALL = {"experiments": {"memory": {"trials": 1, "block_sizes_mib": [1]}}}  # one small experiment


def snakemake(project, *args, configs=("config/quick.yaml", "config/small.yaml")):
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "1", *args, "--configfile", *configs],
        cwd=project, capture_output=True, text=True, timeout=900,
    )  # fmt: skip


def planned(done) -> set[str]:
    """The rules of the jobs a dry run plans."""
    assert done.returncode == 0, done.stderr[-3000:]
    if "Nothing to be done" in done.stdout:
        return set()
    stats = done.stdout.split("Job stats:")[1].split("total")[0]
    return set(re.findall(r"^(\w+)\s+\d+$", stats, re.M))


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The quick profile's E2 alone, small, measured once; a test that changes what is there puts
    it back (a copy would not do: snakemake records the modules' absolute paths)."""
    project = copy_project(tmp_path_factory.mktemp("triggers") / "project")
    (project / "config" / "small.yaml").write_text(yaml.safe_dump(SMALL))
    done = snakemake(project, "memory")
    assert done.returncode == 0, done.stderr[-3000:]
    return project


def test_the_run_records_its_profile_and_config_files(project):
    made = json.loads((project / "results" / "profile.json").read_text())
    assert made == {
        "profile": "quick",
        "targets": ["local"],
        "config_files": ["config/config.yaml", "config/quick.yaml", "config/small.yaml"],
    }
    assert planned(snakemake(project, "-n", "memory")) == set()


def test_a_description_rebuilds_and_remeasures_nothing(project):
    config = yaml.safe_load((project / "config" / "config.yaml").read_text())
    (local,) = config["targets"]
    local["description"] = "reworded"
    for v in local["variants"]:
        v["description"] = "a new description"
    del local["variants"][1]["description"]  # none at all, as config/morello.yaml's local variants
    (project / "config" / "described.yaml").write_text(yaml.safe_dump({"targets": [local]}))
    configs = ("config/quick.yaml", "config/small.yaml", "config/described.yaml")
    assert planned(snakemake(project, "-n", "memory", configs=configs)) == set()
    # a change that does make another binary still rebuilds it
    local["variants"][1]["cflags"] = ["-O1"]
    (project / "config" / "described.yaml").write_text(yaml.safe_dump({"targets": [local]}))
    jobs = planned(snakemake(project, "-n", "memory", configs=configs))
    assert {"build_local", "run_local_memory"} <= jobs, jobs


def test_a_command_of_another_profile_stops_before_planning_and_says_what_to_give(project):
    for args in (("-n",), ("paper",), ("-n", "memory")):
        done = subprocess.run(
            [*SNAKEMAKE, "--cores", "1", *args], cwd=project, capture_output=True, text=True
        )
        assert done.returncode != 0
        message = done.stdout + done.stderr
        assert "results/ holds the quick profile's measurements" in message, message[-2000:]
        assert "--configfile config/quick.yaml config/small.yaml" in message
        assert "results/profile.json" in message and "Traceback" not in message
        assert "Job stats" not in message  # nothing planned, nothing run
    # a config without one of the run's machines would leave its rows out of the paper
    config = yaml.safe_load((project / "config" / "config.yaml").read_text())
    (local,) = config["targets"]
    (project / "config" / "other.yaml").write_text(
        yaml.safe_dump({"targets": [{**local, "name": "other"}]})
    )
    configs = ("config/quick.yaml", "config/small.yaml", "config/other.yaml")
    done = snakemake(project, "-n", "paper", configs=configs)
    message = done.stdout + done.stderr
    assert done.returncode != 0 and "Job stats" not in message
    assert "results/ holds measurements of local, which this command's config has no" in message
    # removing the record is how to measure with the other profile
    record = project / "results" / "profile.json"
    made = record.read_text()
    record.unlink()
    try:
        full = subprocess.run(
            [*SNAKEMAKE, "-n", "--cores", "1", "memory"],
            cwd=project,
            capture_output=True,
            text=True,
        )
        assert "run_local_memory" in planned(full)
    finally:
        record.write_text(made)


def test_a_deleted_raw_folder_is_measured_again(project):
    for variant in ("O0", "O2"):
        shutil.rmtree(project / "results" / "local" / variant / "memory")
    jobs = planned(snakemake(project, "-n", "memory"))
    assert {"run_local_memory", "analyse", "experiment_outputs"} <= jobs, jobs
    assert not any(j.startswith("build_") for j in jobs), jobs
    done = snakemake(project, "memory")
    assert done.returncode == 0, done.stderr[-3000:]
    assert (project / "results" / "local" / "O2" / "memory" / "raw.csv").exists()
    assert planned(snakemake(project, "-n", "memory")) == set()
