"""Section 4's small table of the figures per call it discusses: the answer's row, the same loop
on the other data sets (as Figure 1 draws them) and, where one board ran it, the loop in the ABI
that avoids the stall (marked, as its contrast differs in its build level), each with the two
times per iteration the estimate divides (A195, R195, B196, R196: the evidence behind the answer
sat in an appendix table, reached past seventeen pages). The appendix's table keeps every row."""

from __future__ import annotations

import pandas as pd

from c18n_ae.common.latex import escape, figures_of
from c18n_ae.common.names import abi_word, compartment_name, short_release
from c18n_ae.report import call_cost as cc


def rows(t: pd.DataFrame, abis: dict | None = None) -> list:
    """The rows, in the order the section discusses them; [] where E10 answers or none is."""
    r, kind = cc.answer(t)
    if r is None or kind != "data":
        return []
    out = [r, *cc._other_sources(t, r).itertuples()]
    gap = cc.stall_gap(t, r, abis)
    return out + ([gap["other"]] if gap else [])


def table(t: pd.DataFrame, releases: dict, abis: dict | None = None) -> str:
    """The tabular, on one line, for \\PerCallRows: data, variant (marked where its contrast is
    confounded), the two times per iteration and the extra time per call, each column's unit in
    its heading where every row shares it; '' where there are no rows."""
    cells, units = [], set()
    for x in rows(t, abis):
        times = cc._iteration_times(x)
        if not times:
            continue
        (a, b), unit = cc._dividing_times(times)
        units.add(unit)
        abi = (abis or {}).get((x.source, x.subject), cc._abi(cc._s(x.subject)))
        name = escape(compartment_name(abi_word(abi)))
        name += r"\smash{$^\S$}" if cc._s(x.confounded_by) else ""
        release = escape(short_release(releases.get(x.source, x.source)))
        cells.append((release, name, f"{a} / {b}", unit, figures_of(cc._about(x.per_call_ns))))
    if not cells:
        return ""
    one = next(iter(units)) if len(units) == 1 else ""
    base = escape(cc._s(rows(t, abis)[0].baseline))
    heads = [
        "Data",
        "Variant",
        f"Time per iteration, subject / {base}{f' ({one})' if one else ''}",
        r"Extra per call (\si{\nano\second})",
    ]
    lines = [" & ".join(heads) + r" \\ \midrule"]
    for release, name, times, unit, extra in cells:
        shown = times if one else f"{times} {unit}"
        lines.append(f"{release} & {name} & {shown} & {extra} \\\\")
    # the two long headings wrap; the figures align right under them
    right = r">{\raggedleft\arraybackslash}p"
    spec = rf"@{{}}ll{right}{{0.3\columnwidth}}{right}{{0.15\columnwidth}}@{{}}"
    return (
        rf"\begin{{tabular}}{{{spec}}} \toprule " + " ".join(lines) + r" \bottomrule \end{tabular}"
    )


def caption(t: pd.DataFrame, abis: dict | None = None) -> str:
    """What the rows are, and what the mark means where a row has it; '' where there are none."""
    found = rows(t, abis)
    if not found:
        return ""
    r = found[0]
    library = escape(cc._s(r.library)) or "another library"
    k = int(cc._f(r.calls_per_iteration))
    said = (
        f"The {escape(cc._workload(r))} loop's extra time per call: {cc.in_words(k)} calls into "
        f"{library} an iteration, against {escape(cc._s(r.baseline))}."
    )
    marked = [x for x in found if cc._s(x.confounded_by)]
    if marked:
        said += f" $^\\S$ The contrast also differs in {escape(cc._s(marked[0].confounded_by))}."
    return said
