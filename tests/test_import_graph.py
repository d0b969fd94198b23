"""The package's modules import each other without a circle: every import statement that runs
counts, also one inside a function (the way a circle is usually hidden); only imports for type
checkers (if TYPE_CHECKING:) are left out."""

import ast

from conftest import ROOT

SRC = ROOT / "src"


def module_name(path):
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path, modules):
    """The package's modules this file imports (a name imported from a package counts as the
    submodule of that name when there is one, else as the package)."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(n)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for stmt in block.body
        for n in ast.walk(stmt)
    }
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom) and node.module in modules and not node.level:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out.add(sub if sub in modules else node.module)
    return out


def graph():
    paths = {module_name(p): p for p in (SRC / "c18n_ae").rglob("*.py")}
    return {m: imported(p, paths) - {m} for m, p in paths.items()}


def circle(edges):
    """One circle of the graph as a list of modules, or None (depth-first search)."""
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for n in sorted(edges.get(m, ())):
            if state.get(n) == "open":
                return stack[stack.index(n) :] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        state[m] = "done"
        stack.pop()
        return None

    for m in sorted(edges):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_search_finds_a_circle_and_a_clean_graph_has_none():
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_circle_among_the_package_modules():
    edges = graph()
    assert len(edges) > 50 and "c18n_ae.analysis.tidy" in edges["c18n_ae.analysis.collect"]
    found = circle(edges)
    assert found is None, "import circle: " + " -> ".join(found)
