"""The setup table's data set columns say how each variant was put in compartments (22.12: a link
flag, with a library path variable set for hybrid too), that the study saw no compartments, and
which processes revoked freed memory, from dataset.yaml."""

from c18n_ae.common import datasets
from c18n_ae.report.setup_table import setup_table


def test_the_data_sets_launch_compartments_and_revocation_facts():
    tex = setup_table([], [], [datasets.load(n) for n in ("morello-2024", "cheribsd-22.12")])
    row = {
        line.split(" & ")[0]: line.split(" & ")[1:] for line in tex.splitlines() if " & " in line
    }
    new, old = row["Variants (flags, ABI, launcher)"]
    assert "c18n by linking against the c18n run-time linker (-Wl,-dynamic-linker," in old
    assert "hybrid: " in old and "run with env LD\\_C18N\\_LIBRARY\\_PATH=. (read only by" in old
    assert "c18n by" not in new  # 24.05: proccontrol is what enables it
    new, old = row["Compartments seen"]
    assert new.startswith("not verified by the study for E1 to E4") and "/usr/lib64cb/c18n/" in new
    assert old.startswith("not verified by the study")
    new, old = row["Heap revocation"]
    assert "memory: hybrid off, purecap-c18n on, benchmark-c18n on" in new
    assert old.startswith("not recorded")
    # the study recorded no hash of the binaries it ran
    assert row["Binary SHA-256 (first 12 hex digits)"] == [
        "not recorded in the data set",
        "not recorded in the data set \\\\",
    ]


def test_the_setup_table_reads_down_its_columns():
    """Ragged-right columns (a justified narrow one stretches its spaces), and each variant of a
    data set, and each experiment's clock, on a line of its own; a launcher's note keeps its
    parenthesis whole."""
    metas = [datasets.load(n) for n in ("morello-2024", "cheribsd-22.12")]
    tex = setup_table([], [], metas)
    spec = next(x for x in tex.splitlines() if x.startswith(r"\begin{tabular}"))
    assert spec.count(r"\raggedright") == spec.count("p{") == 2
    row = {x.split(" & ")[0]: x.split(" & ")[1:] for x in tex.splitlines() if " & " in x}
    for meta, cell in zip(metas, row["Variants (flags, ABI, launcher)"]):
        lines = cell.removesuffix(r" \\").split(r"\newline ")
        assert [x.split(":")[0] for x in lines] == list(meta["variants"]), lines
        assert all(x.count("(") == x.count(")") for x in lines), lines
    for meta, cell in zip(metas, row["Timer resolution or clock"]):
        assert cell.count(r"\newline") == len(meta["timing"]) - 1, cell
