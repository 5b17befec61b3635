"""Benchmark result-file parsers: bytes in, ParsedRuns out. Pure: no database, no HTTP.

The import service calls `parse_result_file(name, data, format=None)` and gets a
`ParsedFile` (detected format, runs in file order, notes) or a `ResultFileError` whose
message names the problem and its line or field; `parse_result_set` does the same for a sweep
folder, several files or an archive (`unpack_archive`). `atlas_figures(run)` lists a run's metrics
under the Atlas metric slugs of seed/metrics.yaml. See docs/imports.md.
"""

from app.importers.detect import FORMATS, detect_format, parse_result_file, resolve_format
from app.importers.errors import ERROR_KINDS, ResultFileError
from app.importers.metrics import ATLAS_METRIC_SLUGS, METRIC_UNITS
from app.importers.reading import DEFAULT_MAX_BYTES, DEFAULT_MAX_RUNS, read_limited
from app.importers.runs import TOOLS, AtlasFigure, ParsedFile, ParsedRun, atlas_figures
from app.importers.sets import MAX_SET_FILES, is_archive, parse_result_set, unpack_archive

__all__ = [
    "ATLAS_METRIC_SLUGS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_RUNS",
    "ERROR_KINDS",
    "FORMATS",
    "MAX_SET_FILES",
    "METRIC_UNITS",
    "TOOLS",
    "AtlasFigure",
    "ParsedFile",
    "ParsedRun",
    "ResultFileError",
    "atlas_figures",
    "detect_format",
    "is_archive",
    "parse_result_file",
    "parse_result_set",
    "read_limited",
    "resolve_format",
    "unpack_archive",
]
