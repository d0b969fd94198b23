# analyse: one experiment's runs and data set files -> tidy table, summary and comparisons, in one
# process (c18n_ae.analysis.analyse); each output is re-made when the experiment's module, the
# analysis code or the data change.


rule analyse:
    input:
        raw=lambda w: [f"{d}/raw.csv" for d in run_dirs(w.experiment)],
        meta=lambda w: [f"{d}/meta.json" for d in run_dirs(w.experiment)],
        code=lambda w: code("c18n_ae.analysis.analyse", experiments=[w.experiment]),
        dataset_files=lambda w: files_in(DATASET_FILES.get(w.experiment, [])),
        dataset_meta=DATASET_META,
    output:
        tidy="results/tidy/{experiment}.csv",
        summary=report("results/summary/{experiment}.csv", category="{experiment}", caption="../report/summary.rst"),
        comparisons="results/comparisons/{experiment}.csv",
    log:
        "logs/analyse/{experiment}.log",
    benchmark:
        "logs/benchmarks/analyse/{experiment}.tsv",
    params:
        # the command names the experiment; analyse reads the runs, data sets, references and
        # releases from the config (the inputs above list the files), so its length stays fixed
        settings=settings([cfg.references(config), config.get("datasets", [])]),
    shell:
        f"python -m c18n_ae.analysis.analyse --config {CONFIG_FILES} --experiment {{wildcards.experiment:q}}"
        " --tidy {output.tidy:q} --summary {output.summary:q} --comparisons {output.comparisons:q}"
        " 2> {log:q}"
