"""The README's full-reproduction table, from run metadata and run directories: a run unit (an
experiment's variants interleaved on one target) counts once, not once per variant."""

import json

from c18n_ae.report.timings import markdown, rows


def write_meta(root, target, variant, experiment, start, end, size):
    run = root / target / variant / experiment
    run.mkdir(parents=True)
    (run / "raw.csv").write_text("x" * size)
    meta = {"experiment": experiment, "target": target, "variant": variant}
    meta |= {"started_at": f"2026-01-01T{start}:00+00:00", "finished_at": f"2026-01-01T{end}:00Z"}
    (run / "meta.json").write_text(json.dumps(meta))


def test_an_interleaved_unit_counts_once(tmp_path):
    # memory's two variants interleaved over the same 9 minutes; cpu's one variant 3 minutes later
    write_meta(tmp_path, "local", "O2", "memory", "10:00", "10:09", 2500)
    write_meta(tmp_path, "local", "O0", "memory", "10:00", "10:09", 500)
    write_meta(tmp_path, "local", "O2", "cpu", "10:12", "10:15", 1000)
    write_meta(tmp_path, "board", "O2", "cpu", "10:00", "10:06", 1000)
    table = markdown(rows(tmp_path))
    assert "| memory | local | O0, O2 | 9.0 min | 3 kB |" in table
    assert "| cpu | board | O2 | 6.0 min | 1 kB |" in table
    assert "| cpu, all targets | | | 9.0 min | 2 kB |" in table
    assert "| all runs, each unit once | | | 18.0 min | 6 kB |" in table  # with meta.json
    assert "| first start to last end | | | 15.0 min | |" in table
