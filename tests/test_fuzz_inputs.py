"""Every reader of outside input, fed malformed files: the study's CSV layouts, the package's raw
CSVs and their meta.json, dataset.yaml, the config, and E6's logs (procstat -v regions, the
strings exchanged, the reader's dump). Each case goes through the command the workflow runs
(c18n_ae.analysis.analyse, the config loading of every --config command, and the data-set check
at workflow load), called in this process for speed; a few go through the real commands too.

A case passes when the reader refuses the file with a message naming it (and a line or key) and a
non-zero exit, never a Python traceback; it may accept the file only where the mutation leaves it
valid (-0 is a number; YAML reads 0x10 as 16; a log's dump holds any bytes). Seeded: the same
cases on every run."""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
import yaml

from c18n_ae import experiments as exp
from c18n_ae.analysis import analyse, imports
from c18n_ae.common.rawcsv import RawDataError
from conftest import ROOT, compile_benchmark

SEED = 26
MUTATIONS = (
    "random bytes",
    "utf-16",
    "empty",
    "header only",
    "long line",
    "nul",
    "1e400",
    "nan",
    "-0",
    "0x10",
    "truncated",
)
NUMBERS = {"1e400", "nan", "-0", "0x10"}
STUDY = ROOT / "datasets" / "morello-2024"
STUDY_FILES = {  # layout -> a shipped file in it
    "memory": "memory/hybrid.csv",
    "cpu": "cpu/hybrid.csv",
    "pipe": "pipe/hybrid.csv",
    "scale": "compartments/purecap-c18n.csv",
    "isolation-pipe": "isolation/purecap-c18n-pipe.csv",
}
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
LOGS = ("execution-results.txt", "memory-regions-results.txt", "memory-reading-results.txt")
# mutations after which a file may still be valid, by reader
MAY_PASS = {
    "study": {"-0"},
    "raw": {"-0"},
    "meta.json": {"-0", "1e400", "nan", "0x10"},  # a number in meta.json the analysis never reads
    "dataset.yaml": {"-0", "0x10", "1e400", "nan", "truncated"},
    "config": {"-0", "0x10", "truncated"},
    "execution-results.txt": {"long line", "nul", "-0", "0x10", "1e400", "nan", "truncated"},
    "memory-regions-results.txt": {"-0", "0x10", "long line", "nul", "truncated"},
    # the reader's dump: any bytes, of a length the log does not state (a cut end is not seen)
    "memory-reading-results.txt": {"long line", "nul", "-0", "0x10", "1e400", "nan", "truncated"},
}


# --- mutations -----------------------------------------------------------------------------


