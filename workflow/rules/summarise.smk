# summaries beyond one experiment: spread between machines, all comparisons in one file.


# One target per experiment: `snakemake --cores 1 memory` runs, summarises and draws E2 alone.
for _name in exps.names():

    rule:
        name:
            _name
        input:
            f"results/summary/{_name}.csv",
            f"results/plots/{_name}.pdf",
            f"paper/generated/tab-{_name}.tex",
            measured(_name) if _name in EXPERIMENTS else [],


# spread between boards: every variant that ran on two or more targets, per metric.
rule spread:
    input:
        code=code("c18n_ae.analysis.spread", experiments=EXPERIMENTS),
        summaries=expand("results/summary/{experiment}.csv", experiment=EXPERIMENTS),
    output:
        csv="results/summary/spread-between-targets.csv",
        tex="paper/generated/tab-spread.tex",
    params:
        experiments=" ".join(EXPERIMENTS),
        settings=settings(config.get("datasets", [])),  # the data sets it leaves out
    log:
        "logs/spread.log",
    benchmark:
        "logs/benchmarks/spread.tsv",
    shell:
        f"python -m c18n_ae.analysis.spread --config {CONFIG_FILES} --experiments {shell_words(*EXPERIMENTS)}"
        " --csv {output.csv:q} --tex {output.tex:q} 2> {log:q}"


# comparisons: every experiment's comparisons in one file (made by the analyse rule).
rule comparisons_all:
    input:
        comparisons=expand("results/comparisons/{experiment}.csv", experiment=EXPERIMENTS),
        code=code("c18n_ae.analysis.comparisons", experiments=EXPERIMENTS),
    output:
        report("results/comparisons.csv", category="comparisons", caption="../report/comparisons.rst"),
    params:
        experiments=" ".join(EXPERIMENTS),
    log:
        "logs/comparisons/all.log",
    benchmark:
        "logs/benchmarks/comparisons_all.tsv",
    shell:
        f"python -m c18n_ae.analysis.comparisons --experiments {shell_words(*EXPERIMENTS)}"
        " --out {output:q} 2> {log:q}"
