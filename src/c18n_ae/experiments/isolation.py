"""E6 memory isolation with two shared libraries: which regions of the parent (library A) and
the child (library B) a reader could read, and where the strings A sent were found.

The two libraries run in two processes, A in the parent and B in a forked child (the study's
pipe-trampoline-in-experiment.c:66-74 in purecap-benchmark/, and ours, isolation.c; the data set's
timing.isolation cites the lines), and what passes between them goes
through a pipe between the processes: what separates them is the process boundary, not c18n.
So E6 shows what a reader running as the same user sees of a process's memory; it does not test
c18n's isolation of one library from another inside one process."""

from __future__ import annotations

from c18n_ae.common.frames import concat_frames
from c18n_ae.common.latex import escape, fmt, gen_name, listed, newcommand
from c18n_ae.common.lazy import pd
from c18n_ae.common.names import short_release, variant_names
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment, pipe
from c18n_ae.experiments.isolation_logs import import_logs
from c18n_ae.experiments.layouts import Layout
from c18n_ae.experiments.outputs import Column, Inputs, Table
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import Program
from c18n_ae.experiments.rows import allowed, quote, sent_found, series


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        allowed(raw, line, row, "role", ("parent", "child"))
        index = int(number(raw, line, "region_index", row["region_index"]))
        found = number(raw, line, "strings_found", row["strings_found"])
        read = number(raw, line, "bytes_read", row["bytes_read"])
        if index == 0:  # the process as a whole
            status = "ok" if row["status"] in ("total", "denied") else None
            if status is None:
                raise RawDataError(
                    f"{raw}:{line}: column status: a total row must be 'total' or 'denied'"
                )
            out += [
                (0, "role", row["role"], "strings_found_distinct", found, "count", "ok"),
                (
                    0,
                    "role",
                    row["role"],
                    "strings_sent",
                    number(raw, line, "strings_sent", row["strings_sent"]),
                    "count",
                    "ok",
                ),
                (
                    0,
                    "role",
                    row["role"],
                    "access_granted",
                    float(row["status"] == "total"),
                    "flag",
                    "ok",
                ),
                (0, "role", row["role"], "process_read_bytes", read, "bytes", "ok"),
            ]
        else:
            rw = float(row["perms"].startswith("rw"))
            out += [
                (index, "role", row["role"], "region_rw", rw, "flag", "ok"),
                (
                    index,
                    "role",
                    row["role"],
                    "region_read",
                    float(row["status"] == "read"),
                    "flag",
                    "ok",
                ),
                (index, "role", row["role"], "region_read_bytes", read, "bytes", "ok"),
                (index, "role", row["role"], "region_strings_found", found, "count", "ok"),
            ]
    return out


def derive(df: pd.DataFrame, consume: bool = False) -> pd.DataFrame:
    """Adds strings_visible: 1 when a reader found at least one of the strings in the process."""
    found = df[df.metric == "strings_found_distinct"].copy()
    found["value"] = (found["value"] > 0).astype(float)
    found["metric"], found["unit"] = "strings_visible", "flag"
    return concat_frames([df, found], owned=2 if consume else 0)


def per_role(tidy: pd.DataFrame) -> list[dict]:
    out = []
    for target, variant in series(tidy):
        for role in ("parent", "child"):
            t = tidy[
                (tidy.source == target) & (tidy.variant == variant) & (tidy.parameter_value == role)
            ]
            if t.empty:
                continue
            t = t[t.run == t.run.min()]  # the first run's scrapes (each run scrapes its own)
            total = t[t.trial == 0].set_index("metric")["value"]
            regions = t[t.trial > 0].pivot(index="trial", columns="metric", values="value")
            out.append(
                {
                    "source": target,
                    "variant": variant,
                    "role": role,
                    "regions": len(regions),
                    "rw": int(regions["region_rw"].sum()),
                    "read": int(regions["region_read"].sum()),
                    "with_strings": int((regions["region_strings_found"] > 0).sum()),
                    "found": int(total["strings_found_distinct"]),
                    "sent": int(total["strings_sent"]),
                    "mib": total["process_read_bytes"] / 2**20,
                    "access": total["access_granted"] == 1,
                }
            )
    return out


CAPTION = (
    r"E6 isolation: regions of the parent (library A) and the child (library B), those "
    r"read, and the strings sent through the pipe found in each process."
)


