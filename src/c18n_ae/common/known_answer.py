"""E10's known-answer check. CheriBSD's run-time linker can add a getpid(2) to every domain
transition (LD_COMPARTMENT_OVERHEAD; compartmentalization(7): "Each compartment transition will
then make a getpid(2) system call"). In rtld_c18n.c's trampolines (aarch64 tramp_compile) each
transition, the entry into the callee and the return to the caller alike, passes one hook
(call_hook with the ENTER and LEAVE events; the hook calls getpid() when the variable is set),
and where LD_COMPARTMENT_SWITCH_COUNT is set each one also adds one to the switch count
(count_entry, count_return). So with the injection on, the extra time of a library call over a
plain call rises by one getpid per transition: divided by the transitions per call, the extra
time per crossing rises by the cost of one getpid, measured alone. The check passes when the rise
is within TOLERANCE of that, and otherwise says the harness is off. Standard library only (the
run driver calls it on the board check's numbers)."""

from __future__ import annotations

from dataclasses import dataclass

TOLERANCE = 0.25  # the rise may differ from getpid's cost by a quarter of it
GETPIDS_PER_TRANSITION = 1  # one hook, so one getpid, at every transition (entry and return)


@dataclass(frozen=True)
class Check:
    rise_ns: float  # extra time per crossing, with injection minus without
    expected_ns: float  # getpid's cost per crossing
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
    same with it; crossings_per_call: the transitions per library call in each run (counted by
    the linker, or known from the trampoline); getpid_ns: one getpid(2) measured alone on the
    same target."""
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
    expected = getpid_ns * GETPIDS_PER_TRANSITION
    passed = abs(rise - expected) <= tolerance * expected
    verdict = "passes" if passed else "fails: the harness is off"
    message = (
        f"known-answer check {verdict}: with a getpid injected at every transition, the extra "
        f"time per crossing rose by {rise:.4g} ns; one getpid measured alone took "
        f"{expected:.4g} ns (within {tolerance:.0%})"
    )
    return Check(rise, expected, passed, message)
