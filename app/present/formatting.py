"""Small display helpers used by the templates."""

from datetime import UTC, datetime
from urllib.parse import urlsplit

from app.schemas import BenchmarkView

LEVEL_LABELS = {
    "yes": "Yes",
    "partial": "Partial",
    "experimental": "Experimental",
    "via": "Via another project",
    "no": "No",
    "unknown": "Unknown",
    "none": "No claim",
    "no-claim": "No current claim",  # every claim left on the cell is withdrawn
}
LEVEL_ICONS = {
    "yes": "✓",
    "partial": "◐",
    "experimental": "⚗",
    "via": "↪",
    "no": "✗",
    "unknown": "?",
    "no-claim": "◌",
}
QUALIFIER_PREFIX = {
    "approx": "~",
    "up-to": "up to ",
    "at-least": "≥ ",
    "less-than": "< ",
    "average": "avg ",
    "max": "max ",
    "exact": "",
}
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


LEVEL_SHORT = {"yes": "Yes", "partial": "Part", "experimental": "Exp", "via": "Via", "no": "No",
               "unknown": "?"}  # fmt: skip


def level_short(level: str) -> str:
    return LEVEL_SHORT.get(level, level)


def level_label(level: str) -> str:
    return LEVEL_LABELS.get(level, level)


def level_icon(level: str) -> str:
    return LEVEL_ICONS.get(level, "?")


def number(value: float) -> str:
    """1234.0 -> '1,234'; 13.2 -> '13.2'."""
    if value.is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def figure(result: BenchmarkView) -> str:
    """A benchmark figure as a person writes it: '~2,300–2,500 tok/s'."""
    if result.value is not None:
        amount = number(result.value)
    else:
        # A range may start at 0: `low or 0` turned that into the int 0, which number() rejects.
        low, high = (0.0 if v is None else v for v in (result.low, result.high))
        amount = f"{number(low)}–{number(high)}"
    unit = result.unit
    spacer = "" if unit in ("%", "x") else " "
    unit_text = "×" if unit == "x" else unit
    return f"{QUALIFIER_PREFIX.get(result.qualifier, '')}{amount}{spacer}{unit_text}"


def source_date(date: str | None) -> str:
    """'2026-04-17' -> '17 Apr 2026'; '2026-06' -> 'Jun 2026'."""
    if not date:
        return ""
    parts = date.split("-")
    if len(parts) == 1:
        return parts[0]
    month = MONTHS[int(parts[1]) - 1]
    return f"{int(parts[2])} {month} {parts[0]}" if len(parts) == 3 else f"{month} {parts[0]}"


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


CAVEAT_LABELS = {
    "machine-written": "probably machine-written",
    "vendor-interest": "written by a vendor with a stake",
    "estimates": "some figures are estimates",
    "vague-date": "dated only roughly",
}


def caveat_label(kind: str) -> str:
    """A caveat's kind in a few words, for marks read out by screen readers and on /sources."""
    return CAVEAT_LABELS.get(kind, kind.replace("-", " "))


FACT_LABELS = {"github-stars": "GitHub stars", "based-on": "Based on", "model-support": "Models"}


def fact_label(attribute: str) -> str:
    """A fact's attribute as a heading: 'github-stars' -> 'GitHub stars'."""
    return FACT_LABELS.get(attribute, attribute.replace("-", " ").capitalize())


ENTITY_LABELS = {
    "dataset": "Data set",
    "capability_category": "Capability category",
    "benchmark_result": "Benchmark result",
    "rule": "Decision rule",
    "note": "Team note",
}


def entity_label(entity: str) -> str:
    """How the history names a kind of item: 'benchmark_result' -> 'Benchmark result'."""
    return ENTITY_LABELS.get(entity) or entity.replace("_", " ").replace("-", " ").capitalize()


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
