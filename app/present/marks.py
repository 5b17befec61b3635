"""The small marks pages repeat per claim, per cell and per source, built in Python.

They were Jinja macros (templates/macros/ui.html, macros/matrix.html). A page such as
/compare or /matrix calls them hundreds of times, and at ten times the data the macro
machinery itself (a context per call, Markup built and escaped piece by piece) was about a
third of the page's rendering time. These functions write exactly what the macros wrote, byte
for byte (tests/test_marks.py holds them to it), and templates call them as `marks.cite(...)`.

Every value from the data is escaped as markupsafe's `escape` (Jinja's autoescape) did it; the
fixed text around it is written as the templates had it (apostrophes included, unescaped).
"""

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol

from markupsafe import Markup, escape

from app.present.formatting import level_icon, level_short
from app.schemas import BenchmarkView, Cell, ClaimView, SourceRef, SummaryLine
from app.text import caveat_label, level_label, source_date

TEAM_KIND = "team-measurement"


def _text(value: object) -> str:
    """`value` escaped as markupsafe's `escape` does it, as a plain str: a Markup built for
    every piece cost about as much as the escaping. The public functions return Markup."""
    if type(value) is not str:
        return str(escape(value))
    if "&" in value or "<" in value or ">" in value or "'" in value or '"' in value:
        value = value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
        return value.replace("'", "&#39;").replace('"', "&#34;")
    return value


def level(level: str, strength: int | None = None) -> Markup:
    """A support level with its icon; `strength`, the source's own 1-3 rating, as a superscript."""
    return Markup(_level(level, strength))


def _level(level: str, strength: int | None) -> str:
    text = (
        f'<span class="level level-{_text(level)}"><span class="level-icon" aria-hidden="true">'
        f"{_text(level_icon(level))}</span> {_text(level_label(level))}"
    )
    if strength:
        s = _text(strength)
        text += (
            f'<sup class="strength" title="The source\'s own rating: {s} of 3">{s}</sup>'
            f'<span class="visually-hidden"> (the source rates it {s} of 3)</span>'
        )
    return text + "</span>"


def team_mark(source: SourceRef, label: str = "team-measured") -> Markup:
    """The team's own source is marked as such wherever it is cited: "team-measured" beside a
    figure, "team claim" beside a claim, "team" in a list of sources."""
    return Markup(_team_mark(source, label))


def _team_mark(source: SourceRef, label: str) -> str:
    if source.kind != TEAM_KIND:
        return ""
    return (
        ' <span class="badge team-badge" title="Added by this instance\'s team, not taken'
        f' from a published source">{_text(label)}</span>'
    )


def caveat_mark(source: SourceRef) -> Markup:
    """What to bear in mind about a source: a mark whose text shows on hover and focus, and is
    read out."""
    return Markup(_caveat_mark(source))


def _caveat_mark(source: SourceRef) -> str:
    caveats = source.caveats
    if not caveats:
        return ""
    tip = _text(" ".join(c.text for c in caveats))
    kinds = _text("; ".join(caveat_label(c.kind) for c in caveats))
    return (
        f'<a class="caveat" href="/sources#{_text(source.slug)}" data-tip="{tip}">'
        f'<span aria-hidden="true">⚠</span><span class="visually-hidden">(caveat: {kinds})'
        "</span></a>"
    )


def cite(source: SourceRef, dated: bool = True, team_label: str = "team-measured") -> Markup:
    """A source cited by its short name (and date); its full title shows on hover and on
    /sources. `team_label` marks the team's own source (team_mark)."""
    return Markup(_cite(source, dated, team_label))


def _cite(source: SourceRef, dated: bool = True, team_label: str = "team-measured") -> str:
    date = f", {_text(source_date(source.date))}" if dated else ""
    return (
        f'<a class="cite" href="/sources#{_text(source.slug)}" title="{_text(source.title)}">'
        f"{_text(source.short)}{date}</a>{_caveat_mark(source)}{_team_mark(source, team_label)}"
    )


def source_line(source: SourceRef) -> Markup:
    """A source in a list of sources: its cited name first, then its full title and date."""
    return Markup(
        f'<a href="/sources#{_text(source.slug)}">{_text(source.short)}</a>'
        f"{_caveat_mark(source)}{_team_mark(source, 'team')}"
        f' <span class="muted">— {_text(source.title)}, {_text(source_date(source.date))}</span>'
    )


_DISSENT_NOUN = {
    "article": "An article",
    "paper": "A paper",
    "benchmark-report": "A benchmark report",
}


