# plot: previews and pgfplots sources, booktabs tables and the macros file the paper reads.


OUTPUTS_OF_EXPERIMENT = report_files.experiment_outputs("{experiment}")


# One experiment's table and figure, made as data by its module and rendered once (booktabs,
# pgfplots with its points, matplotlib preview), in one process.
rule experiment_outputs:
    input:
        summary="results/summary/{experiment}.csv",
        tidy="results/tidy/{experiment}.csv",
        comparisons="results/comparisons/{experiment}.csv",
        published=lambda w: published_of(w.experiment),
        code=lambda w: code("c18n_ae.report.experiment_outputs", experiments=[w.experiment]),
        datasets=DATASET_META,
        claims="config/claims.yaml",  # its min_trials: a table states no ratio from fewer trials
    # the files of report.files, where the command writes them; the figure and the full table
    # (which the PDF lists, not prints) in the HTML report
    output:
        **{k: v for k, v in OUTPUTS_OF_EXPERIMENT.items() if k not in ("pdf", "html")},
        pdf=report(OUTPUTS_OF_EXPERIMENT["pdf"], category="{experiment}", caption="../report/figure.rst"),
        html=report(OUTPUTS_OF_EXPERIMENT["html"], category="{experiment}", caption="../report/table.rst"),
    params:
        settings=settings(cfg.references(config)),
    log:
        "logs/plot/{experiment}.log",
    benchmark:
        "logs/benchmarks/experiment_outputs/{experiment}.tsv",
    shell:
        f"python -m c18n_ae.report.experiment_outputs --config {CONFIG_FILES}"
        " --experiment {wildcards.experiment:q} --claims {input.claims:q} 2> {log:q}"


rule table_setup:
    input:
        provenance=[f"results/{t}/provenance.json" for t in targets_that_run()],
        meta=all_metas(),
        datasets=DATASET_META,
        code=code("c18n_ae.report.setup_table", experiments=EXPERIMENTS),
    output:
        tex="paper/generated/tab-setup.tex",
        # every build in full, which the paper's table shortens to compiler and level
        csv=report("results/setup.csv", category="setup", caption="../report/setup.rst"),
    log:
        "logs/tables/setup.log",
    benchmark:
        "logs/benchmarks/table_setup.tsv",
    shell:
        f"python -m c18n_ae.report.setup_table --config {CONFIG_FILES} --out {{output.tex:q}}"
        " --csv {output.csv:q} 2> {log:q}"


rule macros:
    input:
        summaries=expand("results/summary/{experiment}.csv", experiment=EXPERIMENTS),
        claims="config/claims.yaml",
        meta=all_metas(),
        code=code("c18n_ae.report.macros", experiments=EXPERIMENTS),
    output:
        "paper/generated/macros.tex",
    params:
        experiments=" ".join(EXPERIMENTS),
        settings=settings([cfg.references(config), config.get("doi")]),
    log:
        "logs/macros.log",
    benchmark:
        "logs/benchmarks/macros.tsv",
    shell:
        f"python -m c18n_ae.report.macros --config {CONFIG_FILES} --experiments {shell_words(*EXPERIMENTS)}"
        " --claims {input.claims:q} --out {output:q} 2> {log:q}"


