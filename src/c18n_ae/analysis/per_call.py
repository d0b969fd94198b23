"""The extra time of one call into another library, from the data: for every source and workload
whose calls per timed iteration are facts of its data set (dataset.yaml `calls`, cited from the
study's sources and decoded from its binaries, common.call_sites), the variant in compartments
minus the reference without, per iteration, divided by the calls one iteration makes. That is the
ABI (the called library's own build included: purecap libm against hybrid libm) and the
compartment switch together; it bounds the switch alone only if the ABI makes those calls no
slower, which these data cannot show. A workload that calls
no other library gives its extra time per iteration without a crossing. E10 on a board measures
a crossing directly (a library call minus a plain call); each source's row says what E10 gave or
why it has no number. A workload whose timed process is not the one that calls (dataset.yaml
no_cost_per_call: the pipe's parent waits on its child) keeps its numbers with that reason in the
column no_cost_per_call; the paper prints no cost per call from it.

The interval is the comparison's (results/comparisons/<experiment>.csv) carried over: the ratio's
ends times the reference's mean, less the reference, per iteration and call; it covers what the
comparison's covers (for the study's data, the spread within one run). The timer's resolution
bounds the difference on its own: each side's mean may be off by up to one step of the grid its
values sit on, so the difference by up to two, per iteration and call. Cycles follow where the
clock frequency is recorded (a board's meta.json); the study recorded none.

Writes results/per_call.csv (every field, the evidence and the source of each row)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pandas as pd

from c18n_ae import experiments as exp
from c18n_ae.common import config as cfg
from c18n_ae.common.fsutil import write_text_atomic

ESTIMATE = {
    True: "ABI (the called library's build included) and compartment switch together",
    False: "extra time per iteration in the program's own code, no crossing",
}
E10_METRIC = "crossing_extra_ns"
NOT_IN_STUDY = "not run: the study has no E10"
NO_E10 = "not run: no board target ran E10 in this run"
COLUMNS = [
    "source",
    "kind",
    "experiment",
    "metric",
    "label",
    "library",
    "subject",
    "baseline",
    "confounded_by",
    "possibly_also",
    "calls_per_iteration",
    "calls",
    "iterations",
    "iteration",
    "argument_low",
    "argument_high",
    "evidence",
    "estimate",
    "no_cost_per_call",
    "extra_per_iteration_ns",
    "extra_per_iteration_low_ns",
    "extra_per_iteration_high_ns",
    "per_call_ns",
    "per_call_low_ns",
    "per_call_high_ns",
    "timer_bound_ns",
    "interval_covers",
    "clock_mhz",
    "per_call_cycles",
    "per_call_low_cycles",
    "per_call_high_cycles",
    "ratio",
    "ci95_low",
    "ci95_high",
    "mean_ns",
    "reference_mean_ns",
    "sd_ns",
    "reference_sd_ns",
    "resolution_ns",
    "e10_per_call_ns",
    "e10_low_ns",
    "e10_high_ns",
    "e10_note",
]


def _evidence(fact: dict) -> str:
    lines = [f"{e['file']}:{e['line']}" for e in fact.get("evidence", [])]
    bins = [f"binaries/{b['file']} {b['function']}" for b in fact.get("binaries", [])]
    return "; ".join(lines + bins)


def _contrasts(meta: dict) -> list[tuple[str, str]]:
    """Each variant in compartments against the data set's reference without."""
    ref = meta["reference_variant"]
    return [(v, ref) for v, s in meta["variants"].items() if s.get("c18n") and v != ref]


def _row(comparisons: pd.DataFrame, source: str, subject: str, baseline: str, metric: str):
    c = comparisons
    hit = c[
        (c.source == source)
        & (c.variant == subject)
        & (c.reference_variant == baseline)
        & (c.reference_source == source)
        & (c.metric == metric)
    ]
    if hit.empty:
        return None
    p = pd.to_numeric(hit.parameter_value, errors="coerce")
    return (hit if p.isna().all() else hit[p == p.max()]).iloc[0]


def _text(x) -> str:
    return x if isinstance(x, str) else ""


def estimates(meta: dict, comparisons: dict[str, pd.DataFrame], labels: dict) -> list[dict]:
    """One row per workload with calls facts and contrast of a data set."""
    out = []
    for e, metrics in meta.get("calls", {}).items():
        comp = comparisons.get(e)
        if comp is None:
            continue
        for metric, fact in metrics.items():
            calls = sum(fact["calls"].values())
            for subject, baseline in _contrasts(meta):
                r = _row(comp, meta["name"], subject, baseline, metric)
                if r is None:
                    continue
                out.append(_estimate(meta["name"], "dataset", e, metric, fact, calls, r, labels))
                out[-1].update(subject=subject, baseline=baseline, e10_note=NOT_IN_STUDY)
    return out


