"""The ABI read from ELF files built here: plain AArch64 (hybrid), the purecap flag set, the
benchmark-ABI note added; the build stops on a mismatch, naming binary, ABI found and ABI wanted."""

import json
import os
import struct
import subprocess
import sys

import pytest

from c18n_ae.targets import abi
from conftest import ROOT
from test_builds_for_cheribsd import zig_cc

NOTE = r"""
#include <stdint.h>
/* NT_CHERI_MORELLO_PURECAP_BENCHMARK_ABI, owner "CHERI", descriptor 1, as clang-morello emits it */
__attribute__((section(".note.cheri"), used, aligned(4)))
static const struct { uint32_t namesz, descsz, type; char name[8]; uint32_t desc; } note =
    {6, 4, 0x80000000u, "CHERI", 1};
"""


def build(tmp_path, name, source, *flags):
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    out = tmp_path / name
    subprocess.run(
        [zig_cc(tmp_path), "-target", "aarch64-freebsd", *flags, "-o", str(out), str(src)],
        check=True,
    )
    return out


def set_purecap_flag(path):
    """Sets EF_AARCH64_CHERI_PURECAP in e_flags (offset 48 in a 64-bit little-endian ELF header)."""
    data = bytearray(path.read_bytes())
    flags = struct.unpack_from("<I", data, 48)[0]
    struct.pack_into("<I", data, 48, flags | abi.EF_AARCH64_CHERI_PURECAP)
    path.write_bytes(bytes(data))
    return path


def test_classifier_on_elf_files_built_here(tmp_path):
    main = "int main(void) { return 0; }\n"
    plain = build(tmp_path, "plain", main)
    assert abi.classify(plain) == "hybrid"
    assert abi.classify(set_purecap_flag(build(tmp_path, "pure", main))) == "purecap"
    bench = set_purecap_flag(build(tmp_path, "bench", NOTE + main))
    assert abi.classify(bench) == "purecap-benchmark"
    wrong_note = build(tmp_path, "wrong", NOTE.replace("0x80000000u", "0x80000001u") + main)
    assert abi.classify(wrong_note) == "hybrid"
    assert abi.classify(sys.executable if os.path.exists(sys.executable) else "/bin/sh") == "native"


def test_a_library_is_checked_by_its_flag_only(tmp_path):
    lib = "int f(void) { return 1; }\n"
    pure_lib = set_purecap_flag(build(tmp_path, "libp.so", lib, "-shared", "-fPIC"))
    assert abi.check(pure_lib, "purecap-benchmark", "benchmark-c18n") == "purecap"
    plain_lib = build(tmp_path, "libh.so", lib, "-shared", "-fPIC")
    with pytest.raises(
        abi.AbiMismatch,
        match=r"libh.so: ABI hybrid, but variant benchmark-c18n wants purecap-benchmark",
    ):
        abi.check(plain_lib, "purecap-benchmark", "benchmark-c18n")
    exe = set_purecap_flag(build(tmp_path, "exe", "int main(void) { return 0; }\n"))
    with pytest.raises(
        abi.AbiMismatch,
        match=r"exe: ABI purecap, but variant benchmark-c18n wants purecap-benchmark",
    ):
        abi.check(exe, "purecap-benchmark", "benchmark-c18n")


def test_command_line_prints_one_line_per_file(tmp_path):
    plain = build(tmp_path, "plain", "int main(void) { return 0; }\n")
    done = subprocess.run(
        [sys.executable, "-m", "c18n_ae.targets.abi", str(plain), "/bin/sh"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"{plain}: hybrid", "/bin/sh: native"]


def test_the_build_stops_on_a_mismatch_and_records_the_abi(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    target = json.dumps({"name": "local", "kind": "local"})

    def build_memory(wanted):
        recipe = json.dumps({"name": "pc", "cc": "cc", "cflags": ["-O2"], "abi": wanted})
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "c18n_ae.running.build",
                "--target",
                target,
                "--recipe",
                recipe,
                "--program",
                "memory",
                "--source-dir",
                str(ROOT / "src" / "benchmarks"),
                "--bin-dir",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            env=env,
        )

    done = build_memory("purecap")
    assert done.returncode != 0
    assert f"{tmp_path}/memory: ABI native, but variant pc wants purecap" in done.stderr
    assert not (tmp_path / "memory").exists(), "a binary of the wrong ABI is not left to run"
    assert build_memory("native").returncode == 0
    info = json.loads((tmp_path / "memory.build.json").read_text())
    assert info["abi"] == "native" and info["abi_wanted"] == "native"
