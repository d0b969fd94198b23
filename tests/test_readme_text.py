"""What the README names exists: its contents list leads to every heading, every experiment it
names is in the registry, every snakemake target it gives is a rule, an experiment or a file, and
the bench scripts it names are the ones its sections run."""

from __future__ import annotations

import re
import shlex

from c18n_ae import experiments
from conftest import ROOT

README = (ROOT / "README.md").read_text()


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def contents() -> str:
    return README.split("**Contents**", 1)[1].split("\n## ", 1)[0]


def test_the_contents_list_leads_to_every_heading_and_to_adding_an_experiment_and_a_data_set():
    headings = re.findall(r"^#{2,3} (.+)$", README, re.M)
    links = re.findall(r"\]\(([^)]*)\)", contents())
    anchors = [link[1:] for link in links if link.startswith("#")]
    assert sorted(anchors) == sorted(slug(h) for h in headings)
    assert "#adding-an-experiment" in links
    elsewhere = [link for link in links if not link.startswith("#")]
    assert elsewhere == ["datasets/README.md#adding-a-data-set"]
    datasets_readme = (ROOT / "datasets" / "README.md").read_text()
    assert "## Adding a data set" in datasets_readme
    # within the first screen of the README, before the quick start
    assert README.index("[Adding an experiment]") < README.index("## Quick start") < 3000


def test_every_experiment_the_readme_names_exists_and_its_list_names_each():
    registry = experiments.registry()
    numbers = {e.number for e in registry.values()}
    named = {int(n) for n in re.findall(r"\bE(\d+)\b", README)}
    assert named and named <= numbers, sorted(named - numbers)
    listed = README.split("<!-- experiments:start -->", 1)[1].split("<!-- experiments:end -->")[0]
    rows = re.findall(r"^\| E(\d+) \| `([\w-]+)` \|", listed, re.M)
    assert sorted(rows) == sorted((str(e.number), e.name) for e in registry.values())
    # an experiment is named by its name; a target is a machine
    assert "| id | name |" in listed and "<target>/raw.csv" not in README
    assert "snakemake --cores 1 <target>" not in README


def snakemake_targets() -> list[str]:
    """The targets (words that are no option, nor an option's value) of every snakemake command
    line in the README's code, inline or in blocks."""
    lines = re.findall(r"`(snakemake [^`\n]+)`", README)
    blocks = "\n".join(re.findall(r"^```sh\n(.*?)^```", README, re.M | re.S))
    lines += re.findall(r"^(snakemake [^#\n]+)", blocks, re.M)
    targets = []
    for line in lines:
        words = iter(shlex.split(line)[1:])
        for word in words:
            if word in ("--cores", "--report", "--config"):
                next(words)  # the option's value
            elif word == "--configfile":  # takes every config file that follows
                targets += [w for w in words if not w.endswith(".yaml")]
            elif not word.startswith("-"):
                targets.append(word)
    return targets


def test_every_snakemake_target_the_readme_gives_is_a_rule_an_experiment_or_a_file():
    rules = set()
    for path in [ROOT / "Snakefile", *(ROOT / "workflow" / "rules").glob("*.smk")]:
        rules |= set(re.findall(r"^rule (\w+):", path.read_text(), re.M))
    names = rules | set(experiments.names()) | {"<name>", "[args]"}  # placeholders
    targets = snakemake_targets()
    assert {"paper", "memory", "archive"} <= set(targets), targets
    wrong = [t for t in targets if t not in names and not re.match(r"(results|paper)/", t)]
    assert wrong == []


def test_the_map_names_the_bench_script_that_measures_the_cost_of_the_analysis():
    the_map = README.split("## Where things are", 1)[1].split("\n## ", 1)[0]
    bench_row = next(line for line in the_map.splitlines() if line.startswith("| `bench/` |"))
    section = README.split("### Cost of the analysis", 1)[1].split("\n## ", 1)[0]
    runs = re.search(r"python (bench/\w+\.py)", section).group(1)
    assert f"`{runs.removeprefix('bench/')}`" in bench_row.split(";")[0] + bench_row, bench_row
    assert "cost of the analysis (`analysis_cost.py`" in bench_row
    for script in re.findall(r"`([\w/]+\.py)`", bench_row):
        assert (ROOT / "bench" / script).exists(), script
    for script in re.findall(r"bench/\w+\.py", README):
        assert (ROOT / script).exists(), script
