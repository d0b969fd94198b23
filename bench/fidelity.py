"""Our benchmarks beside established ones, run in one go on this machine; prints each pair,
the ratio ours/anchor and whether it is within the goal (15 %).

Pairs: E4's batched pipe round trip against `perf bench sched pipe` and lmbench's lat_pipe, ours
with each anchor's message (perf sends an int, 4 bytes; lat_pipe one byte); E2's write and read
bandwidth against `perf bench mem memset` and lmbench's `bw_mem wr` / `bw_mem rd` over the same
block size, resident memory (our --touch-first). Each measurement is repeated and the median
kept; the runs interleave so drift affects both sides of a pair alike.

The three pipe programs run pinned to one CPU (taskset), their two processes on it together: a
round trip is then two pipe transfers and two context switches on that CPU. Unpinned, the
scheduler puts the two processes on one CPU or on two, run by run, and on a virtual machine the
wake-up across CPUs costs ten times the rest (a round trip of 2 us on one CPU, 20 to 30 us on
two, for the same program minutes apart): a pair would compare placements, not programs."""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from c18n_ae.experiments import commands, programs

ROOT = Path(__file__).resolve().parents[1]

GOAL = 0.15


def build(name: str, out_dir: Path) -> Path:
    recipe = {"name": "fidelity", "cc": "cc", "cflags": ["-O2"]}
    subprocess.run(
        commands.compile_command(
            recipe, programs.get(name), str(ROOT / "src" / "benchmarks"), str(out_dir)
        ),
        check=True,
    )
    return out_dir / programs.get(name).output


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-300:]}")
    return done.stdout + done.stderr


def pinned(cpu: int | None, cmd: list[str]) -> list[str]:
    return cmd if cpu is None else ["taskset", "-c", str(cpu), *cmd]


def ours_pipe_us(exe: Path, work: Path, size: int, cpu: int | None) -> float:
    out = work / "pipe.csv"
    cmd = [str(exe), "--out", str(out), "--trials", "6", "--size", str(size), "--batch", "10000"]
    run(pinned(cpu, cmd))
    rows = list(csv.DictReader(open(out)))[1:]  # without the warm-up trial
    return statistics.median(float(r["roundtrip_ns"]) for r in rows) / 1e3


def ours_memory_gbps(exe: Path, work: Path, mib: int) -> tuple[float, float]:
    out = work / "memory.csv"
    run([str(exe), "--out", str(out), "--sizes-mib", str(mib), "--trials", "5", "--touch-first"])
    rows = list(csv.DictReader(open(out)))
    n = mib * 2**20
    return (
        statistics.median(n / float(r["write_ns"]) for r in rows),
        statistics.median(n / float(r["read_ns"]) for r in rows),
    )


def perf_pipe_us(cpu: int | None) -> float:
    text = run(pinned(cpu, ["perf", "bench", "sched", "pipe", "-l", "100000"]))
    return float(re.search(r"([\d.]+) usecs/op", text).group(1))


def lat_pipe_us(lmbench: Path, cpu: int | None) -> float:
    text = run(pinned(cpu, [str(lmbench / "lat_pipe")]))
    return float(re.search(r"Pipe latency: ([\d.]+) microseconds", text).group(1))


def perf_memset_gbps(mib: int) -> float:
    text = run(["perf", "bench", "mem", "memset", "-s", f"{mib}MB", "-l", "5"])
    gib = float(re.search(r"([\d.]+) GB/sec", text).group(1))
    return gib * 2**30 / 1e9  # perf's "GB/sec" is GiB/s (it divides by 1024 three times)


def bw_mem_gbps(lmbench: Path, mib: int, kind: str) -> float:
    # bw_mem prints "<size in 10^6 bytes> <bandwidth in 10^6 bytes/s>"
    return float(run([str(lmbench / "bw_mem"), f"{mib}m", kind]).split()[1]) / 1e3


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--lmbench", required=True, type=Path, help="directory holding lat_pipe and bw_mem"
    )
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--block-mib", type=int, default=256)
    ap.add_argument("--cpu", type=int, default=0, help="the CPU the pipe programs run on")
    ap.add_argument(
        "--unpinned", action="store_true", help="let the scheduler place the pipe programs"
    )
    ap.add_argument("--csv", type=Path, default=ROOT / "bench" / ".cache" / "fidelity.csv")
    a = ap.parse_args(argv)
    cpu = None if a.unpinned else a.cpu
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pipe, memory = build("pipe", work), build("memory", work)
        samples: dict[str, list[float]] = {}
        for r in range(1, a.rounds + 1):
            print(f"round {r} of {a.rounds}", file=sys.stderr, flush=True)
            w, rd = ours_memory_gbps(memory, work, a.block_mib)
            for key, value in (
                ("ours pipe 4 B", ours_pipe_us(pipe, work, 4, cpu)),
                ("perf pipe", perf_pipe_us(cpu)),
                ("ours pipe 1 B", ours_pipe_us(pipe, work, 1, cpu)),
                ("lat_pipe", lat_pipe_us(a.lmbench, cpu)),
                ("ours write", w),
                ("ours read", rd),
                ("perf memset", perf_memset_gbps(a.block_mib)),
                ("bw_mem wr", bw_mem_gbps(a.lmbench, a.block_mib, "wr")),
                ("bw_mem rd", bw_mem_gbps(a.lmbench, a.block_mib, "rd")),
            ):
                samples.setdefault(key, []).append(value)
    med = {k: statistics.median(v) for k, v in samples.items()}
    pairs = [
        ("E4 pipe round trip, 4 B (us)", "ours pipe 4 B", "perf bench sched pipe", "perf pipe"),
        ("E4 pipe round trip, 1 B (us)", "ours pipe 1 B", "lmbench lat_pipe", "lat_pipe"),
        (
            f"E2 write {a.block_mib} MiB (GB/s)",
            "ours write",
            "perf bench mem memset",
            "perf memset",
        ),
        (f"E2 write {a.block_mib} MiB (GB/s)", "ours write", "lmbench bw_mem wr", "bw_mem wr"),
        (f"E2 read {a.block_mib} MiB (GB/s)", "ours read", "lmbench bw_mem rd", "bw_mem rd"),
    ]
    rows = []
    print(
        f"{'measure':30} {'ours':>9} {'anchor':24} {'anchor value':>12} {'ratio':>7}  within 15 %"
    )
    for label, ours, anchor_name, anchor in pairs:
        ratio = med[ours] / med[anchor]
        ok = abs(ratio - 1) <= GOAL
        rows.append(
            {
                "measure": label,
                "ours": round(med[ours], 3),
                "anchor": anchor_name,
                "anchor_value": round(med[anchor], 3),
                "ratio": round(ratio, 3),
                "within_goal": ok,
            }
        )
        print(
            f"{label:30} {med[ours]:9.3f} {anchor_name:24} {med[anchor]:12.3f} {ratio:7.3f}  "
            f"{'yes' if ok else 'no'}"
        )
    a.csv.parent.mkdir(parents=True, exist_ok=True)
    with open(a.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(
        f"medians of {a.rounds} rounds, the pipe programs "
        f"{'unpinned' if cpu is None else f'on CPU {cpu}'}; written to {a.csv}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
