"""Joining tidy frames without losing categories: the text columns of a board-scale table are
held as categories (one byte a row); pd.concat would turn categories that differ between frames
into text objects (a pointer a row)."""

from __future__ import annotations

from c18n_ae.common.lazy import pd


def _categories(column: pd.Series) -> pd.Categorical:
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.array
    return pd.Categorical(column.to_numpy(dtype=object).astype(str))


def concat_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Frames with the same columns, one below the other. A column that is a category in any of
    them stays one (the union of their categories); the others are joined as pd.concat joins
    them."""
    columns = list(frames[0].columns)
    out = {}
    for c in columns:
        if any(isinstance(f[c].dtype, pd.CategoricalDtype) for f in frames):
            out[c] = pd.api.types.union_categoricals(
                [_categories(f[c]) for f in frames], sort_categories=True, ignore_order=True
            )
        else:
            out[c] = pd.concat([f[c] for f in frames], ignore_index=True)
    return pd.DataFrame(out)[columns]
