"""Whether each system loads a named model's architecture, from seed/support/ (issue 36).

A supported row without `until` keeps the system, with the release that added it; only `no`
rows, or a row whose `until` release dropped it, rule it out; no row is unknown, never "no".
"""

from collections import defaultdict
from dataclasses import dataclass

from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.decision.hardware import SUPPORT, reason
from app.decision.model import Reason
from app.models import ModelSupport, System
from app.queries.common import source_refs
from app.schemas import ModelEntryView, SourceRef


@dataclass(frozen=True)
class SupportRow:
    level: str
    since: str | None
    until: str | None
    page: str
    note: str | None
    source: SourceRef


@per_version(max_entries=64)
def support_rows(session: Session, architecture: str) -> dict[str, list[SupportRow]]:
    """system slug -> every source's row for `architecture` (seed/support/)."""
    refs = source_refs(session)
    statement = (
        select(System.slug, ModelSupport)
        .join(System, col(System.id) == col(ModelSupport.system_id))
        .where(ModelSupport.architecture == architecture)
        .order_by(col(ModelSupport.position))
    )
    out: dict[str, list[SupportRow]] = defaultdict(list)
    for slug, row in session.exec(statement):
        out[slug].append(
            SupportRow(row.level, row.since, row.until, row.page, row.note, refs[row.source_id])
        )
    return dict(out)


def loading(rows: list[SupportRow], system: str, model: ModelEntryView) -> tuple[bool, Reason]:
    """(ruled out?, the sourced reason) for one system and the model's architecture."""
    arch = model.architecture or "its architecture"
    what = f"{model.name} ({arch})"
    if not rows:
        return False, reason(f"No source says whether {system} loads {what}.", None, kind="unknown")
    serving = [r for r in rows if r.level in SUPPORT and not r.until]
    if serving:
        row = serving[0]
        since = f" from {row.since}" if row.since else ""
        return False, _cited(f"{system} loads {what}{since}.", row, "for")
    row = rows[0]
    if row.until:
        added = f" (it had it from {row.since})" if row.since else ""
        text = f"{system} can no longer load {what}: gone in {row.until}{added}."
    else:
        text = f"{system} cannot load {what}" + (f": {row.note}" if row.note else ".")
    return True, _cited(text, row, "excluded")


def _cited(text: str, row: SupportRow, kind: str) -> Reason:
    return reason(text, row.source, kind=kind, page=row.page)
