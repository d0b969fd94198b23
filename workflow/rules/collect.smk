# collect: every run of an experiment -> one tidy long table, schema-checked.


rule collect:
    input:
        raw=lambda w: [f"{d}/raw.csv" for d in run_dirs(w.experiment)],
        meta=lambda w: [f"{d}/meta.json" for d in run_dirs(w.experiment)],
        code="src/c18n_ae/experiments/{experiment}.py",
        dataset_files=lambda w: files_in(DATASET_FILES.get(w.experiment, [])),
        dataset_meta=DATASET_META,
    output:
        "results/tidy/{experiment}.csv",
    log:
        "logs/collect/{experiment}.log",
    params:
        dataset_files=lambda w: " ".join(f"--dataset-file {p}" for p in DATASET_FILES.get(w.experiment, [])),
    shell:
        "python -m c18n_ae.analysis.collect --experiment {wildcards.experiment} {params.dataset_files} --out {output}"
        " {input.raw} 2> {log}"
