"""The paper's one name for each data set, machine and variant (READ31: two names for one thing
lost the cold readers). A data set is named by its release without "CheriBSD " ("24.05"); a
machine by its target name ("local"); a variant in compartments by its ABI and "+ c18n"
("purecap + c18n", "benchmark + c18n" for the purecap-benchmark ABI), any other by its own name.
Everything comes from the config and the data sets' dataset.yaml; the ids stay in results/*.csv,
the HTML report and the command line, and Table 2 says once which id each name stands for."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from c18n_ae.common import config as cfg
from c18n_ae.common.latex import escape, listed

C18N = " + c18n"
SYSTEM = "CheriBSD "  # the operating system's name, which a release's label carries first


def short_release(label: str) -> str:
    """A release's label without the system's name ('CheriBSD 22.12 (copy-b)' -> '22.12
    (copy-b)'), as prose names a release once the system is said."""
    return label.removeprefix(SYSTEM)


def release(meta: dict) -> str:
    """A data set's release as the paper names it: '24.05' (its dataset.yaml release, without
    the operating system's name), else its id."""
    return short_release(meta.get("release") or meta["name"])


def _shared(metas: list[dict]) -> set[str]:
    """The data sets whose release (release(): without the system's name) another data set of
    the run also has: copies of one release, or a board's own run beside the study's."""
    said = Counter(release(m) for m in metas)
    return {m["name"] for m in metas if said[release(m)] > 1}


def release_labels(metas: list[dict]) -> dict[str, str]:
    """Each data set's release as prose names it: its dataset.yaml release ('CheriBSD 22.12'),
    with its id beside it where another data set of the run has the same release ('CheriBSD 22.12
    (copy-b)', _shared), so that two copies of one release never print alike ('the 22.12 and
    22.12 data'); '' where none is recorded. Matching a claim to a release keeps the bare
    release."""
    shared = _shared(metas)
    return {
        m["name"]: f"{r} ({m['name']})" if r and m["name"] in shared else r
        for m, r in ((m, m.get("release") or "") for m in metas)
    }


def data_together(phrases: list[str]) -> str:
    """Data sets named together, each once: 'the 22.12 (copy-a) and 22.12 (copy-b) data' where
    every phrase is 'the ... data' (the word 'data' once, so that copies of one release listed
    together cost a few words each), else the phrases listed."""
    said = list(dict.fromkeys(phrases))
    if said and all(x.startswith("the ") and x.endswith(" data") for x in said):
        return f"the {listed([x[4:-5] for x in said])} data"
    return listed(said)


def abi_word(abi: str) -> str:
    """An ABI in one word: its last ('purecap-benchmark' -> 'benchmark'), the word that tells it
    from the other ABIs beside it."""
    return abi.rsplit("-", 1)[-1]


# What each ABI does to a pointer, in a few words, where the abstract first names a variant
# (Section 2 says it at length): CHERI's ABIs, not a property of any data set
ABI_GLOSS = {
    "purecap": "every pointer a capability",
    "purecap-benchmark": "every pointer a capability",
    "hybrid": "plain \\mbox{64-bit} pointers",  # LaTeX: no line break at its hyphen
}


def compartment_name(abi: str) -> str:
    """A variant in compartments by its ABI: 'purecap + c18n'."""
    return abi_word(abi) + C18N


def variant_names(variants: dict[str, dict]) -> dict[str, str]:
    """One source's variants (name -> {c18n, abi}) -> their names in the paper: '<ABI> + c18n'
    for a variant in compartments, the variant's own name otherwise; two variants that would share
    a name: the one with the shortest id has it, the others keep their own (a board's
    purecap-c18n is 'purecap + c18n', its purecap-c18n-norevoke stays so)."""
    said = {
        v: compartment_name(str(spec.get("abi") or v)) if spec.get("c18n") else v
        for v, spec in variants.items()
    }
    holder: dict[str, list[str]] = {}
    for v, n in said.items():
        holder.setdefault(n, []).append(v)
    first = {n: min(vs, key=len) for n, vs in holder.items()}
    shortest = {n: [v for v in vs if len(v) == len(first[n])] for n, vs in holder.items()}
    return {v: n if shortest[n] == [v] else v for v, n in said.items()}


@dataclass(frozen=True)
class Names:
    """Display names: sources (data set or target id -> '24.05' or 'local') and each source's
    variants ((source, variant) -> 'purecap + c18n')."""

    sources: dict[str, str] = field(default_factory=dict)
    datasets: frozenset = frozenset()
    variants: dict[tuple[str, str], str] = field(default_factory=dict)
    releases: dict[str, str] = field(default_factory=dict)  # data set -> its full release

    def source(self, source: str) -> str:
        return self.sources.get(source, source)

    def data(self, source: str) -> str:
        """A source as a noun: 'the 24.05 data' for a data set, 'local' for a machine."""
        name = self.source(source)
        return f"the {name} data" if source in self.datasets else name

    def variant(self, source: str, variant: str) -> str:
        return self.variants.get((source, variant), variant)

    def contrast(self, source: str, subject: str, baseline: str) -> str:
        return f"{self.variant(source, subject)} / {self.variant(source, baseline)}"

    def stands_for(self, source: str) -> str:
        """The machines table's header: the name and, once, the id it stands for: '24.05 (data set
        morello-2024)'."""
        name = self.source(source)
        return f"{name} (data set {source})" if source in self.datasets else name

    def _everywhere(self) -> dict[str, str]:
        """Each id -> its one name, where the id means one thing in every source (a variant of
        two sources with two different names stays as it is)."""
        out: dict[str, str] = {s: n for s, n in self.sources.items() if s != n}
        by_variant: dict[str, set] = {}
        for (_, v), n in self.variants.items():
            by_variant.setdefault(v, set()).add(n)
        out.update({v: ns.pop() for v, ns in by_variant.items() if len(ns) == 1 and v not in ns})
        return out

    def text(self, tex: str, prose: bool = False) -> str:
        """Generated LaTeX or plain text with every id in it replaced by its name: '\\texttt{id}'
        and a bare id alike, 'morello-2024 (CheriBSD 24.05)' as '24.05' once; never an id inside
        a path ('datasets/morello-2024/', 'pipe/purecap-c18n.csv') or a longer word. prose: a
        data set as a noun, 'the 24.05 data' (a table's cell says '24.05')."""
        names = self._everywhere()
        # a variant that keeps its own name prints as every variant does, not as code
        plain = {v for (_, v), n in self.variants.items() if v == n}
        tex = (
            re.sub(
                r"\\texttt\{(" + "|".join(re.escape(escape(v)) for v in plain) + r")\}",
                lambda m: m.group(1),
                tex,
            )
            if plain
            else tex
        )
        if not names:
            return tex
        ids = sorted(names, key=len, reverse=True)
        alternatives = "|".join(re.escape(escape(i)) for i in ids)
        unescaped = {escape(i): i for i in ids}
        full = {escape(i): escape(r) for i, r in self.releases.items()}
        pattern = re.compile(
            rf"\\texttt\{{({alternatives})\}}( \(([^()]*)\))?"
            rf"|(?<![\w/.\-])({alternatives})(?![\w/\-]|\.\w)( \(([^()]*)\))?"
        )

        def named(m: re.Match) -> str:
            found = m.group(1) or m.group(4)
            after, inside = (m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(6))
            name = names[unescaped[found]]
            # 'morello-2024 (CheriBSD 24.05)': the release said twice; once is enough
            if after and inside in (full.get(found), name):
                after = ""
            if prose and unescaped[found] in self.datasets:
                before = m.string[max(0, m.start() - 4) : m.start()]
                start = re.search(r"(^|[.!?]\s+|\{)$", before)  # a sentence's or macro's first
                the = "" if before.lower().endswith("the ") else ("The " if start else "the ")
                return f"{the}{escape(name)} data" + (after or "")
            return escape(name) + (after or "")

        # a contrast 'purecap-c18n/hybrid' first: an id beside a slash that is no path's
        pair = re.compile(r"(?<![\w/.\-])([\w\-]+)/([\w\-]+)(?![\w/\-]|\.\w)")

        def contrast(m: re.Match) -> str:
            a, b = (names.get(unescaped.get(x, x), x) for x in m.groups())
            if (a, b) == m.groups():
                return m.group(0)
            return f"{escape(a)} / {escape(b)}" if " " in a + b else f"{escape(a)}/{escape(b)}"

        return pattern.sub(named, pair.sub(contrast, tex))


def from_config(config: dict | None) -> Names:
    """The names of every target and data set the config includes, and of their variants."""
    if not config:
        return Names()
    sources, variants, releases = {}, {}, {}
    for t in config.get("targets", []):
        sources[t["name"]] = t["name"]
        specs = {v["name"]: v for v in t["variants"]}
        variants.update({(t["name"], v): n for v, n in variant_names(specs).items()})
    metas = cfg.datasets(config)
    # two data sets of one release (a board's own run beside the study's, or copies) would print
    # alike: each of those keeps its id
    shared = _shared(metas)
    for m in metas:
        sources[m["name"]] = m["name"] if m["name"] in shared else release(m)
        releases[m["name"]] = m.get("release", "")
        variants.update({(m["name"], v): n for v, n in variant_names(m["variants"]).items()})
    return Names(sources, frozenset(m["name"] for m in metas), variants, releases)
