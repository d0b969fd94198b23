"""c18n-ae: the code the Snakemake rules call, testable without Snakemake."""

from pathlib import Path


def _project_root() -> Path:
    """The project a command runs in (the folder with Snakefile and src/c18n_ae at or above the
    working directory, as for every rule), else the checkout this package was installed from."""
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / "Snakefile").is_file() and (d / "src" / "c18n_ae").is_dir():
            return d
    return Path(__file__).resolve().parents[2]


PROJECT_ROOT = _project_root()
