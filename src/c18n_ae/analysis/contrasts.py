"""What differs between two variants of one source beyond the ABI and the compartments: the
compiler, the optimisation level, and the allocator and revocation settings where they are
recorded. A contrast of a compartment variant against one without is a compartment cost only when
nothing else differs; otherwise it is confounded by what else differs, its name says so
("purecap-benchmark -O2 in compartments against hybrid -O0 without") and a claim resting on it is
decided "confounded", never holds or fails.

The facts come from the configuration's variants (cc, cflags, and allocator or revocation when a
variant names them) and from each data set's variant entries in dataset.yaml, where the study
built each experiment's programs differently, one build per list of experiments, and where its
processes ran with heap revocation or without, one entry per experiment whose timed code frees
memory (restricted to the metrics whose timed region holds a malloc or free):

    variants:
      benchmark-c18n:
        builds:
          - experiments: [cpu, pipe]
            compiler: cc
            cflags: [-g, -O2, -Wall, -march=morello+c64, -mabi=purecap-benchmark]
            optimisation: -O2
            evidence: [...]
        runtime:
          - experiments: [memory]
            metrics: [malloc_ns, free_ns]
            revocation: "on"
            evidence: [...]

A fact recorded on one side only, or "not recorded", is not a confound: nothing is claimed that
was not recorded; a board recorded on one side only is said beside the verdict, in words ("the
purecap-c18n files name host morello-camb-3 but the hybrid files name no host, so the two may come
from different boards"), for the two may have run on two boards.
Differences are graded: a contrast is confounded only by what is known to change the quantity (an
optimisation level; heap revocation or the allocator where the metric's timed region allocates or
frees; a different board, where the data set records each file's host; a board run's recorded
state); a difference of name alone (the compiler `clang` against `clang-morello` at the same -O
level) leaves the verdict standing, "possibly also" named beside it (`possibly_also`).
Heap revocation is a confound like the build: a CheriABI process on a kernel
that revokes by default quarantines what it frees and sweeps for stale capabilities, a hybrid
process does not, so a malloc or free ratio of the two is partly the allocator's, not the
compartments'.

A board run records, per variant, the state it ran under (meta.json beside its raw.csv:
checks.board.variants.<variant>.state: kernel, debug kernel, heap revocation default and the
process's own, c18n default, CPU frequency and powerd). A contrast of two variants of one target
is confounded by each key of that state whose recorded values differ between its two variants
("debug kernel yes against no", "heap revocation on against off"), each variant's own meta.json
read for its own state; compartments are what the names say and never a confound, and a key a
variant declares (its `revocation:` axis, or the key named in its `differs:`) is what the contrast
is about, not a confound (common.board_config.state_differences)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from c18n_ae.common import board_config, call_sites
from c18n_ae.common import config as cfg

FACTS = ("compiler", "optimisation", "allocator", "revocation", "host")
# differences of name alone: not known to change a quantity by themselves (the optimisation level
# is its own fact), so they are named beside a verdict ("possibly also"), never a confound
NAME_ONLY = ("compiler",)
# how a fact reads in a confound and a contrast's name ("heap revocation on against off"); the
# build's facts read as their values ("cc -O2"), the run's in parentheses ("(heap revocation on)");
# a board run's recorded state by its key (board_config.STATE_KEYS, process_revocation)
LABELS = {
    "revocation": "heap revocation",
    "host": "board",
    "process_revocation": "heap revocation",
    "kernel_ident": "kernel",
    "debug_kernel": "debug kernel",
    "revocation_default": "heap revocation default",
    "c18n_default": "c18n default",
    "cpu_freq_mhz": "CPU frequency",
    "powerd": "CPU frequency policy",
}
STATE = (*board_config.STATE_KEYS, "process_revocation")  # in the order a confound names them
STATE_VALUES = {
    "debug_kernel": {True: "yes", False: "no"},
    "revocation_default": {"1": "on", "0": "off"},
    "c18n_default": {"1": "on", "0": "off"},
    "powerd": {True: "powerd", False: "no powerd"},
}
RUNTIME = ("allocator", "revocation", "host")
UNKNOWN = "not recorded"
DEFAULT_OPTIMISATION = "-O0"  # clang's level when a recorded command line names none


def _compiler(text) -> str | None:
    """The compiler's name, the first word of a recorded compiler ('clang-morello, no -O flag')."""
    if not text:
        return None
    return str(text).replace(",", " ").split()[0]


