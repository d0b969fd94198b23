"""One \\newcommand per number the paper's text quotes, computed from the summaries and metadata."""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.analysis.claims import min_trials as claims_min_trials
from c18n_ae.analysis.comparisons import RESAMPLES
from c18n_ae.analysis.stats import TAIL_FACTOR
from c18n_ae.common import config
from c18n_ae.common.fsutil import write_text_atomic
from c18n_ae.common.latex import (
    FEW_TICKS,
    TICKS_SHOWN,
    WIDE_FACTOR,
    duration,
    escape,
    from_file,
    gen_name,
    in_words,
    listed,
    macro_name,
    newcommand,
    quantity,
)
from c18n_ae.common.names import release_labels, short_release, variant_names
from c18n_ae.report.headline import TAIL_SHARE


def resolution_macros(experiment: str, summary: pd.DataFrame) -> str:
    """The grid each source's metric falls on, as the data show it ('7.81 ms'), for the text that
    states each clock: e.g. CpuMathCpuNsResolutionMorelloTwoZeroTwoFour."""
    if "resolution" not in summary:
        return ""
    steps = summary.dropna(subset=["resolution"]).drop_duplicates(["source", "metric"])
    return "".join(
        newcommand(
            gen_name(experiment, f"{r.metric} resolution", r.source),
            quantity(r.resolution, r.unit, tex=True),
            f"source={r.source}; metric={r.metric}; column=resolution",
        )
        for r in steps.itertuples()
    )


def timer_grids(summaries: dict[str, pd.DataFrame], sets: list[dict]) -> str:
    """The grid each data set's times fall on, one clause per data set in the order of its
    config, as the data show it (the summaries' resolution, the coarsest over an experiment's
    time metrics; the experiments the body quotes, Experiment.headline), times on one grid said
    together: 'on the 24.05 data, memory and pipe times in steps of 1 µs and CPU times in steps of
    7.81 ms; on the 22.12 data, ...', so that a reader can check a timer's range against it."""
    grids, names = [], []  # per data set: each kind of time -> its step
    labels = release_labels(sets)  # copies of one release named apart
    for d in sets:
        grid: dict[str, str] = {}
        for experiment, summary in summaries.items():
            if "resolution" not in summary or not exp.get(experiment).headline:
                continue
            mine = summary[(summary.source == d["name"]) & (summary.unit == "ns")]
            mine = mine.dropna(subset=["resolution"])
            if mine.empty:
                continue
            r = mine.loc[mine.resolution.idxmax()]
            cpu = str(r.metric).endswith("_cpu_ns")
            step = quantity(r.resolution, r.unit, tex=True).replace(" ", "~", 1)
            grid["CPU" if cpu else escape(experiment)] = step
        if grid:
            release = short_release(labels[d["name"]])
            names.append(escape(release) if release else rf"\texttt{{{escape(d['name'])}}}")
            grids.append(grid)
    # said once where no kind of time has two grids; a kind some data sets lack names those
    # that have it (a cold read of round 90 found 22.12's pipe times in steps, where 22.12 ran
    # no pipe; one of round 91 read two clauses alike but for that)
    agree = all(g.get(k, v) == v for a in grids for g in grids for k, v in a.items())
    # each kind of time with the data sets it is restricted to ('' for all of them)
    keyed = [{(k, ""): v for k, v in g.items()} for g in grids]
    if agree and len(grids) > 1:  # one grid for every data set: said once
        merged = {}
        for k in dict.fromkeys(k for g in grids for k in g):
            having = [n for n, g in zip(names, grids) if k in g]
            # a kind some data sets lack says which have it after its own 'times' (round 95
            # read 'memory and pipe (24.05 only) times' as restricting both)
            only = "" if len(having) == len(grids) else listed(having)
            merged[(k, only)] = next(g[k] for g in grids if k in g)
        keyed, names = [merged], [listed(names)]
    clauses = []
    for grid, name in zip(keyed, names):
        steps: dict[str, list[tuple[str, str]]] = {}
        for what, step in grid.items():
            steps.setdefault(step, []).append(what)
        said = []
        for step, what in steps.items():
            full = [k for k, only in what if not only]
            kinds = [f"{listed(full)} times"] if full else []
            kinds += [f"{k} times ({only} only)" for k, only in what if only]
            said.append(f"{listed(kinds)} in steps of {step}")
        clauses.append(f"on the {name} data, {listed(said)}")
    return "; ".join(clauses)


