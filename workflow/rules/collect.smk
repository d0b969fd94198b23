# collect: every run of an experiment -> one tidy long table, schema-checked.


rule collect:
    input:
        raw=lambda w: [f"{d}/raw.csv" for d in run_dirs(w.experiment)],
        meta=lambda w: [f"{d}/meta.json" for d in run_dirs(w.experiment)],
        code="src/c18n_ae/exp/{experiment}.py",
        imported=lambda w: IMPORTED.get(w.experiment, []),
    output:
        "results/tidy/{experiment}.csv",
    log:
        "logs/collect/{experiment}.log",
    params:
        imported=lambda w, input: " ".join(f"--imported {p}" for p in input.imported),
    shell:
        "python -m c18n_ae.collect --experiment {wildcards.experiment} {params.imported} --out {output}"
        " {input.raw} 2> {log}"
