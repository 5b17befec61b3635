"""What the editor forms show: the team's own rows with the versions a change is based on.

These run only for editors (signed-in pages are built per request), so they stay out of the
per-version memos that every reader shares.
"""

from sqlmodel import Session, col, select

from app.accounts.models import UserAccount
from app.models import BenchmarkResult, Capability, Claim, Source, System
from app.queries.common import metrics_by_id
from app.schemas import MetricChoice, TeamClaimView
from app.writes.team import TEAM_SOURCE


def team_claims(session: Session, system_slug: str) -> dict[str, TeamClaimView]:
    """The team's claims on one system, by capability slug."""
    rows = session.exec(
        select(Claim, Capability.slug, UserAccount.name)
        .join(Capability, col(Capability.id) == col(Claim.capability_id))
        .join(System, col(System.id) == col(Claim.system_id))
        .join(Source, col(Source.id) == col(Claim.source_id))
        .outerjoin(UserAccount, col(UserAccount.id) == col(Claim.user_id))
        .where(System.slug == system_slug, Source.slug == TEAM_SOURCE)
    )
    return {
        capability: TeamClaimView(
            capability=capability, level=claim.level, note=claim.note, version=claim.version, by=by
        )
        for claim, capability, by in rows
    }


def editable_results(session: Session, system_slug: str | None = None) -> dict[str, int]:
    """Result id -> version for every result the team may change (its source is unpublished)."""
    statement = (
        select(BenchmarkResult.slug, BenchmarkResult.version)
        .join(Source, col(Source.id) == col(BenchmarkResult.source_id))
        .where(col(Source.published).is_(False))
    )
    if system_slug is not None:
        statement = statement.join(System, col(System.id) == col(BenchmarkResult.system_id)).where(
            System.slug == system_slug
        )
    return dict(session.exec(statement).all())


def metric_choices(session: Session) -> list[MetricChoice]:
    """The metrics a team result may use, in seed order, each with its units."""
    metrics = sorted(metrics_by_id(session).values(), key=lambda m: m.position)
    return [
        MetricChoice(slug=m.slug, name=m.name, units=list(m.units))
        for m in metrics
        if not m.withdrawn
    ]
