"""The house: an installed package with a console command, no path tricks, formatters and
linters."""

import re
import subprocess

from conftest import ROOT, copy_project


def test_console_command_and_installed_package():
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "c18n-ae"), "abi", "/bin/sh"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == "/bin/sh: native\n"
    usage = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "c18n-ae")], capture_output=True, text=True
    )
    assert usage.returncode == 2 and "c18n-ae timings" in usage.stderr


def test_no_module_edits_sys_path_and_no_rule_sets_pythonpath():
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "bench").glob("*.py")]:
        assert "sys.path" not in path.read_text(), path
    for path in [ROOT / "Snakefile", *(ROOT / "workflow" / "rules").glob("*.smk")]:
        text = path.read_text()
        assert "PYTHONPATH" not in text and "sys.path" not in text, path


def run(*cmd):
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, capture_output=True, text=True)


def test_python_is_formatted_and_linted_by_ruff():
    ruff = ROOT / ".venv" / "bin" / "ruff"  # configured in pyproject.toml: line length 100
    fmt = run(ruff, "format", "--check", "src", "tests", "bench")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
    lint = run(ruff, "check", "src", "tests", "bench")
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_c_is_formatted_by_clang_format():
    sources = sorted((ROOT / "src" / "benchmarks").glob("*.[ch]"))
    done = run("clang-format", "--dry-run", "-Werror", *sources)
    assert done.returncode == 0, done.stderr[-3000:]


def test_snakemake_lint_asks_for_nothing_but_software_environments(tmp_path):
    # in a copy without results/: a run's profile record there (say, the quick profile's) would
    # rightly stop the full profile's command before it lints anything
    project = copy_project(tmp_path / "project")
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "snakemake"), "--lint"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    items = re.findall(r"^\s+\* (.*)$", done.stdout + done.stderr, re.M)
    assert items, "snakemake --lint printed no lint at all: did it run?"
    assert {i.strip() for i in items} == {
        "Specify a conda environment or container for each rule.:"
    }


# Each folder of the package and the folders it may import: a stage uses the stages below it.
MAY_IMPORT = {
    "common": set(),
    "experiments": {"common"},
    "targets": {"common", "experiments"},
    "running": {"common", "experiments", "targets"},
    "analysis": {"common", "experiments"},
    "report": {"common", "experiments", "analysis"},
}
BOARD_SIDE = [
    "running/unit.py",
    "experiments/__init__.py",  # every driver imports the package first
    "experiments/programs.py",
    "experiments/drivers/__init__.py",
    "experiments/drivers/launch.py",
    "experiments/drivers/rowwriter.py",
    "experiments/drivers/scraper.py",
    "experiments/drivers/sysmem.py",
]


def imports_of(path):
    return set(re.findall(r"^\s*(?:from|import) c18n_ae\.(\w+)", path.read_text(), re.M))


def test_import_arrows_go_down_the_pipeline_never_back():
    package = ROOT / "src" / "c18n_ae"
    assert {p.name for p in package.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(
        MAY_IMPORT
    )
    for folder, allowed in MAY_IMPORT.items():
        for path in (package / folder).rglob("*.py"):
            wrong = imports_of(path) - allowed - {folder}
            where = path.relative_to(ROOT)
            assert not wrong, (
                f"{where} imports {sorted(wrong)}; {folder} may import {sorted(allowed)}"
            )
        assert (package / folder / "__init__.py").read_text().startswith('"""'), (
            f"{folder} says what it holds"
        )


def test_board_side_modules_use_the_standard_library_only():
    import sys

    package = ROOT / "src" / "c18n_ae"
    third_party = {"pandas", "numpy", "scipy", "yaml", "jsonschema", "matplotlib", "elftools"}
    for rel in BOARD_SIDE:
        text = (package / rel).read_text()
        names = set(re.findall(r"^\s*(?:from|import) (\w+)", text, re.M)) - {
            "c18n_ae",
            "__future__",
        }
        assert not names & third_party, f"{rel} imports {sorted(names & third_party)}"
        assert names <= set(sys.stdlib_module_names), (
            f"{rel}: {sorted(names - set(sys.stdlib_module_names))}"
        )


SRC = ROOT / "src" / "c18n_ae"
REPORT_JOBS = (
    "experiment_outputs",
    "render_table",
    "render_figure",
    "setup_table",
    "macros",
    "headline",
    "findings",
    "releases",
    "claim_tables",
    "call_cost",
)
STATISTICS = {"compare", "ratio_ci", "ratio_of_ratios", "ratio_ci_large", "summary_table"}


def test_no_report_job_recomputes_a_statistic():
    """The report stage reads results/comparisons*.csv and the summaries; it never calls the
    functions that compute them (c18n-ae readme, which is no workflow job, may)."""
    import ast

    for name in REPORT_JOBS:
        tree = ast.parse((SRC / "report" / f"{name}.py").read_text())
        used = {n.name for n in ast.walk(tree) if isinstance(n, ast.alias)}
        used |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert not used & STATISTICS, (name, used & STATISTICS)


def test_the_table_job_reads_the_comparisons_it_is_given(tmp_path):
    """Alter the comparisons file: the table prints the altered ratio, so nothing recomputed it."""
    import subprocess
    import sys

    from c18n_ae.analysis.collect import collect
    from c18n_ae.analysis.comparisons import compare
    from c18n_ae.analysis.imports import dataset_files
    from c18n_ae.analysis.summarise import summary_table
    from c18n_ae.common import datasets

    files = [p for e, _, p in dataset_files(datasets.load("morello-2024")) if e == "cpu"]
    tidy = collect("cpu", [], files)
    comps = compare(tidy, {"morello-2024": "hybrid"})
    math = (comps.variant == "purecap-c18n") & (comps.metric == "math_cpu_ns")
    comps.loc[math, ["ratio", "ci95_low", "ci95_high"]] = [7.77, 7.70, 7.80]
    for kind, frame in (("tidy", tidy), ("summary", summary_table(tidy)), ("comparisons", comps)):
        frame.to_csv(tmp_path / f"{kind}.csv", index=False)
    out = tmp_path / "tab.tex"
    args = [f"--{k}={tmp_path / k}.csv" for k in ("tidy", "summary", "comparisons")]
    args += [f"--{k}={tmp_path / k}" for k in ("pdf", "png", "pgfplots", "series", "html")]
    subprocess.run(
        [sys.executable, "-m", "c18n_ae.report.experiment_outputs", "--experiment", "cpu", *args]
        + ["--config", str(ROOT / "config" / "config.yaml"), "--table", str(out)],
        check=True,
    )
    assert "7.77× [7.70, 7.80]" in (tmp_path / "html").read_text()  # the full table's page
    assert r"\reporttable{cpu}{E3}" in out.read_text()  # the PDF's line for it


def test_the_package_imports_no_scipy():
    """scipy is a test dependency only (pyproject's test extra): the package's statistics are its
    own (common/student_t.py, scale's least squares), and scipy's import cost each job 0.2 s."""
    package = ROOT / "src" / "c18n_ae"
    users = [
        str(p.relative_to(ROOT))
        for p in package.rglob("*.py")
        if re.search(r"^\s*(?:from|import) scipy\b", p.read_text(), re.M)
    ]
    assert users == [], users
    spec = (ROOT / "pyproject.toml").read_text().split("[project.optional-dependencies]")
    assert "scipy" not in spec[0].split("dependencies = [", 1)[1].split("]", 1)[0]
    assert "scipy" in spec[1].split("\n[", 1)[0]
