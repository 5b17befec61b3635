"""The team's own claims: set the team's claim on a cell, or remove it, each with its
revision. Published claims belong to seed/ and are never changed here; a team claim cites the
team's source (writes/team.py) and counts its saves in `version`, as team results do.

Call these inside `app.writes.transaction.write_transaction`: each takes the writers' lock
first, records a revision and gives the data a new version, all in the caller's transaction.
"""

from sqlmodel import Session, select

from app.accounts.identity import SignedIn
from app.data_version.version import bump_data_version
from app.db import lock_writes
from app.models import Capability, Claim, Source, System
from app.writes.common import (
    Filed,
    Saved,
    UnknownItemError,
    author,
    check_version,
    next_position,
    now,
    record_change,
    revise,
)
from app.writes.documents import ClaimDoc
from app.writes.inputs import TeamClaimIn
from app.writes.team import TEAM_SOURCE, team_source


def put_claim(
    session: Session,
    who: SignedIn,
    system_slug: str,
    capability_slug: str,
    claim: TeamClaimIn,
    version: int | None,
    team_name: str,
) -> Saved[ClaimDoc]:
    """Set the team's claim on a cell: made if there is none, else changed (version needed)."""
    lock_writes(session)
    system, capability = _cell_rows(session, system_slug, capability_slug)
    source = team_source(session, team_name)
    row = _team_claim(session, system, capability, source)
    key = claim_key(system_slug, capability_slug)
    if row is None:
        row = Claim(
            system_id=system.id,  # type: ignore[arg-type]
            capability_id=capability.id,  # type: ignore[arg-type]
            source_id=source.id,  # type: ignore[arg-type]
            level=claim.level,
            note=claim.note,
            position=next_position(session, Claim),
            user_id=who.user_id,
            version=1,
            updated_at=now(),
        )
        session.add(row)
        after = claim_doc(row, system_slug, capability_slug)
        revise(session, who, "claim", key, "create", None, after, system_slug)
        bump_data_version(session)
        return Saved(items=[after | {"version": 1, "by": who.name}], created=True)
    before = claim_doc(row, system_slug, capability_slug)
    seen = before | {"by": author(session, row)}
    check_version(f"the team's claim on {key}", row.version, version, seen)
    row.level, row.note = claim.level, claim.note
    after = claim_doc(row, system_slug, capability_slug)
    if not record_change(session, who, row, Filed("claim", key, system_slug), before, after):
        return Saved(items=[after | {"version": row.version, "by": author(session, row)}])
    return Saved(items=[after | {"version": row.version, "by": who.name}])


def delete_claim(
    session: Session, who: SignedIn, system_slug: str, capability_slug: str, version: int | None
) -> None:
    lock_writes(session)
    system, capability = _cell_rows(session, system_slug, capability_slug)
    source = session.exec(select(Source).where(Source.slug == TEAM_SOURCE)).first()
    row = _team_claim(session, system, capability, source) if source else None
    key = claim_key(system_slug, capability_slug)
    if row is None:
        raise UnknownItemError(f"the team has no claim on {key}")
    before = claim_doc(row, system_slug, capability_slug)
    seen = before | {"by": author(session, row)}
    check_version(f"the team's claim on {key}", row.version, version, seen)
    record_change(session, who, row, Filed("claim", key, system_slug), before, None)


def team_claim(session: Session, system_slug: str, capability_slug: str) -> ClaimDoc | None:
    """The team's claim on a cell as the API shows it (for forms and GET), or None."""
    system, capability = _cell_rows(session, system_slug, capability_slug)
    source = session.exec(select(Source).where(Source.slug == TEAM_SOURCE)).first()
    row = _team_claim(session, system, capability, source) if source else None
    if row is None:
        return None
    doc = claim_doc(row, system_slug, capability_slug)
    return doc | {"version": row.version, "by": author(session, row)}


def claim_key(system: str, capability: str) -> str:
    """The claim's key in the history, as the seed's claims are keyed."""
    return f"{system}/{capability}/{TEAM_SOURCE}"


def claim_doc(row: Claim, system: str, capability: str) -> ClaimDoc:
    doc: ClaimDoc = {
        "system": system,
        "capability": capability,
        "source": TEAM_SOURCE,
        "level": row.level,
    }
    return doc | ({"note": row.note} if row.note else {})


def _cell_rows(
    session: Session, system_slug: str, capability_slug: str
) -> tuple[System, Capability]:
    """The System and Capability rows of a cell; UnknownItemError names the one missing."""
    system = session.exec(select(System).where(System.slug == system_slug)).first()
    if system is None:
        raise UnknownItemError(f"no system has the slug {system_slug!r}")
    capability = session.exec(select(Capability).where(Capability.slug == capability_slug)).first()
    if capability is None:
        raise UnknownItemError(
            f"no capability has the slug {capability_slug!r}; see GET /api/v1/capabilities"
        )
    return system, capability


def _team_claim(
    session: Session, system: System, capability: Capability, source: Source
) -> Claim | None:
    return session.exec(
        select(Claim).where(
            Claim.system_id == system.id,
            Claim.capability_id == capability.id,
            Claim.source_id == source.id,
        )
    ).first()
