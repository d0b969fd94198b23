"""Builds one benchmark for one target and variant, recording how (build.json beside the binary)."""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import config
from c18n_ae.common.fsutil import write_json_atomic
from c18n_ae.experiments import programs
from c18n_ae.experiments.commands import compile_command
from c18n_ae.targets import abi, hostinfo


def build_local(recipe: dict, program: programs.Program, source_dir: Path, bin_dir: Path) -> dict:
    bin_dir.mkdir(parents=True, exist_ok=True)
    output = bin_dir / program.output
    cmd = compile_command(recipe, program, str(source_dir), str(bin_dir))
    print("build:", shlex.join(cmd), file=sys.stderr)
    done = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(done.stdout + done.stderr)
    if done.returncode != 0:
        raise SystemExit(
            f"error: compiling {program.name} for variant {recipe['name']} failed (exit "
            f"{done.returncode})"
        )
    file_out = subprocess.run(
        ["file", "-b", str(output)], capture_output=True, text=True
    ).stdout.strip()
    return {
        "variant": recipe["name"],
        "program": program.name,
        "sources": list(program.sources),
        "compile_command": cmd,
        "compiler": recipe["cc"],
        "compiler_version": hostinfo.compiler_version(recipe["cc"]),
        "cflags": recipe["cflags"],
        "ldflags": recipe.get("ldflags", []),
        "file": file_out,
        "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    config.add_arguments(ap)
    ap.add_argument("--target", required=True, help="a target's name (with --config), or its JSON")
    ap.add_argument("--variant", help="the variant's name (with --config)")
    ap.add_argument("--recipe", help="the variant's recipe as JSON (instead of --variant)")
    ap.add_argument("--program", required=True)
    ap.add_argument("--source-dir", type=Path, default=Path("src/benchmarks"))
    ap.add_argument("--bin-dir", type=Path, help="default: results/<target>/<variant>/bin")
    a = ap.parse_args(argv)
    program = programs.get(a.program)
    cfg = exp.config_from_arguments(a)
    target = config.target_from(cfg, a.target)
    recipe = json.loads(a.recipe) if a.recipe else config.variant(cfg, target["name"], a.variant)
    a.bin_dir = a.bin_dir or Path("results") / target["name"] / recipe["name"] / "bin"
    if target["kind"] == "local":
        info = build_local(recipe, program, a.source_dir, a.bin_dir)
    elif recipe.get("build_on", "target") == "host":
        # cross-compiled here (e.g. with the CHERI SDK's clang), then shipped to the target
        from c18n_ae.targets.remote import ship_binary

        info = build_local(recipe, program, a.source_dir, a.bin_dir)
        info["shipped_to"] = ship_binary(target, recipe, program, a.bin_dir)
        info["built_on"] = "host"
    else:
        from c18n_ae.targets.remote import build_remote

        info = build_remote(target, recipe, program, a.bin_dir)
        info.update(
            variant=recipe["name"],
            program=program.name,
            cflags=recipe["cflags"],
            built_on="target",
            built_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        )
    info["target"] = target["name"]
    # the ABI the binary really has, here or fetched from a board, against the variant's
    try:
        info["abi"] = abi.check(a.bin_dir / program.output, recipe.get("abi"), recipe["name"])
    except abi.AbiMismatch as e:
        (a.bin_dir / program.output).unlink(missing_ok=True)  # never run a binary of the wrong ABI
        raise SystemExit(f"error: {e}")
    info["abi_wanted"] = recipe.get("abi")
    write_json_atomic(a.bin_dir / f"{program.output}.build.json", info)


if __name__ == "__main__":
    main()
