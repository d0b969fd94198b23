"""Where a data set's files come from, as the study tells it (dataset.yaml boards and hosts):
what its documents say of its boards, which host each file names, and which files a fact drawn
from one host's log (the kernel) covers. Said once, in the data sets' description of the set-up."""

from __future__ import annotations

from c18n_ae.analysis.contrasts import experiment_of
from c18n_ae.common.latex import escape, listed


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
