"""The README's full-reproduction table (`c18n-ae timings`), from run metadata and run directories:
a run unit (an experiment's variants interleaved on one target) counts once, not once per variant;
experiments in the paper's order with their E-numbers, their runs and why they stopped, and the
machine's load while each ran."""

import json

from c18n_ae.cli import main as cli
from c18n_ae.report.timings import HEADER, markdown, rows


def write_meta(root, target, variant, experiment, start, end, size, loads=(), stopped=None):
    run = root / target / variant / experiment
    run.mkdir(parents=True)
    (run / "raw.csv").write_text("x" * size)
    meta = {"experiment": experiment, "target": target, "variant": variant}
    meta |= {"started_at": f"2026-01-01T{start}:00+00:00", "finished_at": f"2026-01-01T{end}:00Z"}
    meta |= {"segments": [{"load": x} for x in loads], "host": {"cpu_count": 2}}
    if stopped:
        meta["stopped"] = stopped
    (run / "meta.json").write_text(json.dumps(meta))


def test_an_interleaved_unit_counts_once(tmp_path, capsys):
    # memory's two variants interleaved over the same 9 minutes; cpu's one variant 3 minutes later
    three = {"reason": "count", "runs": 3, "units_per_run": [1, 1, 1]}
    write_meta(tmp_path, "local", "O2", "memory", "10:00", "10:09", 2500, (1.0, 3.0), three)
    write_meta(tmp_path, "local", "O0", "memory", "10:00", "10:09", 500, (2.0,), three)
    write_meta(tmp_path, "local", "O2", "cpu", "10:12", "10:15", 1000)
    precise = {"reason": "precision", "runs": 3, "units_per_run": [4, 4, 4]}
    write_meta(tmp_path, "board", "O2", "cpu", "10:00", "10:06", 1000, (0.5,), precise)
    table = markdown(rows(tmp_path))
    lines = table.splitlines()
    assert lines[:2] == list(HEADER)
    assert "| memory (E2) | local | O0, O2 | 3, the count | 9.0 min | 4 kB | 2.0 / 3.0 |" in table
    assert "| cpu (E3) | board | O2 | 3, precision | 6.0 min | 1 kB | 0.5 / 0.5 |" in table
    assert "| cpu (E3) | local | O2 |  | 3.0 min | 1 kB | not recorded |" in table  # older run
    firsts = [x.split(" | ")[0] for x in lines[2:5]]
    assert firsts == ["| memory (E2)", "| cpu (E3)", "| cpu (E3)"], "the paper's order"
    assert "| cpu (E3), all targets | | | | 9.0 min | 2 kB | 0.5 / 0.5 |" in table
    assert "| all runs, each unit once | | | | 18.0 min | 6 kB | 1.6 / 3.0 |" in table
    assert "| first start to last end | | | | 15.0 min | | |" in table
    assert table.endswith("Cores: 2 (a load above the cores is work waiting).\n")
    cli(["timings", "--results", str(tmp_path)])  # the command prints the same
    assert capsys.readouterr().out == table
