"""The setup table: one column per target that ran and per data set."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import call_sites, config, datasets
from c18n_ae.common.fsutil import rows_csv, write_text_atomic
from c18n_ae.common.latex import escape, fmt, listed
from c18n_ae.common.names import Names, from_config


def _level(build: dict) -> str:
    return build["optimisation"] if build["optimisation"].startswith("-O") else ""


def short_builds(builds: list[dict]) -> str:
    """A variant's builds in a few words: the compiler and -O level of most of its experiments,
    then the others by experiment ('cc -O2 (isolation: clang-morello -O0)'); the other flags are
    the table's note's and results/setup.csv's."""
    groups: dict[tuple, list[str]] = {}
    for b in builds:
        groups.setdefault((b["compiler"], _level(b)), []).extend(b["experiments"])
    ordered = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    if not ordered:
        return "not recorded"
    said = [" ".join(x for x in k if x) for k, _ in ordered]
    rest = [f"{'/'.join(es)}: {w}" for (_, es), w in zip(ordered[1:], said[1:])]
    return said[0] + (f" ({', '.join(rest)})" if rest else "")


def builds_rows(metas: list[dict], sets: list[dict]) -> list[dict]:
    """Every build in full, one row each (results/setup.csv): a data set's experiments,
    compiler, flags, level, ABI, how c18n was enabled and the launcher with its note; a run's
    flags, ABI and launcher from its meta.json."""
    out = []
    for d in sets:
        for v, spec in d["variants"].items():
            for b in spec.get("builds", []):
                out.append(
                    {
                        "source": d["name"],
                        "variant": v,
                        "experiments": "/".join(b["experiments"]),
                        "compiler": b["compiler"],
                        "cflags": " ".join(b.get("cflags", [])),
                        "optimisation": b["optimisation"],
                        "abi": spec.get("abi", ""),
                        "c18n_by": " ".join(spec.get("c18n_by", "").split()),
                        "launcher": " ".join(spec.get("launcher", [])),
                        "launcher_note": " ".join(spec.get("launcher_note", "").split()),
                    }
                )
    for m in metas:
        out.append(
            {
                "source": m["target"],
                "variant": m["variant"],
                "experiments": m.get("experiment", ""),
                "compiler": m.get("compiler_version") or m.get("compiler", ""),
                "cflags": " ".join(m.get("cflags", [])),
                "optimisation": next((f for f in m.get("cflags", []) if f.startswith("-O")), ""),
                "abi": m.get("abi", ""),
                "c18n_by": "",
                "launcher": " ".join(m.get("launcher", [])),
                "launcher_note": "",
            }
        )
    return out


def flags_note(sets: list[dict]) -> str:
    """The note below the table on what its Variants row leaves out of the data sets' builds:
    the -march and -mabi every build for a CHERI ABI sets (where every one does), the other
    flags some set, and where every build's whole command is."""
    builds = [(s, b) for d in sets for s in d["variants"].values() for b in s.get("builds", [])]
    if not builds:
        return ""
    cheri = [(s, b) for s, b in builds if s.get("abi") and s["abi"] != "hybrid"]
    abi_flags = bool(cheri) and all(
        "-march=morello+c64" in b.get("cflags", []) and f"-mabi={s['abi']}" in b.get("cflags", [])
        for s, b in cheri
        if b.get("cflags")
    )
    shown = {"-march=morello+c64"} | {f"-mabi={s['abi']}" for s, _ in cheri} if abi_flags else set()
    other = sorted(
        {f for _, b in builds for f in b.get("cflags", []) if not f.startswith("-O")} - shown
    )
    out = "Variants: each compiler and -O level; ABIs as the study describes them."
    if abi_flags:
        out += " Every build for a CHERI ABI also sets -march=morello+c64 and -mabi to its ABI."
    if other:
        out += f" Some builds also set {listed(other)}."
    return out + " results/setup.csv gives every build's flags and every launcher's note in full."


def _builds_recorded(meta: dict) -> dict[str, str]:
    """{'E3': "E3's binaries record one build for every variant, clang 14.0.0"} where an
    experiment's binaries record one compiler build for all its variants: the names in the
    study's files (cc, clang-morello) are then one compiler (R210, B210: Section 4 named the
    build, this table only the names)."""
    out = {}
    for e, records in call_sites.compilers_by_experiment(meta).items():
        words = call_sites.one_build(records, *meta["variants"])
        if words:
            number = f"E{exp.get(e).number}"
            out[number] = f"{number}'s binaries record one build for every variant, {words}"
    return out


