"""The `c18n-ae` command: what a person runs outside snakemake, one subcommand per tool.

c18n-ae abi FILE...        the ABI of each ELF file (hybrid, purecap, purecap-benchmark, native)
c18n-ae timings            time and disk of every run in results/ (a markdown table)
c18n-ae readme [--check]   refresh (or check) the README's and CLAIMS.md's generated blocks
c18n-ae unit --plan FILE   run (or continue) a run unit from its plan
c18n-ae plan --config FILE... --budget 4h   each experiment's cost on each target, and the
                           claims the budget can decide, before anything runs"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "abi": "targets.abi",
    "timings": "report.timings",
    "readme": "report.readme",
    "unit": "running.unit",
    "plan": "budget_plan",
}


def main(argv=None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(0 if argv and argv[0] in ("-h", "--help") else 2)
    module = importlib.import_module(f"c18n_ae.{COMMANDS[argv[0]]}")
    sys.argv = [f"c18n-ae {argv[0]}", *argv[1:]]
    module.main(argv[1:])


if __name__ == "__main__":
    main()
