"""app/present/marks.py writes, byte for byte, what the Jinja macros it replaced wrote.

The macros are kept here as they were (templates/macros/ui.html and macros/matrix.html before
the move) and rendered with the site's own template environment, so its filters and
autoescaping, against the same inputs: text that needs escaping, missing notes, ratings,
caveats, the team's own source, withdrawn claims and every kind of matrix cell. The page
snapshots of the x10 data hold none of the team's sources or withdrawn claims, so this is
where those branches are checked.
"""

import functools
import itertools
from typing import Any

import pytest
from jinja2 import Template

from app.present import marks
from app.queries.compare import CompareRow
from app.queries.matrix import MatrixCell
from app.queries.matrix_data import MatrixColumn, MatrixGroup
from app.schemas import BenchmarkView, Caveat, Cell, ClaimView, SourcedText, SourceRef, SummaryLine
from app.web.render import templates

OLD_UI = """
{% macro level(level, strength=None) -%}
<span class="level level-{{ level }}"><span class="level-icon" aria-hidden="true">{{ level | level_icon }}</span> {{ level | level_label }}
{%- if strength %}<sup class="strength" title="The source's own rating: {{ strength }} of 3">{{ strength }}</sup><span class="visually-hidden"> (the source rates it {{ strength }} of 3)</span>{% endif %}</span>
{%- endmacro %}
{% macro cite(source, dated=True, team_label="team-measured") -%}
<a class="cite" href="/sources#{{ source.slug }}" title="{{ source.title }}">{{ source.short }}{% if dated %}, {{ source.date | source_date }}{% endif %}</a>{{ caveat_mark(source) }}{{ team_mark(source, team_label) }}
{%- endmacro %}
{% macro team_mark(source, label="team-measured") -%}
{% if source.kind == "team-measurement" %} <span class="badge team-badge" title="Added by this instance's team, not taken from a published source">{{ label }}</span>{% endif %}
{%- endmacro %}
{% macro source_line(source) -%}
<a href="/sources#{{ source.slug }}">{{ source.short }}</a>{{ caveat_mark(source) }}{{ team_mark(source, "team") }} <span class="muted">— {{ source.title }}, {{ source.date | source_date }}</span>
{%- endmacro %}
{% macro claim_cite(claim) -%}
<a class="cite" href="/sources#{{ claim.source.slug }}" title="{{ claim.source.title }}: {{ claim.level | level_label }}{% if claim.note %} — {{ claim.note }}{% endif %}">{{ claim.source.short }}</a>
{%- if claim.strength %}<sup class="rating" title="The source's own rating: {{ claim.strength }} of 3">{{ claim.strength }}<span class="visually-hidden"> of 3 in the source's own rating</span></sup>{% endif %}{{ caveat_mark(claim.source) }}{{ team_mark(claim.source, "team claim") }}
{%- if claim.withdrawn %} <span class="badge withdrawn-badge" title="{{ claim.source.short }} no longer says this in the published data; kept because the team's notes refer to it. It is not counted.">withdrawn</span>{% endif %}
{%- endmacro %}
{% macro claim_facts(claim) -%}
{% if claim.since or claim.how or claim.page %}<dl class="claim-facts">
{%- if claim.since %}<div><dt>Since</dt><dd>{{ claim.since }}</dd></div>{% endif %}
{%- if claim.how %}<div><dt>How</dt><dd><code>{{ claim.how }}</code></dd></div>{% endif %}
{%- if claim.page %}<div><dt>Page</dt><dd><a href="{{ claim.page }}" rel="noopener">{{ claim.page.rstrip("/").rsplit("/", 1)[-1] or claim.page }}</a></dd></div>{% endif %}
</dl>{% endif %}
{%- endmacro %}
{% macro caveat_mark(source) -%}
{% if source.caveats %}<a class="caveat" href="/sources#{{ source.slug }}" data-tip="{{ source.caveats | map(attribute='text') | join(' ') }}"><span aria-hidden="true">⚠</span><span class="visually-hidden">(caveat: {{ source.caveats | map(attribute='kind') | map('caveat_label') | join('; ') }})</span></a>{% endif %}
{%- endmacro %}
{% macro pin_class(slug, pinned) -%}
{%- if slug in pinned %} pin pin-{{ pinned.index(slug) + 1 }}{% if pinned.index(slug) + 1 == pinned | length %} pin-last{% endif %}{% endif -%}
{%- endmacro %}
{% macro level_cell(row, cell, pinned, highlighted, can_edit) -%}
{% if cell.level == "no-claim" and cell.withdrawn %}<td class="lv lv-no-claim{{ pin_class(cell.capability, pinned) }}"><a data-cell="{{ row.system.slug }}:{{ cell.capability }}" href="/matrix/cell?system={{ row.system.slug }}&amp;capability={{ cell.capability }}"><span class="no-claim-mark" aria-hidden="true">◌</span><span class="visually-hidden">no current source says; withdrawn claims kept for the team's notes</span></a></td>
{%- elif cell.level == "no-claim" and can_edit %}<td class="lv lv-no-claim{{ pin_class(cell.capability, pinned) }}"><a data-cell="{{ row.system.slug }}:{{ cell.capability }}" href="/matrix/cell?system={{ row.system.slug }}&amp;capability={{ cell.capability }}"><span class="no-claim-mark" aria-hidden="true">◌</span><span class="visually-hidden">no source says: add the team's claim</span></a></td>
{%- elif cell.level == "no-claim" %}<td class="lv lv-no-claim{{ pin_class(cell.capability, pinned) }}"><span class="no-claim-mark" aria-hidden="true">◌</span><span class="visually-hidden">no source says</span></td>
{%- else %}<td class="lv lv-{{ cell.level }}{% if cell.disputed %} is-disputed{% endif %}{% if cell.weak %} is-weak{% endif %}{% if cell.capability in highlighted %} is-highlighted{% endif %}{{ pin_class(cell.capability, pinned) }}"><a data-cell="{{ row.system.slug }}:{{ cell.capability }}" href="/matrix/cell?system={{ row.system.slug }}&amp;capability={{ cell.capability }}"><span aria-hidden="true">{{ cell.level | level_icon }}</span>{{ cell.level | level_short }}{% if cell.strength %}<sup>{{ cell.strength }}</sup>{% endif %}{% if cell.disputed %}<span class="flag" aria-hidden="true">⚑</span><span class="visually-hidden"> disputed</span>{% endif %}{% if cell.weak %}<span class="weak-mark" aria-hidden="true">?</span><span class="visually-hidden"> weak: only a source with a caveat says so</span>{% endif %}</a></td>{% endif %}
{%- endmacro %}
"""  # noqa: E501