def setup_macros(metas: list[dict], references: dict[str, str]) -> str:
    targets = sorted({m["target"] for m in metas})
    variants = sorted({(m["target"], m["variant"]) for m in metas})
    # \IfRanOn{LocalOTwo}{...}{...}: the paper's text about one target's variant
    out = [newcommand(f"RanOn{macro_name(t, v)}", "") for t, v in variants] + [
        newcommand("TargetsRun", escape(", ".join(targets))),
        newcommand("TargetCount", str(len(targets))),
        newcommand("VariantsRun", escape(", ".join(f"{t}/{v}" for t, v in variants))),
    ]
    for t in targets:
        m = next(x for x in metas if x["target"] == t)
        name = macro_name(t)
        host, key = m["host"], f"target={t}; " + "{}"
        out.append(
            newcommand(f"CpuCount{name}", str(host["cpu_count"]), key.format("host.cpu_count"))
        )
        out.append(
            newcommand(f"CpuModel{name}", escape(host["cpu_model"]), key.format("host.cpu_model"))
        )
        out.append(newcommand(f"Arch{name}", escape(host["arch"]), key.format("host.arch")))
        out.append(
            newcommand(
                f"TimerResolutionNs{name}",
                str(m.get("program", {}).get("timer_resolution_ns", "unknown")),
                key.format("program.timer_resolution_ns"),
            )
        )
        if t in references:
            out.append(newcommand(f"ReferenceVariant{name}", escape(references[t])))
    return "".join(out)


def boards(metas: list[dict], kinds: dict[str, str]) -> list[str]:
    """The Morello boards among the targets that ran: a target of kind morello whose board check
    did not run against the tests' simulated tools (those stand in for a board, they are none)."""
    simulated = {
        m["target"] for m in metas if m.get("checks", {}).get("board", {}).get("simulated")
    }
    ran = sorted({m["target"] for m in metas})
    return [t for t in ran if kinds.get(t) == "morello" and t not in simulated]


CAPABILITY_ABIS = ("purecap", "purecap-benchmark")  # builds that need a CHERI machine


def run_where(metas: list[dict], kinds: dict[str, str]) -> str:
    """Where the runs behind this paper happened, as a noun phrase ('one machine without
    capabilities', 'the Morello board `m1`'); '' where no experiment ran. No host name, which
    the set-up table gives."""
    targets = sorted({m["target"] for m in metas})
    if not targets:
        return ""
    found = boards(metas, kinds)
    machines = "one machine" if len(targets) == 1 else f"{len(targets)} machines"
    if not found:
        # no purecap build ran: the machines have no capabilities (a simulated board's tools
        # are stand-ins), which is what the abstract's reader needs to know
        if not any(m.get("abi") in CAPABILITY_ABIS for m in metas):
            which = " without" if len(targets) == 1 else ", none of them with"
            return f"{machines}{which} capabilities"
        which = "not a Morello board" if len(targets) == 1 else "none of them a Morello board"
        return f"{machines}, {which}"
    said = ", ".join(rf"\texttt{{{escape(t)}}}" for t in found)
    board = "board" if len(found) == 1 else "boards"
    if len(found) == len(targets):
        return f"the Morello {board} {said}"
    return f"{machines}, among them the Morello {board} {said}"


def run_scope(metas: list[dict], kinds: dict[str, str]) -> str:
    """Where the runs behind this paper happened, as the end of a sentence on the workflow ('...;
    for this paper it ran on the Morello board `m1`'): the abstract's and the artifact appendix's,
    with a
    board run; without one, the page-1 box says where the workflow ran (run_where)."""
    where = run_where(metas, kinds)
    if not where:
        return "for this paper it ran no experiment of its own, only re-analysed the data sets"
    return f"for this paper it ran on {where}"


