"""Renders the exact compile and launch command lines of a variant (one place, so tests can
compare)."""

from __future__ import annotations

BASE_CFLAGS = ["-Wall", "-Wextra", "-std=c11"]


def compile_command(variant: dict, program, source_dir: str, bin_dir: str) -> list[str]:
    """cc, warnings, the variant's flags, then sources and libraries; project libraries are found
    in the binary's own directory at run time ($ORIGIN)."""
    cmd = [variant["cc"], *BASE_CFLAGS, *variant["cflags"]]
    if program.shared:
        cmd += ["-fPIC", "-shared"]
    cmd += ["-o", f"{bin_dir}/{program.output}", *(f"{source_dir}/{s}" for s in program.sources)]
    if program.links:
        cmd += [f"-L{bin_dir}", *(f"-l{lib}" for lib in program.links), "-Wl,-rpath,$ORIGIN"]
    return cmd + [*program.libs, *variant.get("ldflags", [])]


def launch_command(variant: dict, program: str, args: list[str]) -> list[str]:
    return [*variant.get("launcher", []), program, *args]
