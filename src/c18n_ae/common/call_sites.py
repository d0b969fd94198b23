"""What the study's binaries call inside a timed region: the per-call estimate divides by the calls
one iteration makes into another library, and the C source alone leaves to the compiler which
calls stay calls (sqrt(i) becomes an inline fsqrt). A data set's `calls` facts name, per metric,
the calls one iteration makes and the binaries (under the data set's binaries/ folder, with their
SHA-256) whose machine code shows them; mistakes() decodes each binary's function between its two
calls to the clock and checks that the calls found there are the ones the fact names, once each
per iteration.

The decoder reads only what it needs: BL (the same encoding in A64 and Morello's C64, so the
purecap builds, which llvm-objdump does not decode, read as well as the hybrid ones), FSQRT of a
double, and the PLT, whose n-th 16-byte entry after a 32-byte header is the n-th relocation of
.rela.plt (lld's layout; every binary here has it)."""

from __future__ import annotations

import hashlib
import io
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from elftools.elf.elffile import ELFFile

PLT_HEADER, PLT_ENTRY = 32, 16
BL, BL_MASK = 0b100101, 26  # bits 31..26 of BL <imm26>
FSQRT_D, FSQRT_MASK = 0x1E61C000, 0xFFFFFC00  # FSQRT Dd, Dn, without its registers


def _plt(elf: ELFFile) -> dict[int, str]:
    """PLT entry address -> the function it calls."""
    plt, rela = elf.get_section_by_name(".plt"), elf.get_section_by_name(".rela.plt")
    if plt is None or rela is None:
        return {}
    symbols = elf.get_section(rela["sh_link"])
    names = [symbols.get_symbol(r["r_info_sym"]).name for r in rela.iter_relocations()]
    first = plt["sh_addr"] + PLT_HEADER
    return {first + PLT_ENTRY * i: n for i, n in enumerate(names)}


def sequence(path: Path, function: str) -> list[str]:
    """The functions `function` calls (by name, a call to an address outside the PLT by its
    address) and its inline square roots ('fsqrt'), in the order of its machine code."""
    data = Path(path).read_bytes()
    key = (hashlib.sha256(data).hexdigest(), function)
    if key not in _DECODED:
        _DECODED[key] = _decoded(data, function, path)
    return list(_DECODED[key])


# sequence's work once a process for each binary's content: a process that checks a data set many
# times (the fuzz tests' copies, ~2,000 checks) decoded the same few binaries each time, with
# pyelftools' symbol-name map rebuilt for each
_DECODED: dict[tuple[str, str], tuple[str, ...]] = {}


def _decoded(data: bytes, function: str, path: Path) -> tuple[str, ...]:
    from elftools.elf.elffile import ELFFile  # here: every process that loads a data set imports us

    with io.BytesIO(data) as f:
        elf = ELFFile(f)
        plt = _plt(elf)
        table = elf.get_section_by_name(".symtab")
        found = table.get_symbol_by_name(function) if table else None
        if not found:
            raise ValueError(f"{path}: no symbol {function!r}")
        start = found[0]["st_value"] & ~1  # C64 code: the symbol's low bit marks the state
        text = elf.get_section_by_name(".text")
        offset = start - text["sh_addr"]
        code = text.data()[offset : offset + found[0]["st_size"]]
    out = []
    for i in range(0, len(code) - 3, 4):
        word, pc = int.from_bytes(code[i : i + 4], "little"), start + i
        if word >> BL_MASK == BL:
            imm = word & ((1 << BL_MASK) - 1)
            imm -= (1 << BL_MASK) if imm >> (BL_MASK - 1) else 0
            target = pc + 4 * imm
            out.append(plt.get(target, hex(target)))
        elif word & FSQRT_MASK == FSQRT_D:
            out.append("fsqrt")
    return tuple(out)