# The title by what ran: an edition with a board run asks the question; one without is a
# re-analysis of the study's public board data. No subtitle: where the numbers come from (a
# package ready for boards that has not run on one) is the introduction's to say, not the title's.
TITLE_BOARD = "What a Library Compartment Costs on CHERI: a Replication with Intervals"
# 'together': the data have no purecap variant without compartments (a cold read: the title
# promised what compartments cost alone)
TITLE_DATA = (
    "Purecap and Library Compartments Together on Morello: a Re-analysis of Public Board Data"
)


def edition_macros(metas: list[dict], kinds: dict[str, str]) -> str:
    """The title, \\BoardRan when a Morello board ran (\\IfBoardRan in the paper),
    and \\BesideOnBoard when one of the experiments beside other mechanisms (part beside) ran on
    a board: otherwise those are this machine's functional check, in an appendix of their own."""
    found = set(boards(metas, kinds))
    key = "targets.kind; checks.board.simulated"
    out = newcommand("PaperTitle", TITLE_BOARD if found else TITLE_DATA, key)
    if found:
        out += newcommand("BoardRan", "")
    beside = {e.name for e in exp.registry().values() if e.part == "beside"}
    if any(m["experiment"] in beside for m in metas if m["target"] in found):
        out += newcommand("BesideOnBoard", "")
    return out


def _experiments_words(names: list[str]) -> str:
    """'E2, E3 and E4' for experiment names (the registry's numbers)."""
    known = {e.name: e.number for e in exp.registry().values()}
    numbers = sorted({known[n] for n in names if n in known})
    return listed([f"E{n}" for n in numbers]) if numbers else escape(", ".join(names))


def enabled_words(sets: list[dict]) -> str:
    """How the study enabled c18n on each data set whose files show no process in compartments
    (dataset.yaml compartments_seen.brief, each said once), for the threats: 'launched its 24.05
    runs with c18n enabled and linked its 22.12 CPU and memory programs against the c18n run-time
    linker'; '' where no data set gives one."""
    said = [d.get("compartments_seen", {}).get("brief", "") for d in sets]
    return listed([escape(x) for x in dict.fromkeys(x for x in said if x)])


def unseen_phrases(sets: list[dict]) -> list[str]:
    """Where nothing in a data set's files shows its c18n variants in compartments, the abstract's
    clause after what its figures rest on: 'the study enabled c18n, but no log confirms that it
    was active' (how, data set by data set, is the threats' to say: enabled_words;
    round 138: three readers asked for the abstract's caveats in one place, and one for how
    likely a failure is, which the threats give)."""
    if not enabled_words(sets):
        return []
    return ["the study enabled c18n, but no log confirms that it was active"]


def invalid_phrases(sets: list[dict]) -> list[str]:
    """What the study's files measure that their names do not claim (dataset.yaml invalid, in its
    cell's few words), one phrase each for the abstract's list: 'its 24.05 write and read loops
    made no stores or loads'; none where no data set names one or gives no words for it."""
    said: dict[tuple[str, str], list[str]] = {}  # (steps, cell) -> the data sets that have it
    labels = release_labels(sets)  # copies of one release named apart
    for d in sets:
        release = short_release(labels[d["name"]] or d["name"])
        for spec in d.get("invalid", {}).values():
            if not spec.get("cell"):
                continue
            # the timed steps the metrics name: write_ns, write_GBps -> 'write'
            steps = list(dict.fromkeys(m.split("_")[0] for m in spec["metrics"]))
            said.setdefault((listed(steps), spec["cell"]), []).append(release)
    # one phrase per flaw, its data sets listed (copies of one release share it)
    return [escape(f"its {listed(r)} {steps} {cell}") for (steps, cell), r in said.items()]


