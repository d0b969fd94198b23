"""The conclusion's findings: per data set or target, short sentences with the range of what a
compartment costs (calls into another library, work in the program's own code), what the contrast
differs in, and the claims' tally (claim_tables.tally_sentence, as in the abstract and the claims
table). A summary of the headline table (results/headline.csv) and the verdicts
(results/claims.csv): each point estimate as Table 1 prints it, none that Table 1 withholds, each
range's ends named."""

from __future__ import annotations

import re

import pandas as pd

from c18n_ae.common.latex import comparison_text, covers_words, escape, listed
from c18n_ae.report.claim_tables import tally_sentence
from c18n_ae.report.headline import is_confounded, rests_on_few
from c18n_ae.report.provenance import covers

# the point estimate at the start of Table 1's cell ('1.08× ⟨1.06, 1.09⟩'), or in parentheses
# where a few ticks print first ('1.6 → 3.0 µs (1.9×)'); a range ('4.2–130×') has none
POINT = re.compile(r"(?:^|ratio |\()([0-9.]+\$\\times\$)")


def _table_cell(r) -> str:
    """The row's ratio as Table 1's cell prints it: the mean, the median where a few trials carry
    the mean."""
    return comparison_text(r, "median" if rests_on_few(r) else "mean", covers=False)


def point(r) -> str:
    """The row's ratio as Table 1 prints it, without its interval ('1.08×'); '' where Table 1
    gives no point estimate ('no detectable difference', 'ratio between 4.2 and 130')."""
    found = POINT.search(_table_cell(r))
    return found.group(1) if found else ""


def _no_point(r) -> str:
    """What Table 1 says of a row it gives no point estimate."""
    text = _table_cell(r)
    return "no detectable difference" if "no detectable" in text else "no point estimate"


def _quoted(r) -> float:
    return r.median_ratio if rests_on_few(r) else r.ratio


def ranged(rows: pd.DataFrame, what: str, baseline: str) -> list[str]:
    """'{what} ran 1.51× (the math workload's CPU time) to 1.9× (a pipe write ...) as long as in
    hybrid.', and one sentence for the rows Table 1 gives no point estimate."""
    ordered = sorted(rows.itertuples(), key=_quoted)
    shown = [r for r in ordered if point(r)]
    out = []
    if shown:
        low, high = shown[0], shown[-1]
        said = f"{point(low)} ({escape(low.label)})"
        if len(shown) > 1:
            said += f" to {point(high)} ({escape(high.label)})"
        out.append(f"{what} ran {said} as long as in {escape(baseline)}.")
    rest = [r for r in ordered if not point(r)]
    for kind in dict.fromkeys(_no_point(r) for r in rest):
        labels = listed([escape(r.label) for r in rest if _no_point(r) == kind])
        out.append(f"For {labels}, Table~\\ref{{tab:headline}} shows {kind}.")
    return out


def abi_too(mine: pd.DataFrame) -> bool:
    """The source's total contrast changes the ABI with the compartments: it has no purecap
    variant without compartments, so no row splits off the compartments' share."""
    return not (mine.share == "compartment share").any()


def shared_optimisation(meta: dict | None, experiment: str, subject: str, baseline: str):
    """The one optimisation level ('-O0') a data set records for both variants' programs of the
    experiment; None where it records none or two."""
    levels = set()
    for v in (subject, baseline):
        builds = ((meta or {}).get("variants", {}).get(v) or {}).get("builds", [])
        levels |= {b.get("optimisation") for b in builds if experiment in b.get("experiments", [])}
    level = levels.pop() if len(levels) == 1 else None
    return level if level and level.startswith("-O") else None


def debug_kernel(meta: dict | None, experiments=None) -> str:
    """'a debug kernel with INVARIANTS and WITNESS' for a data set whose logs show one, else '';
    '' too where the kernel fact covers only some files (kernel.files: one host's logs) and not
    every one of the experiments named (provenance.covers)."""
    kernel = (meta or {}).get("kernel") or {}
    debug = kernel.get("debug_options") or []
    if experiments is not None and not covers(kernel, experiments):
        return ""
    return f"a debug kernel with {listed(debug)}" if debug else ""


def cost_sentences(table: pd.DataFrame, metas: dict[str, dict] | None = None) -> list[str]:
    """Per source: the first contrast of compartments against none that is not confounded, the
    ranges of its valid ratios that cross into another library and that stay, then what the
    contrast changes besides the compartments; a source whose contrasts are all confounded says it
    gives no compartment cost. A data set (metas: name -> its dataset.yaml) adds its debug kernel
    and the optimisation its rows' builds share."""
    metas = metas or {}
    out, spreads = [], []
    for source, mine in table.groupby("source", sort=False):
        valid = mine[(mine.share == "total") & (mine.invalid.fillna("") == "")]
        clean = valid[[not is_confounded(r) for r in valid.itertuples()]]
        name = f"\\texttt{{{escape(source)}}}"
        if clean.empty:
            out.append(
                f"On {name} every contrast is confounded (Table~\\ref{{tab:headline}}), so it "
                "gives no compartment cost."
            )
            continue
        one = (clean.subject == clean.subject.iloc[0]) & (clean.baseline == clean.baseline.iloc[0])
        first = clean[one]
        baseline = first.baseline.iloc[0]
        crossing = first[first.crosses.fillna("") != ""]
        staying = first[first.crosses.fillna("") == ""]
        said = []
        if len(crossing):
            said += ranged(crossing, "work that calls into another library", baseline)
        if len(staying):
            own = "work in the program's own code"
            said += ranged(staying, own if not said else own[:1].upper() + own[1:], baseline)
        said[0] = f"On {name}, {said[0]}"
        out += said
        # what else the contrast changes: the ABI (no purecap variant without compartments), the
        # optimisation every build shares, a debug kernel, a compiler's name
        together = ", the ABI changing with the compartments" if abi_too(mine) else ""
        meta = metas.get(source)
        levels = {
            shared_optimisation(meta, r.experiment, r.subject, r.baseline)
            for r in first.itertuples()
        }
        level = levels.pop() if len(levels) == 1 else None
        built = f", every program built {level}" if level else ""
        kernel = debug_kernel(meta, set(first.experiment))
        kernel = f", on {kernel}" if kernel else ""
        contrast = escape(first.contrast.iloc[0])
        out.append(f"These ratios compare {contrast}{together}{built}{kernel}.")
        maybe = first.get("possibly_also", pd.Series(dtype=object)).fillna("")
        maybe = "; ".join(dict.fromkeys(x for c in maybe for x in str(c).split("; ") if x))
        if maybe:
            # 'board morello-camb-3 against not recorded' -> 'their board (morello-camb-3 ...)'
            said = [
                re.sub(r"^(\w+) (.+ against .+)$", r"their \1 (\2)", x) for x in maybe.split("; ")
            ]
            out.append(f"The two sides possibly also differ in {escape(listed(said))}.")
        spreads.append(covers_words(str(first.interval_covers.iloc[0])))
    if spreads:
        spread = listed(list(dict.fromkeys(spreads)))
        out.append(f"Table~\\ref{{tab:headline}} gives each ratio's interval, {spread}.")
    return out


def conclusion(table: pd.DataFrame, verdicts: pd.DataFrame, metas: dict | None = None) -> str:
    """The cost sentences, then one tally sentence per source."""
    sources = list(dict.fromkeys(table.source))
    said = cost_sentences(table, metas) + [tally_sentence(verdicts, s) for s in sources]
    return " ".join(x for x in said if x) or (
        "No data set or board target measured a compartment in this run."
    )
