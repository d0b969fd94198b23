"""The setup table's data set columns say how each variant was put in compartments (22.12: a link
flag, with a library path variable set for hybrid too), that the study saw no compartments, and
which processes revoked freed memory, from dataset.yaml."""

from c18n_ae.common import datasets
from c18n_ae.report.setup_table import builds_rows, setup_table


def test_the_data_sets_launch_compartments_and_revocation_facts():
    tex = setup_table([], [], [datasets.load(n) for n in ("morello-2024", "cheribsd-22.12")])
    row = {
        line.split(" & ")[0]: line.split(" & ")[1:] for line in tex.splitlines() if " & " in line
    }
    new, old = row["Variants (flags, ABI, launcher)"]
    assert "c18n by linking against the c18n run-time linker (-Wl,-dynamic-linker," in old
    assert "hybrid: " in old and "run with env LD\\_C18N\\_LIBRARY\\_PATH=." in old
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
        # one line per way of timing, each experiment named on exactly one of them
        ways = {
            (t["clock"].split(",")[0], t["written"].split(",")[0]) for t in meta["timing"].values()
        }
        lines = cell.removesuffix(r" \\").split(r"\newline ")
        assert len(lines) == len(ways), cell
        named = [e for x in lines for e in x.split(": ", 1)[0].split("/")]
        assert sorted(named) == sorted(meta["timing"]), cell


def test_the_variants_row_says_each_compiler_and_level_once_and_the_csv_keeps_the_rest():
    """Not a wall of flags: each variant's compiler and -O level, the level of most of its
    experiments once; -march, -mabi, -g and the launchers' notes said once in a note below, and
    in full in results/setup.csv (builds_rows), one row per build."""
    metas = [datasets.load(n) for n in ("morello-2024", "cheribsd-22.12")]
    tex = setup_table([], [], metas)
    row = {x.split(" & ")[0]: x.split(" & ")[1:] for x in tex.splitlines() if " & " in x}
    for meta, cell in zip(metas, row["Variants (flags, ABI, launcher)"]):
        for flag in ("-march", "-mabi", "-g ", "-Wall", "-fPIC", "read only by"):
            assert flag not in cell, (flag, cell)
        for line, (v, spec) in zip(cell.split(r"\newline "), meta["variants"].items()):
            levels = {b["optimisation"] for b in spec.get("builds", [])} - {"not recorded"}
            compilers = {b["compiler"] for b in spec.get("builds", [])}
            assert all(x in line for x in levels | compilers), (line, levels, compilers)
            # each (compiler, level) once however many experiments share it
            for c in compilers - {"not recorded"}:
                for lv in levels:
                    assert line.count(f"{c} {lv}") <= 1, line
    assert "-march=morello+c64 and -mabi to its ABI" in tex and "results/setup.csv" in tex
    rows = builds_rows([], metas)
    builds = sum(len(s.get("builds", [])) for m in metas for s in m["variants"].values())
    assert len(rows) == builds
    bench = [r for r in rows if r["variant"] == "benchmark-c18n" and r["experiments"] == "cpu"]
    assert bench[0]["cflags"] == "-g -O2 -Wall -march=morello+c64 -mabi=purecap-benchmark"
    assert any(r["launcher_note"].startswith("read only by") for r in rows)


def test_the_compiler_row_says_the_one_build_an_experiments_binaries_record():
    """The study's files name two compilers on each release (cc or clang beside clang-morello);
    the E3 binaries of every variant record one build, which the row says beside the names
    (R210, B210: Section 4 named the build and this table only the names); a variant without
    such a binary leaves it unsaid."""
    metas = [datasets.load(n) for n in ("morello-2024", "cheribsd-22.12")]
    tex = setup_table([], [], metas)
    row = {x.split(" & ")[0]: x.split(" & ")[1:] for x in tex.splitlines() if " & " in x}
    cells = [" ".join(c.split()) for c in row["Compiler"]]
    assert cells[0].startswith("cc; clang-morello; E3's binaries record one build"), cells[0]
    assert "every variant, clang 14.0.0" in cells[0] and "clang 13.0.0" in cells[1], cells
    # a data set whose binaries name a variant the others' do not: no build said for all
    partial = {**metas[0], "variants": {**metas[0]["variants"], "extra": {"abi": "purecap"}}}
    assert "binaries record" not in " ".join(setup_table([], [], [partial]).split())
