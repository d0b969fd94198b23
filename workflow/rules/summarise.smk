# summarise: tidy table -> statistics per target, variant, parameter value and metric.


rule summarise:
    input:
        tidy="results/tidy/{experiment}.csv",
        code="src/c18n_ae/exp/{experiment}.py",
    output:
        report("results/summary/{experiment}.csv", category="{experiment}", caption="../report/summary.rst"),
    log:
        "logs/summarise/{experiment}.log",
    shell:
        "python -m c18n_ae.summarise --tidy {input.tidy} --out {output} 2> {log}"


# One target per experiment: `snakemake --cores 1 memory` runs, summarises and draws E2 alone.
for _name in exps.NAMES:

    rule:
        name:
            _name
        input:
            f"results/summary/{_name}.csv",
            f"results/plots/{_name}.pdf",
            f"paper/generated/tab-{_name}.tex",