def dataset_macros(sets: list[dict]) -> str:
    """What each data set records about its board's kernel (dataset.yaml kernel) and the
    optimisation level of each variant's builds (variants.<v>.builds), for the threats: in plain
    words, each data set by its release ('the 24.05 data'), no host name (the appendix's
    provenance names the host whose log it is)."""
    if not sets:
        return ""
    kernels, levels = [], []
    labels = release_labels(sets)  # copies of one release named apart
    for d in sets:
        release = short_release(labels[d["name"]])
        name = f"the {escape(release)} data" if release else rf"\texttt{{{escape(d['name'])}}}"
        k = d.get("kernel")
        if k:
            # one host's log covers that host only (kernel.host)
            log = "only the log of one host" if k.get("host") else "its own log"
            said = f"on {name}, {log} records the kernel, a {escape(k['config'])} kernel"
            if k.get("debug_options"):
                said += f" with {listed([escape(o) for o in k['debug_options']])}"
            if k.get("revocation_default"):
                said += f" and heap revocation {escape(k['revocation_default'])} by default"
            kernels.append(said)
        else:
            kernels.append(f"{name} record no kernel")
        # variants built alike said together; a build whose level is not recorded left out
        alike: dict[str, list[str]] = {}
        named = variant_names(d["variants"])  # each by the name the paper gives it
        for v, spec in d["variants"].items():
            by: dict[str, list[str]] = {}
            for b in spec.get("builds", []):
                if b["optimisation"].startswith("-O"):
                    by.setdefault(b["optimisation"], []).extend(b["experiments"])
            said = listed([f"{escape(o)} ({_experiments_words(e)})" for o, e in by.items()])
            if said:
                alike.setdefault(said, []).append(escape(named[v]))
        if alike:
            said = listed([f"{listed(v)} at {o}" for o, v in alike.items()])
            levels.append(f"for {name} the study built {said}")
    kernel_text = "; ".join(kernels)
    # a sentence per data set (an editor counted 48 words in one): "For the 24.05 data the study
    # built hybrid ... at -O0 (E2). For the 22.12 data ..."
    level_text = " ".join(x[:1].upper() + x[1:] + "." for x in levels)
    folders = listed(
        [
            rf"\texttt{{datasets/{escape(d['name'])}/}} ({escape(d.get('release', d['name']))}, "
            f"{escape(d['source']['license'])})"
            for d in sets
        ]
    )
    return (
        from_file("datasets/<name>/dataset.yaml")
        + newcommand("DatasetFolders", folders, "name; release; source.license")
        + newcommand("DatasetKernels", kernel_text[:1].upper() + kernel_text[1:] + ".", "kernel")
        + newcommand(
            "DatasetOptimisation",
            level_text,
            "variants.<v>.builds",
        )
        + newcommand("DatasetEnabled", enabled_words(sets), "compartments_seen.brief")
    )


def run_time_macros(metas: list[dict], profile: str) -> str:
    """This edition's runs: the profile and the time while any of its runs was running (meta.json
    started_at to finished_at, overlapping runs counted once), in its natural unit ('17 s',
    '3.2 h'), for the appendix's time estimate. Not the first start to the last end: runs made
    hours apart (one experiment re-run later) would count the hours between them."""
    times = sorted(
        (datetime.fromisoformat(m["started_at"]), datetime.fromisoformat(m["finished_at"]))
        for m in metas
        if m.get("finished_at")
    )
    out = newcommand("EditionProfile", escape(profile), "profile")
    if times:
        took, reached = 0.0, times[0][0]
        for start, end in times:  # the union of the runs' intervals
            if end > reached:
                took += (end - max(start, reached)).total_seconds()
                reached = end
        out += newcommand("EditionRunTime", duration(took, tex=True), "started_at, finished_at")
    return out


def _heading(e) -> str:
    """'E3 CPU-bound work' -> 'CPU-bound work (E3)': an experiment's paragraph in the body."""
    words = e.title.removeprefix(f"E{e.number} ")
    return f"{escape(words[:1].upper() + words[1:])} (E{e.number})"


def _span(numbers: list[int]) -> str:
    """'E7 to E9' for consecutive numbers, else 'E7, E8 and E10'."""
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"E{numbers[0]} to E{numbers[-1]}"
    return listed([f"E{n}" for n in numbers])


