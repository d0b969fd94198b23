"""The paper's one name per data set, machine and variant (common/names.py), from the config and
the shipped data sets' dataset.yaml: no id in running text, the ids kept in paths."""

from pathlib import Path

from c18n_ae.common import config as cfg
from c18n_ae.common.names import from_config, variant_names
from conftest import ROOT

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
