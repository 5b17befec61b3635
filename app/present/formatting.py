"""Small display helpers used by the templates."""

from datetime import UTC, datetime
from urllib.parse import urlsplit

# What read models share with pages lives in app/text.py; the templates read it off this
# module (the `fmt` global and the filters of app/web/render.py), so it is named here again.
from app.text import MONTHS
from app.text import caveat_label as caveat_label
from app.text import entity_label as entity_label
from app.text import figure as figure
from app.text import level_label as level_label
from app.text import number as number
from app.text import source_date as source_date

LEVEL_ICONS = {
    "yes": "✓",
    "partial": "◐",
    "experimental": "⚗",
    "via": "↪",
    "no": "✗",
    "unknown": "?",
    "no-claim": "◌",
}

LEVEL_SHORT = {
    "yes": "Yes",
    "partial": "Part",
    "experimental": "Exp",
    "via": "Via",
    "no": "No",
    "unknown": "?",
}


def level_short(level: str) -> str:
    return LEVEL_SHORT.get(level, level)


def level_icon(level: str) -> str:
    return LEVEL_ICONS.get(level, "?")


def age(days: int | None) -> str:
    """412 -> '1 year 2 months'; 20 -> '2 weeks'; 3 -> '3 days'; 0 -> 'today'."""
    if days is None:
        return ""
    if days < 1:
        # A team result measured today (or dated a little ahead by a clock elsewhere).
        return "today"
    if days < 14:
        return f"{days} day{'s' if days > 1 else ''}"
    if days < 60:
        return f"{max(days // 7, 1)} week{'s' if days >= 14 else ''}"
    months = round(days / 30.4)
    years, months = divmod(months, 12)
    parts = ([f"{years} year{'s' if years > 1 else ''}"] if years else []) + (
        [f"{months} month{'s' if months > 1 else ''}"] if months else []
    )
    return " ".join(parts)


FACT_LABELS = {"github-stars": "GitHub stars", "based-on": "Based on", "model-support": "Models"}


def fact_label(attribute: str) -> str:
    """A fact's attribute as a heading: 'github-stars' -> 'GitHub stars'."""
    return FACT_LABELS.get(attribute, attribute.replace("-", " ").capitalize())


def utc_time(at: datetime) -> str:
    """A moment in UTC as people read it: '23 Nov 2026, 16:18 UTC'."""
    at = at.astimezone(UTC)
    return f"{at.day} {MONTHS[at.month - 1]} {at.year}, {at:%H:%M} UTC"


def day(at: datetime) -> str:
    """A moment as the day it fell on (UTC): '23 Nov 2026'."""
    at = at.astimezone(UTC)
    return f"{at.day} {MONTHS[at.month - 1]} {at.year}"


def web_link(url: str | None) -> str | None:
    """`url` if it is an http(s) address, else None: checked again where it becomes an href,
    although every way in (API, forms, restore) refuses other schemes already."""
    if not url or any(c.isspace() or ord(c) < 32 for c in url):
        return None
    parts = urlsplit(url)
    return url if parts.scheme.lower() in ("http", "https") and parts.hostname else None


def link_text(url: str, length: int = 60) -> str:
    """A web address as a short label: 'example.com/runs/42', cut with '…' past `length`."""
    parts = urlsplit(url)
    text = (parts.netloc + parts.path).removeprefix("www.").rstrip("/")
    return text if len(text) <= length else text[: length - 1] + "…"
