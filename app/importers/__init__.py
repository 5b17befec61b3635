"""Benchmark result-file parsers: bytes in, ParsedRuns out. Pure: no database, no HTTP.

The import service calls `parse_result_file(name, data, format=None)` and gets a
`ParsedFile` (detected format, runs in file order, notes) or a `ResultFileError` whose
message names the problem and its line or field. `atlas_figures(run)` lists a run's metrics
under the Atlas metric slugs of seed/metrics.yaml. See docs/imports.md.
"""

from app.importers.detect import FORMATS, detect_format, parse_result_file, resolve_format
from app.importers.errors import ERROR_KINDS, ResultFileError
from app.importers.metrics import ATLAS_METRIC_SLUGS, METRIC_UNITS
from app.importers.reading import DEFAULT_MAX_BYTES, DEFAULT_MAX_RUNS, read_limited
from app.importers.runs import TOOLS, AtlasFigure, ParsedFile, ParsedRun, atlas_figures

__all__ = [
    "ATLAS_METRIC_SLUGS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_RUNS",
    "ERROR_KINDS",
    "FORMATS",
    "METRIC_UNITS",
    "TOOLS",
    "AtlasFigure",
    "ParsedFile",
    "ParsedRun",
    "ResultFileError",
    "atlas_figures",
    "detect_format",
    "parse_result_file",
    "read_limited",
    "resolve_format",
]
