"""Evidence in a data set's dataset.yaml: each fact about how a number was made (a build's compiler
and flags, a launcher, a clock, a timed region, an invalid metric) cites lines of the study's
source, shipped in the data set's folder (source.shipped); the kernel the board ran cites the data
set's own logs (paths relative to its folder, as any entry marked relative_to: data set). Each
cited line must contain its `says` text, and a build's compiler and every flag it lists, the
kernel's configuration and debug options, and a run's heap revocation (on: a line saying the
kernel revokes by default and a CheriABI build line; off: a build line without a CheriABI flag)
must stand on its cited lines, so an entry cannot claim what its source does not show."""

from __future__ import annotations

import re
from pathlib import Path

from c18n_ae.common import paths, schemas


def cited(meta: dict) -> list[tuple[str, dict, dict]]:
    """(key, the fact, one evidence entry) for every evidence entry of the data set."""
    out = []

    def add(key, fact):
        for i, e in enumerate(fact.get("evidence", [])):
            out.append((f"{key}.evidence[{i}]", fact, e))

    for v, spec in meta["variants"].items():
        add(f"variants.{v}", spec)
        for i, b in enumerate(spec.get("builds", [])):
            add(f"variants.{v}.builds[{i}]", b)
        for i, r in enumerate(spec.get("runtime", [])):
            add(f"variants.{v}.runtime[{i}]", r)
    for e, t in meta.get("timing", {}).items():
        add(f"timing.{e}", t)
        for m, r in t["metrics"].items():
            add(f"timing.{e}.metrics.{m}", r)
    for e, spec in meta.get("invalid", {}).items():
        add(f"invalid.{e}", spec)
    for e, metrics in meta.get("calls", {}).items():
        for m, fact in metrics.items():
            add(f"calls.{e}.{m}", fact)
    if "kernel" in meta:
        add("kernel", meta["kernel"])
    if "compartments_seen" in meta:
        add("compartments_seen", meta["compartments_seen"])
    for i, h in enumerate(meta.get("hosts", [])):
        add(f"hosts[{i}]", h)
    return out


def _host_mistakes(meta: dict) -> list[str]:
    """A host must be named (a prompt, user@host) on every one of its cited lines, and its files
    must be the data set's (a folder of logs counts by its path)."""
    out, paths = [], {f["path"] for f in meta.get("files", [])}
    for i, h in enumerate(meta.get("hosts", [])):
        out += [
            f"hosts[{i}]: {e['file']}:{e['line']} does not name {h['host']!r}"
            for e in h["evidence"]
            if f"@{h['host']}" not in e["says"]
        ]
        out += [
            f"hosts[{i}]: {f!r} is no file of the data set" for f in h["files"] if f not in paths
        ]
    return out


def _own_logs(key: str, e: dict) -> bool:
    """The entry cites the data set's own logs (the kernel's always), not its shipped sources."""
    return key.startswith("kernel.") or e.get("relative_to") == "data set"


def _folder(d: Path, meta: dict, key: str, e: dict) -> Path:
    """Where an entry's cited file is: the data set's folder for its own logs, else its sources."""
    return Path(d) if _own_logs(key, e) else Path(d) / meta["source"].get("shipped", "")


CHERIABI = "-mabi=purecap"  # also the start of -mabi=purecap-benchmark
REVOKES_BY_DEFAULT = "revocation enabled by default"  # the kernel's own warning at login


def _runtime_mistakes(meta: dict, text: dict[str, list[str]]) -> list[str]:
    """A run's revocation must stand on its cited lines, and the metrics it names must be timed
    metrics of its experiments."""
    out = []
    for v, spec in meta["variants"].items():
        for i, r in enumerate(spec.get("runtime", [])):
            key = f"variants.{v}.runtime[{i}]"
            lines = text.get(key, [])
            builds = [x for x in lines if CHERIABI in x or "clang" in x or " cc " in f" {x}"]
            if r["revocation"] == "on":
                if not any(REVOKES_BY_DEFAULT in x for x in lines):
                    out.append(
                        f"{key}: revocation on, but no cited line says {REVOKES_BY_DEFAULT!r}"
                    )
                if not any(CHERIABI in x for x in lines):
                    out.append(f"{key}: revocation on, but no cited build line has {CHERIABI}")
            elif r["revocation"] == "off":
                if not builds or any(CHERIABI in x for x in builds):
                    out.append(f"{key}: revocation off needs a cited build line without {CHERIABI}")
            for e in r["experiments"]:
                timed = meta.get("timing", {}).get(e, {}).get("metrics", {})
                out += [
                    f"{key}: metric {m!r} is not a timed metric of {e} (timing.{e}.metrics)"
                    for m in r.get("metrics", [])
                    if m not in timed
                ]
    return out


