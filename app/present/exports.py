"""The CSV exports: the matrix (/matrix.csv, /hardware.csv) and the results (/benchmarks.csv)."""

import csv
import io

from app.queries.cells import NO_CLAIM
from app.queries.matrix import MatrixResult
from app.schemas import BenchmarkView

BENCHMARK_COLUMNS = ("id", "system", "metric", "value", "low", "high", "qualifier", "unit",
                     "hardware", "gpus", "model", "precision", "concurrency", "workload", "setup",
                     "system_version", "baseline", "run_by", "date", "age_days", "stale",
                     "source")  # fmt: skip


def matrix_csv(result: MatrixResult) -> str:
    """The matrix as CSV: one row per system, a level column and a sources column per capability."""
    columns = [c for g in result.groups for c in g.columns]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["system", "name"]
    for column in columns:
        header += [column.slug, f"{column.slug} sources"]
    writer.writerow(header)
    for row in result.rows:
        line = [row.system.slug, row.system.name]
        for cell in row.cells:
            level = "no claim" if cell.level == NO_CLAIM else cell.level
            level = f"{level} (disputed)" if cell.disputed else level
            line += [level, " ".join(cell.sources)]
        writer.writerow(line)
    return buffer.getvalue()


def benchmarks_csv(results: list[BenchmarkView]) -> str:
    """The results as CSV, one row each; the source by its slug."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(BENCHMARK_COLUMNS)
    for r in results:
        row = r.model_dump()
        row["source"] = r.source.slug
        writer.writerow(["" if row[c] is None else row[c] for c in BENCHMARK_COLUMNS])
    return buffer.getvalue()