def dataset_column(meta: dict) -> dict:
    """A data set's dataset.yaml in the shape of a target's provenance, for the setup table."""
    h = meta["host"]
    flags = "; ".join(
        f"{v}: {short_builds(s.get('builds', []))}"
        + (f", ABI {s['abi']}" if s.get("abi") else "")
        + (f", c18n by {' '.join(s['c18n_by'].split())}" if s.get("c18n_by") else "")
        + (f", run with {' '.join(s['launcher'])}" if s.get("launcher") else "")
        for v, s in meta["variants"].items()
    )
    compilers = sorted(
        {b["compiler"] for s in meta["variants"].values() for b in s.get("builds", [])}
        - {"not recorded"}
    )
    # each experiment's clock and how its times were written (dataset.yaml timing)
    # experiments timed alike said once ('memory/pipe/isolation: clock_gettime(...), ...')
    alike: dict[str, list[str]] = {}
    for e, t in meta.get("timing", {}).items():
        alike.setdefault(f"{t['clock'].split(',')[0]}, {t['written'].split(',')[0]}", []).append(e)
    timers = "; ".join(f"{'/'.join(es)}: {how}" for how, es in alike.items())
    kernel = meta.get("kernel")  # the data set's own logs (dataset.yaml kernel)
    return {
        "target": meta["name"],
        "os": h.get("os"),
        # a log of one host covers that host's files only (issue 31's item 6; a reader of round
        # 107 met the name without its scope in this row)
        "kernel": (
            (
                kernel["config"]
                + (f", from the log of host {kernel['host']} only" if kernel.get("host") else "")
            )
            if kernel
            else "not recorded"
        ),
        "board_text": "not recorded in the data set",
        **(dataset_kernel_texts(kernel) if kernel else {}),
        **dataset_run_texts(meta),
        "model": h.get("model"),
        "arch": h.get("arch"),
        "cpu_model": h.get("cpu_model"),
        "cpu_count": h.get("cpu_count"),
        # the study's own words and unit (its GB are binary): quoted, not converted
        "memory_text": (
            f"{h['memory']}, in the study's words"
            if h.get("memory", "not recorded") != "not recorded"
            else h.get("memory")
        ),
        "compilers": {**{c: c for c in compilers}, **_builds_recorded(meta)},
        "timer_text": timers or "not recorded",
        "variants_text": flags,
        "measured_by": f"{meta['measured_by']}, {meta['measured_when']}",
        "source_text": f"{meta['source']['repository']} at {meta['source']['commit'][:12]} "
        f"({meta['source']['license']})",
    }


NOT_SEEN = (
    "not recorded: the study did not check that compartments were active, so its c18n variants "
    "are c18n as launched, not as observed"
)


def dataset_run_texts(meta: dict) -> dict:
    """What a data set says of its processes: whether compartments were seen (compartments_seen,
    else not recorded, and what that means), and each variant's heap revocation where the timed
    code frees memory (variants.<v>.runtime) after the kernel's default."""
    seen = meta.get("compartments_seen", {}).get("text")
    out = {"compartments_text": " ".join(seen.split()) if seen else NOT_SEEN}
    runs = {}  # (experiments) -> [variant: revocation]
    for v, spec in meta["variants"].items():
        for r in spec.get("runtime", []):
            if r["revocation"] != "not recorded":
                runs.setdefault("/".join(r["experiments"]), []).append(f"{v} {r['revocation']}")
    if runs:
        kernel = (meta.get("kernel") or {}).get("revocation_default")
        default = f"default {kernel}; from the study's log; " if kernel else ""
        # the study recorded no process's state: a variant's follows from the default and its ABI
        inferred = "; ".join(f"{e}: {', '.join(vs)}" for e, vs in runs.items())
        out["revocation_text"] = f"{default}inferred per variant (no run recorded it): {inferred}"
    return out


def dataset_kernel_texts(kernel: dict) -> dict:
    """A data set's kernel configuration and revocation default, as its own logs show them."""
    debug = kernel["debug_options"]
    config = f"{kernel['config']}, " + (
        f"debug kernel ({', '.join(debug)})" if debug else "no INVARIANTS or WITNESS"
    )
    # a log of one host covers that host's files only (kernel.host)
    log = (
        f"from the log of host {kernel['host']} only"
        if kernel.get("host")
        else "from the study's log"
    )
    out = {"kernel_config_text": f"{config}; {log}"}
    if kernel.get("revocation_default"):
        out["revocation_text"] = f"default {kernel['revocation_default']}; {log}"
    return out


