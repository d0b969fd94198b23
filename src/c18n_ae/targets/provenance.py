"""Describes a target (OS, kernel, board or machine model, RAM, architecture, CPU, compilers)
with one shell script, run locally or over SSH; the paper's setup table is built from it."""

from __future__ import annotations

import argparse
import shlex
from datetime import datetime, timezone
from pathlib import Path

from c18n_ae import experiments as exp
from c18n_ae.common import config
from c18n_ae.common.fsutil import write_json_atomic
from c18n_ae.targets import board_checks
from c18n_ae.targets.transport import for_target

# key=value lines; every probe may fail on some OS and then prints nothing useful.
SCRIPT = r"""
echo "os_kernel_name=$(uname -s)"
echo "uname=$(uname -a)"
echo "kernel_release=$(uname -r)"
echo "kernel_version=$(uname -v)"
echo "arch=$(uname -m)"
if [ "$(uname -s)" = Linux ]; then
  . /etc/os-release 2>/dev/null; echo "os=${PRETTY_NAME:-Linux}"
  echo "model=$(cat /sys/devices/virtual/dmi/id/product_name 2>/dev/null)"
  echo "cpu_model=$(grep -m1 -i -E '^(model name|cpu model)' /proc/cpuinfo | cut -d: -f2- \
    | sed 's/^ *//')"
  echo "cpu_count=$(getconf _NPROCESSORS_ONLN)"
  echo "mem_total_bytes=$(awk '/^MemTotal:/ {printf "%.0f", $2 * 1024}' /proc/meminfo)"
else
  echo "os=$(uname -s) $(uname -r)"
  echo "model=$(kenv -q smbios.system.product 2>/dev/null)"
  echo "arch=$(sysctl -n hw.machine_arch 2>/dev/null)"
  echo "cpu_model=$(sysctl -n hw.model 2>/dev/null)"
  echo "cpu_count=$(sysctl -n hw.ncpu 2>/dev/null)"
  echo "mem_total_bytes=$(sysctl -n hw.physmem 2>/dev/null)"
fi
"""


def describe(target: dict) -> dict:
    t = for_target(target)
    compilers = sorted({v["cc"] for v in target["variants"]})
    probe = SCRIPT + "".join(
        f'echo "compiler:{c}=$({shlex.quote(c)} --version 2>&1 | head -n 1)"\n' for c in compilers
    )
    out = t.run(probe, timeout=120).stdout
    info: dict = {"target": target["name"], "kind": target["kind"], "compilers": {}}
    for line in out.splitlines():
        if "=" not in line:
            continue
        key, value = line.split("=", 1)
        if key.startswith("compiler:"):
            info["compilers"][key.removeprefix("compiler:")] = value.strip()
        else:
            info[key] = value.strip()
    for key in ("cpu_count", "mem_total_bytes"):
        try:
            info[key] = int(info.get(key, ""))
        except ValueError:
            info[key] = None
    info["kernel"] = f"{info.get('os_kernel_name', '')} {info.get('kernel_release', '')}".strip()
    if target["kind"] == "morello":  # a board's state as the run's board check reads it
        info["system_state"] = board_checks.system_state(t.run(board_checks.STATE_SCRIPT).stdout)
    info["collected_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return info


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    config.add_arguments(ap)
    ap.add_argument("--target", required=True, help="a target's name (with --config), or its JSON")
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args(argv)
    write_json_atomic(a.out, describe(config.target_from(exp.config_from_arguments(a), a.target)))


if __name__ == "__main__":
    main()
