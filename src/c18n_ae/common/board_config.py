"""A board's variants differ only in what their names say, checked before any job: on a CheriBSD
target (kind morello) every variant builds with the reference variant's compiler and flags apart
from the ABI flags, unless it declares the difference (`differs: [-O0]`, or `cc`); a c18n variant
runs with its release's launcher (common.launchers), filled in when the config gives none and
refused when it gives another; `revocation: on|off` runs a variant with heap revocation forced on
or off, so the allocator's share can be measured apart from the compartments'. A board run's
recorded state differs between variants only in what they declare (state_differences)."""

from __future__ import annotations

from c18n_ae.common import launchers

# Flags that choose the ABI (a `--config FILE` pair counts as one, e.g. the CHERI SDK's
# cheribsd-morello-purecap.cfg): the one difference a variant's name may carry without saying.
ABI_FLAG_PREFIXES = ("-march=", "-mabi=")


# A board run's recorded state (meta.json checks.board.variants.<v>.state, made by
# c18n_ae.targets.board_checks.variant_state): a contrast of two variants whose states differ in a
# key is confounded by it, unless a variant declares that key as what it is about.
STATE_KEYS = (
    "kernel_ident",
    "debug_kernel",
    "revocation_default",
    "c18n_default",
    "cpu_freq_mhz",
    "powerd",
)
# the variant axes that set a key of the state: `revocation: on|off` forces the process's heap
# revocation (proccontrol -m cherirevoke), recorded as its process_revocation
AXIS_STATE = {"revocation": "process_revocation"}
# compartments are what a variant's name says (c18n), checked by the run itself, never a confound
NOT_CONFOUNDS = {"compartments"}
NOT_RECORDED = (None, "unknown", "not recorded")


def declared_state(variant: dict) -> set[str]:
    """The state keys a variant declares as what it is about: the key of each axis it sets
    (`revocation:` -> process_revocation) and any state key named in its `differs:`."""
    keys = {key for axis, key in AXIS_STATE.items() if variant.get(axis) is not None}
    return keys | (set(variant.get("differs", [])) & {*STATE_KEYS, *AXIS_STATE.values()})


def state_differences(
    states: dict[str, dict], variants: dict[str, dict] | None = None
) -> dict[str, dict]:
    """{key: {variant: value}} for each state key whose recorded value is not the same for all
    variants, compartments aside. A key a variant declares (declared_state of its config entry in
    variants) is left out of that variant's values, so a declared axis differs only where the
    variants that do not declare it differ among themselves; a value not recorded (None,
    "unknown") is no difference."""
    variants = variants or {}
    keys = {k for s in states.values() for k in s} - NOT_CONFOUNDS
    out = {}
    for k in sorted(keys):
        values = {
            v: s.get(k)
            for v, s in states.items()
            if k not in declared_state(variants.get(v) or {}) and s.get(k) not in NOT_RECORDED
        }
        if len(set(map(str, values.values()))) > 1:
            out[k] = values
    return out


def non_abi_flags(cflags: list[str]) -> list[str]:
    out, skip = [], False
    for i, flag in enumerate(cflags):
        if skip:
            skip = False
            continue
        if flag == "--config" and i + 1 < len(cflags):
            skip = True
            continue
        if flag.startswith(ABI_FLAG_PREFIXES) or flag.startswith("--config="):
            continue
        out.append(flag)
    return out


def expected_launcher(target: dict, variant: dict) -> list[str] | None:
    """The launcher the variant must have on its target's release; None when the target declares
    no release (then the config's launcher stands)."""
    release = target.get("release")
    if not release:
        return None
    prefix = list(launchers.REVOCATION.get(variant.get("revocation", ""), ()))
    if variant.get("c18n"):
        prefix += launchers.c18n_prefix(release, variant.get("abi"))
    return prefix


def _flag_problems(target: dict) -> list[str]:
    ref = next((v for v in target["variants"] if v["name"] == target["reference_variant"]), None)
    if ref is None:
        return []  # check_references reports the unknown reference variant
    problems = []
    for v in target["variants"]:
        declared = set(v.get("differs", [])) | set(ref.get("differs", []))
        mine, theirs = non_abi_flags(v["cflags"]), non_abi_flags(ref["cflags"])
        extra = sorted((set(mine) ^ set(theirs)) - declared)
        where = f"targets[{target['name']}].variants[{v['name']}]"
        if extra:
            problems.append(
                f"{where}.cflags: differs from the reference variant {ref['name']} in "
                f"{', '.join(extra)} (beyond the ABI flags); a board contrast may differ only in "
                f"what its names say: make the flags equal, or declare the difference with "
                f"differs: [{', '.join(extra)}]"
            )
        if v["cc"] != ref["cc"] and "cc" not in declared:
            problems.append(
                f"{where}.cc: {v['cc']} but the reference variant {ref['name']} uses {ref['cc']}; "
                "declare it with differs: [cc] or use one compiler"
            )
    return problems


def _launcher_problems(target: dict) -> list[str]:
    problems = []
    for v in target["variants"]:
        want = expected_launcher(target, v)
        given = v.get("launcher")
        if want is None or given is None or given == want:
            continue
        what = "enables c18n" if v.get("c18n") else "runs without c18n"
        problems.append(
            f"targets[{target['name']}].variants[{v['name']}].launcher: {' '.join(given) or '[]'}"
            f" is not how a variant that {what} starts on CheriBSD {target['release']}; its "
            f"launcher there is {' '.join(want) or '[] (none)'} (README, launchers per release)"
            " -- leave launcher out to get it"
        )
    return problems


def problems(config: dict) -> list[str]:
    out = []
    for t in config["targets"]:
        if t["kind"] != "morello":
            continue
        if t.get("release"):
            try:
                launchers.for_release(t["release"])
            except launchers.UnknownRelease as e:
                out.append(f"targets[{t['name']}].release: {e}")
                continue
        elif any(v.get("c18n") and "launcher" not in v for v in t["variants"]):
            out.append(
                f"targets[{t['name']}]: a c18n variant without a launcher needs the target's "
                'release (release: "24.05") to choose one'
            )
        out += _flag_problems(t) + _launcher_problems(t)
    return out


def complete(config: dict) -> dict:
    """Board variants get their release's launcher and link flags where the config gives none."""
    targets = []
    for t in config["targets"]:
        if t["kind"] == "morello" and t.get("release"):
            t = {**t, "variants": [_completed(t, v) for v in t["variants"]]}
        targets.append(t)
    return {**config, "targets": targets}


def _completed(target: dict, variant: dict) -> dict:
    v = dict(variant)
    if "launcher" not in v:
        v["launcher"] = expected_launcher(target, v)
    if v.get("c18n"):
        extra = [f for f in launchers.for_release(target["release"]).ldflags]
        v["ldflags"] = [*v.get("ldflags", []), *(f for f in extra if f not in v.get("ldflags", []))]
    return v


def checked(config: dict) -> dict:
    """The config with its board variants completed; a ConfigError naming each problem."""
    from c18n_ae.common.config import ConfigError

    found = problems(config)
    if found:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(found))
    return complete(config)
