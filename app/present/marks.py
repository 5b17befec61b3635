"""The small marks pages repeat per claim, per cell and per source, built in Python.

They were Jinja macros (templates/macros/ui.html, macros/matrix.html). A page such as
/compare or /matrix calls them hundreds of times, and at ten times the data the macro
machinery itself (a context per call, Markup built and escaped piece by piece) was about a
third of the page's rendering time. These functions write exactly what the macros wrote, byte
for byte (tests/test_marks.py holds them to it), and templates call them as `marks.cite(...)`.

Every value from the data goes through markupsafe's `escape`, as Jinja's autoescape did; the
fixed text around it is written as the templates had it (apostrophes included, unescaped).
"""

from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

from markupsafe import Markup, escape

from app.present.formatting import caveat_label, level_icon, level_label, level_short, source_date
from app.schemas import ClaimView, SourceRef, SummaryLine

TEAM_KIND = "team-measurement"


def level(level: str, strength: int | None = None) -> Markup:
    """A support level with its icon; `strength`, the source's own 1-3 rating, as a superscript."""
    e = escape(level)
    text = (
        f'<span class="level level-{e}"><span class="level-icon" aria-hidden="true">'
        f"{escape(level_icon(level))}</span> {escape(level_label(level))}"
    )
    if strength:
        s = escape(strength)
        text += (
            f'<sup class="strength" title="The source\'s own rating: {s} of 3">{s}</sup>'
            f'<span class="visually-hidden"> (the source rates it {s} of 3)</span>'
        )
    return Markup(text + "</span>")


def team_mark(source: SourceRef, label: str = "team-measured") -> Markup:
    """The team's own source is marked wherever it is cited ("team-measured", "team claim")."""
    if source.kind != TEAM_KIND:
        return Markup("")
    return Markup(
        ' <span class="badge team-badge" title="Added by this instance\'s team, not taken'
        f' from a published source">{escape(label)}</span>'
    )


def caveat_mark(source: SourceRef) -> Markup:
    """What to bear in mind about a source: shown on hover and focus, and read out."""
    caveats = source.caveats
    if not caveats:
        return Markup("")
    tip = escape(" ".join(c.text for c in caveats))
    kinds = escape("; ".join(caveat_label(c.kind) for c in caveats))
    return Markup(
        f'<a class="caveat" href="/sources#{escape(source.slug)}" data-tip="{tip}">'
        f'<span aria-hidden="true">⚠</span><span class="visually-hidden">(caveat: {kinds})'
        "</span></a>"
    )


def cite(source: SourceRef, dated: bool = True, team_label: str = "team-measured") -> Markup:
    """A source cited by its short name (and date); its full title shows on hover."""
    date = f", {escape(source_date(source.date))}" if dated else ""
    return Markup(
        f'<a class="cite" href="/sources#{escape(source.slug)}" title="{escape(source.title)}">'
        f"{escape(source.short)}{date}</a>{caveat_mark(source)}{team_mark(source, team_label)}"
    )


def source_line(source: SourceRef) -> Markup:
    """A source in a list of sources: its cited name first, then its full title and date."""
    return Markup(
        f'<a href="/sources#{escape(source.slug)}">{escape(source.short)}</a>'
        f"{caveat_mark(source)}{team_mark(source, 'team')}"
        f' <span class="muted">— {escape(source.title)}, {escape(source_date(source.date))}</span>'
    )


def claim_cite(claim: ClaimView) -> Markup:
    """One source's claim in a table cell: level and note on hover, its rating as a superscript."""
    source = claim.source
    note = f" — {escape(claim.note)}" if claim.note else ""
    text = (
        f'<a class="cite" href="/sources#{escape(source.slug)}" title="{escape(source.title)}: '
        f'{escape(level_label(claim.level))}{note}">{escape(source.short)}</a>'
    )
    if claim.strength:
        s = escape(claim.strength)
        text += (
            f'<sup class="rating" title="The source\'s own rating: {s} of 3">{s}'
            '<span class="visually-hidden"> of 3 in the source\'s own rating</span></sup>'
        )
    text += f"{caveat_mark(source)}{team_mark(source, 'team claim')}"
    if claim.withdrawn:
        text += (
            f' <span class="badge withdrawn-badge" title="{escape(source.short)} no longer says'
            " this in the published data; kept because the team's notes refer to it. It is not"
            ' counted.">withdrawn</span>'
        )
    return Markup(text)


def claim_cites(claims: Iterable[ClaimView]) -> Markup:
    """A compare cell's claims, each cited, separated by commas."""
    return Markup(", ".join(claim_cite(c) for c in claims))


