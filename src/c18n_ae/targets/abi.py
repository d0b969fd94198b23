"""The ABI a binary was built for, read from its ELF file: what a variant's flags produced, checked
against what the variant declares, after every build (here, or fetched from a board).

- not AArch64: native (a host that has no CHERI);
- e_flags bit 0x10000 (EF_AARCH64_CHERI_PURECAP): purecap code;
- a note in section .note.cheri, owner CHERI, type 0x80000000
  (NT_CHERI_MORELLO_PURECAP_BENCHMARK_ABI), descriptor 1: the purecap-benchmark ABI;
- neither: hybrid (plain AArch64 code is what the hybrid ABI runs).
A variant that wants native accepts hybrid too: an AArch64 host without CHERI runs plain code.
Shared libraries may carry no .note.cheri: only their capability flag is checked.

usage: python -m c18n_ae.targets.abi FILE...   (prints FILE: ABI per file)"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

EF_AARCH64_CHERI_PURECAP = 0x10000
NT_CHERI_MORELLO_PURECAP_BENCHMARK_ABI = 0x80000000
ABIS = ("hybrid", "purecap", "purecap-benchmark", "native")


class AbiMismatch(RuntimeError):
    pass


def _notes(data: bytes, little: bool):
    """(owner, type, descriptor) of each ELF note in a section's bytes."""
    fmt = "<III" if little else ">III"
    off = 0
    while off + 12 <= len(data):
        namesz, descsz, ntype = struct.unpack_from(fmt, data, off)
        off += 12
        name = data[off : off + namesz].rstrip(b"\0").decode(errors="replace")
        off += (namesz + 3) & ~3
        desc = data[off : off + descsz]
        off += (descsz + 3) & ~3
        yield name, ntype, desc


def describe(path: Path) -> dict:
    """machine, purecap flag, benchmark note, shared library; and the ABI they make."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        info = {
            "machine": elf["e_machine"],
            "shared": elf["e_type"] == "ET_DYN"
            and not any(s["p_type"] == "PT_INTERP" for s in elf.iter_segments()),
            "purecap_flag": False,
            "benchmark_note": False,
        }
        if elf["e_machine"] != "EM_AARCH64":
            return {**info, "abi": "native"}
        info["purecap_flag"] = bool(elf["e_flags"] & EF_AARCH64_CHERI_PURECAP)
        section = elf.get_section_by_name(".note.cheri")
        if section is not None:
            little = elf.little_endian
            for owner, ntype, desc in _notes(section.data(), little):
                value = int.from_bytes(desc[:4], "little" if little else "big") if desc else 0
                if (
                    owner == "CHERI"
                    and ntype == NT_CHERI_MORELLO_PURECAP_BENCHMARK_ABI
                    and value == 1
                ):
                    info["benchmark_note"] = True
    abi = (
        "purecap-benchmark"
        if info["benchmark_note"]
        else "purecap"
        if info["purecap_flag"]
        else "hybrid"
    )
    return {**info, "abi": abi}


def classify(path: Path) -> str:
    return describe(path)["abi"]


def check(path: Path, wanted: str | None, variant: str) -> str:
    """The ABI found; raises AbiMismatch naming the binary, the ABI found and the one wanted."""
    d = describe(path)
    found = d["abi"]
    if wanted is None:
        return found
    ok = found == wanted
    if wanted == "native":  # a host without CHERI: its plain code, AArch64 (hybrid) included
        ok = found in ("native", "hybrid")
    if (
        d["shared"] and wanted == "purecap-benchmark"
    ):  # a library may carry no note: its flag decides
        ok = d["purecap_flag"]
    if not ok:
        raise AbiMismatch(f"{path}: ABI {found}, but variant {variant} wants {wanted}")
    return found


def of_build(binary: Path) -> str | None:
    """The ABI the build found in a binary (its .build.json), or None when it has none."""
    import json

    info = binary.with_name(binary.name + ".build.json")
    return json.loads(info.read_text()).get("abi") if info.exists() else None


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("files", nargs="+", type=Path)
    a = ap.parse_args(argv)
    status = 0
    for f in a.files:
        try:
            print(f"{f}: {classify(f)}")
        except (OSError, ELFError) as e:  # a file that is not ELF says so and the others go on
            print(f"{f}: not an ELF file ({e.__class__.__name__})", file=sys.stderr)
            status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
