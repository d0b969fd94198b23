"""How each C program in src/benchmarks/ is built: its sources, whether it is a shared library,
and the libraries it links (built in the same bin directory, found through the run path). Each
experiment's module declares its programs, the one it starts first."""

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


# the OpenSSL workload that E1 starts many times and E5 scrapes
INTEGRATION = Program("integration", ("integration.c",), libs=("-lcrypto",))


def catalogue() -> dict[str, Program]:
    """Every program the experiments' modules declare, by name (one declaration per name: two
    experiments that run the same program declare it alike)."""
    from c18n_ae import experiments

    out: dict[str, Program] = {}
    for e in experiments.registry().values():
        for prog in e.programs:
            if out.setdefault(prog.name, prog) != prog:
                raise ValueError(f"program {prog.name!r} is declared differently by {e.name}")
    return out


def get(name: str) -> Program:
    try:
        return catalogue()[name]
    except KeyError:
        raise KeyError(f"unknown program {name!r}; known: {', '.join(catalogue())}") from None


def by_output(output: str) -> Program:
    return next(p for p in catalogue().values() if p.output == output)
