"""A bad configuration stops before anything runs, with a message naming the key and what is
allowed."""

import copy
import os
import subprocess
import sys

import pytest
import yaml

from c18n_ae import experiments as exp
from c18n_ae.common import config as cfg
from c18n_ae.common import datasets
from conftest import ROOT, SNAKEMAKE

# the shipped config with one override, as a user would write it
BASE = {
    **yaml.safe_load((ROOT / "config" / "config.yaml").read_text()),
    "experiments": {"memory": {"trials": 10}},
}


def broken(mutate):
    c = copy.deepcopy(BASE)
    mutate(c)
    return c


CASES = [
    (
        "unknown experiment",
        lambda c: c["experiments"].update(memroy={"trials": 1}),
        "experiments: unknown key 'memroy'; allowed: " + ", ".join(sorted(exp.names())),
    ),
    (
        "negative size",
        lambda c: c["experiments"]["memory"].update(block_sizes_mib=[100, -5]),
        "experiments.memory.block_sizes_mib[1]: -5 is out of range (minimum 1)",
    ),
    (
        "wrong type",
        lambda c: c["experiments"]["memory"].update(trials="100"),
        "experiments.memory.trials: expected integer, got str '100'",
    ),
    (
        "unknown reference variant",
        lambda c: c["targets"][0].update(reference_variant="O3"),
        "targets[local].reference_variant: unknown variant 'O3'; allowed: O2, O0",
    ),
    (
        "unknown variant in an experiment",
        lambda c: c["experiments"]["memory"].update(variants=["purecap"]),
        "experiments.memory.variants: unknown variant 'purecap'; allowed: O0, O2",
    ),
    (
        "unknown target kind",
        lambda c: c["targets"][0].update(kind="vm"),
        "targets[local].kind: 'vm' is not allowed; allowed: local, ssh, morello",
    ),
    (
        "missing key",
        lambda c: c["targets"][0]["variants"][0].pop("cc"),
        "targets[local].variants[O2]: 'cc' is a required property",
    ),
    (
        "unknown data set",
        lambda c: c.update(datasets=["morello-2042"]),
        "datasets[morello-2042]: data set 'morello-2042': ",
    ),
    (
        "data set named like a target",
        lambda c: c["targets"][0].update(name="morello-2024", reference_variant="O2"),
        "datasets[morello-2024]: its name 'morello-2024' is also a target's name",
    ),
]


def test_shipped_configs_are_valid():
    full = exp.load_config(ROOT / "config" / "config.yaml")
    quick = exp.load_config(ROOT / "config" / "config.yaml", ROOT / "config" / "quick.yaml")
    # the quick profile includes them too, the first one the reference release
    assert full["datasets"] == quick["datasets"] == ["morello-2024", "cheribsd-22.12"]
    assert cfg.references(full)["morello-2024"] == "hybrid"
    assert cfg.c18n_variants(full)["morello-2024"] == {
        "hybrid": False,
        "purecap-c18n": True,
        "benchmark-c18n": True,
    }


@pytest.mark.parametrize("name, mutate, message", CASES, ids=[c[0] for c in CASES])
def test_bad_config_names_the_key(name, mutate, message):
    with pytest.raises(cfg.ConfigError) as err:
        exp.resolved_config(broken(mutate))
    assert message in str(err.value)


def test_snakemake_stops_before_running_anything(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        yaml.safe_dump({"experiments": {"memory": {"block_sizes_mib": [0], "trials": 1}}})
    )
    done = subprocess.run(
        [
            *SNAKEMAKE,
            "--cores",
            "1",
            "--configfile",
            str(bad),
            "--directory",
            str(ROOT),
            "--snakefile",
            str(ROOT / "Snakefile"),
            "-n",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert (
        "experiments.memory.block_sizes_mib[0]: 0 is out of range (minimum 1)"
        in done.stderr + done.stdout
    )
    assert "Job stats" not in done.stdout + done.stderr


def test_each_parameter_is_declared_once_in_its_module():
    """The schema's experiments section is made from the modules; the config files hold no
    parameter; every experiment takes its module's value for the profile."""
    for name in ("config.yaml", "quick.yaml", "morello.yaml", "aarch64.yaml"):
        assert "experiments" not in yaml.safe_load((ROOT / "config" / name).read_text()), name
    full = exp.load_config(ROOT / "config" / "config.yaml")
    quick = exp.load_config(ROOT / "config" / "config.yaml", ROOT / "config" / "quick.yaml")
    assert list(full["experiments"]) == list(exp.names())
    for e in exp.registry().values():
        for p in e.params:
            assert full["experiments"][e.name][p.name] == p.full
            assert quick["experiments"][e.name][p.name] == p.value("quick")
    # an override wins and is checked against the declared range
    assert exp.resolved_config(BASE)["experiments"]["memory"]["trials"] == 10
    with pytest.raises(cfg.ConfigError, match=r"experiments.memory.trials: 0 is out of range"):
        exp.resolved_config({**BASE, "experiments": {"memory": {"trials": 0}}})


# A job: loads the config files named on its command line and prints whether it imported
# jsonschema (the schema's check), or the error.
JOB = """
import sys
from c18n_ae import experiments
try:
    experiments.load_config(*sys.argv[1:])
    print("jsonschema" in sys.modules)
except Exception as e:
    print(e)
"""


# A parent, as snakemake is to its jobs (wiring.smk): validates the config files named after "--",
# if any, passes on what it validated, then runs JOB on the files before "--". Done in a process
# of its own: this test's process may hold other configs, registries or data set checks from
# earlier tests on its worker, which made the digests it passed on differ from a job's (a CI run).
PARENT = """
import os, subprocess, sys
from c18n_ae import experiments
from c18n_ae.common import config as cfg
from c18n_ae.common import datasets
at = sys.argv.index("--")
files, validated = sys.argv[1:at], sys.argv[at + 1 :]
if validated:
    experiments.load_config(*validated)
os.environ[cfg.PASSED_ON] = cfg.passed_on()
os.environ[datasets.PASSED_ON] = datasets.passed_on()
job = [sys.executable, "-c", sys.stdin.read(), *files]
done = subprocess.run(job, capture_output=True, text=True)
print(done.stdout.strip() if done.returncode == 0 else "job failed: " + done.stderr[-2000:])
"""


def job(files, validated=()) -> str:
    """The job's answer, run by a parent that validated `validated` and passed on what it
    validated (its data sets included, whose checks use jsonschema)."""
    env = {k: v for k, v in os.environ.items() if k not in (cfg.PASSED_ON, datasets.PASSED_ON)}
    command = [sys.executable, "-c", PARENT, *map(str, files), "--", *map(str, validated)]
    done = subprocess.run(command, input=JOB, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_job_takes_the_config_its_parent_validated_and_checks_any_other(tmp_path):
    """snakemake validates the config before any job and passes it on (wiring.smk); a job given
    the same config skips the schema's check, and checks a config that differs from it."""
    files = [ROOT / "config" / "config.yaml", ROOT / "config" / "quick.yaml"]
    assert job(files) == "True"  # nothing passed on: checked
    assert job(files, files) == "False"
    (tmp_path / "zero.yaml").write_text("run: {runs: 0}\n")  # against the schema's minimum
    assert "run.runs: 0 is out of range" in job([*files, tmp_path / "zero.yaml"], files)
