"""Impossible rows refused: a duration below zero, a key (setting, trial) that appears twice and
an E1 instance count that does not rise stop the reading of a data set's file or a run with file
and line, unless the data set declares the row and what to do with it."""

import shutil

import pytest
import yaml

from c18n_ae.analysis.collect import collect, tidy_run
from c18n_ae.analysis.imports import dataset_files
from c18n_ae.common import datasets
from c18n_ae.common.rawcsv import RawDataError
from conftest import ROOT


@pytest.fixture
def dataset(tmp_path):
    d = tmp_path / "morello-2024"
    shutil.copytree(ROOT / "datasets" / "morello-2024", d)
    return d


def edit_line(path, number, change):
    lines = path.read_text().split("\n")
    lines[number - 1] = change(lines[number - 1])
    path.write_text("\n".join(lines))


def declare(d, *rows):
    meta = yaml.safe_load((d / "dataset.yaml").read_text())
    meta["declared_rows"] = list(rows)
    (d / "dataset.yaml").write_text(yaml.safe_dump(meta, sort_keys=False))


def negative_allocation(d):
    f = d / "memory" / "hybrid.csv"
    assert f.read_text().split("\n")[4].startswith("100,4,")  # line 5: block 100, trial 4
    edit_line(f, 5, lambda line: line.replace(",0.001,", ",-0.001,", 1))
    return f


def test_a_negative_allocation_time_stops_with_file_and_line(dataset):
    f = negative_allocation(dataset)
    with pytest.raises(RawDataError) as e:
        collect("memory", [], [f])
    assert str(e.value).startswith(f"{f}:5: a duration below zero (-1000)")
    assert "declared_rows" in str(e.value)


def test_a_duplicated_trial_row_stops_at_its_second_line(dataset):
    f = dataset / "memory" / "hybrid.csv"
    edit_line(f, 3, lambda line: line + "\n" + line)  # trial 2 again, as line 4
    with pytest.raises(RawDataError, match=rf"{f}:4: a key that appears on an earlier line too"):
        collect("memory", [], [f])


def test_an_instance_count_that_does_not_rise_stops(dataset):
    f = dataset / "compartments" / "purecap-c18n.csv"
    lines = f.read_text().split("\n")
    lines[2], lines[3] = lines[3], lines[2]  # instances 1, 3, 2, 4, ...
    f.write_text("\n".join(lines))
    with pytest.raises(RawDataError, match=rf"{f}:4: instances 2 does not rise from 3"):
        collect("scale", [], [f])


@pytest.mark.parametrize("treatment", ["kept", "marked", "excluded"])
def test_a_declared_row_is_kept_marked_or_left_out(dataset, treatment):
    f = negative_allocation(dataset)
    why = "as the study's file records it"
    declare(dataset, {"file": "memory/hybrid.csv", "line": 5, "why": why, "treatment": treatment})
    tidy = collect("memory", [], [f])
    trial4 = tidy[(tidy.variant == "hybrid") & (tidy.trial == 4) & (tidy.parameter_value == 100)]
    if treatment == "excluded":
        assert trial4.empty and len(tidy) == 4000 - 4
    else:
        assert len(trial4) == 4
        malloc = trial4[trial4.metric == "malloc_ns"].iloc[0]
        assert malloc.value == -1000
        assert set(trial4.status) == ({"declared"} if treatment == "marked" else {"ok"})


def test_a_declared_row_that_is_not_impossible_is_refused(dataset):
    f = dataset / "memory" / "hybrid.csv"
    declare(dataset, {"file": "memory/hybrid.csv", "line": 6, "why": "x", "treatment": "kept"})
    with pytest.raises(RawDataError, match=rf"{f}:6: declared under declared_rows, but nothing"):
        collect("memory", [], [f])


def test_the_shipped_data_sets_have_no_impossible_row():
    for name in ("morello-2024", "cheribsd-22.12"):
        meta = datasets.load(name)
        assert "declared_rows" not in meta  # so every file below is read with nothing declared
        by_experiment = {}
        for experiment, _, path in dataset_files(meta):
            by_experiment.setdefault(experiment, []).append(path)
        for experiment, paths in by_experiment.items():
            assert len(collect(experiment, [], paths)) > 0


RAW = "block_mib,trial,status,malloc_ns,write_ns,read_ns,free_ns,checksum\n"


@pytest.mark.parametrize(
    "body, message",
    [
        ("100,1,ok,10,20,10,3,5\n100,2,ok,-7,20,10,3,5\n", "raw.csv:3: a duration below zero"),
        (
            "100,1,ok,10,20,10,3,5\n100,2,ok,10,20,10,3,5\n100,2,ok,11,20,10,3,5\n",
            "raw.csv:4: a key that appears on an earlier line too",
        ),
    ],
)
def test_a_run_with_an_impossible_row_stops_with_file_and_line(tmp_path, body, message):
    raw = tmp_path / "raw.csv"
    raw.write_text(RAW + body)
    with pytest.raises(RawDataError, match=message):
        tidy_run(raw, "local", "O2", "memory")