def _applies(part: dict, experiment: str | None, metric: str | None) -> bool:
    """A build or run entry applies to the experiment, and, where it names metrics, to the metric
    (a metric's *_incl_warmup_ns twin counts as the metric; no metric given: only entries that
    name none)."""
    if experiment not in part.get("experiments", []):
        return False
    metrics = part.get("metrics")
    if not metrics:
        return True
    return metric is not None and metric.replace("_incl_warmup_ns", "_ns") in metrics


def facts(entry: dict, experiment: str | None = None, metric: str | None = None) -> dict:
    """The recorded facts of one variant (a config variant or a data set's variant entry), with
    the experiment's build and run entries (for the metric, where they name metrics) over the
    variant's own: {abi, c18n, compiler, optimisation, allocator, revocation, host,
    compiler_build}; None where not recorded."""
    merged = {k: v for k, v in entry.items() if v != UNKNOWN}
    parts = [*(entry.get("builds") or []), *(entry.get("runtime") or [])]
    for part in [*parts, *(entry.get("hosts") or []), *(entry.get("binaries_record") or [])]:
        if _applies(part, experiment, metric):
            merged.update({k: v for k, v in part.items() if v != UNKNOWN})
    cflags = merged.get("cflags")
    flags = [str(f) for f in cflags] if isinstance(cflags, list) else None
    levels = [f for f in flags or [] if f.startswith("-O")]
    optimisation = merged.get("optimisation")
    if optimisation is None and flags is not None:
        optimisation = levels[-1] if levels else DEFAULT_OPTIMISATION
    return {
        "abi": merged.get("abi"),
        "c18n": bool(merged.get("c18n", False)),
        "compiler": _compiler(merged.get("compiler", merged.get("cc"))),
        "optimisation": optimisation,
        "allocator": merged.get("allocator"),
        "revocation": merged.get("revocation"),
        "host": merged.get("host"),
        # the compiler build the experiment's binaries record (dataset_variants), where they do
        "compiler_build": merged.get("compiler_build"),
    }


def experiment_of(path: str) -> str:
    """The experiment of a data set's file, by its folder (compartments/ holds E1's, scale)."""
    top = Path(path).parts[0]
    return {"compartments": "scale"}.get(top, top)


def hosts_of(meta: dict) -> dict[str, list[dict]]:
    """variant -> [{experiments: [e], host}] for each of a data set's files whose host its
    `hosts` entries record (dataset.yaml: the host named in the lines that ran or built it)."""
    out: dict[str, list[dict]] = {}
    for h in meta.get("hosts", []):
        for path in h.get("files", []):
            entry = next((f for f in meta.get("files", []) if f["path"] == path), None)
            if entry is not None:
                part = {"experiments": [experiment_of(path)], "host": h["host"]}
                out.setdefault(entry["variant"], []).append(part)
    return out


def builds_of(meta: dict) -> dict[str, list[dict]]:
    """variant -> [{experiments: [e], compiler_build}] for each experiment whose binaries in the
    data set record the variant's compiler (call_sites.compilers_by_experiment)."""
    out: dict[str, list[dict]] = {}
    for e, records in call_sites.compilers_by_experiment(meta).items():
        for v, record in records.items():
            out.setdefault(v, []).append({"experiments": [e], "compiler_build": record})
    return out


def dataset_variants(meta: dict) -> dict[str, dict]:
    """A data set's variant -> its entry as written, with the host of each of its files where
    recorded (hosts_of) and the compiler build its binaries record, per experiment (builds_of)."""
    hosts, builds = hosts_of(meta), builds_of(meta)
    return {
        v: {**e, "hosts": hosts.get(v, []), "binaries_record": builds.get(v, [])}
        for v, e in meta["variants"].items()
    }


def variants_of(config: dict) -> dict[str, dict[str, dict]]:
    """source (target or data set) -> variant -> its recorded entry, as written, with the host of
    each of a data set's files where recorded."""
    out = {t["name"]: {v["name"]: v for v in t["variants"]} for t in config.get("targets", [])}
    for d in cfg.datasets(config):
        out[d["name"]] = dataset_variants(d)
    return out


