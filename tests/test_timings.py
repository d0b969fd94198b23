"""The README's full-reproduction table, from run metadata and run directories."""

import json

from c18n_ae.report.timings import markdown, rows


def test_timings_table_from_run_metadata(tmp_path):
    run = tmp_path / "local" / "O2" / "memory"
    run.mkdir(parents=True)
    (run / "raw.csv").write_text("x" * 2500)
    (run / "meta.json").write_text(
        json.dumps(
            {
                "experiment": "memory",
                "target": "local",
                "variant": "O2",
                "started_at": "2026-01-01T10:00:00+00:00",
                "finished_at": "2026-01-01T10:09:00+00:00",
            }
        )
    )
    table = markdown(rows(tmp_path))
    assert (
        "| memory | local/O2 | 9.0 min | 3 kB |" in table
        and "| all runs | | 9.0 min | 3 kB |" in table
    )