def board_facts(metas: list[dict]) -> dict[str, dict]:
    """target -> what its board check saw (meta.json checks.board): the system's state once, and
    per variant the compartments seen and the process's revocation."""
    out: dict[str, dict] = {}
    for m in metas:
        seen = m.get("checks", {}).get("board")
        if not seen:
            continue
        facts = out.setdefault(m["target"], {**seen, "variants": {}})
        facts["variants"].update(seen.get("variants", {}))
    return out


def kernel_text(board: dict | None) -> str:
    if not board:
        return "not a board"
    s = board["system"]
    debug = [o.upper() for o in ("invariants", "witness") if s.get(o)]
    return f"{s.get('kernel_ident') or 'unknown'}, " + (
        f"debug kernel ({', '.join(debug)})" if debug else "no INVARIANTS or WITNESS"
    )


def revocation_text(board: dict | None) -> str:
    if not board:
        return "not a board"
    default = {"1": "on", "0": "off"}.get(board["system"].get("revocation_default"), "unknown")
    forced = [
        f"{v}: {x['state']['process_revocation']}"
        for v, x in board["variants"].items()
        if x.get("state", {}).get("process_revocation") not in (None, "unknown", default)
    ]
    return f"default {default}" + (f"; {'; '.join(forced)}" if forced else "")


def compartments_text(board: dict | None) -> str:
    if not board:
        return "not a board"
    seen = [
        f"{v}: {x['compartments'] if x['compartments'] is not None else 'not seen'}"
        f" ({x['seen_by']})"
        for v, x in sorted(board["variants"].items())
    ]
    c18n = {"1": "on", "0": "off"}.get(board["system"].get("c18n_default"), "unknown")
    simulated = "; simulated target (the tests' CheriBSD tools)" if board.get("simulated") else ""
    return f"c18n default {c18n}; " + "; ".join(seen) + simulated


def frequency_text(board: dict | None) -> str:
    if not board:
        return "not a board"
    s = board["system"]
    mhz = f"{s['cpu_freq_mhz']} MHz" if s.get("cpu_freq_mhz") else "frequency not reported"
    return f"{mhz}, powerd {'running' if s.get('powerd') else 'not running'}"


def binary_hashes(metas: list[dict]) -> dict[str, dict[str, dict[str, str | None]]]:
    """target -> experiment -> variant -> the SHA-256 of the binary it ran, as the board check
    computed it on the target (meta.json checks.board.variants.<variant>.binary_sha256, each
    variant's own meta.json); None where not recorded."""
    out: dict[str, dict[str, dict[str, str | None]]] = {}
    for m in metas:
        board = m.get("checks", {}).get("board") or {}
        mine = board.get("variants", {}).get(m["variant"]) or {}
        experiment = m.get("experiment", "")
        out.setdefault(m["target"], {}).setdefault(experiment, {})[m["variant"]] = mine.get(
            "binary_sha256"
        )
    return out


HASH_DIGITS = 12  # the setup table's hashes: the first 12 hex digits of each SHA-256


def binaries_text(per_experiment: dict | None) -> str:
    """Per experiment, each binary's hash with the variants that ran it (variants built alike,
    purecap and purecap-c18n, share one); "not recorded" where no run recorded one (a local
    target)."""
    if not per_experiment or not any(h for e in per_experiment.values() for h in e.values()):
        return "not recorded"
    parts = []
    for experiment, hashes in sorted(per_experiment.items()):
        by_hash: dict[str, list[str]] = {}
        for variant, h in sorted(hashes.items()):
            by_hash.setdefault(h[:HASH_DIGITS] if h else "not recorded", []).append(variant)
        ran = ", ".join(f"{listed(vs)} {h}" for h, vs in by_hash.items())
        parts.append(f"{experiment}: {ran}" if experiment else ran)
    return "; ".join(parts)


STOPPED = {
    "count": "at the planned number of trials",
    "precision": "once precise enough",
    "budget": "when their time ran out",
}


def stops(metas: list[dict]) -> dict[str, dict[str, dict]]:
    """target -> experiment -> why its runs stopped (meta.json stopped, the same in each of the
    experiment's variants, which run interleaved and stop together)."""
    out: dict[str, dict[str, dict]] = {}
    for m in metas:
        if m.get("stopped"):
            out.setdefault(m["target"], {}).setdefault(m.get("experiment", ""), m["stopped"])
    return out


