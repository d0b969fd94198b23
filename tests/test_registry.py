"""One entry per experiment: the registry is the only list of experiments, each program describes
its own columns and options, and E10 measures what it says."""

import ast
import json
import re
import subprocess

import pandas as pd
import pytest

from c18n_ae import experiments as exp
from c18n_ae.analysis.claims import evaluate, parse
from c18n_ae.analysis.collect import TIDY_COLUMNS, tidy_run
from c18n_ae.analysis.summarise import summary_table
from c18n_ae.experiments import commands
from conftest import ROOT, table_tex

NAMES = set(exp.names())


def listed_names(path, keys=True):
    """(line, names) of each literal list, tuple, set (or dict's keys, with keys) in a Python file
    that holds two or more experiment names and nothing else, or a line of a rule file naming two
    or more."""
    text = path.read_text()
    if path.suffix != ".py":
        for i, line in enumerate(text.splitlines(), 1):
            found = re.findall(r"[\"'](" + "|".join(NAMES) + r")[\"']", line)
            if len(found) >= 2:
                yield i, found
        return
    for node in ast.walk(ast.parse(text)):
        items = node.keys if isinstance(node, ast.Dict) and keys else getattr(node, "elts", None)
        if not isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) or not items:
            continue
        values = [x.value if isinstance(x, ast.Constant) else None for x in items]
        # a list of experiments names each once (a column of test data repeats them)
        if len(values) >= 2 and all(v in NAMES for v in values) and len(set(values)) == len(values):
            yield node.lineno, values


def test_no_file_but_the_registry_lists_experiments(tmp_path):
    """Rules, stages and tests take their lists of experiments from the registry; only an
    experiment's own module names it (and its neighbours, when it reads their layouts)."""
    paths = [ROOT / "Snakefile", *(ROOT / "workflow" / "rules").glob("*.smk")]
    paths += [p for p in (ROOT / "src" / "c18n_ae").rglob("*.py") if "experiments" not in p.parts]
    paths += [*(ROOT / "bench").glob("*.py")]
    found = [f"{p.relative_to(ROOT)}:{n}: {names}" for p in paths for n, names in listed_names(p)]
    # tests too, where a mapping keyed by experiment is test data, not a list of experiments
    tests = (ROOT / "tests").glob("*.py")
    found += [f"{p.relative_to(ROOT)}:{n}: {x}" for p in tests for n, x in listed_names(p, False)]
    assert not found, found
    # the check finds a list where there is one
    probe = tmp_path / "probe.py"
    two = sorted(NAMES)[:2]
    probe.write_text(f"EXPERIMENTS = {two!r}\n")
    assert list(listed_names(probe)) == [(1, two)]


def build(tmp_path, experiment, cc):
    """Every program of an experiment, built with the project's compile command."""
    bin_dir = tmp_path / experiment
    bin_dir.mkdir()
    recipe = {"name": "test", "cc": cc, "cflags": ["-O2", "-Werror"]}
    for prog in sorted(exp.get(experiment).programs, key=lambda p: not p.shared):
        cmd = commands.compile_command(recipe, prog, str(ROOT / "src" / "benchmarks"), str(bin_dir))
        subprocess.run(cmd, check=True)
    return bin_dir


@pytest.mark.parametrize("name", [n for n in exp.names() if not exp.get(n).driver])
def test_each_program_describes_its_columns_and_options(tmp_path, name, cc):
    """--describe lists the raw columns the program writes and its options; every parameter the
    module passes the program is one of those options."""
    e = exp.get(name)
    binary = build(tmp_path, name, cc) / e.programs[0].output
    described = json.loads(
        subprocess.run([binary, "--describe"], capture_output=True, text=True, check=True).stdout
    )
    assert described["benchmark"] == name or name == "alloc"
    assert described["columns"].startswith("started_unix_ns,trial") or "," in described["columns"]
    options = described["options"].split()
    flags = {p.argument(p.full)[0] for p in e.params if p.argument(p.full)}
    assert flags and flags <= set(options), (flags, options)


def test_crossing_calls_go_into_another_library(tmp_path, cc):
    """The library kinds call a function the executable does not define (through the procedure
    linkage table); every loop's result matches the arithmetic done without calls."""
    bin_dir = build(tmp_path, "crossing", cc)
    binary = bin_dir / "crossing"
    needed = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True).stdout
    assert "libcrossing_callee.so" in needed
    undefined = subprocess.run(
        ["nm", "-D", "--undefined-only", binary], capture_output=True, text=True
    ).stdout
    assert "callee_step" in undefined and "callee_call_back" in undefined
    out = tmp_path / "raw.csv"
    done = subprocess.run(
        [binary, "--out", out, "--calls", "20000", "--trials", "3"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "progress: crossing trial 12 of 12" in done.stderr
    raw = pd.read_csv(out)
    assert sorted(raw.kind.unique()) == ["buffer", "callback", "library", "local"]
    assert (raw.status == "ok").all() and (raw.ns_per_call > 0).all()
    tidy = tidy_run(out, "local", "O2", "crossing")
    s = summary_table(tidy)  # with the derived metric
    extra = s[s.metric == "crossing_extra_ns"].iloc[0]
    assert extra.n == 3  # paired by trial
    library = s[s.metric == "library_call_ns"].iloc[0]
    plain = s[s.metric == "local_call_ns"].iloc[0]
    assert extra["mean"] == pytest.approx(library["mean"] - plain["mean"])
    assert "call into another library" in table_tex("crossing", s)


def test_crossing_claim_is_decided_only_on_a_variant_in_compartments():
    """The claim compares two metrics of one variant; only variants in compartments count."""
    rng = pd.Series(range(12))
    rows = []
    for variant, extra in (("hybrid", 0.0), ("purecap-c18n", 40.0)):
        for metric, base in (("local_call_ns", 2.0), ("library_call_ns", 2.5 + extra)):
            rows += [
                (
                    "board",
                    variant,
                    "crossing",
                    1,
                    t,
                    "calls",
                    1000,
                    metric,
                    base + 0.01 * t,
                    "ns",
                    "ok",
                )
                for t in rng
            ]
    tidy = pd.DataFrame(rows, columns=TIDY_COLUMNS)
    claim = parse({**exp.get("crossing").claims[0], "experiment": "crossing", "min_trials": 10})[0]
    summaries = {"crossing": summary_table(tidy)}
    board = {"board": {"hybrid": False, "purecap-c18n": True}}
    result = evaluate([claim], summaries, board, {}, {"crossing": tidy}, {})
    assert result.result.iloc[0] == "holds", result.detail.iloc[0]
    assert "purecap-c18n" in result.detail.iloc[0] and "hybrid" not in result.detail.iloc[0]
    plain = {"board": {"hybrid": False}}
    result = evaluate([claim], summaries, plain, {}, {"crossing": tidy}, {})
    assert result.result.iloc[0] == "not applicable"
    assert "no variant in compartments" in result.detail.iloc[0]
