"""The programs' options: each program declares them once in a table that bench_init reads (no
program reads argv itself), the table agrees with the parameters its module passes, and E10 runs
its kinds of call in a seeded random order after a warm-up that writes no row."""

import json
import re
import subprocess

import pandas as pd
import pytest

from c18n_ae import experiments as exp
from c18n_ae.experiments import commands, programs
from conftest import ROOT

SOURCES = ROOT / "src" / "benchmarks"
MEASURED = [n for n in exp.names() if not exp.get(n).driver]


def argv_uses(text: str) -> list[str]:
    """Lines of a C source that touch argc or argv, other than main's signature and the one call
    that hands them to bench_init."""
    allowed = re.compile(r"int main\(int argc, char \*\*argv\)|bench_init\(argc, argv,")
    return [
        line.strip()
        for line in text.splitlines()
        if re.search(r"\b(argc|argv)\b", allowed.sub("", line))
    ]


def test_no_program_reads_its_own_command_line():
    found = {p.name: argv_uses(p.read_text()) for p in sorted(SOURCES.glob("*.c"))}
    assert not {name: lines for name, lines in found.items() if lines}
    assert found  # the sources were read
    # the check finds an argv loop where there is one
    loop = 'for (int i = 1; i < argc; i++)\n    if (!strcmp(argv[i], "--trials"))\n'
    assert len(argv_uses(loop)) == 2


def build(bin_dir, names, cc):
    """The programs of the named experiments, with the project's compile command."""
    bin_dir.mkdir(exist_ok=True)
    recipe = {"name": "test", "cc": cc, "cflags": ["-O2", "-Werror"]}
    progs = {p.name: p for n in names for p in exp.get(n).programs}
    for prog in sorted(progs.values(), key=lambda p: not p.shared):
        cmd = commands.compile_command(recipe, prog, str(SOURCES), str(bin_dir))
        subprocess.run(cmd, check=True)
    return bin_dir


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory, cc):
    return build(tmp_path_factory.mktemp("bin"), MEASURED, cc)


