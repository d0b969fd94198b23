"""E10's own short runs on a board, apart from its timed runs: the crossing program run to its end
with chosen kinds of call (--kinds), the run-time linker's variables in its environment, its rows
and the linker's statistics file printed back. The board check counts a library call's crossings
with them, and the known-answer check measures getpid(2) alone and the rise of a crossing's
extra time under the linker's overhead injection. The shell runs on the target; the readers here
take what it printed (the statistics file through c18n_ae.targets.board_tools)."""

from __future__ import annotations

import csv
import shlex

from c18n_ae.targets import board_tools

OUT_FILE = "c18n-ae-crossing-probe.csv"  # in the target's workdir, removed after each run


def run_script(workdir: str, command: list[str], env: list[str], stats: str) -> str:
    """Runs command (the variant's launcher and program, its rows to OUT_FILE) to its end with env
    in front, then prints its exit status, its rows and the statistics file, and removes both."""
    run = shlex.join(["env", *env, *command]) if env else shlex.join(command)
    return (
        f"cd {shlex.quote(workdir)} && rm -f {stats} {OUT_FILE}\n"
        f'{run} </dev/null >/dev/null 2>c18n-ae-crossing-probe.err; echo "@@exit $?"\n'
        f'echo "@@error"; tail -c 300 c18n-ae-crossing-probe.err\n'
        f'echo "@@rows"; cat {OUT_FILE} 2>/dev/null\n'
        f'echo "@@stats"; [ -f {stats} ] && od -An -v -tx1 {stats}\n'
        f"rm -f {stats} {OUT_FILE} c18n-ae-crossing-probe.err\n"
    )


def read_run(text: str) -> dict:
    """What run_script printed -> {"exit": status or None, "error": its stderr's end, "rows":
    the program's rows as dicts, "stats": the linker's statistics or None}."""
    parts, name, status = {}, None, None
    for line in text.splitlines():
        if line.startswith("@@exit "):
            status = int(line.split()[1]) if line.split()[1].lstrip("-").isdigit() else None
        elif line.startswith("@@"):
            name = line[2:].strip()
            parts[name] = []
        elif name:
            parts[name].append(line)
    rows = list(csv.DictReader(parts.get("rows", [])))
    stats = board_tools.rtld_stats(board_tools.od_bytes("\n".join(parts.get("stats", []))))
    return {
        "exit": status,
        "error": "\n".join(parts.get("error", [])),
        "rows": rows,
        "stats": stats,
    }


def failure(run: dict, what: str) -> str:
    """'' for a run that ended well with rows; else why it gives no number."""
    if run["exit"] == 0 and run["rows"]:
        return ""
    said = run["error"].strip().splitlines()[-1:] or ["nothing on stderr"]
    return f"{what} ended with exit status {run['exit']} and {len(run['rows'])} rows ({said[0]})"


def kind_ns(rows: list[dict], kind: str) -> float | None:
    """The time of one call of a kind: the fastest of its trials. A fixed cost is only ever
    lengthened by what else runs on the machine (another process, an interrupt), so the minimum
    is the least disturbed estimate; a median moves with the load."""
    values = [float(r["ns_per_call"]) for r in rows if r["kind"] == kind and r["status"] == "ok"]
    return min(values) if values else None


def paired_extra(rows: list[dict]) -> float | None:
    """A library call's extra time over a plain call: the fastest library trial less the fastest
    plain one (kind_ns of each), both from the same run."""
    library, local = kind_ns(rows, "library"), kind_ns(rows, "local")
    return None if library is None or local is None else library - local


def switches_per_call(one: dict, two: dict, calls: int) -> float | None:
    """The linker's switch count per library call, from a run of one trial and one of two trials
    of `calls` library calls each: the second run makes one loop more, and everything else alike
    (start-up, warm-up) cancels out; one trial's own bookkeeping (a clock read, a row written
    through libc) adds a few transitions, under 1e-4 of a call's at 10^5 calls."""
    if not (one["stats"] and two["stats"]):
        return None
    return (two["stats"]["switches"] - one["stats"]["switches"]) / calls
