"""Every job writes a Snakemake benchmark file under logs/benchmarks/, one of its own: the files
bench/overhead.py reads to weigh the jobs outside the benchmark runs against the runs."""

import re
import subprocess

from conftest import SNAKEMAKE


def test_every_job_has_a_benchmark_file_of_its_own(project_copy):
    done = subprocess.run(
        [*SNAKEMAKE, "-n", "-F", "--cores", "1", "--configfile", "config/quick.yaml"],
        cwd=project_copy,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    blocks = re.split(r"\n(?=(?:local)?rule \w+:)", done.stdout)
    # every job that runs a command (the target rule `all` runs none)
    jobs = [b for b in blocks if re.search(r"^Shell command: (?!None$)", b, re.M)]
    assert len(jobs) > 50
    files = []
    for job in jobs:
        found = re.search(r"^\s+benchmark: (\S+)$", job, re.M)
        assert found, f"no benchmark file: {job.splitlines()[0]}"
        files.append(found.group(1))
    assert all(f.startswith("logs/benchmarks/") and f.endswith(".tsv") for f in files), files
    assert len(set(files)) == len(files), "two jobs share a benchmark file"
