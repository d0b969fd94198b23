"""One convention for sizes in the paper's own text: binary units (MiB, GiB), as the programs
allocate them; a decimal MB or GB appears only inside a quotation of the study (``...''), whose
unit the artifact appendix's Metrics item explains once."""

import re

from conftest import ROOT

SECTIONS = sorted((ROOT / "paper" / "sections").glob("*.tex"))
DECIMAL = re.compile(r"(?<![A-Za-z])[MG]B(?![A-Za-z/])")  # MB or GB, not GB/s (a rate)


def unquoted(text: str) -> str:
    """The text without its quotations (``...'') and comments."""
    text = "\n".join(
        line.split("%", 1)[0] if "\\%" not in line else line for line in text.splitlines()
    )
    return re.sub(r"``.*?''", "", text, flags=re.S)


def test_sizes_print_in_binary_units_outside_the_studys_quotations():
    found = [
        (p.name, m.group(0), unquoted(p.read_text())[max(0, m.start() - 30) : m.end() + 10])
        for p in SECTIONS
        for m in DECIMAL.finditer(unquoted(p.read_text()))
    ]
    assert found == [], found


def test_the_convention_is_said_once():
    said = [p.name for p in SECTIONS if "keeps its own unit" in p.read_text()]
    assert said == ["appendix.tex"]