@functools.cache
def _compiled(call: str, extra: str) -> Template:
    return templates.env.from_string(OLD_UI + extra + "{{ " + call + " }}")


def old(call: str, extra: str = "", **values: Any) -> str:
    """What the old macros (and `extra` ones) write for `call`, a Jinja expression over
    `values`."""
    return _compiled(call, extra).render(**values).lstrip("\n")


CAVEATS = [
    [],
    [Caveat(kind="vendor-interest", text='Sold by "Acme" & <friends>')],
    [Caveat(kind="machine-written", text="It's odd."), Caveat(kind="some-new-kind", text="x")],
]
SOURCES = [
    SourceRef(slug=slug, short=short, title=title, date=date, kind=kind, caveats=caveats)
    for (slug, short, title, date), kind, caveats in itertools.product(
        [
            ("vllm-docs", "vLLM docs", "vLLM documentation", "2026-04-17"),
            ("a&b", 'Q&A "notes"', "<b>Title</b> it's", "2026-06"),
            ("odd", "O'Brien", "Year only", "2025"),
        ],
        ["article", "team-measurement", "docs"],
        CAVEATS,
    )
]


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: f"{s.slug}-{s.kind}-{len(s.caveats)}")
def test_source_marks_match_the_old_macros(source: SourceRef) -> None:
    for dated, label in itertools.product([True, False], ["team-measured", "team <claim>"]):
        assert str(marks.cite(source, dated, label)) == old(
            "cite(source, dated=dated, team_label=label)", source=source, dated=dated, label=label
        )
    assert str(marks.cite(source)) == old("cite(source)", source=source)
    assert str(marks.source_line(source)) == old("source_line(source)", source=source)
    assert str(marks.caveat_mark(source)) == old("caveat_mark(source)", source=source)
    assert str(marks.team_mark(source, "team")) == old('team_mark(source, "team")', source=source)
    assert str(marks.team_mark(source)) == old("team_mark(source)", source=source)


