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
            target=target_json(_t),
            recipe=recipe_of(_t),
            program=lambda w: programs.by_output(w.output).name,
            bin_dir=subpath(output.binary, parent=True),
        resources:
            **{f"bench_{_t}": 1},
        log:
            f"logs/build/{_t}/{{variant}}/{{output}}.log",
        shell:
            "python -m c18n_ae.build --target {params.target:q} --recipe {params.recipe:q}"
            " --program {params.program} --source-dir src/benchmarks --bin-dir {params.bin_dir} 2> {log}"