def added_experiments() -> str:
    """\\ExperimentsAdded, from the registry: the experiments after the study's (numbered past
    the last that reads its files) in one plain sentence, those beside other isolation
    mechanisms by their titles; whether they ran on a board is the paper's to say
    (\\IfBesideOnBoard)."""
    e = sorted(exp.registry().values(), key=lambda x: x.number)
    last = max((x.number for x in e if x.study or x.layouts), default=0)
    ours = [x for x in e if x.number > last]
    if not ours:
        return newcommand("ExperimentsAdded", "")
    what = lambda x: escape(x.title.removeprefix(f"E{x.number} "))  # noqa: E731
    beside = [x for x in ours if x.part == "beside"]
    rest = [x for x in ours if x.part != "beside"]
    parts = []
    if beside:
        # their titles are their appendix sections': the body names the mechanism's kind only
        parts.append(
            f"{_span([x.number for x in beside])} follow published studies of other isolation "
            "mechanisms"
        )
    parts += [f"E{x.number} is built to measure the {what(x)}" for x in rest]
    # ours, built for a board (R197, R199, A199, B198: 'We add' read against the introduction's
    # 'We ran nothing on a Morello board'; A233, B233, R233: 'This package adds' read as the
    # paper turning into an artifact's manual)
    said = (
        f"{_span([x.number for x in ours])} are ours, built for runs on a board: "
        + "; ".join(parts)
        + "."
    )
    return newcommand("ExperimentsAdded", said) + newcommand(
        "ExperimentsBeside", _span([x.number for x in beside]) if beside else ""
    )