@pytest.mark.parametrize(
    "level", ["yes", "partial", "experimental", "via", "no", "unknown", "no-claim", "new<level>"]
)
def test_level_matches_the_old_macro(level: str) -> None:
    for strength in [None, 0, 1, 3]:
        assert str(marks.level(level, strength)) == old(
            "level(lv, strength)", lv=level, strength=strength
        )
    assert str(marks.level(level)) == old("level(lv)", lv=level)


CLAIMS = [
    ClaimView(
        level=level,
        strength=strength,
        note=note,
        source=source,
        withdrawn=withdrawn,
        since=since,
        how=how,
        page=page,
    )
    for level, strength, note, source, withdrawn, (since, how, page) in itertools.product(
        ["yes", "via", "odd-level"],
        [None, 2],
        [None, "", 'Needs "--flag" & <b>'],
        SOURCES[::4],
        [False, True],
        [
            (None, None, None),
            ("0.6.0", None, None),
            (None, "--enable-prefix-caching <x>", "https://docs.vllm.ai/en/latest/a&b/"),
            ("v1 'beta'", "--x", "https://example.org/"),
            (None, None, "https://example.org/docs/page"),
        ],
    )
]


def test_claim_marks_match_the_old_macros() -> None:
    for claim in CLAIMS:
        assert str(marks.claim_cite(claim)) == old("claim_cite(claim)", claim=claim)
        assert str(marks.claim_facts(claim)) == old("claim_facts(claim)", claim=claim)


class _Row:
    def __init__(self, slug: str) -> None:
        self.system = SourceRef(slug=slug, short="", title="", date="")  # only .slug is read


def test_matrix_cells_match_the_old_macro() -> None:
    cells = [
        MatrixCell(
            capability=capability,
            level=level,
            disputed=disputed,
            weak=weak,
            strength=strength,
            sources=[],
            withdrawn=withdrawn,
        )
        for capability, level, disputed, weak, strength, withdrawn in itertools.product(
            ["prefix-caching", "h100", "a&b"],
            ["yes", "no", "no-claim", "unknown", "via"],
            [False, True],
            [False, True],
            [None, 2],
            [False, True],
        )
    ]
    for pinned, highlighted, can_edit, slug in itertools.product(
        [[], ["h100"], ["a&b", "h100"], ["prefix-caching", "h100", "a&b"]],
        [[], ["prefix-caching"], ["a&b", "h100"]],
        [False, True],
        ["vllm", "x&y"],
    ):
        row = _Row(slug)
        for cell in cells:
            expected = old(
                "level_cell(row, cell, pinned, highlighted, can_edit)",
                row=row,
                cell=cell,
                pinned=pinned,
                highlighted=highlighted,
                can_edit=can_edit,
            )
            assert marks.level_cell(slug, cell, pinned, highlighted, can_edit) == expected
        for part in [True, False]:
            expected = "".join(
                old(
                    "level_cell(row, cell, pinned, highlighted, can_edit)",
                    row=row,
                    cell=cell,
                    pinned=pinned,
                    highlighted=highlighted,
                    can_edit=can_edit,
                )
                for cell in cells
                if (cell.capability in pinned) == part
            )
            got = marks.level_cells(slug, cells, pinned, highlighted, can_edit, pinned_part=part)
            assert str(got) == expected
        for capability in ["prefix-caching", "h100", "a&b"]:
            assert marks.pin_class(capability, pinned) == old(
                "pin_class(capability, pinned)", capability=capability, pinned=pinned
            )


