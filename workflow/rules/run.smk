# run: one experiment on one target and variant -> raw.csv (written row by row) + meta.json.
# One rule per target: its `bench_<name>` resource (1, registered in common.smk) means never two
# benchmark runs at once on the same machine, while different machines run at the same time.

for _t in TARGETS:

    rule:
        name:
            f"run_{_t}"
        input:
            program_outputs_of(_t),
        output:
            raw=f"results/{_t}/{{variant}}/{{experiment}}/raw.csv",
            meta=f"results/{_t}/{{variant}}/{{experiment}}/meta.json",
        params:
            target=target_json(_t),
            recipe=recipe_of(_t),
            experiment_params=params_json,
            out_dir=subpath(output.raw, parent=True),
            bin_dir=lambda w, output: str(Path(output.raw).parent.parent / "bin"),
        resources:
            **{f"bench_{_t}": 1},
        log:
            f"logs/run/{_t}/{{variant}}/{{experiment}}.log",
        shell:
            "python -m c18n_ae.run --target {params.target:q} --variant {wildcards.variant}"
            " --experiment {wildcards.experiment} --recipe {params.recipe:q}"
            " --params {params.experiment_params:q} --bin-dir {params.bin_dir}"
            " --out-dir {params.out_dir} --log {log}"

    rule:
        name:
            f"provenance_{_t}"
        output:
            f"results/{_t}/provenance.json",
        params:
            target=target_json(_t),
        log:
            f"logs/provenance/{_t}.log",
        shell:
            "python -m c18n_ae.provenance --target {params.target:q} --out {output} 2> {log}"