def mutate(rng: random.Random, seed: bytes, how: str, numbers: re.Pattern) -> bytes:
    lines = seed.split(b"\n")
    if how == "random bytes":
        return rng.randbytes(rng.randint(1, 4096))
    if how == "utf-16":
        return seed.decode("utf-8", "replace").encode("utf-16")
    if how == "empty":
        return b""
    if how == "header only":
        return lines[0] + b"\n"
    if how == "long line":
        i = rng.randrange(1, max(2, len(lines) - 1))
        line = rng.choice([b"7" * 10**6, b"x" * 10**6, b"," * 10**6, b"1," * (10**6 // 2)])
        return b"\n".join([*lines[:i], line, *lines[i:]])
    if how == "truncated":
        body = seed.rstrip(b"\n")
        last = body.rfind(b"\n")
        return body[: rng.randint(last + 2, len(body) - 1)] if len(body) - last > 2 else body[:-1]
    # a number in the file (or a byte NUL in one) replaced
    spots = list(numbers.finditer(seed)) or [re.compile(rb"\S+").search(seed)]
    m = rng.choice([m for m in spots if m.start() > len(lines[0])] or spots)
    new = m.group(0) + b"\0" + m.group(0) if how == "nul" else how.encode()
    return seed[: m.start()] + new + seed[m.end() :]


CSV_NUMBER = re.compile(rb"(?<=[,\n])[0-9][0-9.]*(?=[,\r\n])")
YAML_NUMBER = re.compile(rb"(?<=: )[0-9][0-9.]*(?=\s)|(?<=\[)[0-9]+(?=[,\]])")
PROCSTAT_NUMBER = re.compile(rb"(?<= )0x[0-9a-f]+(?= )|(?<= )[0-9]+(?= )")
TEXT_NUMBER = re.compile(rb"[0-9]+")


# --- the readers, as the workflow calls them -----------------------------------------------


def command(main, argv) -> tuple[int, str]:
    """(exit status, what it said) of a command's main(), run here."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            main(argv)
    except SystemExit as e:
        if isinstance(e.code, str):
            return 1, e.code
        return e.code or 0, said.getvalue()
    return 0, said.getvalue()


def at_workflow_load(folder: Path) -> tuple[int, str]:
    """What the Snakefile does with a data set before any job: check it and list its files."""
    try:
        imports.dataset_files_by_experiment([str(folder)])
    except RawDataError as e:
        return 1, str(e)
    return 0, ""


def analyse_command(tmp: Path, experiment: str, *args) -> tuple[int, str]:
    out = ["--tidy", tmp / "t.csv", "--summary", tmp / "s.csv", "--comparisons", tmp / "c.csv"]
    return command(analyse.main, ["--experiment", experiment, *map(str, out), *map(str, args)])


def data_set(folder: Path, entries: list[dict]) -> None:
    """The study's data set with only these files: its dataset.yaml, the source and binaries its
    evidence cites and the data set's own logs it cites (hard links, which stay inside the
    folder, apart from the files a case mutates)."""
    meta = yaml.dump(fuzz_meta(entries), Dumper=DUMPER, sort_keys=False)
    (folder / "dataset.yaml").write_text(meta)
    for cited in ("source", "binaries"):  # the binaries: the calls facts' evidence
        if (STUDY / cited).is_dir() and not (folder / cited).exists():
            shutil.copytree(STUDY / cited, folder / cited, copy_function=os.link)
    for cited in own_logs_cited():
        (folder / cited).parent.mkdir(parents=True, exist_ok=True)
        if not (folder / cited).exists():
            os.link(STUDY / cited, folder / cited)


@functools.cache
def own_logs_cited() -> tuple[str, ...]:
    """The data set's own files its evidence cites (the kernel's, a run's revocation)."""
    from c18n_ae.common.evidence import _own_logs, cited

    return tuple(sorted({e["file"] for k, _, e in cited(study_meta()) if _own_logs(k, e)}))


def fuzz_meta(entries: list[dict]) -> dict:
    return {**study_meta(), "name": "fuzz", "files": entries}


@functools.cache
def study_meta() -> dict:
    meta = yaml.safe_load((STUDY / "dataset.yaml").read_text())
    for key in ("documents", "declared_rows", "hosts"):  # each names files the case lacks
        meta.pop(key, None)
    return meta


def read_study(tmp: Path, layout: str, data: bytes, declared: bool) -> tuple[int, str]:
    (tmp / "f.csv").write_bytes(data)
    entry = {"path": "f.csv", "variant": "hybrid", **({"layout": layout} if declared else {})}
    data_set(tmp, [entry])
    status, said = at_workflow_load(tmp)
    if status:
        return status, said
    experiment = imports.layouts()[layout][0]
    return analyse_command(tmp, experiment, "--dataset-file", tmp / "f.csv")


def read_raw(tmp: Path, experiment: str, raw: bytes, meta: bytes) -> tuple[int, str]:
    run = tmp / "results" / "local" / "O2" / experiment
    run.mkdir(parents=True)
    (run / "raw.csv").write_bytes(raw)
    (run / "meta.json").write_bytes(meta)
    return analyse_command(tmp, experiment, "--reference", "local=O2", run / "raw.csv")


def read_dataset_yaml(tmp: Path, data: bytes) -> tuple[int, str]:
    (tmp / "memory").mkdir()
    shutil.copy(STUDY / STUDY_FILES["memory"], tmp / "memory" / "hybrid.csv")
    data_set(tmp, [])
    (tmp / "dataset.yaml").write_bytes(data)
    status, said = at_workflow_load(tmp)
    if status:
        return status, said
    return analyse_command(tmp, "memory", "--dataset-file", tmp / "memory" / "hybrid.csv")


def read_config(tmp: Path, data: bytes) -> tuple[int, str]:
    (tmp / "config.yaml").write_bytes(data)

    def main(argv):
        exp.config_from_arguments(argparse.Namespace(config=[Path(argv[0])]))

    return command(main, [str(tmp / "config.yaml")])


def read_logs(tmp: Path, name: str, data: bytes) -> tuple[int, str]:
    logs = tmp / "logs"
    shutil.copytree(STUDY / "isolation" / "study-logs", logs)
    (logs / name).write_bytes(data)
    entry = {"path": "logs", "variant": "benchmark-c18n", "layout": "isolation-logs"}
    data_set(tmp, [entry])
    status, said = at_workflow_load(tmp)
    if status:
        return status, said
    return analyse_command(tmp, "isolation", "--dataset-file", logs)


# --- the cases -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def raw_seeds(tmp_path_factory, cc) -> dict[str, tuple[bytes, bytes]]:
    """experiment -> (raw.csv, meta.json) as the real programs write them (tiny sizes)."""
    tmp = tmp_path_factory.mktemp("seeds")
    args = {
        "cpu": ["--trials", "2", "--iterations", "2000", "--array-size", "500"],
        "pipe": ["--trials", "3", "--size", "64", "--batch", "5"],
    }
    out = {}
    for experiment, flags in args.items():
        exe = compile_benchmark(cc, experiment, tmp / experiment)
        subprocess.run([exe, "--out", tmp / f"{experiment}.csv", *flags], check=True)
        meta = {"target": "local", "variant": "O2", "experiment": experiment, "trials": 2}
        out[experiment] = ((tmp / f"{experiment}.csv").read_bytes(), json.dumps(meta).encode())
    return out


def study_seed(layout: str) -> bytes:
    lines = (STUDY / STUDY_FILES[layout]).read_bytes().split(b"\n")
    return b"\n".join(lines[:12] + lines[-4:])


def cases(raw_seeds):
    """(reader, mutation, how to read the mutated bytes) for every reader, seeded."""
    rng = random.Random(SEED)
    config = (ROOT / "config" / "config.yaml").read_bytes() + (
        b"experiments: {memory: {trials: 5, block_sizes_mib: [16, 32]}, cpu: {trials: 3}}\n"
    )
    entries = [{"path": "memory/hybrid.csv", "variant": "hybrid"}]
    dataset_yaml = yaml.dump(fuzz_meta(entries), Dumper=DUMPER, sort_keys=False).encode()
    for repeat in range(2):
        for how in MUTATIONS:
            for layout in STUDY_FILES:
                data = mutate(rng, study_seed(layout), how, CSV_NUMBER)
                declared = rng.random() < 0.5
                yield "study", how, lambda t, d=data, x=layout, y=declared: read_study(t, x, d, y)
            for experiment, (raw, meta) in raw_seeds.items():
                data = mutate(rng, raw, how, CSV_NUMBER)
                yield "raw", how, lambda t, d=data, e=experiment, m=meta: read_raw(t, e, d, m)
                data = mutate(rng, meta, how, TEXT_NUMBER) if how != "header only" else b"{"
                yield "meta.json", how, lambda t, d=data, e=experiment, r=raw: read_raw(t, e, r, d)
            data = mutate(rng, dataset_yaml, how, YAML_NUMBER)
            yield "dataset.yaml", how, lambda t, d=data: read_dataset_yaml(t, d)
            data = mutate(rng, config, how, YAML_NUMBER)
            yield "config", how, lambda t, d=data: read_config(t, d)
            for name in LOGS:
                if repeat and name != "memory-regions-results.txt":
                    continue  # the procstat listing, the most structured, gets more cases
                seed = (STUDY / "isolation" / "study-logs" / name).read_bytes()
                pattern = PROCSTAT_NUMBER if name.startswith("memory-regions") else TEXT_NUMBER
                data = mutate(rng, seed, how, pattern)
                yield name, how, lambda t, d=data, n=name: read_logs(t, n, d)


def test_every_reader_refuses_malformed_input_by_name(raw_seeds, tmp_path):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    problems, n = [], 0
    for i, (reader, how, read) in enumerate(cases(raw_seeds)):
        n += 1
        case = tmp_path / f"case{i}"
        case.mkdir()
        try:
            status, said = read(case)
        except Exception:
            problems.append(f"{reader}, {how}: traceback\n{traceback.format_exc()[-400:]}")
            continue
        finally:
            shutil.rmtree(case)
        if status == 0:
            if how not in MAY_PASS[reader]:
                problems.append(f"{reader}, {how}: accepted")
            continue
        named = reader if reader in ("dataset.yaml", "meta.json") else None
        named = named or {"study": "f.csv", "raw": "raw.csv", "config": "config.yaml"}.get(reader)
        named = named or reader
        if named not in said or "Traceback" in said:
            problems.append(f"{reader}, {how}: refused without naming {named}: {said[:300]!r}")
        elif not re.search(rf"{re.escape(named)}(:\d+: |: \S)", said):
            problems.append(f"{reader}, {how}: no line or key: {said[:300]!r}")
        if how == "empty" and "empty" not in said:
            problems.append(f"{reader}, {how}: does not say the file is empty: {said[:300]!r}")
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert n >= 250, n
    assert not problems, f"{len(problems)} of {n} cases:\n" + "\n".join(problems)
    assert grown_mib < 400, f"peak memory grew by {grown_mib:.0f} MiB"


@pytest.mark.parametrize(
    "module, make",
    [
        ("c18n_ae.analysis.analyse", "empty study file"),
        ("c18n_ae.analysis.analyse", "utf-16 raw file"),
        ("c18n_ae.targets.provenance", "random-byte config"),
    ],
)
def test_the_real_commands_exit_with_the_message(tmp_path, module, make):
    """The same refusals through the commands themselves: a message, a non-zero exit and no
    traceback on stderr."""
    out = ["--tidy", "t.csv", "--summary", "s.csv", "--comparisons", "c.csv"]
    if make == "empty study file":
        (tmp_path / "f.csv").write_bytes(b"")
        data_set(tmp_path, [{"path": "f.csv", "variant": "hybrid", "layout": "memory"}])
        args = ["--experiment", "memory", "--dataset-file", "f.csv", *out]
        named = "f.csv"
    elif make == "utf-16 raw file":
        run = tmp_path / "r"
        run.mkdir()
        (run / "raw.csv").write_bytes("started_unix_ns,trial\n1,1\n".encode("utf-16"))
        (run / "meta.json").write_text('{"target": "local", "variant": "O2"}')
        args = ["--experiment", "cpu", *out, "r/raw.csv"]
        named = "raw.csv"
    else:
        (tmp_path / "c.yaml").write_bytes(random.Random(SEED).randbytes(300))
        args = ["--config", "c.yaml", "--target", "local", "--out", "p.json"]
        named = "c.yaml"
    done = subprocess.run(
        [sys.executable, "-m", module, *args], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert named in done.stderr, done.stderr


# --- what CheriBSD's tools print, read by the board checks -----------------------------------


def test_the_board_tool_readers_say_none_rather_than_guess_or_fail():
    """The readers of procstat c18n, procstat -v, proccontrol, sysctl, pmcstat and the run-time
    linker's statistics read a board's command output, not a file: on malformed output each
    returns None (or leaves the line out), and the board check names what it could not read;
    never an exception, and a result always of the declared type."""
    from c18n_ae.targets import board_tools as tools

    procstat_v = (STUDY / "isolation" / "study-logs" / "memory-regions-results.txt").read_bytes()
    seeds = {
        "procstat_c18n": b"  PID COMM                 COMP  STKS  TRMPS TRPGS   MEM\n"
        b" 4242 crossing                4     3     27     1   72K\n",
        "procstat_vm": procstat_v,
        "proccontrol_query": b"force disabled, not active\n",
        "sysctl_values": b"kern.features.invariants=1\nkern.hz=1000\n",
        "pmcstat_counts": b"# p/CPU_CYCLES p/INST_RETIRED \n    1000     1500 \n   25000  37500 \n",
        "od_bytes": b" 01 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00\n",
    }
    calls = {
        "procstat_c18n": lambda t: tools.procstat_c18n(t, 4242),
        "procstat_vm": lambda t: tools.procstat_vm(t, 25998),
        "proccontrol_query": tools.proccontrol_query,
        "sysctl_values": tools.sysctl_values,
        "pmcstat_counts": tools.pmcstat_counts,
        "od_bytes": lambda t: tools.rtld_stats(tools.od_bytes(t)),
    }
    rng, problems = random.Random(SEED), []
    for _ in range(4):
        for name, seed in seeds.items():
            for how in MUTATIONS:
                data = mutate(rng, seed, how, TEXT_NUMBER)
                text = data.decode("utf-8", "replace")
                try:
                    got = calls[name](text)
                except Exception as e:
                    problems.append(f"{name}, {how}: {type(e).__name__}: {e}")
                    continue
                if got is not None and not isinstance(got, dict):
                    problems.append(f"{name}, {how}: returned {type(got).__name__}")
    assert not problems, "\n".join(problems)


# --- YAML structure: config files and dataset.yaml -------------------------------------------

# Mutations of a YAML file's structure and text, each of which the strict reader, the schemas or
# the config checks must refuse naming the file and the line or key (common.schemas.StrictLoader):
# none may pass.
YAML_MUTATIONS = (
    "repeated key",
    "alias bomb",
    "alias loop",
    "deep nesting",
    "wrong type",
    "control character",
    "line break",
    "other script",
    "hostile name",
    "overlong path",
)
YAML_SEED = 32
BOMB = (
    "["
    + ", ".join(
        ["&a0 [" + ", ".join(["lol"] * 9) + "]"]
        + [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    )
    + "]"
)
KEY_LINE = re.compile(r"^(\s*)(- )?([A-Za-z_][\w.-]*): (\S.*)$")
STRANGE = {
    "control character": ["\\a", "\\x1b[31m", "\\0", "\\x7f"],
    "line break": ["\\u2028", "\\u2029", "\\n", "\\n\\n", "\\r"],
    "other script": ["日本語", "\\U0001F600", "Ελληνικά", "\\u200b"],
}
HOSTILE = ["a..b", "x;touch pwned", "../up", "-rf", "$(id)", "b c"]


def yaml_seeds() -> dict[str, str]:
    """reader -> a file it reads, written one key per line: the shipped config with an SSH target
    (its words and options are fuzzed too), and the study's dataset.yaml."""
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["targets"].append(
        {
            "name": "board",
            "kind": "ssh",
            "host": "board.example",
            "workdir": "c18n-ae",
            "python": "python3",
            "identity_file": "~/.ssh/id_ed25519",
            "reboot_command": "shutdown -r now",
            "ssh_options": ["-o", "ConnectTimeout=30"],
            "reference_variant": "O2",
            "variants": [{"name": "O2", "cc": "cc", "cflags": ["-O2"]}],
        }
    )
    entries = [{"path": "memory/hybrid.csv", "variant": "hybrid"}]
    dump = functools.partial(yaml.dump, Dumper=DUMPER, sort_keys=False, width=10**6)
    return {"config": dump(config), "dataset.yaml": dump(fuzz_meta(entries))}


def is_text(value: str) -> bool:
    """A plain string value the mutations can replace (not a number, flag, list or mapping)."""
    return bool(re.fullmatch(r"[A-Za-z~'][^#{}\[\]&*]*", value)) and value not in ("true", "false")


def mutate_yaml(rng: random.Random, text: str, how: str) -> tuple[str, str]:
    """(the mutated text, the key it touched)."""
    lines = text.split("\n")
    spots = [(i, KEY_LINE.match(x)) for i, x in enumerate(lines) if KEY_LINE.match(x)]
    if how == "overlong path":
        paths = [i for i, x in enumerate(lines) if re.search(r"(path|file): |^- [a-z]", x)]
        i = rng.choice(paths)
        key = KEY_LINE.match(lines[i]).group(3) if KEY_LINE.match(lines[i]) else "datasets["
        key = "evidence[" if key == "file" else key  # an evidence entry is named by its index
        lines[i] = re.sub(r"(: |^- )\S.*$", lambda m: m.group(1) + "x" * 300, lines[i])
        return "\n".join(lines), key
    if how == "hostile name":
        spots = [(i, m) for i, m in spots if m.group(3) == "name"]
    elif how in ("wrong type", *STRANGE):
        spots = [(i, m) for i, m in spots if is_text(m.group(4))]
    i, m = rng.choice(spots)
    indent, item, key, value = m.groups()
    if how == "repeated key":
        inner = indent + ("  " if item else "")
        lines.insert(i + 1, f"{inner}{key}: {value}")
        return "\n".join(lines), key
    new = {
        "alias bomb": BOMB,
        "alias loop": "&loop [1, *loop]",
        "deep nesting": "[" * 70 + "]" * 70,
        "wrong type": "{x: 1}",
        "hostile name": f"'{rng.choice(HOSTILE)}'",
    }.get(how) or f'"{value.strip(chr(39))}{rng.choice(STRANGE[how])}"'
    lines[i] = f"{indent}{item or ''}{key}: {new}"
    return "\n".join(lines), key


def yaml_cases():
    rng = random.Random(YAML_SEED)
    seeds = yaml_seeds()
    for reader, seed in seeds.items():
        for how in YAML_MUTATIONS:
            for _ in range(4):
                text, key = mutate_yaml(rng, seed, how)
                read = read_config if reader == "config" else read_dataset_yaml
                yield reader, how, key, lambda t, d=text.encode(), r=read: r(t, d)


def test_yaml_structure_names_and_text_are_refused_by_file_and_key(tmp_path):
    """Every YAML mutation refused with a message naming the file and a line or the key it
    touched, never a traceback, in bounded time and memory; the README states the counts."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    problems, outcomes, n = [], {"refused by name": 0, "accepted": 0, "traceback": 0}, 0
    for i, (reader, how, key, read) in enumerate(yaml_cases()):
        n += 1
        case = tmp_path / f"case{i}"
        case.mkdir()
        try:
            status, said = read(case)
        except Exception:
            outcomes["traceback"] += 1
            problems.append(f"{reader}, {how}: traceback\n{traceback.format_exc()[-400:]}")
            continue
        finally:
            shutil.rmtree(case)
        named = "config.yaml" if reader == "config" else "dataset.yaml"
        if status == 0:
            outcomes["accepted"] += 1
            problems.append(f"{reader}, {how} ({key[:40]}): accepted")
        elif not (re.search(rf"{named}:\d+: ", said) or (named in said and key[:200] in said)):
            problems.append(
                f"{reader}, {how} ({key[:40]}): no file and line or key: {said[:300]!r}"
            )
        elif "Traceback" in said or len(said) > 3000:
            problems.append(
                f"{reader}, {how}: a traceback or {len(said)} characters: {said[:300]!r}"
            )
        else:
            outcomes["refused by name"] += 1
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert not problems, f"{len(problems)} of {n} cases:\n" + "\n".join(problems)
    assert grown_mib < 200, f"peak memory grew by {grown_mib:.0f} MiB"
    stated = f"{n} cases of YAML structure, {outcomes['refused by name']} refused by name"
    assert stated in " ".join((ROOT / "README.md").read_text().split()), stated