OLD_LISTS = """
{%- macro compare_cells(row) %}
  {% for cell in row.cells %}
  <td>{% if cell %}{{ level(cell.level) }}{% if cell.disputed %} <span class="disputed-flag">⚑ Disputed</span>{% endif %}{% if row.ahead == loop.index0 %} <span class="ahead">▲ ahead</span>{% endif %}
    <div class="cell-sources">{% for claim in cell.claims %}{{ claim_cite(claim) }}{{ ", " if not loop.last }}{% endfor %}</div>
  {% else %}<span class="no-claim">No source says</span>{% endif %}</td>
  {% endfor %}
{% endmacro %}
{%- macro line_cites(line) %}{% set sources = ([line.source] + line.similar | map(attribute="source") | list) | unique(attribute="slug") | list %}{% for s in sources %}{{ cite(s) }}{{ "; " if not loop.last }}{% endfor %}{% endmacro %}
"""  # noqa: E501


def test_lists_of_cites_match_the_old_loops() -> None:
    # Around its loop the old row wrote "\n  " before (old() drops the line break) and "\n"
    # after; the page keeps both around marks.compare_cells.
    for n, ahead in itertools.product(range(4), [None, 0, 2]):
        cells = [
            Cell(
                capability="c",
                name="C",
                description="",
                level=level,
                disputed=disputed,
                claims=CLAIMS[k * 5 : k * 5 + k],
            )
            for k, (level, disputed) in enumerate(itertools.product(["yes", "via"], [False, True]))
        ][:n]
        row = CompareRow(
            key="c",
            name="C",
            description="",
            cells=[*cells, None][: n + 1],
            covered=[],
            differs=False,
            gap=False,
            ahead=ahead,
        )
        expected = old("compare_cells(row)", OLD_LISTS, row=row)
        assert "  " + str(marks.compare_cells(row)) + "\n" == expected
    # A slug folded in twice, and once in other letter case, is cited once.
    upper = SOURCES[3].model_copy(update={"slug": SOURCES[3].slug.upper()})
    for similar in [[], SOURCES[:1], SOURCES[3:8], [*SOURCES[3:5], upper, SOURCES[3]]]:
        line = SummaryLine(
            text="Fast",
            source=SOURCES[0],
            similar=[SourcedText(text="t", source=s) for s in similar],
        )
        assert str(marks.line_cites(line)) == old("line_cites(line)", line=line, extra=OLD_LISTS)


OLD_HEADERS = """
{%- macro cap_header(column, pinned, order) -%}
<th scope="col" data-order="{{ order }}" class="cap{% if column.slug in pinned %} is-highlighted{% endif %}{{ pin_class(column.slug, pinned) }}" id="col-{{ column.slug }}" title="{{ column.description }}"><a href="/features/{{ column.slug }}"><span>{{ column.name }}</span></a></th>
{%- endmacro %}
{%- macro headers(groups, pinned, order, part) %}{% for group in groups %}{% for column in group.columns if (column.slug in pinned) == part %}{{ cap_header(column, pinned, order[column.slug]) }}{% endfor %}{% endfor %}{% endmacro %}
"""  # noqa: E501


