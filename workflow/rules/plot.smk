# plot: previews and pgfplots sources, booktabs tables and the macros file the paper reads.


rule plot_memory:
    input:
        "results/summary/memory.csv",
    output:
        pdf=report("results/plots/memory.pdf", category="E2 memory", caption="../report/memory.rst"),
        png="results/plots/memory.png",
        pgfplots="paper/generated/fig-memory.tex",
        series="paper/generated/memory-series.csv",
    log:
        "logs/plot/memory.log",
    shell:
        "python -m c18n_ae.plot --summary {input} --pdf {output.pdf} --png {output.png}"
        " --pgfplots {output.pgfplots} --series {output.series} --paper-dir paper 2> {log}"


rule table_memory:
    input:
        "results/summary/memory.csv",
    output:
        "paper/generated/tab-memory.tex",
    log:
        "logs/tables/memory.log",
    shell:
        "python -m c18n_ae.tables memory --summary {input} --out {output} 2> {log}"


rule table_setup:
    input:
        meta=lambda w: [f"{d}/meta.json" for e in EXPERIMENTS for d in run_dirs(e)],
    output:
        "paper/generated/tab-setup.tex",
    log:
        "logs/tables/setup.log",
    shell:
        "python -m c18n_ae.tables setup --out {output} {input.meta} 2> {log}"


rule macros:
    input:
        memory="results/summary/memory.csv",
        meta=lambda w: [f"{d}/meta.json" for e in EXPERIMENTS for d in run_dirs(e)],
    output:
        "paper/generated/macros.tex",
    params:
        references=" ".join(f"--reference {t['name']}={t['reference_variant']}" for t in config["targets"]),
    log:
        "logs/macros.log",
    shell:
        "python -m c18n_ae.macros --memory-summary {input.memory} {params.references} --out {output} {input.meta} 2> {log}"