def differences(a: dict, b: dict) -> list[tuple[str, str, str]]:
    """(fact, a's value, b's value) for each fact recorded on both sides that differs, beyond
    ABI and compartments; compilers of two names whose binaries record one build are one
    compiler (A205, B205, A206, B206, A209, B209, R209: 'possibly also: compiler cc against
    clang-morello' read against the binaries' one clang 14.0.0)."""
    build = a.get("compiler_build")
    same = {"compiler"} if build and build == b.get("compiler_build") else set()
    return [
        (k, str(a[k]), str(b[k])) for k in FACTS if k not in same and a[k] and b[k] and a[k] != b[k]
    ]


def _confound(k: str, x: str, y: str) -> str:
    """'optimisation -O2 against -O0', 'heap revocation on against off'."""
    return f"{LABELS.get(k, k)} {x} against {y}"


def confound_kinds(confounded_by: str) -> list[str]:
    """The kinds of fact a row's confounds name ('compiler', 'heap revocation'), in order."""
    items = [x.strip() for x in str(confounded_by or "").split(";") if x.strip()]
    # the longest first: "heap revocation default on against off" is not "heap revocation"
    labels = sorted({LABELS.get(k, k) for k in (*FACTS, *STATE)}, key=len, reverse=True)
    return [next((k for k in labels if x.startswith(f"{k} ")), x) for x in items]


def _side(k: str, value: str) -> str:
    """One side's value in a contrast's name: the build's as is, the run's named."""
    return f"({LABELS.get(k, k)} {value})" if k in RUNTIME else value


def _treated(a: dict, b: dict) -> bool:
    """The two differ in ABI or compartments: the contrast is meant to measure those."""
    return a["abi"] != b["abi"] or a["c18n"] != b["c18n"]


def confounds(a: dict, b: dict) -> list[str]:
    """What else differs when a contrast is about ABI or compartments and is known to change the
    quantity ('optimisation -O2 against -O0'); nothing when the two differ in nothing else, only
    in a name (possibly), or only in the one thing that they are compared on (two builds of one
    ABI that differ in optimisation measure the optimisation)."""
    if not _treated(a, b):
        return []
    return [_confound(*d) for d in differences(a, b) if d[0] not in NAME_ONLY]


def possibly(a: dict, b: dict, subject: str = "", baseline: str = "") -> list[str]:
    """What else differs in name alone when a contrast is about ABI or compartments ('compiler
    clang against clang-morello'), and a host named by one side's files only, in words (subject
    and baseline: the two variants' names): said beside its verdict, which stands."""
    if not _treated(a, b):
        return []
    out = [_confound(*d) for d in differences(a, b) if d[0] in NAME_ONLY]
    if bool(a["host"]) != bool(b["host"]):  # one side's board recorded, the other's not
        (named, host), other = (subject, a["host"]), baseline
        if not host:
            (named, host), other = (baseline, b["host"]), subject
        # no semicolon: a row's differences are '; '-joined
        out.append(HOST_ONE_SIDE.format(named=named or "one", host=host, other=other or "other"))
    return out


# a board recorded on one side only, in possibly()'s words (read back by read_possibly)
HOST_ONE_SIDE = (
    "the {named} files name host {host} but the {other} files name no host, so the two may come "
    "from different boards"
)


def read_possibly(text: str) -> list[dict]:
    """possibly()'s '; '-joined words read back into their parts, for a reader that words them
    otherwise: {'kind': 'compiler', 'subject': 'cc', 'baseline': 'clang'} for a name alone,
    {'kind': 'host', 'named': 'purecap-c18n', 'host': 'morello-camb-3', 'other': 'hybrid'} for a
    board named by one side's files only, {'kind': '', 'text': ...} for anything else."""
    host = re.escape(HOST_ONE_SIDE).replace(r"\{named\}", r"(?P<named>\S+)")
    host = host.replace(r"\{host\}", r"(?P<host>\S+)").replace(r"\{other\}", r"(?P<other>\S+)")
    names = "|".join(re.escape(LABELS.get(k, k)) for k in NAME_ONLY)
    out = []
    for part in (x for x in str(text or "").split("; ") if x):
        if m := re.fullmatch(host, part):
            out.append({"kind": "host", **m.groupdict()})
        elif m := re.fullmatch(rf"({names}) (\S+(?: \S+)?) against (\S+(?: \S+)?)", part):
            out.append({"kind": m[1], "subject": m[2], "baseline": m[3]})
        else:
            out.append({"kind": "", "text": part})
    return out


