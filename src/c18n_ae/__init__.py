"""c18n-ae: the code the Snakemake rules call, testable without Snakemake."""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
