"""What every stage may use: the configuration, file writing, strict CSV reading, LaTeX helpers,
the shipped data sets' metadata. Imports nothing from the other folders (and this file nothing at
all: the board imports it through c18n_ae.running.unit)."""

TERMINAL_EVERY_S = 2.0  # progress lines reach the terminal at most this often; the log gets all
