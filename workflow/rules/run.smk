# run: one experiment on one target and variant -> raw.csv (written row by row) + meta.json.
# bench_slot (profiles/default) keeps two benchmarks from disturbing each other.


rule run:
    input:
        binary=lambda w: f"results/{w.target}/{w.variant}/bin/{benchmark_of(w)}",
    output:
        raw="results/{target}/{variant}/{experiment}/raw.csv",
        meta="results/{target}/{variant}/{experiment}/meta.json",
    params:
        recipe=recipe_json,
        experiment_params=params_json,
        out_dir=subpath(output.raw, parent=True),
    resources:
        bench_slot=1,
    log:
        "logs/run/{target}/{variant}/{experiment}.log",
    shell:
        "python -m c18n_ae.run --target {wildcards.target} --variant {wildcards.variant}"
        " --experiment {wildcards.experiment} --recipe {params.recipe:q}"
        " --params {params.experiment_params:q} --binary {input.binary}"
        " --out-dir {params.out_dir} --log {log}"
