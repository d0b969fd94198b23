# run: one experiment on one target and variant -> raw.csv (written row by row) + meta.json.
# bench_slot (profiles/default) keeps two benchmarks from disturbing each other.


rule run:
    input:
        program_outputs,
    output:
        raw="results/{target}/{variant}/{experiment}/raw.csv",
        meta="results/{target}/{variant}/{experiment}/meta.json",
    params:
        recipe=recipe_json,
        experiment_params=params_json,
        out_dir=subpath(output.raw, parent=True),
        bin_dir=lambda w: f"results/{w.target}/{w.variant}/bin",
    resources:
        bench_slot=1,
    log:
        "logs/run/{target}/{variant}/{experiment}.log",
    shell:
        "python -m c18n_ae.run --target {wildcards.target} --variant {wildcards.variant}"
        " --experiment {wildcards.experiment} --recipe {params.recipe:q}"
        " --params {params.experiment_params:q} --bin-dir {params.bin_dir}"
        " --out-dir {params.out_dir} --log {log}"
