# build: one binary per benchmark, target and variant, with a build.json of how it was made.


rule build:
    input:
        source="src/benchmarks/{bench}.c",
        header="src/benchmarks/bench.h",
    output:
        binary="results/{target}/{variant}/bin/{bench}",
        info="results/{target}/{variant}/bin/{bench}.build.json",
    params:
        recipe=recipe_json,
    log:
        "logs/build/{target}/{variant}/{bench}.log",
    shell:
        "python -m c18n_ae.build --target {wildcards.target} --recipe {params.recipe:q} --source {input.source}"
        " --out {output.binary} --info {output.info} 2> {log}"
