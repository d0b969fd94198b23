# c18n-ae: build -> run -> collect -> summarise -> plot/tables/macros -> paper.
# Thin on purpose: configuration and one rule file per stage; the logic is in src/c18n_ae.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


include: "workflow/rules/wiring.smk"
include: "workflow/rules/build.smk"
include: "workflow/rules/run.smk"
include: "workflow/rules/collect.smk"
include: "workflow/rules/summarise.smk"
include: "workflow/rules/plot.smk"
include: "workflow/rules/claims.smk"
include: "workflow/rules/paper.smk"


rule all:
    default_target: True
    input:
        "paper/main.pdf",
        "results/claims.md",
        "results/comparisons.csv",
        measured(*EXPERIMENTS),
