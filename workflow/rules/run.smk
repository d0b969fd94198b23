# run: one run unit per target and experiment: the experiment's variants on that target, interleaved
# in a seeded order and resumed where a killed run stopped (c18n_ae.unit) -> each variant's raw.csv
# (written segment by segment) + meta.json. The target's `bench_<name>` resource (1, registered in
# common.smk) means never two benchmark runs at once on the same machine, while different machines
# run at the same time. One variant alone: give the experiment `variants: [name]` in a config file.

for _t in TARGETS:
    for _e in EXPERIMENTS:
        _vs = variants_of(_t, _e)
        if not _vs:
            continue

        rule:
            name:
                f"run_{_t}_{_e}"
            input:
                unit_inputs(_t, _e, _vs),
            output:
                raw=[f"results/{_t}/{v}/{_e}/raw.csv" for v in _vs],
                meta=[f"results/{_t}/{v}/{_e}/meta.json" for v in _vs],
            params:
                target=target_json(_t),
                recipes=json.dumps([cfg.variant(config, _t, v) for v in _vs]),
                experiment_params=json.dumps(config["experiments"][_e]),
                options=json.dumps(config.get("run", {})),
                experiment=_e,
            resources:
                **{f"bench_{_t}": 1},
            log:
                f"logs/run/{_t}/{_e}.log",
            shell:
                "python -m c18n_ae.run --target {params.target:q} --experiment {params.experiment}"
                " --recipes {params.recipes:q} --params {params.experiment_params:q} --options {params.options:q}"
                " --results results --log {log}"

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
