"""Raw CSV -> tidy table, and clear errors naming file and line for bad input."""

import math

import pandas as pd
import pytest

from c18n_ae.analysis.collect import TIDY_COLUMNS, check_tidy, tidy_run
from c18n_ae.common.rawcsv import RawDataError

HEADER = "block_mib,trial,status,malloc_ns,write_ns,read_ns,free_ns,checksum\n"


def write(tmp_path, body, header=HEADER):
    p = tmp_path / "raw.csv"
    p.write_text(header + body)
    return p


def test_tidy_long_table(tmp_path):
    raw = write(tmp_path, "100,1,ok,10,2000,1000,30,5\n100,2,alloc_failed,,,,,\n")
    df = tidy_run(raw, "local", "O2", "memory")
    assert list(df.columns) == TIDY_COLUMNS
    assert len(df) == 8  # 2 trials x 4 metrics
    ok = df[df.status == "ok"].set_index("metric")["value"]
    assert ok.to_dict() == {"malloc_ns": 10, "write_ns": 2000, "read_ns": 1000, "free_ns": 30}
    failed = df[df.status == "alloc_failed"]
    assert len(failed) == 4 and failed["value"].isna().all()
    assert set(df["unit"]) == {"ns"} and set(df["parameter"]) == {"block_mib"}
    check_tidy(df)


@pytest.mark.parametrize(
    "body, message",
    [
        ("100,1,ok,10,2000\n", "raw.csv:2: expected 8 fields, found 5"),
        (
            "100,1,ok,10,2000,1000,30,5\n100,2,ok,ten,1,1,1,1\n",
            "raw.csv:3: column malloc_ns: 'ten' is not a number",
        ),
        ("100,1,ok,10,,1000,30,5\n", "raw.csv:2: column write_ns: empty, a number is required"),
        ("100,1,weird,10,1,1,1,1\n", "raw.csv:2: column status: unexpected 'weird'"),
    ],
)
def test_malformed_rows_name_file_and_line(tmp_path, body, message):
    with pytest.raises(RawDataError, match=message.replace("(", r"\(")):
        tidy_run(write(tmp_path, body), "local", "O2", "memory")


def test_wrong_header_and_missing_file(tmp_path):
    with pytest.raises(RawDataError, match=r"raw.csv:1: header"):
        tidy_run(write(tmp_path, "1,2\n", header="a,b\n"), "local", "O2", "memory")
    with pytest.raises(RawDataError, match="file not found"):
        tidy_run(tmp_path / "absent.csv", "local", "O2", "memory")


def test_schema_rejects_a_metric_without_its_unit():
    df = pd.DataFrame(
        [["local", "O2", "memory", 1, 1, "block_mib", 100.0, "write", 5.0, "ns", "ok"]],
        columns=TIDY_COLUMNS,
    )
    with pytest.raises(RawDataError, match="does not name its unit"):
        check_tidy(df)
    df.loc[0, "metric"] = "write_ns"
    df.loc[0, "value"] = math.nan
    with pytest.raises(RawDataError, match="successful trial has no value"):
        check_tidy(df)
