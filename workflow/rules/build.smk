# build: one binary or shared library per program, target and variant, with a build.json of how.


rule build:
    input:
        build_inputs,
    output:
        binary="results/{target}/{variant}/bin/{output}",
        info="results/{target}/{variant}/bin/{output}.build.json",
    params:
        recipe=recipe_json,
        program=lambda w: programs.by_output(w.output).name,
        bin_dir=subpath(output.binary, parent=True),
    log:
        "logs/build/{target}/{variant}/{output}.log",
    shell:
        "python -m c18n_ae.build --target {wildcards.target} --recipe {params.recipe:q}"
        " --program {params.program} --source-dir src/benchmarks --bin-dir {params.bin_dir} 2> {log}"
