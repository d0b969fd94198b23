# verdicts_and_findings: the paper's claims (config/claims.yaml) evaluated for every target and data
# set (results/claims.csv, .md, the appendix table), the headline table, the release comparison and
# the generated prose, in one process.


rule verdicts_and_findings:
    input:
        claims="config/claims.yaml",
        schema="workflow/schemas/claims.schema.yaml",
        code=code("c18n_ae.report.verdicts_and_findings", experiments=EXPERIMENTS),
        summaries=expand("results/summary/{experiment}.csv", experiment=EXPERIMENTS),
        comparisons=expand("results/comparisons/{experiment}.csv", experiment=EXPERIMENTS),
        tidy=expand("results/tidy/{experiment}.csv", experiment=EXPERIMENTS),
        datasets=DATASET_META,
    # the files of report.files; the command reads the experiments and data sets from the config
    output:
        csv=report(report_files.VERDICTS["csv"], category="claims", caption="../report/claims.rst"),
        **{k: v for k, v in report_files.VERDICTS.items() if k != "csv"},
    params:
        settings=settings([cfg.c18n_variants(config), EXPERIMENTS, config.get("datasets", [])]),
    log:
        "logs/verdicts_and_findings.log",
    benchmark:
        "logs/benchmarks/verdicts_and_findings.tsv",
    shell:
        f"python -m c18n_ae.report.verdicts_and_findings --config {CONFIG_FILES}"
        " --claims {input.claims:q} 2> {log:q}"


# published: the original study's tables beside our summaries for the same variant, with ratios
# (the experiments whose modules say how the study's rows read).
rule published:
    input:
        source="published/morello_c18n_2024.csv",
        code=code("c18n_ae.analysis.published", experiments=STUDY),
        summaries=expand("results/summary/{experiment}.csv", experiment=[e for e in STUDY if e in EXPERIMENTS]),
        tidy=expand("results/tidy/{experiment}.csv", experiment=[e for e in STUDY if e in EXPERIMENTS]),
    output:
        csv="results/published-beside-ours.csv",
        tex="paper/generated/tab-published.tex",
        macros="paper/generated/macros-published.tex",
    params:
        experiments=" ".join(e for e in STUDY if e in EXPERIMENTS),
        settings=settings(config.get("datasets", [])),
    log:
        "logs/published.log",
    benchmark:
        "logs/benchmarks/published.tsv",
    shell:
        f"python -m c18n_ae.analysis.published --config {CONFIG_FILES}"
        f" --experiments {shell_words(*(e for e in STUDY if e in EXPERIMENTS))}"
        " --source {input.source:q} --csv {output.csv:q} --tex {output.tex:q}"
        " --macros {output.macros:q} 2> {log:q}"


# related: one table per published study an experiment sits beside (its module's related pairs).
RELATED_RAN = [e for e in RELATED if e in EXPERIMENTS]


rule related:
    input:
        code=code("c18n_ae.report.related", experiments=RELATED),
        summaries=expand("results/summary/{experiment}.csv", experiment=[e for e in RELATED if e in EXPERIMENTS]),
        published=[published_of(e)[0] for e in RELATED],
    output:
        "paper/generated/tab-related.tex",
    params:
        experiments=" ".join(["--experiments", *RELATED_RAN]) if RELATED_RAN else "",
    log:
        "logs/related.log",
    benchmark:
        "logs/benchmarks/related.tsv",
    shell:
        f"python -m c18n_ae.report.related {shell_words('--experiments', *RELATED_RAN) if RELATED_RAN else ''}"
        " --out {output:q} 2> {log:q}"


# per_call: the extra time of one call into another library, from the data sets' calls per
# iteration (dataset.yaml calls) and the comparisons, beside E10's direct measurement
# (results/per_call.csv), and what the paper says of it: the abstract's first finding, Figure 1,
# its table and the paragraph beside Morello's published performance work.
rule per_call:
    input:
        code=code("c18n_ae.analysis.per_call", "c18n_ae.report.call_cost", experiments=EXPERIMENTS),
        comparisons=expand("results/comparisons/{experiment}.csv", experiment=EXPERIMENTS),
        summaries=expand("results/summary/{experiment}.csv", experiment=EXPERIMENTS),
        datasets=DATASET_META,
        published=report_files.PER_CALL["published"],
        reduction=report_files.PER_CALL["reduction"],
    # the files of report.files, which the commands write by default
    output:
        **{k: v for k, v in report_files.PER_CALL.items() if k not in ("published", "reduction")},
    params:
        settings=settings(config.get("datasets", [])),
    log:
        "logs/per_call.log",
    benchmark:
        "logs/benchmarks/per_call.tsv",
    shell:
        f"(python -m c18n_ae.analysis.per_call --config {CONFIG_FILES} --csv {{output.csv:q}}"
        f" && python -m c18n_ae.report.call_cost --config {CONFIG_FILES}) 2> {{log:q}}"
