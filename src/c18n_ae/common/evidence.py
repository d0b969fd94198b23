"""Evidence in a data set's dataset.yaml: each fact about how a number was made (a build's compiler
and flags, a launcher, a clock, a timed region, an invalid metric) cites lines of the study's
source, shipped in the data set's folder (source.shipped); the kernel the board ran cites the data
set's own logs (paths relative to its folder). Each cited line must contain its `says` text, and a
build's compiler and every flag it lists, and the kernel's configuration and debug options, must
stand on its cited lines, so an entry cannot claim what its source does not show."""

from __future__ import annotations

import re
from pathlib import Path

from c18n_ae.common import paths


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
    for e, t in meta.get("timing", {}).items():
        add(f"timing.{e}", t)
        for m, r in t["metrics"].items():
            add(f"timing.{e}.metrics.{m}", r)
    for e, spec in meta.get("invalid", {}).items():
        add(f"invalid.{e}", spec)
    if "kernel" in meta:
        add("kernel", meta["kernel"])
    return out


def _folder(d: Path, meta: dict, key: str) -> Path:
    """Where a key's cited files are: the data set's own logs for the kernel, else its sources."""
    return Path(d) if key.startswith("kernel.") else Path(d) / meta["source"].get("shipped", "")


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


def _line(folder: Path, e: dict) -> tuple[str | None, str | None]:
    """(the cited line's text, None) or (None, why it can't be read)."""
    why = paths.escape(folder, e["file"], below=False)
    if why:
        return None, f"{e['file']}: {why}"
    f = folder / e["file"]
    if not f.is_file():
        return None, f"{e['file']}: not found in {paths.shown(folder)}"
    lines = f.read_text(encoding="utf-8", errors="replace").split("\n")
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
    if any(not k.startswith("kernel.") for k, _, _ in entries) and "shipped" not in meta["source"]:
        return ["source.shipped: evidence is cited, but no folder of shipped sources is named"]
    out, text = [], {}
    for key, _, e in entries:
        line, why = _line(_folder(d, meta, key), e)
        if why:
            out.append(f"{key}: {why}")
        elif e["says"] not in line:
            where = f"{e['file']}:{e['line']}"
            out.append(f"{key}: {where} does not say {e['says']!r}: it says {line.strip()!r}")
        else:
            text.setdefault(key.rsplit(".evidence", 1)[0], []).append(line)
    for v, spec in meta["variants"].items():
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
    return out + _kernel_mistakes(meta, text)
