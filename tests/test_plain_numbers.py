"""A number in a CSV file is plain ASCII decimal or refused by file, line and column: Python's
float() and int() read 46_757, Arabic-Indic and full-width digits as 46757, a silent wrong
number (a typo, a locale's digits) no program of the study or of this package writes."""

import pytest

from c18n_ae.analysis.collect import tidy_run
from c18n_ae.analysis.imports import import_file
from c18n_ae.common.rawcsv import RawDataError, number

NOT_PLAIN = ["46_757", "٤٦٧٥٧", "４６７５７", "4\u0665757", "\u096a\u096c757", "nan", "Infinity"]


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_float_reads_it_but_the_reader_refuses_it(tmp_path, text):
    float(text)  # what the reader must not rely on: Python takes every one of these
    with pytest.raises(RawDataError, match=r"f.csv:3: column c: .* is not a plain ASCII decimal"):
        number(tmp_path / "f.csv", 3, "c", text)


@pytest.mark.parametrize("text", ["46757", "-1.5", "+2", ".5", "5.", "1e3", "2.5E-3", "-0"])
def test_plain_decimals_are_read(text):
    assert number("f.csv", 1, "c", text) == float(text)


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_a_study_file_names_file_line_and_column(tmp_path, text):
    path = tmp_path / "cpu.csv"
    path.write_text(f"TrialNum,Operation,CPU Time (ms)\n1,math,46757\n2,math,{text}\n3,int,9\n")
    with pytest.raises(RawDataError, match=r"cpu.csv:3: column CPU Time \(ms\): .* not a plain"):
        import_file(path)
    path.write_text(f"TrialNum,Operation,CPU Time (ms)\n{text},math,46757\n")
    with pytest.raises(RawDataError, match=r"cpu.csv:2: column TrialNum: .* not a plain"):
        import_file(path)


@pytest.mark.parametrize("text", NOT_PLAIN[:4])
def test_a_run_of_this_package_names_file_line_and_column(tmp_path, text):
    raw = tmp_path / "raw.csv"
    raw.write_text(
        "block_mib,trial,status,malloc_ns,write_ns,read_ns,free_ns,checksum\n"
        f"100,1,ok,10,2000,1000,30,5\n100,2,ok,10,{text},1000,30,5\n"
    )
    with pytest.raises(RawDataError, match=r"raw.csv:3: column write_ns: .* not a plain ASCII"):
        tidy_run(raw, "local", "O2", "memory")
