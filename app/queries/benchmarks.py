"""Benchmark results with their full context."""

from typing import Any

from sqlmodel import Session, col, select

from app.models import BenchmarkResult
from app.queries.common import metrics_by_id, source_refs, system_names
from app.schemas import BenchmarkView


def benchmark_views(session: Session, *where: Any) -> list[BenchmarkView]:
    """Benchmark results matching `where`, in seed order."""
    refs = source_refs(session)
    systems = system_names(session)
    metrics = metrics_by_id(session)
    statement = select(BenchmarkResult).where(*where).order_by(col(BenchmarkResult.position))
    views = []
    for row in session.exec(statement):
        metric = metrics[row.metric_id]
        slug, name = systems[row.system_id]
        fields = row.model_dump(
            exclude={"id", "slug", "system_id", "metric_id", "source_id", "position"}
        )
        views.append(
            BenchmarkView(
                id=row.slug,
                system=slug,
                system_name=name,
                metric=metric.slug,
                metric_name=metric.name,
                metric_kind=metric.kind,
                better=metric.better,
                source=refs[row.source_id],
                **fields,
            )
        )
    return views
