"""What the paper and the reader see: tables, figures, macros, the c18n findings, the related
studies, the generated blocks of the README and CLAIMS.md, the archive and the timings. May import
common, experiments and analysis."""
