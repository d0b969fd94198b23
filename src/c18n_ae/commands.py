"""Renders the exact compile and launch command lines of a variant (one place, so tests can compare)."""

from __future__ import annotations

BASE_CFLAGS = ["-Wall", "-Wextra", "-std=c11"]


def compile_command(variant: dict, source: str, output: str) -> list[str]:
    return [variant["cc"], *BASE_CFLAGS, *variant["cflags"], "-o", output, source, *variant.get("ldflags", [])]


def launch_command(variant: dict, program: str, args: list[str]) -> list[str]:
    return [*variant.get("launcher", []), program, *args]