def line_cites(line: SummaryLine) -> Markup:
    """The sources of a summary line and of the lines folded into it, each cited once (the
    first of a slug, compared without case as Jinja's `unique` did), separated by semicolons."""
    seen: set[str] = set()
    cited: list[str] = []
    for source in [line.source, *(s.source for s in line.similar)]:
        key = source.slug.lower()
        if key not in seen:
            seen.add(key)
            cited.append(cite(source))
    return Markup("; ".join(cited))


class _Facts(Protocol):
    since: str | None
    how: str | None
    page: str | None


def claim_facts(claim: _Facts) -> Markup:
    """What a first-party source's claim adds: the version it arrived in, how to turn it on,
    and the page that says so."""
    since, how, page = claim.since, claim.how, claim.page
    if not (since or how or page):
        return Markup("")
    text = '<dl class="claim-facts">'
    if since:
        text += f"<div><dt>Since</dt><dd>{escape(since)}</dd></div>"
    if how:
        text += f"<div><dt>How</dt><dd><code>{escape(how)}</code></dd></div>"
    if page:
        name = page.rstrip("/").rsplit("/", 1)[-1] or page
        text += (
            f'<div><dt>Page</dt><dd><a href="{escape(page)}" rel="noopener">{escape(name)}</a>'
            "</dd></div>"
        )
    return Markup(text + "\n</dl>")


class _MatrixCell(Protocol):
    capability: str
    level: str
    disputed: bool
    weak: bool
    strength: int | None
    withdrawn: bool


def pin_class(slug: str, pinned: Sequence[str]) -> str:
    """A pinned matrix column's classes (pin-N, and pin-last on the last), so CSS keeps it
    next to the System column; "" for the others. Slugs are plain words: nothing to escape."""
    if slug not in pinned:
        return ""
    n = pinned.index(slug) + 1
    return f" pin pin-{n} pin-last" if n == len(pinned) else f" pin pin-{n}"


def level_cell(
    system: str,
    cell: _MatrixCell,
    pinned: Sequence[str],
    highlighted: Collection[str],
    can_edit: bool,
) -> str:
    """One matrix cell (a <td>) of the system with slug `system`: the level, linked to the
    claims behind it, or "no source says"."""
    capability = cell.capability
    pin = escape(pin_class(capability, pinned))
    cap = escape(capability)
    sys = escape(system)
    link = f'<a data-cell="{sys}:{cap}" href="/matrix/cell?system={sys}&amp;capability={cap}">'
    lv = cell.level
    if lv == "no-claim":
        mark = '<span class="no-claim-mark" aria-hidden="true">◌</span>'
        mark += '<span class="visually-hidden">'
        if cell.withdrawn:
            return (
                f'<td class="lv lv-no-claim{pin}">{link}{mark}no current source says; withdrawn'
                " claims kept for the team's notes</span></a></td>"
            )
        if can_edit:
            return (
                f'<td class="lv lv-no-claim{pin}">{link}{mark}no source says: add the'
                " team's claim</span></a></td>"
            )
        return f'<td class="lv lv-no-claim{pin}">{mark}no source says</span></td>'
    classes = f"lv lv-{escape(lv)}"
    if cell.disputed:
        classes += " is-disputed"
    if cell.weak:
        classes += " is-weak"
    if capability in highlighted:
        classes += " is-highlighted"
    text = (
        f'<td class="{classes}{pin}">{link}<span aria-hidden="true">{escape(level_icon(lv))}'
        f"</span>{escape(level_short(lv))}"
    )
    if cell.strength:
        text += f"<sup>{escape(cell.strength)}</sup>"
    if cell.disputed:
        text += '<span class="flag" aria-hidden="true">⚑</span>'
        text += '<span class="visually-hidden"> disputed</span>'
    if cell.weak:
        text += (
            '<span class="weak-mark" aria-hidden="true">?</span><span class="visually-hidden">'
            " weak: only a source with a caveat says so</span>"
        )
    return text + "</a></td>"


def level_cells(
    system: str,
    cells: Sequence[_MatrixCell],
    pinned: Sequence[str],
    highlighted: Collection[str],
    can_edit: bool,
    *,
    pinned_part: bool,
) -> Markup:
    """A matrix row's cells in the pinned columns (`pinned_part`) or in the others, in the
    row's order: the page writes the two parts one after the other."""
    return Markup(
        "".join(
            level_cell(system, c, pinned, highlighted, can_edit)
            for c in cells
            if (c.capability in pinned) == pinned_part
        )
    )