def stops_text(per_experiment: dict | None) -> str:
    """How many runs and rows each experiment measured of each variant, grouped by why its runs
    stopped, in plain words: "each variant: E1 1 run, 8 rows; E2 2 runs, 20 rows; stopped at
    the planned number of trials"."""
    if not per_experiment:
        return "not recorded"

    def number(e: str) -> tuple[int, str]:
        try:
            return exp.get(e).number, f"E{exp.get(e).number}"
        except KeyError:
            return 1 << 30, e

    def runs(n: int) -> str:
        return f"{n} run" + ("" if n == 1 else "s")

    by_reason: dict[str, list[str]] = {}
    for e, s in sorted(per_experiment.items(), key=lambda kv: number(kv[0])):
        rows = sum(s["units_per_run"])
        item = f"{number(e)[1]} {runs(s['runs'])}, {rows} row{'' if rows == 1 else 's'}"
        by_reason.setdefault(STOPPED.get(s["reason"], s["reason"]), []).append(item)
    return "each variant: " + "; ".join(
        f"{'; '.join(items)}; stopped {reason}" for reason, items in by_reason.items()
    )


def board_cell(text, boards: dict[str, dict], own: str = ""):
    """A row's cell of a board's checked state; a data set's is what its logs record (own), or
    says it was not recorded."""
    return lambda p: p.get(own) or p.get("board_text") or text(boards.get(p["target"]))


def kernel_note(boards: dict[str, dict], datasets=(), names: Names = Names()) -> str:
    """The paper's note on debug kernels (the macro SetupKernelNote), empty without one: the
    boards whose check saw one, and the data sets whose own logs show one."""
    debug = sorted(names.source(t) for t, b in boards.items() if b["system"].get("debug_kernel"))
    sets = [
        f"{names.source(d['name'])} data"
        + (f", host {d['kernel']['host']} only" if d["kernel"].get("host") else "")
        for d in datasets
        if (d.get("kernel") or {}).get("debug_options")
    ]
    out = []
    if debug:
        out.append(
            f"{', '.join(debug)} ran a debug kernel (INVARIANTS or WITNESS compiled in): its "
            "times include the kernel's own checks, which CheriBSD advises against for "
            "measurements."
        )
    if sets:
        out.append(
            f"A host of the study ({'; '.join(sets)}) ran a debug kernel, as its own log shows "
            "(INVARIANTS and WITNESS compiled in; the other hosts' kernels are not recorded): "
            "the times measured there include the kernel's checks, which add cost to system "
            "calls and virtual-memory work, so they can also shift the ratios of workloads "
            "heavy in those, either way."
        )
    return " ".join(out)


def stacked(text: str) -> str:
    """A list cell ('hybrid: ...; purecap-c18n: ...') escaped, one item a line: split at each
    '; ' outside parentheses (a launcher's note keeps its own), so that each variant or clock
    starts a line of its own and reads down the column."""
    if not isinstance(text, str):
        return escape(text)
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if depth == 0 and text.startswith("; ", i):
            items.append(text[start:i])
            start = i + 2
    items.append(text[start:])
    return r"\newline ".join(escape(x) for x in items)


VARIANTS = "Variants (flags, ABI, launcher)"
STACKED = (VARIANTS, "Timer resolution or clock")  # one item a line


def named(text, source: str, names: Names, variants: bool = False):
    """A cell with the paper's names for the ids in it; in the Variants row each variant that
    the paper names otherwise also says its id, once: 'purecap + c18n (variant purecap-c18n):
    ...'."""
    if not isinstance(text, str):
        return text
    if not variants:
        return names.text(text)
    items = re.split(r"(?:^|(?<=; ))([\w.+-]+): ", text)
    out = []
    for i in range(1, len(items), 2):
        v, rest = items[i], items[i + 1]
        name = names.variant(source, v)
        head = f"{name} (variant {v})" if name != v else v
        out.append(f"{head}: {names.text(rest)}")
    return items[0] + "".join(out) if out else names.text(text)