def _estimate(source, kind, e, metric, fact, calls, r, labels, mhz=math.nan) -> dict:
    iters = fact["iterations"]
    mean, ref = float(r["mean"]), float(r["reference_mean"])
    lo, hi = float(r["ci95_low"]), float(r["ci95_high"])
    step = float(r.get("resolution", math.nan))
    per_iter = (mean - ref) / iters
    ends = ((lo - 1) * ref / iters, (hi - 1) * ref / iters)
    by = calls or 1  # own code: per iteration
    bound = 2 * step / iters / by if step > 0 else math.nan
    row = {
        "source": source,
        "kind": kind,
        "experiment": e,
        "metric": metric,
        "label": labels.get((e, metric), metric),
        "library": fact.get("library", ""),
        "confounded_by": _text(r.get("confounded_by", "")),
        "possibly_also": _text(r.get("possibly_also", "")),
        "calls_per_iteration": calls,
        "calls": ", ".join(
            f"{n}" if k == 1 else f"{n} x{k}" for n, k in fact["calls"].items() if k
        ),
        "iterations": iters,
        "iteration": fact.get("iteration", ""),
        # the arguments the calls get, where the data set records them (argument_range)
        "argument_low": (fact.get("argument_range") or [math.nan])[0],
        "argument_high": (fact.get("argument_range") or [math.nan, math.nan])[-1],
        "evidence": _evidence(fact),
        "estimate": ESTIMATE[calls > 0],
        # the timed process is not the caller (the pipe's parent waits on its child): the numbers
        # stay, flagged, and the paper prints no cost per call from them
        "no_cost_per_call": fact.get("no_cost_per_call", ""),
        "extra_per_iteration_ns": per_iter,
        "extra_per_iteration_low_ns": ends[0],
        "extra_per_iteration_high_ns": ends[1],
        "per_call_ns": per_iter / by,
        "per_call_low_ns": ends[0] / by,
        "per_call_high_ns": ends[1] / by,
        "timer_bound_ns": bound,
        "interval_covers": _text(r.get("interval_covers", "")),
        "clock_mhz": mhz,
        "ratio": float(r["ratio"]),
        "ci95_low": lo,
        "ci95_high": hi,
        "mean_ns": mean,
        "reference_mean_ns": ref,
        "sd_ns": float(r.get("sd", math.nan)),
        "reference_sd_ns": float(r.get("reference_sd", math.nan)),
        "resolution_ns": step,
    }
    for k in ("", "_low", "_high"):
        row[f"per_call{k}_cycles"] = row[f"per_call{k}_ns"] * mhz / 1000 if mhz > 0 else math.nan
    return row


def board_clock(results: Path, target: str) -> float:
    """The CPU frequency a board run recorded (meta.json checks.board.system.cpu_freq_mhz), NaN
    where none did."""
    for m in sorted((results / target).glob("*/*/meta.json")):
        board = json.loads(m.read_text()).get("checks", {}).get("board") or {}
        mhz = (board.get("system") or {}).get("cpu_freq_mhz")
        if mhz:
            return float(mhz)
    return math.nan


def direct(config: dict, summary: pd.DataFrame | None, results: Path) -> list[dict]:
    """E10's direct measurement per board target and variant in compartments: a library call
    minus a plain call, paired by trial, with its 95 % interval; a board target without it says
    so."""
    out = []
    for t in config["targets"]:
        c18n = [v["name"] for v in t["variants"] if v.get("c18n")]
        if not c18n:
            continue
        mhz = board_clock(results, t["name"])
        for v in c18n:
            row = {"source": t["name"], "kind": "target", "experiment": "crossing"}
            row.update(metric=E10_METRIC, label="E10 crossing", subject=v, clock_mhz=mhz)
            row.update(estimate=ESTIMATE[True], calls_per_iteration=1, e10_note=NO_E10)
            s = None if summary is None else summary[
                (summary.source == t["name"]) & (summary.variant == v)
                & (summary.metric == E10_METRIC)
            ]  # fmt: skip
            if s is not None and len(s):
                s = s.iloc[0]
                row.update(
                    e10_per_call_ns=s["mean"], e10_low_ns=s.ci95_low, e10_high_ns=s.ci95_high
                )
                row["e10_note"] = f"E10, {int(s.n)} trials"
                runs = int(s.get("runs", 1) or 1) if pd.notna(s.get("runs", 1)) else 1
                row["interval_covers"] = "within one run" if runs <= 1 else "between runs"
                if mhz > 0:
                    row["per_call_cycles"] = s["mean"] * mhz / 1000
            out.append(row)
    return out


def table(config: dict, comparisons: dict, summary, results: Path) -> pd.DataFrame:
    labels = {(e, h.metric): h.label for e in exp.registry() for h in exp.get(e).headline}
    rows = [r for m in cfg.datasets(config) for r in estimates(m, comparisons, labels)]
    rows += direct(config, summary, results)
    return pd.DataFrame(rows, columns=COLUMNS)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    cfg.add_arguments(ap)
    ap.add_argument("--results", type=Path, default=Path("results"))
    ap.add_argument("--csv", required=True, type=Path)
    a = ap.parse_args(argv)
    config = exp.config_from_arguments(a)
    # the enabled experiments' comparisons and E10's summary, at the workflow's own paths (the rule
    # lists them as inputs), so that the command stays short however many experiments there are
    enabled = cfg.enabled_experiments(config)
    comps = {e: pd.read_csv(a.results / "comparisons" / f"{e}.csv") for e in enabled}
    crossing = a.results / "summary" / "crossing.csv"
    summary = pd.read_csv(crossing) if "crossing" in enabled and crossing.is_file() else None
    out = table(config, comps, summary, a.results)
    write_text_atomic(a.csv, out.to_csv(index=False))


if __name__ == "__main__":
    main()
