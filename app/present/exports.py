"""The CSV exports: the matrix (/matrix.csv, /hardware.csv) and the results (/benchmarks.csv).

Every cell passes `spreadsheet_safe` (OWASP's rule against CSV injection): text that starts
with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet shows
it as text instead of running it as a formula. Imported result files fill setup, version and
precision with whatever the file held. Numbers (ints and floats) are written as numbers: a
negative value cannot be a formula. The seed export (app/seeding/export.py) is not covered:
it is a seed file, read back by the seeder, not opened in a spreadsheet.
"""

import csv
import io

from app.queries.cells import NO_CLAIM
from app.queries.matrix import MatrixResult
from app.schemas import BenchmarkView

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """The cell as written to CSV: formula-looking text neutralised with a leading `'`."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        text = str(value)
        return "'" + text if text.startswith(FORMULA_STARTS) else text
    return value


def _row(cells: list[object]) -> list[object]:
    return [spreadsheet_safe(cell) for cell in cells]


BENCHMARK_COLUMNS = (
    "id",
    "system",
    "metric",
    "value",
    "low",
    "high",
    "qualifier",
    "unit",
    "hardware",
    "gpus",
    "model",
    "precision",
    "concurrency",
    "workload",
    "setup",
    "system_version",
    "baseline",
    "run_by",
    "date",
    "age_days",
    "stale",
    "source",
)


def matrix_csv(result: MatrixResult) -> str:
    """The matrix as CSV: one row per system, a level column and a sources column per capability."""
    columns = [c for g in result.groups for c in g.columns]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["system", "name"]
    for column in columns:
        header += [column.slug, f"{column.slug} sources"]
    writer.writerow(_row(list(header)))
    for row in result.rows:
        line = [row.system.slug, row.system.name]
        for cell in row.cells:
            level = "no claim" if cell.level == NO_CLAIM else cell.level
            level = f"{level} (disputed)" if cell.disputed else level
            line += [level, " ".join(cell.sources)]
        writer.writerow(_row(list(line)))
    return buffer.getvalue()


def benchmarks_csv(results: list[BenchmarkView]) -> str:
    """The results as CSV, one row each; the source by its slug."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(BENCHMARK_COLUMNS)
    for r in results:
        row = r.model_dump()
        row["source"] = r.source.slug
        writer.writerow(_row([row[c] for c in BENCHMARK_COLUMNS]))
    return buffer.getvalue()


def table_csv(rows: list[list[str]]) -> str:
    """Rows already put in order (a header first) as CSV, every cell made spreadsheet-safe:
    the models matrix (app/queries/model_matrix.py) writes its own columns."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(_row(list(line)) for line in rows)
    return buffer.getvalue()