def setup_table(
    provenance: list[dict], metas: list[dict], datasets: list[dict] = (), names: Names | None = None
) -> str:
    """One column per target that ran and per data set, from the description collected from each
    target (or the data set's dataset.yaml); a board's checked state below its machine. Headed
    by the paper's names (names.py), each with the id it stands for, said here once: data sets
    in the header, variants where the Variants row lists them."""
    names = names or Names()
    columns = sorted(provenance, key=lambda p: p["target"]) + [dataset_column(d) for d in datasets]
    boards = board_facts(metas)
    hashes = binary_hashes(metas)
    stopped = stops(metas)
    timers, variants = {}, {}
    for m in metas:
        res = m.get("program", {}).get("timer_resolution_ns")
        if res is not None:
            timers.setdefault(m["target"], set()).add(str(res))
        variants.setdefault(m["target"], {})[m["variant"]] = (
            f"{m['variant']}: {' '.join(m.get('cflags', []))}"
            + (f", ABI {m['abi']}" if m.get("abi") else "")
            + (f", run with {' '.join(m['launcher'])}" if m.get("launcher") else "")
        )
    rows = [
        ("Operating system", lambda p: p.get("os")),
        ("Kernel", lambda p: p.get("kernel")),
        ("Machine or board", lambda p: p.get("model") or "not reported"),
        ("Architecture", lambda p: p.get("arch")),
        ("CPU", lambda p: p.get("cpu_model")),
        ("CPU cores", lambda p: str(p.get("cpu_count"))),
        ("Memory", lambda p: p.get("memory_text") or f"{fmt(p['mem_total_bytes'] / 2**30)} GiB"),
        ("Compiler", lambda p: "; ".join(p.get("compilers", {}).values())),
        (
            "Variants (flags, ABI, launcher)",
            lambda p: p.get("variants_text") or "; ".join(variants[p["target"]].values()),
        ),
        (
            "Timer resolution or clock",  # a run's measured one; a data set's clocks, as used
            lambda p: p.get("timer_text") or f"{', '.join(sorted(timers[p['target']]))} ns",
        ),
        ("Kernel configuration", board_cell(kernel_text, boards, "kernel_config_text")),
        ("Heap revocation", board_cell(revocation_text, boards, "revocation_text")),
        ("Compartments seen", board_cell(compartments_text, boards, "compartments_text")),
        ("CPU frequency", board_cell(frequency_text, boards)),
        (
            f"Binary SHA-256 (first {HASH_DIGITS} hex digits)",
            lambda p: p.get("board_text") or binaries_text(hashes.get(p["target"])),
        ),
        (
            "Runs and rows (why they stopped)",
            lambda p: p.get("board_text") or stops_text(stopped.get(p["target"])),
        ),
        ("Measured by", lambda p: p.get("measured_by") or "this package's run"),
        ("Source", lambda p: p.get("source_text") or "this run"),
    ]
    width = f"{0.7 / max(1, len(columns)):.2f}"  # with the label column, within the text width
    # ragged right: a justified narrow column stretches its spaces until no line lines up
    spec = "l" + f">{{\\raggedright\\arraybackslash}}p{{{width}\\textwidth}}" * len(columns)
    lines = [
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(["Property"] + [escape(names.stands_for(p["target"])) for p in columns])
        + r" \\",
        r"\midrule",
    ]
    for label, get in rows:
        vals = []
        for p in columns:
            try:
                text = named(get(p), p["target"], names, label == VARIANTS)
                vals.append((stacked if label in STACKED else escape)(text))
            except (KeyError, TypeError):
                vals.append("unknown")
        lines.append(" & ".join([label] + vals) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    note = kernel_note(boards, datasets, names)
    flags = flags_note(list(datasets))
    lines = [
        rf"\gdef\SetupKernelNote{{{escape(note)}}}%",
        *lines,
        *([rf"\par\smallskip{{\raggedright {escape(flags)}\par}}"] if flags else []),
        r"\par\smallskip{\raggedright\SetupKernelNote\par}",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--csv", type=Path, help="every build in full (results/setup.csv)")
    ap.add_argument("--results", type=Path, default=Path("results"))
    ap.add_argument("--provenance", action="append", default=[], type=Path)
    ap.add_argument("--dataset", action="append", default=[], help="a data set's name or folder")
    ap.add_argument("meta", nargs="*", type=Path)
    config.add_arguments(ap)
    a = ap.parse_args(argv)
    cfg = exp.config_from_arguments(a)
    # with --config: every run's provenance and metadata, and the data sets the run includes
    runs = (
        [(t, v, e) for e in config.enabled_experiments(cfg) for t, v in config.runs(cfg, e)]
        if cfg
        else []
    )
    metas = a.meta or [a.results / t / v / e / "meta.json" for t, v, e in runs]
    provenance = a.provenance or [
        a.results / t / "provenance.json" for t in dict.fromkeys(t for t, _, _ in runs)
    ]
    sets = [datasets.load(d) for d in a.dataset] or (config.datasets(cfg) if cfg else [])
    metas = [json.loads(p.read_text()) for p in metas]
    write_text_atomic(
        a.out,
        setup_table([json.loads(p.read_text()) for p in provenance], metas, sets, from_config(cfg)),
    )
    if a.csv:
        write_text_atomic(a.csv, rows_csv(builds_rows(metas, sets)))


if __name__ == "__main__":
    main()
