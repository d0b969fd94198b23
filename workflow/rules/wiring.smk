# Shared wiring: validated config, the Python that runs the package, and file-name helpers.
import json
import os
import shlex
import sys
from pathlib import Path

# c18n_ae is installed into .venv (editable) by artifact/install, which snakemake runs from.
from c18n_ae.common import config as cfg
from c18n_ae import experiments as exps
from c18n_ae.analysis import claim_type, imports
from c18n_ae.common import datasets, profile_record
from c18n_ae.common.module_files import module_files
from c18n_ae.experiments import programs
from c18n_ae.report import files as report_files

_files = list(dict.fromkeys(
    ["config/config.yaml", *(os.path.relpath(p) for p in workflow.overwrite_configfiles)]))
try:
    # the files read again by the package's strict reader (snakemake's keeps a repeated key's last
    # value and expands aliases without a limit), before anything walks the config
    cfg.merged(*_files)
except cfg.ConfigError as err:
    raise WorkflowError(str(err))
try:
    # each experiment's settings: its module's values for the profile, then the config's overrides
    _resolved = exps.resolved_config(config)
except cfg.ConfigError as err:
    raise WorkflowError(f"{', '.join(_files)}: {err}")
config.clear()
config.update(_resolved)
# the config and data sets just checked, which the jobs then take without checking them again (a
# data set while it stays unchanged)
os.environ[cfg.PASSED_ON] = cfg.passed_on()
os.environ[datasets.PASSED_ON] = datasets.passed_on()
# the claims file checked here too, for the same reason; a file that fails is left to the jobs,
# whose messages say what is wrong with it
try:
    claim_type.read("config/claims.yaml")
    os.environ[claim_type.PASSED_ON] = claim_type.passed_on()
except Exception:  # noqa: BLE001  (any failure: the jobs check it again and say why)
    pass


def shell_words(*words):
    """Words for a rule's shell command, each quoted for the shell and with its braces doubled for
    snakemake's formatting: a file name or a name from the config reaches the command as one word,
    never as shell syntax (values that snakemake fills in are quoted with `{...:q}` instead)."""
    return shlex.join(str(w) for w in words).replace("{", "{{").replace("}", "}}")


# Rules call the installed package as `python -m c18n_ae.<stage>`, with the interpreter snakemake
# runs under (.venv) first on PATH.
shell.prefix(f'export PATH={shell_words(Path(sys.executable).parent)}:"$PATH"; ')
EXPERIMENTS = cfg.enabled_experiments(config)
# The config files in effect (the Snakefile's, then each --configfile), so that the package reads
# the validated config itself and a rule's command names only the target, variant and experiment.
CONFIG_FILE_LIST = list(dict.fromkeys(
    ["config/config.yaml", *(os.path.relpath(p) for p in workflow.overwrite_configfiles)]))
CONFIG_FILES = shell_words(*CONFIG_FILE_LIST)
# A command of another profile than the run that made results/, or without one of its targets,
# stops before planning: a paper rebuild without the run's --configfile would otherwise measure
# every benchmark again, or leave a machine's rows out (c18n_ae.common.profile_record).
if (_conflict := profile_record.conflict(config, CONFIG_FILE_LIST)) is not None:
    raise WorkflowError(_conflict)


onstart:
    profile_record.write(config, CONFIG_FILE_LIST)


TARGETS = [t["name"] for t in config["targets"]]
# Hand-written LaTeX (everything under paper/ but the generated and build files).
PAPER_SOURCES = sorted(
    str(p) for p in Path("paper").rglob("*.tex") if not {"generated", "build"} & set(p.parts)
)


def code(*modules, experiments=()):
    """The Python files a job runs, as its inputs: the modules' own and every c18n_ae module they
    import (c18n_ae.common.module_files), and the modules of the experiments whose hooks it calls
    (the registry loads those by name, which no import shows). A job about one experiment names
    that one, so that editing one experiment's module re-makes its own results only. Builds and
    runs list no code: a change to the runner must not re-measure."""
    return module_files(*modules, *(f"c18n_ae.experiments.{e}" for e in experiments))