def table(data: Inputs) -> Table:
    rows = [
        [escape(r["source"]), escape(r["variant"])]
        + ["parent (library A)" if r["role"] == "parent" else "child (library B)"]
        + [str(r[k]) for k in ("regions", "rw", "read")]
        + [fmt(r["mib"]), str(r["with_strings"]), f"{r['found']}/{r['sent']}"]
        for r in per_role(data.tidy)
    ]
    columns = (
        Column("Source", align="l"),
        Column("Variant", align="l"),
        Column("Process", align="l"),
    )
    columns += (Column("Regions"), Column("rw"), Column("Read"), Column("Read", "MiB"))
    return Table((*columns, Column("With strings"), Column("Strings found/sent")), [rows], CAPTION)


def macros(summary: pd.DataFrame, references: dict) -> str:
    out = []
    for role in ("parent", "child"):
        r = role.title()
        out.append(
            quote(
                summary,
                "Iso",
                [
                    (f"strings found {r}", "strings_found_distinct"),
                    (f"strings sent {r}", "strings_sent"),
                ],
                role,
                form=lambda x: f"{x:.0f}",
            )
        )
        out.append(
            quote(
                summary,
                "Iso",
                [(f"regions {r}", "region_rw")],
                role,
                field="n",
                form=lambda x: f"{x:.0f}",
            )
        )
        for quantity, metric in (
            (f"regions rw {r}", "region_rw"),
            (f"regions read {r}", "region_read"),
        ):
            s = summary[(summary.metric == metric) & (summary.parameter_value == role)]
            out += [
                newcommand(gen_name("Iso", quantity, x.source, x.variant), f"{x.mean * x.n:.0f}")
                for x in s.itertuples()
            ]
    return "".join(out)


# what was sent beside what a reader found, in the parent and in the child
TITLE = "E6 isolation: strings sent through the pipe found in memory"
SENT_FOUND = ("strings_sent", "strings_found_distinct")
figure = sent_found(("parent", "child"), SENT_FOUND, "strings", TITLE)


def _study(source: str) -> dict | None:
    """The data set's dataset.yaml where the source is one of the study's data sets, else None."""
    from c18n_ae.common import datasets

    if not (datasets.directory(source) / "dataset.yaml").exists():
        return None
    return datasets.load(source)


def _where(source: str, meta: dict | None) -> str:
    """A data set by its release ('the 24.05 data'), a target by its name."""
    release = (meta or {}).get("release", "")
    if release:
        return f"the {escape(short_release(release))} data"
    return f"\\texttt{{{escape(source)}}}"


def _process(variant: str, meta: dict | None) -> str:
    """A variant's parent process by the name the paper gives the variant ('the benchmark + c18n
    parent process') where the data set records its ABI, else by the variant's own name."""
    variants = (meta or {}).get("variants") or {}
    if (variants.get(variant) or {}).get("abi"):
        return f"the {escape(variant_names(variants)[variant])} parent process"
    return f"the \\texttt{{{escape(variant)}}} parent process"


def _by_variant(source: str, summary: pd.DataFrame):
    """(variant, get) per variant of the source: get(metric, value, field) reads its summary."""
    mine = summary[summary.source == source]
    for variant in dict.fromkeys(mine.variant):
        s = mine[mine.variant == variant]

        def get(metric, value=None, field="mean", s=s):
            r = s[s.metric == metric]
            if value is not None:
                r = r[r.parameter_value.astype(str) == value]
            return float(r[field].iloc[0]) if len(r) else None

        yield variant, get