# a difference of name alone in a few words, by kind, where a table says only which (Table 10
# says each in full)
POSSIBLY_SHORT = {"host": "two boards may differ"}


def possibly_short(text: str) -> list[str]:
    """possibly()'s words in a few words each (POSSIBLY_SHORT), a name differing by its two names
    ('compilers clang-morello and clang': a reviewer met 'compilers of two names' and learnt
    which only in Section 4.4), anything else as it is."""
    out = []
    for p in read_possibly(text):
        if p["kind"] and p["kind"] != "host" and p.get("subject"):
            out.append(f"{p['kind']}s {p['subject']} and {p['baseline']}")
        else:
            out.append(POSSIBLY_SHORT.get(p["kind"]) or p.get("text", ""))
    return out


def confounds_between_machines(a: dict, b: dict) -> list[str]:
    """The same variant on two machines is a contrast of machines; a different build (compiler,
    optimisation, ABI, compartments, allocator) on the two is mixed into it."""
    out = [_confound(*d) for d in differences(a, b) if d[0] not in NAME_ONLY]
    if _treated(a, b):
        out.insert(
            0,
            f"ABI {a['abi']} against {b['abi']}"
            if a["abi"] != b["abi"]
            else "compartments on one side only",
        )
    return out


def name(a: dict, b: dict, subject: str, baseline: str) -> str:
    """The contrast named by everything that differs: 'purecap-benchmark -O2 in compartments
    against hybrid -O0 without', 'purecap (heap revocation on) in compartments against hybrid
    (heap revocation off) without'; a variant's name where its ABI is not recorded."""
    diff = differences(a, b)
    left = " ".join([a["abi"] or subject, *(_side(k, x) for k, x, _ in diff)])
    right = " ".join([b["abi"] or baseline, *(_side(k, y) for k, _, y in diff)])
    if a["c18n"] and not b["c18n"]:
        return f"{left} in compartments against {right} without"
    if b["c18n"] and not a["c18n"]:
        return f"{left} without compartments against {right} in compartments"
    both = "both in compartments" if a["c18n"] else "neither in compartments"
    return f"{left} against {right}, {both}"


def pair(
    config_variants: dict,
    source: str,
    subject: str,
    baseline: str,
    experiment: str,
    metric: str | None = None,
):
    """The recorded facts of both sides of a contrast on one source (None when one is unknown)."""
    mine = config_variants.get(source, {})
    if subject not in mine or baseline not in mine:
        return None
    return facts(mine[subject], experiment, metric), facts(mine[baseline], experiment, metric)


def confounded_by(
    config_variants: dict,
    source: str,
    subject: str,
    baseline: str,
    experiment: str,
    metric: str | None = None,
) -> str:
    """'; '-joined confounds of subject against baseline on source ('' when none), for the
    metric where the run's facts name metrics."""
    p = pair(config_variants, source, subject, baseline, experiment, metric)
    return "; ".join(confounds(*p)) if p else ""


def possibly_also(
    config_variants: dict,
    source: str,
    subject: str,
    baseline: str,
    experiment: str,
    metric: str | None = None,
) -> str:
    """'; '-joined differences of name alone of subject against baseline on source ('' when
    none)."""
    p = pair(config_variants, source, subject, baseline, experiment, metric)
    return "; ".join(possibly(*p, subject, baseline)) if p else ""


def contrast_name(
    config_variants: dict,
    source: str,
    subject: str,
    baseline: str,
    experiment: str,
    metric: str | None = None,
) -> str:
    p = pair(config_variants, source, subject, baseline, experiment, metric)
    return name(*p, subject, baseline) if p else f"{subject} against {baseline}"