# The experiments whose modules say how the original study's printed rows read into theirs.
STUDY = [e for e in exps.names() if exps.get(e).study]
# The experiments whose appendix sets a published study beside them (their module says which).
RELATED = [e for e in exps.names() if exps.get(e).related]


def published_of(experiment):
    """The published tables an experiment's table or figure sits beside (its module says which)."""
    return exps.get(experiment).published_files()


def run_dirs(experiment):
    return [f"results/{t}/{v}/{experiment}" for t, v in cfg.runs(config, experiment)]


def settings(value):
    """A param the command does not print: the settings a job depends on, so that snakemake re-runs
    it when they change in the config (the command itself names only target, variant, experiment)."""
    return json.dumps(value, sort_keys=True)


def recipe(value):
    """A target or variant as it makes a binary or a measurement: without its descriptions, which
    are for the reader, so that adding or rewording one rebuilds and re-measures nothing."""
    if isinstance(value, dict):
        return {k: recipe(v) for k, v in value.items() if k != "description"}
    if isinstance(value, list):
        return [recipe(v) for v in value]
    return value


def variants_of(target, experiment):
    return [v for t, v in cfg.runs(config, experiment) if t == target]


def unit_inputs(target, experiment, variants):
    """Every binary and library the experiment needs for each variant on this target; a driven
    run is re-made when its driver changes."""
    e = exps.get(experiment)
    outputs = []
    for prog in e.programs:
        outputs += [programs.get(lib).output for lib in prog.links] + [prog.output]
    extra = [f"src/{e.driver.replace('.', '/')}.py"] if e.driver else []
    outputs = list(dict.fromkeys(outputs))
    return [f"results/{target}/{v}/bin/{o}" for v in variants for o in outputs] + extra


def build_inputs_of(target):
    def inputs(w):
        prog = programs.by_output(w.output)
        libs = [f"results/{target}/{w.variant}/bin/{programs.get(l).output}" for l in prog.links]
        return [f"src/benchmarks/{s}" for s in prog.sources] + HEADERS + libs

    return inputs


def targets_that_run():
    return sorted({t for e in EXPERIMENTS for t, _ in cfg.runs(config, e)})


def all_metas():
    return [f"{d}/meta.json" for e in EXPERIMENTS for d in run_dirs(e)]


def measured(*experiments):
    """The raw files of the experiments' runs, as inputs of the rules that name what to make (all,
    one per experiment): snakemake re-makes a missing file only for a job that must run anyway,
    and a missing input of such a rule is one, so a deleted raw folder is measured again."""
    return [f"{d}/{f}" for e in experiments for d in run_dirs(e) for f in ("raw.csv", "meta.json")]


# Files of the data sets the run includes (config key datasets), by experiment; each data set is a
# target of its own from collect on.
try:
    DATASET_FILES = {e: [os.path.relpath(f) for f in fs]
                     for e, fs in imports.dataset_files_by_experiment(config.get("datasets", [])).items()}
except imports.RawDataError as err:  # a data set's file unreadable: said before any job runs
    raise WorkflowError(str(err))


def files_in(paths):
    """A data set's entries as files: a folder entry (the study's E6 logs) is the files in it."""
    return [str(f) for p in paths for f in (sorted(Path(p).iterdir()) if Path(p).is_dir() else [p])]
DATASET_META = [str(datasets.directory(n) / "dataset.yaml") for n in config.get("datasets", [])]
HEADERS = sorted(str(p) for p in Path("src/benchmarks").glob("*.h"))
# One benchmark at a time per target (build or run), unless --resources bench_<target>=N says otherwise.
for _name in TARGETS:
    if f"bench_{_name}" not in workflow.global_resources:
        workflow.register_resource(f"bench_{_name}", 1)


wildcard_constraints:
    variant="[A-Za-z][A-Za-z0-9._-]*",  # workflow/schemas/name.schema.yaml
    experiment="|".join(exps.names()),
    output="[A-Za-z0-9_.]+",