def _kernel_mistakes(meta: dict, text: dict[str, list[str]]) -> list[str]:
    """The kernel's configuration and each debug option must stand on its cited lines, and
    revocation on by default needs a line that says so."""
    if "kernel" not in meta:
        return []
    k, lines = meta["kernel"], " ".join(text.get("kernel", []))
    words = [k["config"], *k["debug_options"]]
    out = [  # a whole name: GENERIC-MORELLO-PURECAP does not stand on ...-PURECAP-NODEBUG
        f"kernel: {w!r} is on none of the cited lines"
        for w in words
        if not re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", lines)
    ]
    if k.get("revocation_default") == "on" and "revocation enabled by default" not in lines:
        out.append("kernel.revocation_default: no cited line says revocation is on by default")
    return out


# A cited file is a source file or a log of the study's, read whole: larger is no such file (the
# shipped ones are under 0.5 MB), and would make every workflow start slow.
MAX_BYTES = 4 << 20


def _line(folder: Path, e: dict, read: dict) -> tuple[str | None, str | None]:
    """(the cited line's text, None) or (None, why it can't be read); read: the files' lines
    read so far, each file read once however often it is cited."""
    why = paths.escape(folder, e["file"], below=False)
    if why:
        return None, f"{e['file'][:200]}: {why}"
    f = folder / e["file"]
    if not f.is_file():
        return None, f"{e['file']}: not found in {paths.shown(folder)}"
    if f.stat().st_size > MAX_BYTES:
        return None, (
            f"{e['file']}: {f.stat().st_size} bytes, larger than the {MAX_BYTES} an evidence "
            "file may have (a source file or a log, not data)"
        )
    if f not in read:
        read[f] = f.read_text(encoding="utf-8", errors="replace").split("\n")
    lines = read[f]
    if e["line"] > len(lines):
        return None, f"{e['file']}:{e['line']}: the file has {len(lines)} lines"
    return lines[e["line"] - 1], None


def _optimisation(flags: list[str]) -> str:
    """The -O level a compile command gives: its last -O flag, else clang's default -O0."""
    levels = [f for f in flags if re.fullmatch(r"-O([0-3sz]|fast|g)", f)]
    return levels[-1] if levels else "-O0"


def mistakes(d: Path, meta: dict) -> list[str]:
    """One message per evidence entry that does not hold, naming its key, file and line."""
    entries = cited(meta)
    if any(not _own_logs(k, e) for k, _, e in entries) and "shipped" not in meta["source"]:
        return ["source.shipped: evidence is cited, but no folder of shipped sources is named"]
    out, text, read = [], {}, {}
    for key, _, e in entries:
        line, why = _line(_folder(d, meta, key, e), e, read)
        if why:
            out.append(f"{key}: {why}")
        elif e["says"] not in line:
            where = f"{e['file']}:{e['line']}"
            said, says = schemas.quoted(line.strip()), schemas.quoted(e["says"])
            out.append(f"{key}: {where} does not say {says}: it says {said}")
        else:
            text.setdefault(key.rsplit(".evidence", 1)[0], []).append(line)
    for v, spec in meta["variants"].items():
        # a link flag said to put the variant in compartments is one its builds cite
        linked = {f for b in spec.get("builds", []) for f in b.get("ldflags", [])}
        out += [
            f"variants.{v}.c18n_by: {w!r} is no ldflag of the variant's builds"
            for w in spec.get("c18n_by", "").replace("(", " ").replace(")", " ").split()
            if w.startswith("-Wl,") and w not in linked
        ]
        if spec.get("launcher") and not spec.get("evidence"):
            out.append(f"variants.{v}: launcher {' '.join(spec['launcher'])!r} needs evidence")
        words = " ".join(text.get(f"variants.{v}", []))
        out += [
            f"variants.{v}.launcher: {w!r} is on none of the cited lines"
            for w in spec.get("launcher", [])
            if spec.get("evidence") and w not in words
        ]
        for i, b in enumerate(spec.get("builds", [])):
            key = f"variants.{v}.builds[{i}]"
            if b["compiler"] == "not recorded":
                if b.get("cflags") or b["optimisation"] != "not recorded":
                    out.append(f"{key}: flags or an optimisation level without a compiler")
                continue
            if "cflags" not in b:
                out.append(f"{key}: cflags missing (write [] for a command with no flags)")
                continue
            words = set(" ".join(text.get(key, [])).split())
            for flag in [b["compiler"], *b["cflags"], *b.get("ldflags", [])]:
                if flag not in words:
                    out.append(f"{key}: {flag!r} is on none of the cited lines")
            if b["optimisation"] != _optimisation(b["cflags"]):
                out.append(
                    f"{key}: optimisation {b['optimisation']} does not follow from the flags "
                    f"({_optimisation(b['cflags'])})"
                )
    return out + _kernel_mistakes(meta, text) + _runtime_mistakes(meta, text) + _host_mistakes(meta)