def describe(binary) -> dict:
    done = subprocess.run([binary, "--describe"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def smallest(param):
    """The smallest value the config schema lets through for an integer parameter."""
    if param.minimum is not None:
        return param.minimum
    return None if param.exclusive_minimum is None else int(param.exclusive_minimum) + 1


TYPES = {int: "integer", list: "integer list", bool: "flag", str: ("text", "file")}


@pytest.mark.parametrize("name", MEASURED)
def test_the_option_table_agrees_with_the_module(bin_dir, name):
    """Every value the config allows, the program accepts: same option, same type, a minimum no
    lower and no more list values than the program holds; every required option is passed."""
    e = exp.get(name)
    described = describe(bin_dir / e.programs[0].output)
    table = {o["option"]: o for o in described["option_table"]}
    assert described["options"].split() == list(table)  # one list, printed twice
    passed = set()
    for p in e.params:
        argument = p.argument(p.full)
        if not argument:
            continue
        option = table.get(argument[0])
        assert option, f"{name}: {argument[0]} is not in the program's table {list(table)}"
        passed.add(argument[0])
        assert option["type"] in TYPES[type(p.full)], (name, p.name, option["type"])
        if option["type"] in ("integer", "integer list"):
            assert smallest(p) is not None and smallest(p) >= option["minimum"], (name, p.name)
        if option["type"] == "integer list":
            assert p.max_items <= option["max_items"], (name, p.name)
    required = {o for o, v in table.items() if v["required"]}
    assert required <= passed, f"{name}: the module never passes {required - passed}"


def run(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True)


def test_options_are_read_as_the_table_says(bin_dir, tmp_path, cc):
    cpu, out = bin_dir / "cpu", tmp_path / "raw.csv"
    required = ["--out", out, "--trials", "1", "--iterations", "10", "--array-size", "10"]
    helped = run(cpu, "--help")
    assert helped.returncode == 0
    for o in describe(cpu)["option_table"]:
        assert o["option"] in helped.stdout and o["help"] in helped.stdout
    assert "(default math,int,float,array)" in helped.stdout
    for args, message, usage in (
        (["--bogus"], "error: unknown option '--bogus'", True),
        (required[:4], "error: --iterations is required", True),
        (["--out"], "error: --out needs a value", True),
        ([*required, "--trials", "0"], "error: --trials expects an integer >= 1, got '0'", False),
        ([*required, "--skip", "x"], "error: --skip expects an integer >= 0, got 'x'", False),
    ):
        refused = run(cpu, *args)
        assert refused.returncode == 64 and message in refused.stderr, (args, refused.stderr)
        assert ("usage: " in refused.stderr) == usage
        assert not out.exists()
    # a default is read as if it were given; a flag takes no value
    assert run(cpu, *required).returncode == 0
    assert len(pd.read_csv(out)) == 4
    memory = [bin_dir / "memory", "--out", out, "--sizes-mib", "1", "--trials", "1"]
    assert run(*memory, "--touch-first").returncode == 0
    # a program without a CSV takes no --out, and its own checks still exit 64
    isolation = bin_dir.parent / "isolation"
    build(isolation, ["isolation"], cc)
    refused = run(isolation / "isolation", "--out", out)
    assert refused.returncode == 64 and "unknown option '--out'" in refused.stderr
    refused = run(isolation / "isolation", "--strings", "5000", "--sent", out, "--log", out)
    assert refused.returncode == 64 and "--strings: at most 1024" in refused.stderr


COUNTING_CALLEE = """/* E10's library with a count of the calls each of its functions receives */
#include <stdio.h>
#define callee_step real_callee_step
#define callee_sum real_callee_sum
#define callee_call_back real_callee_call_back
#include "crossing_callee.c"
#undef callee_step
#undef callee_sum
#undef callee_call_back
static long steps, sums, backs;
uint64_t callee_step(uint64_t x) { steps++; return real_callee_step(x); }
uint64_t callee_sum(const unsigned char *b, size_t n, uint64_t x)
{ sums++; return real_callee_sum(b, n, x); }
uint64_t callee_call_back(uint64_t (*fn)(uint64_t), uint64_t x)
{ backs++; return real_callee_call_back(fn, x); }
__attribute__((destructor)) static void report(void)
{ fprintf(stderr, "callee calls: %ld %ld %ld\\n", steps, sums, backs); }
"""


def crossing_rows(binary, out, *args):
    done = run(binary, "--out", out, "--calls", "1000", *args)
    assert done.returncode == 0, done.stderr
    calls = re.search(r"callee calls: (\d+) (\d+) (\d+)", done.stderr)
    return pd.read_csv(out), tuple(int(c) for c in calls.groups())


def test_crossing_runs_its_kinds_in_a_seeded_order_after_an_unkept_warm_up(tmp_path, cc):
    bin_dir = build(tmp_path / "bin", ["crossing"], cc)
    source = tmp_path / "counting_callee.c"
    source.write_text(COUNTING_CALLEE)
    lib = programs.get("crossing_callee").output
    flags = ["-O2", "-fPIC", "-shared", "-I", str(SOURCES)]
    subprocess.run([cc, *flags, "-o", bin_dir / lib, source], check=True)
    binary, out = bin_dir / "crossing", tmp_path / "raw.csv"

    rows, calls = crossing_rows(binary, out, "--trials", "6")
    assert len(rows) == 24 and (rows.status == "ok").all()
    # every library function ran one loop per trial and one in the warm-up, which left no row
    assert calls == (7000, 7000, 7000)
    for _, trial in rows.groupby("trial"):
        assert list(trial.position) == [1, 2, 3, 4]
        assert sorted(trial.kind) == ["buffer", "callback", "library", "local"]
    orders = rows.groupby("trial").kind.apply(tuple)
    assert orders.nunique() > 1  # not one fixed order

    # the order comes from the seed (1 unless given) and the trial, whichever process runs it
    order = ["trial", "position", "kind"]
    again, _ = crossing_rows(binary, out, "--trials", "6", "--seed", "1")
    assert again[order].equals(rows[order])
    other, _ = crossing_rows(binary, out, "--trials", "6", "--seed", "2")
    assert not other[order].equals(rows[order])
    window, calls = crossing_rows(binary, out, "--trials", "6", "--skip", "5", "--limit", "6")
    assert window[order].equals(rows[order].iloc[5:11].reset_index(drop=True))
    library_rows = window.kind.value_counts()
    assert calls[0] == 1000 * (1 + library_rows.get("library", 0))
    # a process whose window holds no unit times nothing and warms nothing up
    empty, calls = crossing_rows(binary, out, "--trials", "6", "--skip", "24")
    assert len(empty) == 0 and calls == (0, 0, 0)
