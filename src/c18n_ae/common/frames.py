"""Joining tidy frames without losing categories: the text columns of a board-scale table are
held as categories (one byte a row); pd.concat would turn categories that differ between frames
into text objects (a pointer a row)."""

from __future__ import annotations

from c18n_ae.common.lazy import np, pd


def _categories(column: pd.Series) -> pd.Categorical:
    """A column as a category of its values' text: made from its distinct values, so a text
    column of 10^7 rows is never one array of fixed-width strings."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.array
    codes, distinct = pd.factorize(column.to_numpy(dtype=object), use_na_sentinel=False)
    names, at = np.unique(np.asarray(distinct, dtype=object).astype(str), return_inverse=True)
    return pd.Categorical.from_codes(at.astype(np.int32)[codes], names)


def concat_frames(frames: list[pd.DataFrame], owned: int = 0) -> pd.DataFrame:
    """Frames with the same columns, one below the other. A column that is a category in any of
    them stays one (the union of their categories); the others are joined as pd.concat joins
    them. owned: the last `owned` frames are the caller's temporaries: each column is dropped
    from them once joined, so they are not held beside the whole result."""
    columns = list(frames[0].columns)
    out = {}
    for c in columns:
        if any(isinstance(f[c].dtype, pd.CategoricalDtype) for f in frames):
            cats = [_categories(f[c]) for f in frames]
            if len({str(x.categories.dtype) for x in cats}) > 1:
                # categories as text of two kinds (object and pandas' string), or read as
                # numbers in one frame (a value such as '-0'): union_categoricals needs one
                cats = [
                    pd.Categorical.from_codes(x.codes, x.categories.astype(str).astype(object))
                    for x in cats
                ]
            out[c] = pd.api.types.union_categoricals(cats, sort_categories=True, ignore_order=True)
        else:
            out[c] = pd.concat([f[c] for f in frames], ignore_index=True)
        for f in frames[len(frames) - owned :] if owned else ():
            del f[c]
    return pd.DataFrame(out, copy=False)  # the joined columns as they are: no second copy
