"""Peak memory of reading one data set's CSV file, against the file's size: the study's E2 layout
(six columns, times in ms with three decimals, as bench/analysis_cost.py generates it) at 10^6
and 10^7 rows, read into the tidy table (four metrics a row) as the analysis reads it
(c18n_ae.analysis.collect.tidy_dataset_file: import, the impossible-row check, the source's
columns).

Each read runs in a fresh process; its peak is that process's maximum resident set. It prints the
peak, the interpreter's own resident set after its imports (the baseline, about 75 MiB, which
dominates at small sizes), and two ratios to the file's size: the whole peak, and the peak above
the baseline (what reading adds). The goal (issue 32): at most 5 times the file.

usage: .venv/bin/python bench/csv_memory.py [--largest 7] [--clean-only]"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# run as a script: its folder, bench/, is the first place Python looks for modules
from analysis_cost import BLOCKS, write_meta

CHUNK = 10**6  # rows generated at a time: the generator stays small too

READ = """
import json, resource, sys, time
from pathlib import Path
from c18n_ae.analysis.collect import tidy_dataset_file
# the interpreter's resident set with its imports done (what it holds now, not its peak so far)
base = int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize() / 2**20
start = time.perf_counter()
tidy = tidy_dataset_file(Path(sys.argv[1]), "memory")
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"rows": len(tidy), "base": base, "peak": peak, "wall": wall,
                  "held": tidy.memory_usage(deep=True).sum() / 2**20}))
"""


def memory_file(folder: Path, rows: int, failure: bool) -> Path:
    """One variant's E2 file of `rows` rows (10 block sizes); failure: the last row an
    'Allocation failed' row, which the row-by-row reader takes."""
    rng = np.random.default_rng(rows)
    per_block = math.ceil(rows / len(BLOCKS))
    path = folder / "hybrid.csv"
    with open(path, "w") as f:
        f.write(
            "Block Size (MB),Trial Num,Allocation Time (ms),Write Time (ms),"
            "Read Time (ms),Free Time (ms)\n"
        )
        for start in range(0, rows, CHUNK):
            i = np.arange(start, min(rows, start + CHUNK))
            block = np.asarray(BLOCKS)[i // per_block]
            n = len(i)
            columns = [
                block,
                i % per_block + 1,
                rng.lognormal(math.log(0.005), 0.3, n),
                block * 2.83 * rng.lognormal(0, 0.01, n),
                block * 2.83 * rng.lognormal(0, 0.01, n),
                rng.lognormal(math.log(0.01), 0.3, n),
            ]
            if failure and start + n == rows:  # the last row failed
                np.savetxt(f, np.column_stack(columns)[:-1], fmt=FORMAT, delimiter=",")
                f.write(f"{block[-1]},{per_block * 2},Allocation failed,,,\n")
            else:
                np.savetxt(f, np.column_stack(columns), fmt=FORMAT, delimiter=",")
    write_meta(folder, "bench-csv", [{"path": path.name, "variant": "hybrid"}], ["hybrid"])
    return path


FORMAT = ["%d", "%d", "%.3f", "%.3f", "%.3f", "%.3f"]


def measure(rows: int, failure: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench-csv"
        folder.mkdir()
        start = time.perf_counter()
        path = memory_file(folder, rows, failure)
        made = time.perf_counter() - start
        size = path.stat().st_size / 2**20
        done = subprocess.run(
            [sys.executable, "-c", READ, str(path)], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(f"reading {rows} rows failed:\n{done.stderr[-3000:]}")
        r = json.loads(done.stdout)
        r.update(size=size, made=made, failure=failure, file_rows=rows)
        print(
            f"  {rows:>10,} rows{' (a failure row)' if failure else ''}: file {size:.0f} MiB "
            f"(made in {made:.0f} s), read in {r['wall']:.1f} s, peak {r['peak']:.0f} MiB",
            file=sys.stderr,
            flush=True,
        )
        return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--largest", type=int, default=7, help="up to 10^N rows (from 10^6)")
    ap.add_argument("--clean-only", action="store_true", help="skip the files with a failure row")
    a = ap.parse_args()
    results = []
    for k in range(6, a.largest + 1):
        for failure in (False,) if a.clean_only else (False, True):
            results.append(measure(10**k, failure))
    print(
        "\n| rows | file MiB | reader | tidy rows | read s | peak MiB | baseline MiB "
        "| peak / file | (peak - baseline) / file |"
    )
    print("|---" * 9 + "|")
    for r in results:
        reader = "row by row (a failure row)" if r["failure"] else "column-wise (clean)"
        print(
            f"| {r['file_rows']:,} | {r['size']:.0f} | {reader} | {r['rows']:,} | "
            f"{r['wall']:.1f} | {r['peak']:.0f} | {r['base']:.0f} | {r['peak'] / r['size']:.2f} "
            f"| {(r['peak'] - r['base']) / r['size']:.2f} |"
        )


if __name__ == "__main__":
    main()