def dissent(claim: ClaimView) -> Markup:
    """An outweighed claim's label in the cell panel, "An article disagrees (Jun 2026)": the
    project's own sources agree and outweigh it, so the cell is not disputed
    (app/queries/cells.py `outweighed`). Empty for any other claim."""
    if not claim.outweighed:
        return Markup("")
    noun = _DISSENT_NOUN.get(claim.source.kind, "A source")
    return Markup(
        f'<span class="dissent-flag">{noun} disagrees ({_text(source_date(claim.source.date))})'
        '<span class="visually-hidden">, outweighed by the project\'s own word</span></span>'
    )


def claim_cite(claim: ClaimView) -> Markup:
    """One source's claim in a table cell: its level and note on hover, its own rating as a
    superscript."""
    return Markup(_claim_cite(claim))


def _claim_cite(claim: ClaimView) -> str:
    source = claim.source
    note = f" — {_text(claim.note)}" if claim.note else ""
    text = (
        f'<a class="cite" href="/sources#{_text(source.slug)}" title="{_text(source.title)}: '
        f'{_text(level_label(claim.level))}{note}">{_text(source.short)}</a>'
    )
    if claim.strength:
        s = _text(claim.strength)
        text += (
            f'<sup class="rating" title="The source\'s own rating: {s} of 3">{s}'
            '<span class="visually-hidden"> of 3 in the source\'s own rating</span></sup>'
        )
    text += f"{_caveat_mark(source)}{_team_mark(source, 'team claim')}"
    if claim.withdrawn:
        text += (
            f' <span class="badge withdrawn-badge" title="{_text(source.short)} no longer says'
            " this in the published data; kept because the team's notes refer to it. It is not"
            ' counted.">withdrawn</span>'
        )
    return text


def line_cites(line: SummaryLine) -> Markup:
    """The sources of a summary line and of the lines folded into it, each cited once (the
    first of a slug, compared without case as Jinja's `unique` did), separated by semicolons."""
    seen: set[str] = set()
    cited: list[str] = []
    for source in [line.source, *(s.source for s in line.similar)]:
        key = source.slug.lower()
        if key not in seen:
            seen.add(key)
            cited.append(_cite(source))
    return Markup("; ".join(cited))


class _CompareRow(Protocol):
    @property
    def cells(self) -> Sequence[Cell | None]: ...
    @property
    def ahead(self) -> int | None: ...


def compare_cells(row: _CompareRow) -> Markup:
    """A /compare feature or hardware row's cells, one <td> per system: the level read, the
    marks for disputed and ahead, and the claims cited; or "No source says". Laid out as the
    template's loop laid them out, line breaks included."""
    text = ""
    for n, cell in enumerate(row.cells):
        if cell:
            disputed = ' <span class="disputed-flag">⚑ Disputed</span>' if cell.disputed else ""
            ahead = ' <span class="ahead">▲ ahead</span>' if row.ahead == n else ""
            cites = ", ".join([_claim_cite(c) for c in cell.claims])
            inner = (
                f'{_level(cell.level, None)}{disputed}{ahead}\n    <div class="cell-sources">'
                f"{cites}</div>\n  "
            )
        else:
            inner = '<span class="no-claim">No source says</span>'
        text += f"\n  <td>{inner}</td>\n  "
    return Markup(text)


def hardware_of(r: BenchmarkView) -> Markup:
    """A figure's hardware (with its GPU count), linked to its vocabulary page; "—" if unsaid."""
    if not r.hardware:
        return Markup("—")
    gpus = f"{_text(r.gpus)}× " if r.gpus else ""
    vague = " vague" if r.hardware_vague else ""
    text = (
        f'{gpus}<a href="/hardware/{_text(r.hardware)}" class="vocab{vague}">'
        f"{_text(r.hardware_name)}</a>"
    )
    if r.hardware_text:
        text += f'<div class="note">given as “{_text(r.hardware_text)}”</div>'
    return Markup(text)


def model_of(r: BenchmarkView) -> Markup:
    """A figure's model, linked to its vocabulary page ("—" if unsaid), and its precision."""
    if r.model:
        vague = " vague" if r.model_vague else ""
        text = f'<a href="/models/{_text(r.model)}" class="vocab{vague}">{_text(r.model_name)}</a>'
        if r.model_text:
            text += f'<div class="note">given as “{_text(r.model_text)}”</div>'
    else:
        text = "—"
    if r.precision:
        text += f" · {_text(r.precision)}"
    return Markup(text)


def workload_of(r: BenchmarkView) -> Markup:
    """A figure's workload ("—" if unsaid) and our line on the source's setup."""
    text = _text(r.workload_name) if r.workload else "—"
    if r.setup:
        text += f'<div class="note">{_text(r.setup)}</div>'
    return Markup(text)


