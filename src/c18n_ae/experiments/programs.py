"""How each C program in src/benchmarks/ is built: its sources, whether it is a shared library,
and the libraries it links (built in the same bin directory, found through the run path)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Program:
    name: str
    sources: tuple[str, ...]
    shared: bool = False  # a shared library lib<name>.so, built with -fPIC -shared
    links: tuple[str, ...] = ()  # project shared libraries this program links against
    libs: tuple[str, ...] = ()  # system libraries, e.g. ("-lm",)

    @property
    def output(self) -> str:
        return f"lib{self.name}.so" if self.shared else self.name


PROGRAMS = {
    p.name: p
    for p in (
        Program("memory", ("memory.c",)),
        Program("cpu", ("cpu.c",), libs=("-lm",)),
        Program("pipe", ("pipe.c",)),
        Program("integration", ("integration.c",), libs=("-lcrypto",)),
        Program("isolation_a", ("isolation_a.c",), shared=True),
        Program("isolation_b", ("isolation_b.c",), shared=True),
        Program("isolation", ("isolation.c",), links=("isolation_a", "isolation_b")),
        Program("packet_plugin", ("packet_plugin.c",), shared=True),
        Program("packet", ("packet.c",), links=("packet_plugin",)),
        Program("ipc", ("ipc.c",)),
        Program("alloc_threads", ("alloc_threads.c",), libs=("-pthread",)),
    )
}


def get(name: str) -> Program:
    try:
        return PROGRAMS[name]
    except KeyError:
        raise KeyError(f"unknown program {name!r}; known: {', '.join(PROGRAMS)}") from None


def by_output(output: str) -> Program:
    return next(p for p in PROGRAMS.values() if p.output == output)
