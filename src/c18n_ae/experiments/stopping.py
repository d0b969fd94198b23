"""When a run unit may stop before the study's count (c18n_ae.running.unit, "Stopping early"): an
experiment's or a target's `precision` (the relative half-width of each headline metric's 95 %
interval between runs) and `budget_s` (seconds of measuring), the experiment's setting first.

The run unit reads raw rows, not tidy ones: RAW says where each headline metric of the paper's
headline table (Experiment.headline) is in an experiment's raw CSV: its column, the rows it is
in (where) and, for a metric read at the experiment's largest setting, that setting's column
(largest). An experiment without headline metrics (E1, E5 to E9) has nothing to reach a precision
on: with a precision alone it makes the study's count, and stop.json says why."""

from __future__ import annotations

KINDS = ("math", "int", "float", "array")  # E3's workloads (cpu.WORKLOADS)


def _spec(metric: str, column: str, where: dict | None = None, largest: str | None = None):
    return {"metric": metric, "column": column, "where": where or {}, "largest": largest}


RAW = {
    "memory": [
        _spec(m, m, {"status": "ok"}, "block_mib")
        for m in ("malloc_ns", "write_ns", "read_ns", "free_ns")
    ],
    "cpu": [_spec(f"{w}_cpu_ns", "cpu_ns", {"workload": w, "status": "ok"}) for w in KINDS],
    "pipe": [_spec(m, m, {"warmup": "0"}) for m in ("write_ns", "read_ns", "write_plus_read_ns")],
    "crossing": [
        _spec(f"{k}_call_ns", "ns_per_call", {"kind": k, "status": "ok"})
        for k in ("library", "callback", "local")
    ],
}


def rule(e, params: dict, target: dict | None) -> dict | None:
    """The plan's "stopping" for experiment e on a target, or None when neither the experiment's
    settings nor the target set a precision or budget_s."""
    target = target or {}
    want = params.get("precision", target.get("precision"))
    budget = params.get("budget_s", target.get("budget_s"))
    if want is None and budget is None:
        return None
    headline = {h.metric for h in e.headline}
    metrics = [s for s in RAW.get(e.name, []) if s["metric"] in headline]
    out = {"precision": want, "budget_s": budget, "metrics": metrics}
    if want is not None and not metrics:
        out["unmeasurable"] = (
            f"{e.name} has no headline metric to reach a precision on (the headline table's)"
        )
    return out
