"""Where a data set's files come from, as the study tells it (dataset.yaml boards and hosts):
what its documents say of its boards, which host each file names, and which files a fact drawn
from one host's log (the kernel) covers. Said once, in the data sets' description of the set-up."""

from __future__ import annotations

from c18n_ae.analysis.contrasts import experiment_of
from c18n_ae.common.latex import escape, in_words, listed
from c18n_ae.common.names import release_labels, short_release


def covers(fact: dict, experiments) -> bool:
    """A fact scoped to some files (its `files`: one host's logs) covers every experiment named;
    a fact without `files` covers the whole data set."""
    files = fact.get("files")
    if not files:
        return True
    return set(experiments) <= {experiment_of(f) for f in files}


def _documents(meta: dict) -> str:
    """'document 000 (section 1) says "..." and "..."; document 002 (section 1) says "..."'."""
    said: dict[str, list[dict]] = {}
    for b in meta.get("boards", []):
        said.setdefault(b["document"], []).append(b)
    parts = []
    for doc, lines in said.items():
        quotes = listed([f"``{escape(b['says'])}''" for b in lines])
        sections = listed(list(dict.fromkeys(escape(b["section"]) for b in lines)))
        parts.append(f"document {escape(doc.split('_')[0])} ({sections}) says {quotes}")
    return "; ".join(parts)


def boards_text(meta: dict) -> str:
    """' The study's documents differ on its boards: ... Its files name the hosts ...': '' for a
    data set that records neither (with a leading space, to follow a sentence)."""
    out = []
    docs = _documents(meta)
    if docs:
        verb = (
            "differ on its boards"
            if len({b["document"] for b in meta["boards"]}) > 1
            else ("say of its boards")
        )
        out.append(f"The study's documents {verb}: {docs}.")
    hosts = meta.get("hosts", [])
    if hosts:
        named = {f for h in hosts for f in h["files"]}
        rest = [f["path"] for f in meta.get("files", []) if f["path"] not in named]
        each = [
            f"\\texttt{{{escape(h['host'])}}} for "
            + listed([f"\\texttt{{{escape(f)}}}" for f in h["files"]])
            for h in hosts
        ]
        text = "Its files name the host they were built or run on: " + "; ".join(each)
        if rest:
            text += f"; the other {len(rest)} name none"
        out.append(
            text + ". Two variants from two hosts differ in their board as well, a confound "
            "where that is recorded; which host is which board of the documents is not recorded."
        )
    kernel = meta.get("kernel") or {}
    if kernel.get("host") and kernel.get("debug_options"):
        debug = listed(kernel["debug_options"])
        out.append(
            f"The kernel is recorded only in \\texttt{{{escape(kernel['host'])}}}'s log "
            f"(E6): a debug kernel with {escape(debug)}; the kernel of the other hosts is not "
            "recorded."
        )
    return "".join(f" {x}" for x in out)


def boards_open(metas: list[dict]) -> str:
    """What the data sets' provenance leaves open about their boards, for Threats: 'The study's
    documents disagree on how many boards it used and its files name three hosts (Appendix C).';
    '' where nothing is open. The full account is the appendix's (boards_text, attribution)."""
    said = []
    if any(len({b["document"] for b in m.get("boards", [])}) > 1 for m in metas):
        said.append("the study's documents disagree on how many boards it used")
    hosts = {h["host"] for m in metas for h in m.get("hosts", [])}
    if hosts:
        n = len(hosts)
        said.append(f"its files name {in_words(n)} host{'s' if n > 1 else ''}")
    if not said:
        return ""
    text = listed(said)
    return f"{text[:1].upper()}{text[1:]} (Appendix~\\ref{{sec:provenance}})."


def summary_text(metas: list[dict]) -> str:
    """The body's sentence on the data sets: which releases, whose, measured on what (by their
    authors, so not by this package). What their provenance leaves open (the documents'
    boards, the hosts the files name, the one host whose log records the kernel) is Threats'
    and the appendix's to say, once (boards_text, attribution)."""
    if not metas:
        return "This run included no data set."
    labels = release_labels(metas)  # copies of one release named apart
    names = listed([escape(short_release(labels[m["name"]] or m["name"])) for m in metas])
    data = f"The {names} data" if len(metas) > 1 else f"The {names} data set"
    # the board model without what a release leaves unrecorded (the appendix says it)
    models = list(dict.fromkeys(escape(m["host"]["model"].split(" (")[0]) for m in metas))
    on = f"{listed(models)}s" if len(metas) > 1 else f"a {models[0]}"
    # one study's: its files and people alike (findings.attribution says it in full)
    study = any(m.get("study_data") for m in metas) and len({m["measured_by"] for m in metas}) == 1
    whose = "the study's raw files" if study else "shipped measurements"
    verb = "are" if len(metas) > 1 else "is"
    # whose measurements they are says that we made none: the box on page one says it once
    # (round 114: said on three pages)
    return f"{data} {verb} {whose}, measured by their authors on {on}."
