"""What the paper and the reader see: tables, figures, macros, the c18n findings, the related
studies, the README's claims block, the archive and the timings. May import common, experiments
and analysis."""
