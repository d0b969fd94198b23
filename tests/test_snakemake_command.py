"""A target named after --configfile (which takes every word after it) gets the README's advice
from .venv's snakemake command, not snakemake's FileNotFoundError traceback; every other command
line goes to snakemake unchanged."""

import subprocess
import sys

from c18n_ae.snakemake_command import missing_config_files
from conftest import ROOT, SNAKEMAKE


def run(*args, cwd=ROOT):
    return subprocess.run([*SNAKEMAKE, *args], cwd=cwd, capture_output=True, text=True)


def test_a_target_after_configfile_gets_the_readmes_advice():
    done = run("-n", "--configfile", "config/quick.yaml", "clock")
    assert done.returncode == 1 and done.stdout == ""
    assert "Traceback" not in done.stderr and "FileNotFoundError" not in done.stderr
    assert "no config file clock" in done.stderr
    assert "snakemake -n clock --configfile config/quick.yaml" in done.stderr
    # the README says the same where the message points
    running_parts = (ROOT / "README.md").read_text().split("## Running parts")[1]
    assert "put targets before it" in running_parts.split("\n## ")[0]


def test_every_other_command_line_reaches_snakemake(project_copy):
    assert run("--version").stdout.strip().split(".")[0] == "9"
    # in a copy without results/, as a clone: a working copy's own run leaves nothing to do
    done = run(
        "-n", "--cores", "1", "memory", "--configfile", "config/quick.yaml", cwd=project_copy
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "run_local_memory" in done.stdout


def test_the_words_read_as_config_files():
    assert missing_config_files(["--configfile", "config/quick.yaml", "-n"]) == []
    assert missing_config_files(["--configfile", "config/quick.yaml", "memory", "paper"]) == [
        "memory",
        "paper",
    ]
    assert missing_config_files(["--configfile=memory", "paper"]) == ["memory"]
    assert missing_config_files(["paper", "--cores", "1"]) == []


def test_the_scheduler_keeps_one_reevaluation_timer():
    """Snakemake arms a timer at the end of every pass of its scheduling loop; the command keeps
    one pending (a daemon), which wakes the loop once, so passes no longer pile up with the jobs."""
    import threading
    import time
    from types import SimpleNamespace

    from c18n_ae.snakemake_command import one_reevaluation_timer

    scheduler = SimpleNamespace(_open_jobs=threading.Semaphore(0))
    before = threading.active_count()
    for _ in range(50):
        one_reevaluation_timer(scheduler, 0.2)
    assert threading.active_count() == before + 1
    assert scheduler._c18n_reevaluation.daemon
    assert scheduler._open_jobs.acquire(timeout=5)  # woken once
    time.sleep(0.3)
    assert not scheduler._open_jobs.acquire(blocking=False)  # and only once
    one_reevaluation_timer(scheduler, 0.01)  # a later pass arms a new one
    assert scheduler._open_jobs.acquire(timeout=5)


def test_the_command_uses_the_fix_in_snakemakes_scheduler():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.argv = ['snakemake', '--version']\n"
            "from c18n_ae import snakemake_command as c\n"
            "try:\n    c.main()\nexcept SystemExit:\n    pass\n"
            "from snakemake.scheduling.job_scheduler import JobScheduler\n"
            "print(JobScheduler._schedule_reevalutation is c.one_reevaluation_timer)",
        ],
        capture_output=True,
        text=True,
    )
    assert done.stdout.split()[-1] == "True", done.stderr[-2000:]


def test_params_are_compared_without_importing_pandas(tmp_path):
    """A no-op loads no pandas for snakemake's comparison of params, and a changed param still
    re-runs its job."""
    rule = 'rule a:\n    output: "a"\n    params: x="{x}"\n    shell: "touch {{output}}"\n'
    (tmp_path / "Snakefile").write_text(rule.format(x="1"))
    assert subprocess.run([*SNAKEMAKE, "--cores", "1"], cwd=tmp_path).returncode == 0
    check = (
        "import sys; sys.argv = ['snakemake', *sys.argv[1:]]\n"
        "import atexit; atexit.register(lambda: print('pandas', 'pandas' in sys.modules))\n"
        "from c18n_ae.snakemake_command import main; main()"
    )
    again = subprocess.run(
        [sys.executable, "-c", check, "--cores", "1"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "Nothing to be done" in again.stdout + again.stderr
    assert again.stdout.split()[-2:] == ["pandas", "False"]
    (tmp_path / "Snakefile").write_text(rule.format(x="2"))
    changed = subprocess.run(
        [*SNAKEMAKE, "-n", "--cores", "1"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "Params have changed" in changed.stdout + changed.stderr
