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