def run_states(raws) -> dict[tuple[str, str], dict]:
    """(target, variant) -> the state its board check recorded for it (the meta.json beside each
    raw.csv: checks.board.variants.<variant>.state); a run without a board check has none."""
    out = {}
    for raw in raws:
        path = Path(raw).parent / "meta.json"
        if not path.is_file():
            continue
        meta = json.loads(path.read_text(encoding="utf-8"))
        board = (meta.get("checks") or {}).get("board") or {}
        state = ((board.get("variants") or {}).get(meta["variant"]) or {}).get("state")
        if state:
            out[(meta["target"], meta["variant"])] = state
    return out


def _state_value(key: str, value) -> str:
    if key == "cpu_freq_mhz":
        return f"{value} MHz"
    return STATE_VALUES.get(key, {}).get(value, str(value))


def state_confounds(
    states: dict, config_variants: dict, source: str, subject: str, baseline: str
) -> list[str]:
    """The keys of the recorded state that differ between subject's run and baseline's on one
    target ('debug kernel yes against no'), leaving out what either variant declares (its
    config entry's `revocation:` or `differs:`); nothing where either side recorded none."""
    a, b = states.get((source, subject)), states.get((source, baseline))
    if not a or not b:
        return []
    mine = config_variants.get(source, {})
    declared = {subject: mine.get(subject) or {}, baseline: mine.get(baseline) or {}}
    diff = board_config.state_differences({subject: a, baseline: b}, declared)
    order = sorted(diff, key=lambda k: STATE.index(k) if k in STATE else len(STATE))
    return [
        _confound(k, _state_value(k, diff[k][subject]), _state_value(k, diff[k][baseline]))
        for k in order
    ]


def _each_release(said, config_variants: dict, r) -> str:
    """A release row's differences, each release's named ('cheribsd-22.12: ...'): said
    (confounded_by or possibly_also) of the row's contrast on either data set."""
    subject, baseline = str(r.variant).split("/", 1)
    parts = [
        (source, said(config_variants, source, subject, baseline, r.experiment, r.metric))
        for source in (r.source, r.reference_source)
    ]
    return "; ".join(f"{source}: {c}" for source, c in parts if c)


def _row_confounds(config_variants: dict, r, states: dict) -> str:
    """One comparison row's confounds: a variant against a variant on one source (its build's
    and, on a board, its recorded state's); the same variant on two targets (the machine is the
    contrast; a different build is a confound); a release against a release (what confounds
    either release's contrast, each named)."""
    if r.comparison == "release":
        return _each_release(confounded_by, config_variants, r)
    if r.source == r.reference_source:
        built = confounded_by(
            config_variants, r.source, r.variant, r.reference_variant, r.experiment, r.metric
        )
        ran = state_confounds(states, config_variants, r.source, r.variant, r.reference_variant)
        return "; ".join(dict.fromkeys([*(x for x in built.split("; ") if x), *ran]))
    a = config_variants.get(r.source, {}).get(r.variant)
    b = config_variants.get(r.reference_source, {}).get(r.reference_variant)
    if a is None or b is None:
        return ""
    fa, fb = facts(a, r.experiment, r.metric), facts(b, r.experiment, r.metric)
    return "; ".join(confounds_between_machines(fa, fb))


def _row_possibly(config_variants: dict, r) -> str:
    """One comparison row's differences of name alone (a variant against a variant on one
    source; for a release, each release's, named)."""
    if r.comparison == "release":
        return _each_release(possibly_also, config_variants, r)
    if r.source != r.reference_source:
        return ""
    return possibly_also(
        config_variants, r.source, r.variant, r.reference_variant, r.experiment, r.metric
    )


def annotate(
    comparisons: pd.DataFrame,
    known: dict[str, dict[str, dict]] | None,
    states: dict[tuple[str, str], dict] | None = None,
) -> pd.DataFrame:
    """The comparisons with `confounded_by` filled in; known: source -> variant -> its recorded
    entry (variants_of); states: (target, variant) -> the state its board run recorded
    (run_states); none known, nothing is confounded."""
    known, states = known or {}, states or {}
    out = comparisons.copy()
    out["confounded_by"] = [_row_confounds(known, r, states) for r in out.itertuples(index=False)]
    out["possibly_also"] = [_row_possibly(known, r) for r in out.itertuples(index=False)]
    return out