def paper_order() -> str:
    """The paper's order, from the registry, so that an experiment added there joins the paper and
    adds pages to its appendix only: each part's experiment sections (\\SectionsCost, ...: the
    appendix) and tables (\\ExhaustiveTables); and each part's findings (\\PartFindingsCost,
    ...), one paragraph per experiment that has findings (a headline metric or its own findings:
    what a data set or board says with compartments). The body prints, on a board, the
    functional checks' part's; the compartments' part's findings are their appendix sections'
    (each prints its own \\Findings<Name>), named by \\PartExperimentsCompartments; the cost
    part's headline ratios are the headline table's, among the exhaustive tables (Appendix G);
    the other parts' paragraphs stay defined for an edition that wants them."""
    ordered = [e for part in exp.PARTS for e in exp.registry().values() if e.part == part]
    sections = [
        newcommand(
            f"Sections{macro_name(part)}",
            "".join(
                rf"\experimentsection{{{e.name}}}{{E{e.number}}}" for e in ordered if e.part == part
            ),
        )
        for part in exp.PARTS
    ]
    found = [
        newcommand(
            f"PartFindings{macro_name(part)}",
            "".join(
                rf"\IfRan{{{e.name}}}{{\IfFound{{{macro_name(e.name)}}}"
                rf"{{\paragraph{{{_heading(e)}.}} \Findings{macro_name(e.name)}{{}} "
                rf"(Appendix~\ref{{sec:{e.name}}}.)}}}}{{}}"
                for e in ordered
                if e.part == part and (e.headline or e.findings)
            ),
        )
        for part in exp.PARTS
    ]
    # the experiments that ask other questions than the cost, whose appendix sections give what
    # the study's data show (Appendix A's opening names them)
    others = [e for e in ordered if e.part == "compartments" and (e.headline or e.findings)]
    named_apart = newcommand("PartExperimentsCompartments", _span([e.number for e in others]))
    tables = "".join(
        rf"\IfRan{{{e.name}}}{{\input{{generated/tab-{e.name}.tex}}}}{{}}" for e in ordered
    )
    numbers = [e.number for e in ordered]
    span = newcommand("ExperimentRange", f"E{min(numbers)} to E{max(numbers)}")
    costs = [f"E{e.number}" for e in exp.registry().values() if e.headline]
    return (
        "".join(sections + found)
        + named_apart
        + newcommand("ExhaustiveTables", tables)
        + span
        + newcommand("HeadlineExperiments", listed(costs))
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    config.add_arguments(ap)
    config.add_experiment_arguments(ap, "summary")
    ap.add_argument("--reference", action="append", default=[], help="TARGET=VARIANT")
    ap.add_argument("--claims", type=Path, help="config/claims.yaml (its min_trials)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("meta", nargs="*", type=Path, help="default: every run's meta.json (--config)")
    a = ap.parse_args(argv)
    cfg = exp.config_from_arguments(a)
    refs = {**(config.references(cfg) if cfg else {}), **dict(r.split("=", 1) for r in a.reference)}
    meta_files = a.meta or [
        a.results / t / v / e / "meta.json" for e in a.experiments for t, v in config.runs(cfg, e)
    ]
    metas = [json.loads(p.read_text()) for p in meta_files]
    text = "% Generated by c18n_ae.report.macros from the summaries; do not edit.\n"
    text += from_file("results/<target>/<variant>/<experiment>/meta.json, the runs' host")
    text += setup_macros(metas, refs)
    kinds = {t["name"]: t.get("kind", "") for t in (cfg or {}).get("targets", [])}
    text += newcommand("RunScope", run_scope(metas, kinds))
    text += newcommand("RunWhere", run_where(metas, kinds) or "no machine")
    text += edition_macros(metas, kinds)
    text += dataset_macros(config.datasets(cfg) if cfg else [])
    text += from_file("results/<target>/<variant>/<experiment>/meta.json, the runs' times")
    text += run_time_macros(metas, (cfg or {}).get("profile", "full"))
    # the archive deposit's DOI, once config sets it (the appendix prints it, or says it is pending)
    if cfg and cfg.get("doi"):
        text += from_file("the config") + newcommand("ArtifactDoi", escape(cfg["doi"]), "doi")
    # statistics settings the methodology quotes
    text += from_file("src/c18n_ae/analysis/comparisons.py")
    text += newcommand("BootstrapResamples", str(RESAMPLES), "RESAMPLES")
    # the rarer forms' rules (Appendix C.1)
    text += from_file("src/c18n_ae/common/latex.py")
    text += newcommand("WideFactor", in_words(WIDE_FACTOR), "WIDE_FACTOR")
    text += newcommand("FewTicks", in_words(FEW_TICKS), "FEW_TICKS")
    text += newcommand("TicksShown", str(TICKS_SHOWN), "TICKS_SHOWN")
    text += from_file("src/c18n_ae/analysis/stats.py")
    text += newcommand("TailFactor", in_words(TAIL_FACTOR), "TAIL_FACTOR")
    text += from_file("src/c18n_ae/report/headline.py")
    text += newcommand("TailShare", f"{TAIL_SHARE:.0%}".replace("%", r"\,\%"), "TAIL_SHARE")
    if a.claims:
        text += from_file(a.claims)
        text += newcommand("ClaimMinTrials", str(claims_min_trials(a.claims)), "min_trials")
    # \IfRan{experiment}{...}{...} in the paper: the experiments this edition ran
    text += from_file("the config (experiments enabled) and the registry (their order)")
    text += "".join(newcommand(f"Ran{e}", "") for e in a.experiments)
    text += paper_order()
    text += added_experiments()
    # the prose's own-run macros describe this package's runs; data sets speak through findings.tex
    ran = {m["target"] for m in metas}
    summaries = {}
    for name, path in config.experiment_files(a, "summary").items():
        summary = summaries[name] = pd.read_csv(path)
        text += from_file(path) + exp.get(name).macros(
            summary[summary.source.isin(ran)].reset_index(drop=True), refs
        )
        text += resolution_macros(name, summary)
    sets = config.datasets(cfg) if cfg else []
    text += from_file("results/summary/<experiment>.csv, resolution (the data sets')")
    text += newcommand("TimerGrids", timer_grids(summaries, sets), "source; resolution")
    write_text_atomic(a.out, text)


if __name__ == "__main__":
    main()
