"""The Python files a module runs: its own and those of every module of this package it imports,
at any depth, an import inside a function included, with the __init__ files of the packages on
the way (imports for type checkers only, under `if TYPE_CHECKING:`, run nothing and count not).
The rules list these files as a job's inputs, so that a change to any of them re-makes what the
job made, and nobody keeps the list by hand. Read from the source files (ast), never imported:
the workflow calls it while it loads. Standard library only.

Modules loaded by name at run time (the experiments' registry loads each experiment's module)
are not imports: a rule names the experiments whose modules it runs."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = "c18n_ae"


def module_files(*modules: str, src: str | Path = "src") -> list[str]:
    """The files the modules (dotted names, c18n_ae.report.macros) run, under the source folder
    src (relative paths stay relative), sorted."""
    src = Path(src)
    found: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found[name] = _file_of(name, src)
        parent = name.rpartition(".")[0]
        todo += [parent] if parent else []  # a package's __init__ runs before its modules
        todo += _imports(found[name], name, src)
    return sorted(str(p) for p in set(found.values()))


def _file_of(name: str, src: Path) -> Path:
    base = src.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    raise ModuleNotFoundError(f"module {name}: neither {base}.py nor {base}/__init__.py exists")


def _is_module(name: str, src: Path) -> bool:
    base = src.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _statements(tree: ast.Module):
    """Every statement of the tree at any depth (imports are statements, so expressions are not
    walked), without the bodies of `if TYPE_CHECKING:` blocks (their else branches count)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        for field, value in ast.iter_fields(node):
            if not isinstance(value, list) or not value or not isinstance(value[0], ast.AST):
                continue
            if field == "body" and isinstance(node, ast.If):
                if ast.unparse(node.test) == "TYPE_CHECKING":
                    continue
            todo += [v for v in value if isinstance(v, _BLOCKS)]


_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


@functools.cache
def _imports(path: Path, name: str, src: Path) -> tuple[str, ...]:
    """The package's modules one file imports (a name imported from a package is its submodule
    when there is one, else the package)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[str] = []
    for node in _statements(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from .x import y, from .. import z
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.append(base)
            out += [f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}", src)]
    return tuple(dict.fromkeys(m for m in out if m == PACKAGE or m.startswith(PACKAGE + ".")))
