"""Turn claim rows into cells: one per system and capability, disputes flagged."""

from app.schemas import LEVEL_GROUP, ClaimView


def newest_first(claims: list[ClaimView]) -> list[ClaimView]:
    """Newest source first; ties broken by source slug so the order is stable."""
    return sorted(claims, key=lambda c: (c.source.date, c.source.slug), reverse=True)


def headline_level(claims: list[ClaimView]) -> str:
    """The newest source's level, skipping sources that only say 'unknown'."""
    for claim in newest_first(claims):
        if claim.level != "unknown":
            return claim.level
    return "unknown"


def is_disputed(claims: list[ClaimView]) -> bool:
    """Sources disagree when their levels fall in different groups (works / partly / not)."""
    groups = {LEVEL_GROUP[c.level] for c in claims if c.level in LEVEL_GROUP}
    return len(groups) > 1
