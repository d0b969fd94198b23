"""Builds one benchmark for one target and variant, recording how (build.json beside the binary)."""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from . import hostinfo
from .commands import compile_command
from .fsutil import write_json_atomic


def build_local(recipe: dict, source: Path, output: Path) -> dict:
    output.parent.mkdir(parents=True, exist_ok=True)
    cmd = compile_command(recipe, str(source), str(output))
    print("build:", shlex.join(cmd), file=sys.stderr)
    done = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(done.stdout + done.stderr)
    if done.returncode != 0:
        raise SystemExit(f"error: compiling {source} for variant {recipe['name']} failed (exit {done.returncode})")
    file_out = subprocess.run(["file", "-b", str(output)], capture_output=True, text=True).stdout.strip()
    return {
        "variant": recipe["name"],
        "source": str(source),
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
    ap.add_argument("--recipe", required=True, help="variant recipe as JSON")
    ap.add_argument("--target", required=True)
    ap.add_argument("--source", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--info", required=True, type=Path)
    a = ap.parse_args(argv)
    info = build_local(json.loads(a.recipe), a.source, a.out)
    info["target"] = a.target
    write_json_atomic(a.info, info)


if __name__ == "__main__":
    main()
