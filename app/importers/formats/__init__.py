"""One module per result-file format: JSON records in, ParsedRuns out (pure, no database)."""
