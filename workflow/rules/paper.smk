# paper: latexmk over the hand-written sources and everything in paper/generated/.
# Only .tex/.bib edits or new generated files re-run it; nothing upstream re-runs.


rule paper:
    input:
        sources=PAPER_SOURCES,
        bib="paper/references.bib",
        generated=[
            "paper/generated/macros.tex",
            "paper/generated/tab-setup.tex",
            "paper/generated/tab-claims.tex",
            *expand("paper/generated/{kind}-{experiment}.tex", kind=("tab", "fig"), experiment=EXPERIMENTS),
            *expand("paper/generated/{experiment}-series.csv", experiment=EXPERIMENTS),
        ],
    output:
        "paper/main.pdf",
    log:
        "logs/paper.log",
    shell:
        "latexmk -pdf -cd -interaction=nonstopmode -halt-on-error -file-line-error paper/main.tex > {log} 2>&1"
        " || (tail -n 40 {log} >&2; exit 1)"
