# claims: the paper's claims (config/claims.yaml) evaluated on the summaries for every target;
# a table for the paper's appendix, a CSV, and results/claims.md (the reviewer's own verdicts).


rule claims:
    input:
        claims="config/claims.yaml",
        schema="workflow/schemas/claims.schema.yaml",
        code="src/c18n_ae/analysis/claims.py",
        summaries=expand("results/summary/{experiment}.csv", experiment=EXPERIMENTS),
        comparisons=expand("results/comparisons/{experiment}.csv", experiment=EXPERIMENTS),
        tidy=expand("results/tidy/{experiment}.csv", experiment=EXPERIMENTS),
        datasets=DATASET_META,
    output:
        csv=report("results/claims.csv", category="claims", caption="../report/claims.rst"),
    params:
        settings=settings(cfg.c18n_variants(config)),
        experiments=" ".join(EXPERIMENTS),
    log:
        "logs/claims.log",
    shell:
        f"python -m c18n_ae.analysis.claims --config {CONFIG_FILES} --claims {{input.claims}}"
        " --experiments {params.experiments} --csv {output.csv} 2> {log}"


rule claim_tables:
    input:
        claims="results/claims.csv",
        code="src/c18n_ae/report/claim_tables.py",
    output:
        tex="paper/generated/tab-claims.tex",
        markdown="results/claims.md",
    params:
        releases=" ".join(f"--release {d}" for d in config.get("datasets", [])),
    log:
        "logs/claim_tables.log",
    shell:
        "python -m c18n_ae.report.claim_tables --claims {input.claims} --tex {output.tex}"
        " --markdown {output.markdown} {params.releases} 2> {log}"


# published: the original study's tables beside our summaries for the same variant, with ratios.
rule published:
    input:
        source="results/published/morello_c18n_2024.csv",
        code="src/c18n_ae/analysis/published.py",
        summaries=expand("results/summary/{experiment}.csv", experiment=[e for e in ("memory", "cpu", "pipe") if e in EXPERIMENTS]),
        tidy=expand("results/tidy/{experiment}.csv", experiment=[e for e in ("memory", "cpu", "pipe") if e in EXPERIMENTS]),
    output:
        csv="results/published-beside-ours.csv",
        tex="paper/generated/tab-published.tex",
        macros="paper/generated/macros-published.tex",
    params:
        experiments=" ".join(e for e in ("memory", "cpu", "pipe") if e in EXPERIMENTS),
        settings=settings(config.get("datasets", [])),
    log:
        "logs/published.log",
    shell:
        f"python -m c18n_ae.analysis.published --config {CONFIG_FILES} --experiments {{params.experiments}}"
        " --csv {output.csv} --tex {output.tex} --macros {output.macros} 2> {log}"


# related: one table per published study beside our E7 to E9.
rule related:
    input:
        code="src/c18n_ae/report/related.py",
        summaries=expand("results/summary/{experiment}.csv", experiment=[e for e in ("packet", "ipc", "alloc") if e in EXPERIMENTS]),
    output:
        "paper/generated/tab-related.tex",
    params:
        summaries=" ".join(f"--summary {e}=results/summary/{e}.csv" for e in ("packet", "ipc", "alloc") if e in EXPERIMENTS),
    log:
        "logs/related.log",
    shell:
        "python -m c18n_ae.report.related {params.summaries} --out {output} 2> {log}"
