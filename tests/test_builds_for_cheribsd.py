"""Every program and library builds for aarch64-freebsd (CheriBSD's base headers and libc, through
zig's cross compiler) with -Werror, and for the host with gcc and clang alike; the C stays
CHERI-safe (no inline asm with a pointer operand)."""

import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from c18n_ae.experiments import programs
from c18n_ae.experiments.commands import compile_command
from conftest import ROOT

SOURCES = ROOT / "src" / "benchmarks"
OPENSSL_PREFIXES = (
    "EVP_",
    "PEM_",
    "BIO_",
    "RSA_",
    "OPENSSL_",
    "ERR_",
    "RAND_",
    "CRYPTO_",
    "BN_",
    "EC_",
    "OSSL_",
)


def zig_cc(tmp_path):
    """A one-word cc for compile_command: zig's clang with FreeBSD's aarch64 headers and libc
    stubs."""
    cc = tmp_path / "zig-cc"
    cc.write_text(f'#!/bin/sh\nexec {sys.executable} -m ziglang cc "$@"\n')
    cc.chmod(cc.stat().st_mode | stat.S_IEXEC)
    return str(cc)


def openssl_headers(tmp_path):
    """Debian's OpenSSL 3 headers (FreeBSD's base OpenSSL is version 3 too), with the one
    architecture-specific header from the multiarch folder."""
    inc = tmp_path / "openssl-include"
    shutil.copytree("/usr/include/openssl", inc / "openssl")
    for arch_dir in Path("/usr/include").glob("*-linux-gnu/openssl"):
        for f in arch_dir.iterdir():
            shutil.copy(f, inc / "openssl" / f.name)
        break
    return inc


def libcrypto_stub(tmp_path, cc, flags, obj):
    """A libcrypto.so for aarch64-freebsd that defines the OpenSSL functions integration.c calls
    (none exists here), so the link checks every other symbol against FreeBSD's libc."""
    with open(obj, "rb") as f:
        symbols = ELFFile(f).get_section_by_name(".symtab")
        names = sorted(
            {
                s.name
                for s in symbols.iter_symbols()
                if s["st_shndx"] == "SHN_UNDEF" and s.name.startswith(OPENSSL_PREFIXES)
            }
        )
    assert names, "integration.c calls no OpenSSL function?"
    src = tmp_path / "crypto_stub.c"
    src.write_text("".join(f"void {n}(void);\nvoid {n}(void) {{}}\n" for n in names))
    out = tmp_path / "stub" / "libcrypto.so"
    out.parent.mkdir(exist_ok=True)
    subprocess.run([cc, *flags, "-fPIC", "-shared", "-o", str(out), str(src)], check=True)
    return out.parent


def build_all(tmp_path, cc, flags, extra_for=None):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    variant = {"name": "check", "cc": cc, "cflags": [*flags, "-O2", "-Werror"]}
    order = sorted(
        programs.catalogue().values(), key=lambda p: (not p.shared, p.name)
    )  # libraries first
    for prog in order:
        cmd = compile_command(variant, prog, str(SOURCES), str(bin_dir))
        cmd += (extra_for or {}).get(prog.name, [])
        done = subprocess.run(cmd, capture_output=True, text=True)
        assert done.returncode == 0, f"{prog.name}: {' '.join(cmd)}\n{done.stderr}"
        assert (bin_dir / prog.output).exists()
    return bin_dir


def test_every_program_builds_for_aarch64_freebsd(tmp_path):
    cc = zig_cc(tmp_path)
    flags = ["-target", "aarch64-freebsd"]
    inc = openssl_headers(tmp_path)
    obj = tmp_path / "integration.o"
    subprocess.run(
        [
            cc,
            *flags,
            "-std=c11",
            "-isystem",
            str(inc),
            "-c",
            "-o",
            str(obj),
            str(SOURCES / "integration.c"),
        ],
        check=True,
    )
    stub = libcrypto_stub(tmp_path, cc, flags, obj)
    bin_dir = build_all(tmp_path, cc, flags, {"integration": ["-isystem", str(inc), f"-L{stub}"]})
    for prog in programs.catalogue().values():
        with open(bin_dir / prog.output, "rb") as f:
            elf = ELFFile(f)
            assert elf["e_machine"] == "EM_AARCH64", prog.name
            if not prog.shared:  # FreeBSD's run-time linker, as on CheriBSD
                interp = next(s for s in elf.iter_segments() if s["p_type"] == "PT_INTERP")
                assert interp.get_interp_name() == "/libexec/ld-elf.so.1", prog.name


@pytest.mark.parametrize("cc", ["gcc", "clang"])
def test_every_program_builds_on_the_host(tmp_path, cc):
    assert shutil.which(cc), f"{cc} is installed by artifact/install (artifact/debian-packages.txt)"
    build_all(tmp_path, cc, [])


def test_no_inline_asm_takes_a_pointer_operand():
    """Under purecap a pointer is a capability: an asm operand of pointer type is refused or
    wrong."""
    pointer_names = set()
    for src in sorted(SOURCES.glob("*.[ch]")):
        text = src.read_text()
        pointer_names |= set(re.findall(r"\*\s*(?:const\s+)?(\w+)\s*[,)=;]", text))
        for m in re.finditer(r"__asm__[^;]*?\((.*?)\);", text, re.S):
            operands = re.findall(r'"[^"]*"\s*\(([^)]*)\)', m.group(1))
            for op in operands:
                assert op.strip().lstrip("&") not in pointer_names, (
                    f"{src.name}: asm operand {op!r} is a pointer"
                )
                assert not op.strip().startswith("&"), (
                    f"{src.name}: asm operand {op!r} takes an address"
                )
