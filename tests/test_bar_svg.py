"""app/present/bar_svg.py draws, byte for byte, what the `bar_chart` macro of
templates/macros/charts.html drew (kept here as it was), for plain, ranged and team bars in
each layout. The x10 page snapshots hold no team bar, so this is where those are checked."""

import itertools

import pytest

from app.present import bar_svg, charts
from app.present.charts import BarInput
from app.web.render import templates

OLD = """
{% macro bar_chart(chart, id, variant="wide") -%}
<svg class="chart chart-{{ variant }}" viewBox="0 0 {{ chart.width }} {{ chart.height }}" width="{{ chart.width }}" role="img" aria-labelledby="{{ id }}-title {{ id }}-desc" preserveAspectRatio="xMinYMin meet">
  <title id="{{ id }}-title">{{ chart.title }}</title>
  <desc id="{{ id }}-desc">Bar chart; the same figures are in the table below it.</desc>
  {% if chart.bars | selectattr("team") | list %}<defs>{{ hatch(id ~ "-team") }}</defs>{% endif %}
  <g class="grid">
    {% for t in chart.ticks %}
    <line x1="{{ chart.plot_left + t.position }}" x2="{{ chart.plot_left + t.position }}" y1="0" y2="{{ chart.height - 34 }}"></line>
    <text class="tick" x="{{ chart.plot_left + t.position }}" y="{{ chart.height - 20 }}" text-anchor="{{ 'start' if chart.stacked and loop.first else 'middle' }}">{{ t.label }}</text>
    {% endfor %}
    <text class="axis-label" x="{{ chart.plot_left + chart.plot_width / 2 }}" y="{{ chart.height - 4 }}" text-anchor="middle">{{ chart.unit }}</text>
  </g>
  {% for b in chart.bars %}
  <g class="bar">
    <title>{{ b.title }}</title>
    {% if chart.stacked %}
    <text class="bar-label" x="{{ chart.plot_left }}" y="{{ b.y - 4 }}">{{ b.label }}</text>
    {% else %}
    <text class="bar-label" x="{{ chart.plot_left - 8 }}" y="{{ b.y + chart.bar_height * 0.68 }}" text-anchor="end">{{ b.label }}</text>
    {% endif %}
    <rect x="{{ chart.plot_left }}" y="{{ b.y }}" width="{{ '%.2f' % b.length }}" height="{{ chart.bar_height }}" fill="{{ b.colour }}" rx="2"></rect>
    {% if b.team %}<rect class="team-mark" x="{{ chart.plot_left }}" y="{{ b.y }}" width="{{ '%.2f' % b.length }}" height="{{ chart.bar_height }}" fill="url(#{{ id }}-team)" rx="2"></rect>{% endif %}
    {% if b.error_from is not none %}
    <g class="range">
      <line x1="{{ '%.2f' % (chart.plot_left + b.error_from) }}" x2="{{ '%.2f' % (chart.plot_left + b.error_to) }}" y1="{{ b.y + chart.bar_height / 2 }}" y2="{{ b.y + chart.bar_height / 2 }}"></line>
      <line x1="{{ '%.2f' % (chart.plot_left + b.error_from) }}" x2="{{ '%.2f' % (chart.plot_left + b.error_from) }}" y1="{{ b.y + 4 }}" y2="{{ b.y + chart.bar_height - 4 }}"></line>
      <line x1="{{ '%.2f' % (chart.plot_left + b.error_to) }}" x2="{{ '%.2f' % (chart.plot_left + b.error_to) }}" y1="{{ b.y + 4 }}" y2="{{ b.y + chart.bar_height - 4 }}"></line>
    </g>
    {% endif %}
    <text class="value" x="{{ '%.2f' % (chart.plot_left + [b.length, b.error_to or 0] | max + 6) }}" y="{{ b.y + chart.bar_height * 0.68 }}">{{ b.value_label }}</text>
  </g>
  {% endfor %}
</svg>
{%- endmacro %}

{% macro hatch(pattern_id) -%}
<pattern id="{{ pattern_id }}" class="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="2.5" height="6"></rect></pattern>
{%- endmacro %}
"""  # noqa: E501


def old_chart(chart: charts.BarChart, id: str, variant: str) -> str:
    template = templates.env.from_string(OLD + "{{ bar_chart(chart, id, variant) }}")
    return template.render(chart=chart, id=id, variant=variant).lstrip("\n")


ITEMS = [
    BarInput("vLLM", 2300.0, None, None, "2,300 tok/s", "vllm"),
    BarInput("SGLang <0.4> & co", None, 1800.0, 2500.0, "1,800–2,500", "sglang"),
    BarInput("Team's run", 950.5, None, None, "~950", "team", team=True),
    BarInput('"Quoted"', 0.0, None, None, "0", "odd"),
    BarInput("Ranged team", None, 10.0, 3100.0, "10–3,100", "t2", team=True),
]


@pytest.mark.parametrize("stacked", [False, True])
@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_bar_chart_matches_the_old_macro(stacked: bool, count: int) -> None:
    for width, (id, variant) in itertools.product(
        [640, 420, 330], [("cmp-1", "wide"), ("ctx&2-medium", "medium"), ("x", "narrow")]
    ):
        chart = charts.bar_chart("Output <tok/s>", "tok/s", ITEMS[:count], width, stacked)
        assert str(bar_svg.bar_chart(chart, id, variant)) == old_chart(chart, id, variant)