def between(path: Path, function: str, fence: str) -> list[str]:
    """What `function` calls between its first two calls to `fence` (the clock): the timed loop."""
    seq = sequence(path, function)
    at = [i for i, name in enumerate(seq) if name == fence]
    if len(at) < 2:
        raise ValueError(f"{path}: {function} calls {fence} {len(at)} time(s), not twice")
    return seq[at[0] + 1 : at[1]]


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def mistakes(d: Path, meta: dict) -> list[str]:
    """One message per binary whose checksum or timed calls differ from the data set's calls
    facts (calls.<experiment>.<metric>.binaries), naming its key."""
    out = []
    for e, metrics in meta.get("calls", {}).items():
        for m, fact in metrics.items():
            want = Counter({k: v for k, v in fact["calls"].items() if v})
            for i, b in enumerate(fact.get("binaries", [])):
                key = f"calls.{e}.{m}.binaries[{i}]"
                path = Path(d) / "binaries" / b["file"]
                if not path.is_file():
                    out.append(f"{key}: {b['file']} not found in {Path(d).name}/binaries")
                    continue
                if sha256(path) != b["sha256"]:
                    out.append(f"{key}: {b['file']} does not have the recorded SHA-256")
                    continue
                try:
                    seen = between(path, b["function"], b["between"])
                except ValueError as err:
                    out.append(f"{key}: {err}")
                    continue
                calls = Counter(x for x in seen if x != "fsqrt")
                if calls != want:
                    out.append(
                        f"{key}: {b['file']} {b['function']} calls {dict(calls)} between its "
                        f"{b['between']} calls, not {dict(want)}"
                    )
                missing = [x for x in fact.get("inlined", []) if x not in seen]
                if missing:
                    out.append(f"{key}: {b['file']} {b['function']} has no inline {missing}")
    return out


def compiler_record(path: Path) -> str:
    """The compiler a binary records in its .comment section, the longest 'clang version' string
    ('clang version 14.0.0 (https://… ae1b1aad…)'), '' where it records none: the study's files
    name its compilers (cc, clang-morello), and only the binaries say which build each was."""
    from elftools.elf.elffile import ELFFile

    with open(path, "rb") as f:
        section = ELFFile(f).get_section_by_name(".comment")
        data = section.data() if section is not None else b""
    said = [x.decode(errors="replace") for x in data.split(b"\0") if b"clang version" in x]
    return max(said, key=len, default="")


def _records(meta: dict, experiments=None) -> dict[str, set[str]]:
    """variant -> the compilers its binaries record (compiler_record), over the data set's calls
    facts of the experiments named (all where None), each binary read once."""
    seen: dict[str, set[str]] = {}
    read: dict[Path, str] = {}  # each binary once: every metric of an experiment lists it again
    for e, metrics in meta.get("calls", {}).items():
        if experiments is not None and e not in experiments:
            continue
        for fact in metrics.values():
            for b in fact.get("binaries", []):
                path = Path(meta.get("directory", "")) / "binaries" / b["file"]
                if path not in read:
                    read[path] = compiler_record(path) if path.is_file() else ""
                record = read[path]
                for v in b.get("variants", []):
                    seen.setdefault(v, set()).add(record)
    return seen


def _one_each(seen: dict[str, set[str]]) -> dict[str, str]:
    return {v: next(iter(r)) for v, r in seen.items() if len(r) == 1 and "" not in r}


def compilers(meta: dict) -> dict[str, str]:
    """variant -> the compiler its binaries record (compiler_record), over the data set's calls
    facts; a variant whose binaries record two compilers, or none, is left out."""
    return _one_each(_records(meta))


def compilers_by_experiment(meta: dict) -> dict[str, dict[str, str]]:
    """experiment -> variant -> the compiler its binaries of that experiment record: the binaries
    are one experiment's programs, so what they record says nothing of another's (the issue's
    item 6: a fact applies only to the files its evidence covers)."""
    out = {e: _one_each(_records(meta, {e})) for e in meta.get("calls", {})}
    return {e: v for e, v in out.items() if v}


def one_build(records: dict | None, *variants: str) -> str:
    """'clang 14.0.0' where the binaries of every variant named record the same compiler build
    (records: compilers or one experiment's compilers_by_experiment), '' otherwise (A189: the
    binaries record what the study's files leave to the compilers' names)."""
    said = {(records or {}).get(v, "") for v in variants}
    return compiler_words(next(iter(said))) if len(said) == 1 and "" not in said else ""


def compiler_words(record: str) -> str:
    """A compiler record in prose, 'clang 14.0.0', the commit left to the record itself (A192: a
    commit hash in running text); compilers() compares whole records, commits included."""
    version = re.search(r"clang version (\S+)", record)
    return f"clang {version[1]}" if version else ""
