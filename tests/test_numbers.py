"""results/numbers.csv and the appendix's list read each generated value with the file, row and
rule it comes from, from the macros files as the writers leave them."""

import pandas as pd

from c18n_ae.common.latex import from_file, newcommand
from c18n_ae.experiments.rows import quote
from c18n_ae.report.numbers import appendix, main, read


def test_each_value_keeps_its_file_key_and_rule(tmp_path):
    summary = pd.DataFrame(
        [["local", "O2", "block_mib", 64, "write_ns", 2.5e6, 2.4e6]],
        columns=["source", "variant", "parameter", "parameter_value", "metric", "mean", "median"],
    )
    text = (
        from_file("results/summary/memory.csv")
        + quote(summary, "Mem", [("write ms", "write_ns")], 64, 1e6)
        + newcommand("RanOnLocalOTwo", "")
        + from_file("config/claims.yaml")
        + newcommand("ClaimMinTrials", "10", "min_trials")
        + newcommand("Words", r"was \emph{not}")
        + newcommand("ExhaustiveTables", r"\IfRan{memory}{\input{generated/tab-memory.tex}}{}")
    )
    macros = tmp_path / "macros.tex"
    macros.write_text("% Generated; do not edit.\n" + text)
    rows = {r["name"]: r for r in read(macros, "macros")}
    write = rows["MemWriteMsLocalOTwo"]
    assert write["value"] == "2.50" and write["file"] == "results/summary/memory.csv"
    assert write["key"] == (
        "source=local; variant=O2; metric=write_ns; block_mib=64; column=mean; divided by 1e+06"
    )
    assert rows["ClaimMinTrials"] | {"macros_file": ""} == {
        "name": "ClaimMinTrials", "value": "10", "file": "config/claims.yaml",
        "key": "min_trials", "rule": "macros", "macros_file": "",
    }  # fmt: skip
    assert rows["Words"]["value"] == r"was \emph{not}"
    csv, tex = tmp_path / "numbers.csv", tmp_path / "tab-numbers.tex"
    main(["--macros", f"{macros}=macros", "--csv", str(csv), "--tex", str(tex)])
    assert len(pd.read_csv(csv)) == 5  # every name, also a flag and LaTeX structure
    said = tex.read_text()
    # the PDF's paragraph, which every \gen links to: where the list is, and each file the values
    # come from with its rule and count; no value or name (those take pages: the CSV keeps them)
    assert r"\hypertarget{gen:numbers}" in said and r"\texttt{results/numbers.csv}" in said
    assert "lists all 5 generated names" in said
    assert r"\texttt{results/\allowbreak{}summary/\allowbreak{}memory.csv} (rule" in said
    assert r"memory.csv} (rule \texttt{macros}, 2)" in said  # file names break after a slash
    assert r"\texttt{config/\allowbreak{}claims.yaml} (rule \texttt{macros}, 3)" in said
    assert "MemWriteMsLocalOTwo" not in said and "2.50" not in said
    # the figures per call print as prose, not names: the paragraph says which file holds them
    # (A221 looked for the headline's figures in numbers.csv)
    assert r"not among these names: \texttt{results/per\_call.csv} holds them" in said
    assert said == appendix(pd.read_csv(csv, dtype=str, keep_default_na=False).to_dict("records"))