def test_matrix_headers_match_the_old_macro() -> None:
    columns = [
        MatrixColumn(slug=slug, name=name, description=description, group="g")
        for slug, name, description in [
            ("prefix-caching", "Prefix caching", "Reuses the KV cache"),
            ("a&b", "A & <B>", 'Says "it\'s" fine'),
            ("h100", "H100", ""),
        ]
    ]
    groups = [
        MatrixGroup(slug="one", name="One", columns=columns[:2]),
        MatrixGroup(slug="two", name="Two", columns=columns[2:]),
    ]
    order = {c.slug: i for i, c in enumerate(columns)}
    for pinned, part in itertools.product(
        [[], ["h100"], ["a&b", "prefix-caching"], ["h100", "a&b", "prefix-caching"]], [True, False]
    ):
        got = marks.cap_headers(groups, pinned, order, pinned_part=part)
        expected = old(
            "headers(groups, pinned, order, part)",
            OLD_HEADERS,
            groups=groups,
            pinned=pinned,
            order=order,
            part=part,
        )
        assert str(got) == expected


OLD_FIGURE_PARTS = """
{% macro hardware_of(r) -%}
{%- if r.hardware -%}
{% if r.gpus %}{{ r.gpus }}× {% endif %}<a href="/hardware/{{ r.hardware }}" class="vocab{% if r.hardware_vague %} vague{% endif %}">{{ r.hardware_name }}</a>
{%- if r.hardware_text %}<div class="note">given as “{{ r.hardware_text }}”</div>{% endif %}
{%- else %}—{% endif -%}
{%- endmacro %}

{% macro model_of(r) -%}
{%- if r.model -%}
<a href="/models/{{ r.model }}" class="vocab{% if r.model_vague %} vague{% endif %}">{{ r.model_name }}</a>
{%- if r.model_text %}<div class="note">given as “{{ r.model_text }}”</div>{% endif %}
{%- else %}—{% endif %}{% if r.precision %} · {{ r.precision }}{% endif -%}
{%- endmacro %}

{% macro workload_of(r) -%}
{%- if r.workload %}{{ r.workload_name }}{% else %}—{% endif %}
{%- if r.setup %}<div class="note">{{ r.setup }}</div>{% endif -%}
{%- endmacro %}
"""  # noqa: E501


def test_figure_parts_match_the_old_macros() -> None:
    base: dict[str, Any] = dict(
        id="r1",
        system="vllm",
        system_name="vLLM",
        metric="m",
        metric_name="M",
        metric_kind="throughput",
        better="higher",
        value=1.0,
        low=None,
        high=None,
        qualifier="exact",
        unit="tok/s",
        concurrency=None,
        system_version=None,
        baseline=None,
        run_by=None,
        date=None,
        note=None,
        source=SOURCES[0],
        # The setting's parts are unknown unless a loop below varies them.
        hardware=None,
        model=None,
        precision=None,
        workload=None,
    )

    def figure(**fields: Any) -> BenchmarkView:
        return BenchmarkView(**{**base, **fields})

    texts = [None, "", 'H100 "SXM" & <co>']
    for hardware, gpus, vague, text in itertools.product(
        ["h100", None, "a&b"], [None, 0, 8], [False, True], texts
    ):
        r = figure(
            hardware=hardware,
            hardware_name="H100 <80GB>",
            gpus=gpus,
            hardware_vague=vague,
            hardware_text=text,
        )
        assert str(marks.hardware_of(r)) == old("hardware_of(r)", OLD_FIGURE_PARTS, r=r)
    for model, vague, text, precision in itertools.product(
        ["llama-3-8b", None], [False, True], texts, [None, "", "fp8 <x>"]
    ):
        r = figure(
            model=model,
            model_name="Llama 3 8B",
            model_vague=vague,
            model_text=text,
            precision=precision,
        )
        assert str(marks.model_of(r)) == old("model_of(r)", OLD_FIGURE_PARTS, r=r)
    for workload, name, setup in itertools.product(["chat", None], ["Chat & <RAG>", None], texts):
        r = figure(workload=workload, workload_name=name, setup=setup)
        assert str(marks.workload_of(r)) == old("workload_of(r)", OLD_FIGURE_PARTS, r=r)
