# run: one run unit per target and experiment: the experiment's variants on that target, interleaved
# in a seeded order and resumed where a killed run stopped (c18n_ae.running.unit) -> each variant's raw.csv
# (written segment by segment) + meta.json. The target's `bench_<name>` resource (1, registered in
# wiring.smk) means never two benchmark runs at once on the same machine, while different machines
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
                target=_t,
                variants=" ".join(_vs),  # the runner reads them from the config; a change re-runs
                settings=settings([recipe(cfg.target(config, _t)), config["experiments"][_e], config.get("run", {})]),
                experiment=_e,
            resources:
                **{f"bench_{_t}": 1},
            log:
                f"logs/run/{_t}/{_e}.log",
            benchmark:
                f"logs/benchmarks/run_{_t}_{_e}.tsv",
            shell:
                f"python -m c18n_ae.running.run --config {CONFIG_FILES} --target {{params.target:q}}"
                " --experiment {params.experiment:q} --log {log:q}"

    rule:
        name:
            f"provenance_{_t}"
        output:
            f"results/{_t}/provenance.json",
        params:
            target=_t,
            settings=settings(recipe(cfg.target(config, _t))),
        log:
            f"logs/provenance/{_t}.log",
        benchmark:
            f"logs/benchmarks/provenance_{_t}.tsv",
        shell:
            f"python -m c18n_ae.targets.provenance --config {CONFIG_FILES} --target {{params.target:q}}"
            " --out {output:q} 2> {log:q}"
