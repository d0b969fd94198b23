# summarise: tidy table -> statistics per target, variant, parameter value and metric.


rule summarise:
    input:
        "results/tidy/{experiment}.csv",
    output:
        "results/summary/{experiment}.csv",
    log:
        "logs/summarise/{experiment}.log",
    shell:
        "python -m c18n_ae.summarise --tidy {input} --out {output} 2> {log}"


rule memory:
    input:
        "results/summary/memory.csv",
        "results/plots/memory.pdf",
        "paper/generated/tab-memory.tex",