class _Facts(Protocol):
    since: str | None
    how: str | None
    page: str | None


def claim_facts(claim: _Facts) -> Markup:
    """What a first-party source's claim adds: the version it arrived in, how to turn it on,
    the page that says so and, for a chained claim, the engine's page that names the feature."""
    since, how, page = claim.since, claim.how, claim.page
    engine_page: str | None = getattr(claim, "engine_page", None)  # published claims only
    if not (since or how or page or engine_page):
        return Markup("")
    text = '<dl class="claim-facts">'
    if since:
        text += f"<div><dt>Since</dt><dd>{_text(since)}</dd></div>"
    if how:
        text += f"<div><dt>How</dt><dd><code>{_text(how)}</code></dd></div>"
    for label, url in (("Page", page), ("Engine's page", engine_page)):
        if url:
            name = url.rstrip("/").rsplit("/", 1)[-1] or url
            text += (
                f'<div><dt>{label}</dt><dd><a href="{_text(url)}" rel="noopener">'
                f"{_text(name)}</a></dd></div>"
            )
    return Markup(text + "\n</dl>")


class _Column(Protocol):
    slug: str
    name: str
    description: str


class _Group(Protocol):
    @property
    def columns(self) -> Sequence[_Column]: ...


def cap_headers(
    groups: Iterable[_Group], pinned: Sequence[str], order: Mapping[str, int], *, pinned_part: bool
) -> Markup:
    """The matrix's column headers, group by group, of the pinned columns (`pinned_part`) or
    of the others; `order` is each column's place in the groups' order (for sorting)."""
    text = ""
    for group in groups:
        for column in group.columns:
            slug = column.slug
            is_pinned = slug in pinned
            if is_pinned != pinned_part:
                continue
            e = _text(slug)
            highlighted = " is-highlighted" if is_pinned else ""
            text += (
                f'<th scope="col" data-order="{order[slug]}" class="cap{highlighted}'
                f'{pin_class(slug, pinned)}" id="col-{e}" title="{_text(column.description)}">'
                f'<a href="/features/{e}"><span>{_text(column.name)}</span></a></th>'
            )
    return Markup(text)


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
    pin = pin_class(capability, pinned)
    cap = _text(capability)
    sys = _text(system)
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
    classes = f"lv lv-{_text(lv)}"
    if cell.disputed:
        classes += " is-disputed"
    if cell.weak:
        classes += " is-weak"
    if capability in highlighted:
        classes += " is-highlighted"
    text = f'<td class="{classes}{pin}">{link}<span aria-hidden="true">{_matrix_mark(lv)}'

    if cell.strength:
        text += f"<sup>{_text(cell.strength)}</sup>"
    if cell.disputed:
        text += '<span class="flag" aria-hidden="true">⚑</span>'
        text += '<span class="visually-hidden"> disputed</span>'
    if cell.weak:
        text += (
            '<span class="weak-mark" aria-hidden="true">?</span><span class="visually-hidden">'
            " weak: only a source with a caveat says so</span>"
        )
    return text + "</a></td>"


@functools.cache
def _matrix_mark(level: str) -> str:
    # A handful of levels, each written thousands of times on a page.
    return f"{_text(level_icon(level))}</span>{_text(level_short(level))}"


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


class _SupportCell(Protocol):
    level: str
    disputed: bool
    since: str | None
    until: str | None


def support_cell(system: str, architecture: str, cell: _SupportCell | None) -> Markup:
    """One cell of the models matrix: the level and since which release (or until which it
    was served), linked to the registry rows behind it; "no source says" when none does."""
    sys, arch = _text(system), _text(architecture)
    if cell is None:
        return Markup(
            '<td class="lv lv-no-claim"><span class="no-claim-mark" aria-hidden="true">◌</span>'
            '<span class="visually-hidden">no source says</span></td>'
        )
    classes = f"lv lv-{_text(cell.level)}" + (" is-disputed" if cell.disputed else "")
    text = (
        f'<td class="{classes}"><a data-cell="{sys}:{arch}" href="/matrix/cell?system={sys}'
        f'&amp;architecture={arch}"><span aria-hidden="true">{_matrix_mark(cell.level)}'
    )
    if cell.disputed:
        text += '<span class="flag" aria-hidden="true">⚑</span><span class="visually-hidden">'
        text += " disputed</span>"
    if cell.until:
        text += f'<small class="since">until {_text(cell.until)}</small>'
    elif cell.since:
        text += f'<small class="since">{_text(cell.since)}</small>'
    return Markup(text + "</a></td>")
