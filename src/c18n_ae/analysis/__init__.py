"""From raw rows to verdicts: reading the study's layouts, tidy tables, statistics, comparisons
with intervals, claims, spread between targets, the published values beside ours. May import
common and experiments."""
