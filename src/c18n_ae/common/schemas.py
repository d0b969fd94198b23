"""The workflow's JSON schemas (workflow/schemas/), loaded with the one name pattern they share
(name.schema.yaml) and validated with messages that say what a name may be; and the one strict
reader of the YAML files the package reads (config, dataset.yaml, claims), whose text may reach
the paper."""

from __future__ import annotations

import copy
import functools
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from c18n_ae import PROJECT_ROOT

if TYPE_CHECKING:  # imported by validator(): a job whose config a parent validated needs neither
    import jsonschema

FOLDER = PROJECT_ROOT / "workflow" / "schemas"
NAME = "name.schema.yaml"
MAX_BYTES = 1 << 20  # a hand-written YAML file (config, dataset.yaml) is small
MAX_LINE = 10_000
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when built with it
# Aliases repeat data without repeating text (a one-line "alias bomb" stands for gigabytes): a
# file's data, its aliases expanded, holds at most this many characters and nodes in all, and
# nests at most MAX_DEPTH deep, checked on the parsed nodes before any object is made.
MAX_EXPANDED = 2 * MAX_BYTES
MAX_DEPTH = 64
QUOTED = 200  # characters of a value a message quotes
# Text that may reach the paper: printable ASCII, and the Latin-1 and Latin Extended-A letters
# and signs that the paper's font encodings (acmart's T1, with TS1) typeset, but the nine they
# lack, and the dashes and quotes of U+2013 to U+201D. No control character, no line break (a
# blank line would end a table row), no other script: each is refused naming its key.
UNTYPESET = set("ĦħĸĿŀŉŦŧſ")
TYPOGRAPHY = set("–—‘’“”")


def typesets(c: str) -> bool:
    """Whether a character of a YAML string may reach the paper (the rule above UNTYPESET)."""
    n = ord(c)
    return 0x20 <= n < 0x7F or (0xA0 <= n <= 0x17F and c not in UNTYPESET) or c in TYPOGRAPHY


def quoted(value, limit: int = QUOTED) -> str:
    """A value as a message quotes it: its repr, cut to limit characters."""
    return cut(repr(value), limit)


def cut(text: str, limit: int = QUOTED) -> str:
    """Text a message shows as it is (a path), cut to limit characters."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def short(message: str, limit: int = 2 * QUOTED) -> str:
    """A message of a library (jsonschema's quote whole values) cut to limit characters."""
    return message if len(message) <= limit else f"{message[:limit]}... (cut)"


class YamlFileError(ValueError):
    """A YAML file that is not a readable mapping, named with its line."""


class StrictLoader(SAFE_LOADER):
    """safe_load's loader that also refuses a key given twice in one mapping (YAML would keep the
    last silently) and data whose aliases expand past MAX_EXPANDED, nest past MAX_DEPTH or
    contain themselves, each with its line."""

    def construct_document(self, node):
        _check_expansion(node)
        return super().construct_document(node)

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            first = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue  # '<<: *defaults' then a key of its own overrides on purpose
                key = self.construct_object(key_node, deep=True)
                try:
                    line = first.setdefault(key, key_node.start_mark.line + 1)
                except TypeError:
                    continue  # an unhashable key: the safe loader says so itself
                if line != key_node.start_mark.line + 1:
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        f"key {quoted(key)} given twice (also on line {line}); "
                        "YAML would keep the last silently",
                        key_node.start_mark,
                    )
        return super().construct_mapping(node, deep=deep)


def _check_expansion(root) -> None:
    """Raises a ConstructorError when the data, aliases expanded, is larger than MAX_EXPANDED
    (characters of scalars plus one per node), deeper than MAX_DEPTH or holds itself. Each node
    is visited once (sizes of shared nodes are remembered), so a bomb costs its text only."""
    size: dict[int, int] = {}
    open_: set[int] = set()
    stack = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        kids = [] if isinstance(node, yaml.ScalarNode) else list(_children(node))
        if done:
            open_.discard(key)
            size[key] = 1 + (len(node.value) if not kids and isinstance(node.value, str) else 0)
            size[key] += sum(size[id(k)] for k in kids)
            if size[key] > MAX_EXPANDED:
                raise _node_error(
                    node,
                    f"its aliases expand to more than {MAX_EXPANDED} characters "
                    "(an alias bomb?); write the data out",
                )
            continue
        if key in size:
            continue
        if key in open_:
            raise _node_error(node, "an alias inside the anchor it names (data holding itself)")
        if depth > MAX_DEPTH:
            raise _node_error(node, f"nested more than {MAX_DEPTH} levels deep")
        open_.add(key)
        stack.append((node, depth, True))
        stack += [(k, depth + 1, False) for k in kids]


