# build: one binary or shared library per program, target and variant, with a build.json of how.
# SSH targets compile on the target itself. One rule per target, so that the target's `bench_<name>`
# resource keeps a build from running beside a benchmark on the same machine.

for _t in TARGETS:

    rule:
        name:
            f"build_{_t}"
        input:
            build_inputs_of(_t),
        output:
            binary=f"results/{_t}/{{variant}}/bin/{{output}}",
            info=f"results/{_t}/{{variant}}/bin/{{output}}.build.json",
        params:
            target=_t,
            settings=lambda w, _t=_t: settings([cfg.target(config, _t).get("host"),
                                                recipe(cfg.variant(config, _t, w.variant))]),
            program=lambda w: programs.by_output(w.output).name,
        resources:
            **{f"bench_{_t}": 1},
        log:
            f"logs/build/{_t}/{{variant}}/{{output}}.log",
        benchmark:
            f"logs/benchmarks/build_{_t}/{{variant}}/{{output}}.tsv",
        shell:
            f"python -m c18n_ae.running.build --config {CONFIG_FILES} --target {{params.target:q}}"
            " --variant {wildcards.variant:q} --program {params.program:q} 2> {log:q}"
