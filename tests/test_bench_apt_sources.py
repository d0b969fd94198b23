"""bench/fidelity's private apt sources come from the machine's own, with non-free added."""

import importlib.util

from conftest import ROOT

spec = importlib.util.spec_from_file_location(
    "apt_sources", ROOT / "bench" / "apt_sources_with_nonfree.py"
)
apt_sources = importlib.util.module_from_spec(spec)
spec.loader.exec_module(apt_sources)


def test_deb822_and_one_line_sources_gain_non_free(tmp_path):
    d822 = tmp_path / "debian.sources"
    d822.write_text(
        "Types: deb\n# a comment\nURIs: http://mirror.invalid/debian\nSuites: bookworm "
        "bookworm-updates\n"
        "Components: main\nSigned-By: /usr/share/keyrings/k.gpg\n\n"
        "Types: deb-src\nURIs: http://mirror.invalid/debian\nSuites: bookworm\nComponents: main\n"
    )
    assert apt_sources.deb822(str(d822)) == [
        "deb [signed-by=/usr/share/keyrings/k.gpg] http://mirror.invalid/debian bookworm main "
        "non-free",
        "deb [signed-by=/usr/share/keyrings/k.gpg] http://mirror.invalid/debian bookworm-updates "
        "main non-free",
    ]
    one = tmp_path / "sources.list"
    one.write_text(
        "deb http://mirror.invalid/debian bookworm main contrib # x\ndeb-src http://a b c\n"
        "deb http://mirror.invalid/debian bookworm main non-free\n"
    )
    assert apt_sources.one_line(str(one)) == [
        "deb http://mirror.invalid/debian bookworm main contrib non-free",
        "deb http://mirror.invalid/debian bookworm main non-free",
    ]


def test_no_package_server_is_named_in_bench_or_setup():
    for path in [*(ROOT / "bench").iterdir(), *(ROOT / "artifact").iterdir()]:
        if path.is_file():
            assert "deb.debian.org" not in path.read_text(errors="replace"), path