def _children(node):
    if isinstance(node, yaml.SequenceNode):
        yield from node.value
    elif isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield k
            yield v


def _node_error(node, problem: str) -> yaml.constructor.ConstructorError:
    return yaml.constructor.ConstructorError(None, None, problem, node.start_mark)


def text_problems(data, where: str = "") -> list[str]:
    """'key: why' for each string (value or key) of loaded YAML that could not reach the paper as
    written: a control character or line break, or a character the paper's fonts lack.
    A list entry that is a mapping with a name is shown by it (targets[local])."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            here = f"{where}.{cut(str(k))}" if where else cut(str(k))
            out += text_problems(k, f"{where or '(top level)'} key {quoted(k)}")
            out += text_problems(v, here)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            label = v.get("name") if isinstance(v, dict) else None
            label = label if isinstance(label, str) and typesets_all(label) else i
            out += text_problems(v, f"{where}[{label}]")
    elif isinstance(data, str):
        bad = next((c for c in data if not typesets(c)), None)
        if bad is not None:
            out.append(f"{where or '(top level)'}: {_why(bad)}")
    return out


def typesets_all(text: str) -> bool:
    return all(map(typesets, text))


def _why(c: str) -> str:
    code = " ".join(filter(None, (f"U+{ord(c):04X}", unicodedata.name(c, ""))))
    if c in "\n\r" or unicodedata.category(c) in ("Zl", "Zp"):
        return f"a line break ({code}); write the text on one line (a folded >- block joins lines)"
    if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return f"a control or invisible character ({code}); not text"
    return (
        f"{code} is a character the paper's fonts do not typeset (Latin letters, digits and "
        "common signs only); write it in Latin letters"
    )


def read_yaml(path: Path) -> dict:
    """A hand-written YAML file's mapping: UTF-8 text, no NUL byte, no line over MAX_LINE
    characters, at most MAX_BYTES, valid YAML (safe_load), a mapping; otherwise one message naming
    the file and line."""
    path = Path(path)
    if path.stat().st_size > MAX_BYTES:
        raise YamlFileError(f"{path}: larger than {MAX_BYTES} bytes; not a hand-written file")
    raw = path.read_bytes()
    if b"\0" in raw:
        line = raw[: raw.index(b"\0")].count(b"\n") + 1
        raise YamlFileError(f"{path}:{line}: a NUL byte; not a text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise YamlFileError(f"{path}:{line}: not UTF-8 text (a UTF-16 or binary file?)") from None
    for n, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE:
            raise YamlFileError(f"{path}:{n}: line longer than {MAX_LINE} characters")
    try:
        data = yaml.load(text, Loader=StrictLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise YamlFileError(f"{path}{where}: not valid YAML: {problem}") from None
    if data is None:
        raise YamlFileError(f"{path}: empty file (nothing but comments or blank lines)")
    if not isinstance(data, dict):
        raise YamlFileError(f"{path}: expected a mapping of keys, got {type(data).__name__}")
    problems = text_problems(data)
    if problems:
        raise YamlFileError("\n  ".join(f"{path}: {p}" for p in problems[:20]))
    return data


def load(file: str) -> dict:
    """A schema, as a fresh copy (callers may fill in parts of it)."""
    return copy.deepcopy(_parsed(file))


@functools.cache
def _parsed(file: str) -> dict:
    return yaml.load((FOLDER / file).read_text(), Loader=StrictLoader)


def validator(schema: dict) -> jsonschema.Draft202012Validator:
    """A validator that resolves $ref: name.schema.yaml."""
    import jsonschema
    from referencing import Registry, Resource

    registry = Registry().with_resource(NAME, Resource.from_contents(load(NAME)))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def is_name(text) -> bool:
    """Whether text is a name by the one pattern (name.schema.yaml)."""
    return not list(validator({"$ref": NAME}).iter_errors(text))


def name_problem(error: jsonschema.ValidationError) -> str | None:
    """The message for a name that breaks the name pattern, else None."""
    if error.schema.get("$id") != NAME or error.validator not in ("pattern", "type", "maxLength"):
        return None
    return f"{quoted(error.instance)} is not allowed as a name ({error.schema['description']})"
