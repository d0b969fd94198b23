# paper: latexmk over the hand-written sources and everything in paper/generated/.
# Only .tex/.bib edits or new generated files re-run it; nothing upstream re-runs.


rule paper:
    input:
        sources=PAPER_SOURCES,
        bib="paper/references.bib",
        generated=[
            "paper/generated/macros.tex",
            "paper/generated/findings.tex",
            "paper/generated/per-call.tex",
            "paper/generated/tab-per-call.tex",
            "paper/generated/fig-per-call.tex",
            "paper/generated/tab-setup.tex",
            "paper/generated/tab-claims.tex",
            "paper/generated/tab-headline.tex",
            "paper/generated/tab-headline-confounded.tex",
            "paper/generated/tab-releases.tex",
            "paper/generated/releases.tex",
            "paper/generated/tab-published.tex",
            "paper/generated/tab-spread.tex",
            "paper/generated/tab-related.tex",
            "paper/generated/macros-published.tex",
            "paper/generated/tab-numbers.tex",
            *expand("paper/generated/{kind}-{experiment}.tex", kind=("tab", "fig"), experiment=EXPERIMENTS),
            *expand("paper/generated/{experiment}-series.csv", experiment=EXPERIMENTS),
        ],
    output:
        "paper/main.pdf",
    log:
        "logs/paper.log",
    benchmark:
        "logs/benchmarks/paper.tsv",
    shell:
        "latexmk -pdf -cd -interaction=nonstopmode -halt-on-error -file-line-error paper/main.tex > {log:q} 2>&1"
        " || (tail -n 40 {log:q} >&2; exit 1)"


# numbers: every generated value with the file, row and rule it comes from (results/numbers.csv,
# also in the HTML report) and the appendix's paragraph that each \gen of the paper links to.
NUMBERS_FROM = ((rules.macros, 0), (rules.published, "macros"))  # the macro files and their rules


rule numbers:
    input:
        macros=[rules.macros.output[0], rules.published.output.macros],
        code=code("c18n_ae.report.numbers"),
    output:
        csv=report("results/numbers.csv", category="numbers", caption="../report/numbers.rst"),
        tex="paper/generated/tab-numbers.tex",
    params:
        written_by=" ".join(f"{r.output[k]}={r.rule.name}" for r, k in NUMBERS_FROM),
    log:
        "logs/numbers.log",
    benchmark:
        "logs/benchmarks/numbers.tsv",
    shell:
        "python -m c18n_ae.report.numbers --macros"
        f" {shell_words(*(f'{r.output[k]}={r.rule.name}' for r, k in NUMBERS_FROM))}"
        " --csv {output.csv:q} --tex {output.tex:q} 2> {log:q}"


# archive: the deposit (c18n_ae.report.archive): tracked sources, data sets, the deposit's metadata,
# raw results and the PDF in one tarball, with SHA256SUMS listing every member.
rule archive:
    input:
        "paper/main.pdf",
        "results/claims.csv",
        "results/claims.md",
        all_metas(),
        [f for f in ("LICENSE", "CITATION.cff", ".zenodo.json") if Path(f).exists()],
        code("c18n_ae.report.archive"),
    output:
        tarball="archive/c18n-ae.tar.gz",
        sums="archive/SHA256SUMS",
    log:
        "logs/archive.log",
    benchmark:
        "logs/benchmarks/archive.tsv",
    shell:
        "python -m c18n_ae.report.archive --out {output.tarball:q} --sums {output.sums:q} > {log:q} 2>&1"
