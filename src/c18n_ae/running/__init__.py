"""Building and running: one binary per program and variant (ABI checked), and the run unit that
interleaves an experiment's variants and resumes them (unit.py: standard library only, it runs on
boards). May import common, experiments and targets."""
