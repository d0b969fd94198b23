"""Metrics named together in prose by the words that tell their labels apart: 'writing 0.93×
and reading 0.97×' in Section 4, 'a malloc and free of the largest block' where Section 4.3
names the metrics whose variants also differ in heap revocation."""

from __future__ import annotations

from c18n_ae.common.latex import listed


def _affixes(labels: list[str]) -> tuple[int, int]:
    """How many leading and trailing words all labels share, leaving each at least one word."""
    split = [x.split() for x in labels]
    head = 0
    while all(len(w) > head + 1 for w in split) and len({w[head] for w in split}) == 1:
        head += 1
    tail = 0
    while all(len(w) > head + tail + 1 for w in split) and len({w[-1 - tail] for w in split}) == 1:
        tail += 1
    return head, tail


def short_names(labels: list[str]) -> list[str]:
    """The words that tell labels apart ('writing the largest block', 'reading the largest
    block' -> 'writing', 'reading'); one label stays whole."""
    if len(set(labels)) < 2:
        return list(labels)
    head, tail = _affixes(labels)
    return [" ".join(x.split()[head : len(x.split()) - tail]) for x in labels]


def named_together(labels: list[str]) -> str:
    """The labels as one phrase, their shared words said once ('a malloc and free of the largest
    block'); one label: itself."""
    labels = list(dict.fromkeys(labels))
    if len(labels) < 2:
        return listed(labels)
    head, tail = _affixes(labels)
    words = labels[0].split()
    parts = [*words[:head], listed(short_names(labels)), *words[len(words) - tail :]]
    return " ".join(parts)
