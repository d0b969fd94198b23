"""`c18n-ae plan --config FILE... --budget 4h`: before anything runs, what each experiment will cost
on each target (c18n_ae.running.budget) and which claims the budget can decide there
(c18n_ae.analysis.decidable). A board's config overlays the default one, as snakemake
--configfile does."""

from __future__ import annotations

import argparse
from pathlib import Path

from c18n_ae import PROJECT_ROOT
from c18n_ae import experiments as exp
from c18n_ae.analysis.decidable import verdicts
from c18n_ae.common import config as common_config
from c18n_ae.running.budget import costs, report, seconds


def plan_text(cfg, budget_s, results=Path("results"), targets=None, clock=None, calibrating=True):
    out = []
    for target in cfg["targets"]:
        if targets and target["name"] not in targets:
            continue
        cs = costs(cfg, target, results, clock, calibrating, budget_s)
        out.append(report(target, budget_s, cs, verdicts(cfg, target, cs)))
    return "\n".join(out)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    common_config.add_arguments(ap)
    ap.add_argument("--budget", required=True, help="time for the runs on each target, e.g. 4h")
    ap.add_argument("--target", action="append", help="only this target (repeatable)")
    ap.add_argument("--results", type=Path, default=Path("results"), help="earlier runs' folder")
    ap.add_argument("--no-calibrate", action="store_true", help="run nothing on the targets")
    a = ap.parse_args(argv)
    try:
        budget_s = seconds(a.budget)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    # as snakemake --configfile does: a board's config overlays the default one
    default = PROJECT_ROOT / "config" / "config.yaml"
    given = [Path(p) for p in a.config or []]
    paths = given if any(p.resolve() == default for p in given) else [default, *given]
    try:
        cfg = exp.load_config(*paths)
    except common_config.ConfigError as e:
        raise SystemExit(f"error: {e}") from None
    print(plan_text(cfg, budget_s, a.results, a.target, calibrating=not a.no_calibrate), end="")


if __name__ == "__main__":
    main()
