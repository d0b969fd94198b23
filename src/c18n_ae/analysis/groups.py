"""The groups of a board-scale tidy table (10^7 trials, 6 x 10^7 rows) without copies of it: one
small integer code per row, made from the key columns' category codes in chunks, and each
group's rows found once. pandas' groupby over several keys factorises each key into an array of
8 bytes a row and sorts per statistic; here the extra memory is the code (4 bytes a row) and,
only where a group's rows are scattered, one sort order (8 bytes a row)."""

from __future__ import annotations

import numpy as np
import pandas as pd

CHUNK = 1 << 22  # rows per step where a column is turned into codes: bounded temporaries
MAX_DENSE = 1 << 26  # key combinations counted in one array; more: np.unique on the codes


def _codes(column: pd.Series) -> tuple[np.ndarray | None, np.ndarray, bool]:
    """(codes or None, the sorted distinct values, NaN present). A category column gives its
    codes (-1: missing) in its categories' order, as pandas' groupby sorts it; another column
    its distinct values sorted (codes found later, in chunks: None here)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        return codes, column.cat.categories.to_numpy(), bool((codes < 0).any())
    values = column.to_numpy()
    if values.dtype.kind in "fiub":
        distinct = np.sort(pd.unique(values))  # NaN last
        nan = (
            len(distinct) > 0 and bool(np.isnan(distinct[-1]))
            if distinct.dtype.kind == "f"
            else False
        )
        return None, distinct[:-1] if nan else distinct, nan
    codes, distinct = pd.factorize(values, sort=True)
    return codes, np.asarray(distinct, dtype=object), bool((codes < 0).any())


class Groups:
    """The groups of `keys` in a tidy table, in pandas' sorted order (keys: the distinct
    combinations, a frame; size: rows per group; code: each row's group)."""

    def __init__(self, tidy: pd.DataFrame, keys: list[str]):
        parts = [(_codes(tidy[k]), tidy[k]) for k in keys]
        radix = [len(d) + nan for (_, d, nan), _ in parts]
        n = len(tidy)
        total = int(np.prod([max(r, 1) for r in radix], dtype=object))
        self.code = np.empty(n, dtype=np.int32 if total < 2**31 else np.int64)
        seen = np.zeros(total, dtype=np.int64) if total <= MAX_DENSE else None
        for start in range(0, n, CHUNK):
            r = np.zeros(min(CHUNK, n - start), dtype=np.int64)
            for ((codes, distinct, _), column), size in zip(parts, radix):
                if codes is None:  # a numeric column: its place among the sorted values
                    c = np.searchsorted(distinct, column.to_numpy()[start : start + CHUNK])
                else:
                    c = codes[start : start + CHUNK].astype(np.int64)
                    c[c < 0] = size - 1  # missing sorts last, as in pandas
                r *= size
                r += c
            self.code[start : start + CHUNK] = r
            if seen is not None:
                seen += np.bincount(r, minlength=total)
        if seen is not None:  # the combinations present, numbered in order, in place
            present = np.flatnonzero(seen)
            remap = np.zeros(total, dtype=self.code.dtype)
            remap[present] = np.arange(len(present))
            for start in range(0, n, CHUNK):
                self.code[start : start + CHUNK] = remap[self.code[start : start + CHUNK]]
        else:
            present, code = np.unique(self.code, return_inverse=True)
            self.code = code.astype(np.int32 if len(present) < 2**31 else np.int64)
        self.count = len(present)
        self.size = np.bincount(self.code, minlength=self.count)
        columns = {}
        rest = present.astype(object) if total > 2**62 else present
        for ((_, distinct, nan), column), size, k in reversed(list(zip(parts, radix, keys))):
            rest, at = np.divmod(rest, size)
            values = np.concatenate([distinct.astype(object), [np.nan]]) if nan else distinct
            columns[k] = values[np.asarray(at, dtype=np.int64)]
        self.keys = pd.DataFrame({k: columns[k] for k in keys})
        self._rows()

    def _rows(self) -> None:
        """Each group's rows: slices where the table holds them in a few runs (a data set's
        file, a metric at a time), else one stable sort of the codes."""
        change = np.flatnonzero(self.code[1:] != self.code[:-1]) + 1
        if len(change) + 1 <= 8 * max(self.count, 1):
            starts = np.concatenate([[0], change]) if len(self.code) else np.zeros(0, np.int64)
            ends = np.concatenate([change, [len(self.code)]]) if len(self.code) else starts
            self._slices: list[list[slice]] | None = [[] for _ in range(self.count)]
            for s, e in zip(starts.tolist(), ends.tolist()):
                self._slices[self.code[s]].append(slice(s, e))
            self._order = None
            self.first = np.array([g[0].start if g else 0 for g in self._slices], dtype=np.int64)
        else:
            small = np.int16 if self.count < 2**15 else np.int32  # int16: numpy's radix sort
            self._order = np.argsort(self.code.astype(small), kind="stable")
            self._bounds = np.concatenate([[0], np.cumsum(self.size)])
            self._slices = None
            self.first = self._order[self._bounds[:-1]] if self.count else np.zeros(0, np.int64)

    def take(self, column: np.ndarray, g: int) -> np.ndarray:
        """The values of group g in `column` (a row-aligned array), in table order."""
        if self._slices is not None:
            parts = self._slices[g]
            return (
                column[parts[0]] if len(parts) == 1 else np.concatenate([column[s] for s in parts])
            )
        return column[self._order[self._bounds[g] : self._bounds[g + 1]]]

    def batches(self, rows: int) -> list[np.ndarray]:
        """The group numbers in batches of consecutive groups of at most `rows` rows together (a
        larger group in a batch of its own)."""
        out, batch, held = [], [], 0
        for g, size in enumerate(self.size.tolist()):
            if batch and held + size > rows:
                out.append(np.array(batch))
                batch, held = [], 0
            batch.append(g)
            held += size
        return out + [np.array(batch)] if batch else out

    def take_index(self, g: int) -> np.ndarray:
        """The rows of group g, in table order."""
        if self._slices is not None:
            return np.concatenate([np.arange(s.start, s.stop) for s in self._slices[g]])
        return self._order[self._bounds[g] : self._bounds[g + 1]]

    def rows_of(self, first: int, last: int) -> np.ndarray:
        """The rows of groups first .. last, in table order (from their runs or their part of
        the sort order: no pass over the whole table)."""
        if self._slices is not None:
            runs = sorted(
                (s.start, s.stop) for g in range(first, last + 1) for s in self._slices[g]
            )
            return np.concatenate([np.arange(a, b) for a, b in runs] or [np.zeros(0, np.int64)])
        return np.sort(self._order[self._bounds[first] : self._bounds[last + 1]])

    def in_order_of_appearance(self) -> np.ndarray:
        """The group numbers by their first row (pandas' groupby with sort=False)."""
        return np.argsort(self.first, kind="stable")
