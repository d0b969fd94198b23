"""E10's known-answer check. CheriBSD's run-time linker can add one getpid(2) to every domain
transition (LD_COMPARTMENT_OVERHEAD: rtld_c18n.c calls getpid() in the trampoline's hook, once
per entry into a trampoline). With it on, the extra time of a library call over a plain call must
rise by the cost of one getpid per trampoline entry; divided by the crossings the linker counts
per call, the extra time per counted crossing rises by the same amount per counted crossing. The
check passes when the rise is within TOLERANCE of that, and otherwise says the harness is off."""

from __future__ import annotations

from dataclasses import dataclass

TOLERANCE = 0.25  # the rise may differ from getpid's cost by a quarter of it
ENTRIES_PER_CALL = 1  # a library call enters the callee's trampoline once (its return does not)


@dataclass(frozen=True)
class Check:
    rise_ns: float  # extra time per counted crossing, with injection minus without
    expected_ns: float  # getpid's cost per counted crossing
    passed: bool
    message: str


def check(
    extra_ns: float,
    extra_injected_ns: float,
    crossings_per_call: float,
    crossings_per_call_injected: float,
    getpid_ns: float,
    tolerance: float = TOLERANCE,
) -> Check:
    """extra_ns: E10's library call minus plain call without injection; extra_injected_ns: the
    same with it; crossings_per_call: the linker's counted transitions per call in each run;
    getpid_ns: one getpid(2) measured alone on the same target."""
    for name, value in (
        ("crossings_per_call", crossings_per_call),
        ("crossings_per_call_injected", crossings_per_call_injected),
        ("getpid_ns", getpid_ns),
    ):
        if not value > 0:
            raise ValueError(f"{name} must be positive, got {value}")
    if abs(crossings_per_call - crossings_per_call_injected) > 1e-9 * crossings_per_call:
        return Check(
            0.0,
            0.0,
            False,
            f"the harness is off: the linker counted {crossings_per_call:g} crossings "
            f"per call without injection and {crossings_per_call_injected:g} with it; "
            "the two runs did not make the same calls",
        )
    rise = extra_injected_ns / crossings_per_call_injected - extra_ns / crossings_per_call
    expected = getpid_ns * ENTRIES_PER_CALL / crossings_per_call
    passed = abs(rise - expected) <= tolerance * expected
    verdict = "passes" if passed else "fails: the harness is off"
    message = (
        f"known-answer check {verdict}: with one getpid per crossing injected, the extra time "
        f"per counted crossing rose by {rise:.4g} ns; one getpid measured alone predicts "
        f"{expected:.4g} ns (within {tolerance:.0%})"
    )
    return Check(rise, expected, passed, message)
