"""The paper's one name per data set, machine and variant (common/names.py), from the config and
the shipped data sets' dataset.yaml: no id in running text, the ids kept in paths."""

import re
import shutil
from pathlib import Path

import yaml

from c18n_ae.common import config as cfg
from c18n_ae.common.names import from_config, release_labels, variant_names
from c18n_ae.report import call_cost
from c18n_ae.report.files import PER_CALL, VERDICTS
from conftest import ROOT, snakemake

BOTH = {"targets": [], "datasets": ["morello-2024", "cheribsd-22.12"]}


def test_names_come_from_the_config_and_the_data_sets():
    names = from_config(cfg.merged(ROOT / "config" / "config.yaml", ROOT / "config" / "quick.yaml"))
    sets = cfg.datasets(cfg.merged(ROOT / "config" / "config.yaml"))
    for meta in sets:  # a data set by its release, without the system's name
        assert names.source(meta["name"]) == meta["release"].removeprefix("CheriBSD ")
        assert names.data(meta["name"]) == f"the {names.source(meta['name'])} data"
        assert names.stands_for(meta["name"]).endswith(f"(data set {meta['name']})")
        for v, spec in meta["variants"].items():
            said = names.variant(meta["name"], v)
            assert said.endswith(" + c18n") == bool(spec.get("c18n")), (v, said)
            assert said == v or spec.get("c18n")  # only a variant in compartments is renamed
    assert names.source("local") == "local" and names.variant("local", "O2") == "O2"
    assert names.variant("morello-2024", "benchmark-c18n") == "benchmark + c18n"


def test_two_variants_that_would_share_a_name_do_not():
    board = cfg.merged(ROOT / "config" / "config.yaml", ROOT / "config" / "morello.yaml")
    target = next(t for t in board["targets"] if t["name"] == "morello")
    said = variant_names({v["name"]: v for v in target["variants"]})
    assert said["purecap-c18n"] == "purecap + c18n" and said["purecap"] == "purecap"
    assert said["purecap-c18n-norevoke"] == "purecap-c18n-norevoke"
    assert len(set(said.values())) == len(said)
    tied = variant_names({"a-c18n": {"abi": "purecap", "c18n": True}, "b-c18n": {"abi": "purecap",
                          "c18n": True}})  # fmt: skip
    assert tied == {"a-c18n": "a-c18n", "b-c18n": "b-c18n"}


def test_text_names_every_id_but_leaves_paths_alone():
    names = from_config(BOTH)
    tex = (
        r"On \texttt{morello-2024} (CheriBSD 24.05), \texttt{benchmark-c18n} and \texttt{hybrid};"
        " purecap-c18n/hybrid of malloc_ns; pipe did not run on cheribsd-22.12. Files:"
        r" \texttt{datasets/morello-2024/}, pipe/purecap-c18n.csv, local/O2."
    )
    said = names.text(tex)
    assert said.startswith("On 24.05, benchmark + c18n and hybrid;"), said
    assert "purecap + c18n / hybrid of malloc_ns" in said and "run on 22.12." in said
    assert r"\texttt{datasets/morello-2024/}" in said and "pipe/purecap-c18n.csv" in said
    assert "local/O2" in said
    prose = names.text(r"\newcommand{\X}{\texttt{morello-2024} is x. As cheribsd-22.12.}", True)
    assert prose == r"\newcommand{\X}{The 24.05 data is x. As the 22.12 data.}", prose
    assert names.text("the morello-2024 files", prose=True) == "the 24.05 data files"
    assert from_config(None).text(tex) == tex  # no config: nothing to name


def test_no_report_module_spells_a_data_set_or_variant_id():
    """Names live in config and data: the paper's code derives them (names.py), never types
    them."""
    ids = {"morello-2024", "cheribsd-22.12", "purecap-c18n", "benchmark-c18n"}
    for path in (ROOT / "src" / "c18n_ae" / "report").glob("*.py"):
        code = "\n".join(
            x for x in Path(path).read_text().splitlines() if not x.lstrip().startswith("#")
        )
        found = {i for i in ids if f'"{i}"' in code or f"'{i}'" in code}
        assert not found, (path.name, found)


def test_copies_of_one_release_are_named_apart():
    sets = cfg.datasets(cfg.merged(ROOT / "config" / "config.yaml"))
    copy = {**sets[-1], "name": "copy-b"}
    labels = release_labels([*sets, copy])
    release = sets[-1]["release"]
    assert labels[copy["name"]] == f"{release} (copy-b)"
    assert labels[sets[-1]["name"]] == f"{release} ({sets[-1]['name']})"
    assert labels[sets[0]["name"]] == sets[0]["release"]  # a release of its own: bare
    assert release_labels(sets) == {m["name"]: m["release"] for m in sets}
    assert release_labels([{"name": "x"}]) == {"x": ""}  # none recorded
    # one release written two ways is still one release, as from_config names it
    two = release_labels(
        [{"name": "a", "release": "CheriBSD 22.12"}, {"name": "b", "release": "22.12"}]
    )
    assert two == {"a": "CheriBSD 22.12 (a)", "b": "22.12 (b)"}, two


def test_a_copy_of_a_data_set_prints_apart_in_every_generated_sentence(project_copy):
    """A third data set of a release already shipped (a renamed copy) once printed 'its separate
    22.12 and 22.12 runs' and the per-call clause twice over: every sentence names it apart."""
    config = yaml.safe_load((project_copy / "config" / "config.yaml").read_text())
    first = config["datasets"][-1]
    folder = project_copy / "datasets" / "copy-b"
    shutil.copytree(project_copy / "datasets" / first, folder)
    meta = folder / "dataset.yaml"
    meta.write_text(re.sub(r"(?m)^name: .*$", "name: copy-b", meta.read_text()))
    more = yaml.safe_dump({"datasets": [*config["datasets"], "copy-b"]})
    (project_copy / "config" / "more.yaml").write_text(more)
    wanted = [VERDICTS["findings"], VERDICTS["releases"], PER_CALL["macros"]]
    done = snakemake(project_copy, *wanted, configs=("config/quick.yaml", "config/more.yaml"))
    assert done.returncode == 0, done.stderr[-3000:]
    said = {Path(p).name: (project_copy / p).read_text() for p in wanted}
    release = yaml.safe_load(meta.read_text())["release"].removeprefix("CheriBSD ")
    for name, tex in said.items():
        assert not re.search(rf"{re.escape(release)},? (and )?(the )?{re.escape(release)}\b", tex)
        assert "(copy-b)" in tex, name
    for macro in ("PerCallFinding", "ClaimsSummary", "DatasetSummary"):
        body = next(x for x in "".join(said.values()).splitlines() if f"{{\\{macro}}}" in x)
        # inside the finding's parenthesis, the data set in brackets: no parenthesis inside
        # another (the item 2)
        o, c = ("[", "]") if macro == "PerCallFinding" else ("(", ")")
        assert f"{release} {o}copy-b{c}" in body and f"{release} {o}{first}{c}" in body, body
        assert not [x for x in call_cost.abstract_problems(body) if x.startswith("nested")], body
    # the conclusion names them out of any parenthesis, each label whole (its closing
    # parenthesis was once stripped with the list's)
    body = next(x for x in "".join(said.values()).splitlines() if "{\\PerCallConclusion}" in x)
    assert f"{release} (copy-b)" in body and "[" not in body, body