def findings(source: str, summary: pd.DataFrame, verdicts: pd.DataFrame) -> list[str]:
    """E6 on a board or data set, for the body: what a reader of the parent process found, in
    plain words, and what that means for isolation; on the study's data, why it found no more
    (the study's parent reads every message into one buffer). The pipe's times are the
    appendix's (pipe_findings): the variants' builds differ."""
    out = []
    meta = _study(source)
    for variant, get in _by_variant(source, summary):
        sent = get("strings_sent", "parent")
        if sent is None:
            continue
        rw = get("region_rw", "parent") * get("region_rw", "parent", "n")
        read = get("region_read", "parent") * get("region_read", "parent", "n")
        found = get("strings_found_distinct", "parent")
        whose = "the study's" if meta else "our"  # on a board or this machine, ours
        out.append(
            f"On {_where(source, meta)}, {whose} memory reader ran without root, as the owner "
            f"of {_process(variant, meta)}. It read {read:.0f} of the process's {rw:.0f} "
            "readable-writable regions."
        )
        said = (
            f"Of the {sent:.0f} secret strings that the parent had exchanged with its child, it "
            f"found {found:.0f} whole in the parent's memory."
        )
        if meta is not None and 0 < found < sent:  # why no more: right after the count
            said += (
                " The study's parent reads every message into the same buffer, which each new "
                "message overwrites."
            )
        if found > 0:  # the paper's point: c18n separates libraries, not processes
            # what the finding tests, said of the finding (a reader of round 128 read a bare
            # 'So' after the buffer's sentence as a non sequitur; five readers of rounds 142 to
            # 144: 'compartments do not hide …' refuted what c18n never claims)
            said += (
                " The finding tests the operating system's access control, not c18n, which "
                "isolates libraries within a process."
            )
        out.append(said)
    return out


def _tt(name: str) -> str:
    """A variant's or source's name as the pipe's sentence sets it (the names map replaces it)."""
    return f"\\texttt{{{escape(name)}}}"


def pipe_findings(source: str, summary: pd.DataFrame, verdicts: pd.DataFrame) -> list[str]:
    """E6's pipe between the two processes, library A's parent and library B's child (means of
    the trials), for the appendix: the variants' builds differ, so the body quotes none."""
    pipes, unread = [], []
    for variant, get in _by_variant(source, summary):
        write, wait = get("pipe_write_ns"), get("pipe_message_wait_ns")
        if write is not None and wait is not None:  # the study's columns (pipe.study_rows)
            pipes.append((variant, write, wait, get("pipe_write_ns", field="n")))
            if get("strings_sent") is None:  # timed, but no memory read recorded
                unread.append(variant)
    if not pipes:
        return []
    # one sentence for every variant: a template repeated per variant reads as a copy
    us = "\\,\\si{\\micro\\second}"
    writes = listed([f"{fmt(w / 1e3)}{us} in {_tt(v)}" for v, w, _, _ in pipes])
    waits = listed([f"{fmt(x / 1e3)}{us}" for _, _, x, _ in pipes])
    trials = listed(list(dict.fromkeys(f"{n:.0f}" for *_, n in pipes)))
    return [
        f"On {_tt(source)}, in this two-library program, not E4's, the child's "
        f"pipe write took {writes}; the parent waited {waits}"
        f"{', respectively,' if len(pipes) > 1 else ''} for each message the child built and "
        f"wrote (means of {trials} trials)."
        # whose memory was read (a reader of round 120 met a variant's times here that Figure 8
        # does not draw)
        + (
            f" No memory read of the {listed([_tt(v) for v in unread])} "
            f"run{'s' if len(unread) > 1 else ''} was recorded."
            if unread
            else ""
        )
    ]


# The study's two-library program wrote its pipe timings in the pipe layout (E6's names for them
# start with pipe_); its logs are a folder.
LAYOUTS = (
    Layout(
        "isolation-pipe",
        pipe.LAYOUT.columns,
        lambda c: pipe.study_rows(c, "pipe_"),
        recognised=False,
    ),
    Layout("isolation-logs", {}, recognised=False, folder=import_logs),
)


EXPERIMENT = Experiment(
    reads_tidy=True,  # its table or figure reads single trials
    layouts=LAYOUTS,
    name="isolation",
    measures=(
        "regions of a parent process (library A) and its forked child (library B) and the "
        "strings found in them"
    ),
    part="compartments",
    number=6,
    params=(
        Param(
            "strings",
            100,
            20,
            "random strings library A sends to library B",
            minimum=1,
            maximum=1024,
        ),
        Param("max_seconds", 60, 20, "time budget of one scrape", exclusive_minimum=0),
        time_limit(600, 120),
    ),
    title="E6 memory isolation of two libraries in two processes",
    programs=(
        Program("isolation", ("isolation.c",), links=("isolation_a", "isolation_b")),
        Program("isolation_a", ("isolation_a.c",), shared=True),
        Program("isolation_b", ("isolation_b.c",), shared=True),
    ),
    driver="c18n_ae.experiments.drivers.isolation",
    probe_args=("--strings", "1", "--sent", "/dev/null", "--log", "/dev/null"),
    trials=lambda p: 2,
    details=pipe_findings,
)
