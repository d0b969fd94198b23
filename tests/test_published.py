"""The shipped copy of the published figures is the shared reference, byte for byte."""


import pytest

from conftest import ROOT

SHARED = ROOT.parent / "shared" / "reference"
PUBLISHED = ROOT / "results" / "published"


def test_every_published_file_is_shipped():
    names = {p.name for p in PUBLISHED.glob("*.csv")}
    assert {"morello_c18n_2024.csv", "morello_claims_2024.csv", "morello_trust_model_2024.csv",
            "pytilia_packet_2023.csv", "flask_ipc_1999.csv", "sgx_alloc_2023.csv"} <= names


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/reference is not beside this checkout")
def test_copy_matches_the_shared_reference():
    for src in SHARED.glob("*.csv"):
        assert (PUBLISHED / src.name).read_bytes() == src.read_bytes(), src.name
    assert (PUBLISHED / "TRANSCRIPTION.md").read_bytes() == (SHARED / "README.md").read_bytes()


def test_timings_table_from_run_metadata(tmp_path):
    import json

    from c18n_ae.timings import markdown, rows
    run = tmp_path / "local" / "O2" / "memory"
    run.mkdir(parents=True)
    (run / "raw.csv").write_text("x" * 2500)
    (run / "meta.json").write_text(json.dumps({"experiment": "memory", "target": "local", "variant": "O2",
                                               "started_at": "2026-01-01T10:00:00+00:00",
                                               "finished_at": "2026-01-01T10:09:00+00:00"}))
    table = markdown(rows(tmp_path))
    assert "| memory | local/O2 | 9.0 min | 3 kB |" in table and "| all runs | | 9.0 min | 3 kB |" in table
