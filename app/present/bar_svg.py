"""A bar chart (app/present/charts.py BarChart) as SVG, for the context cards of /compare
and /benchmarks.

It was the `bar_chart` macro of templates/macros/charts.html; each card draws its chart three
times (wide, medium, narrow), and with the claims' marks moved to app/present/marks.py these
drawings were the largest part of rendering /compare. This writes, byte for byte, what the
macro wrote (tests/test_bar_svg.py), numbers included: Jinja wrote a number as str() does.
"""

from markupsafe import Markup

from app.present.charts import BarChart
from app.present.marks import _text

HATCH = (
    '<pattern id="{}" class="hatch" width="6" height="6" patternUnits="userSpaceOnUse"'
    ' patternTransform="rotate(45)"><rect width="2.5" height="6"></rect></pattern>'
)


def hatch(pattern_id: str) -> Markup:
    """Diagonal stripes of the card's own background laid over a team bar's colour."""
    return Markup(HATCH.format(_text(pattern_id)))


def bar_chart(chart: BarChart, id: str, variant: str = "wide") -> Markup:
    """One drawing of the chart; `variant` (wide, medium, narrow) is the layout CSS shows."""
    i = _text(id)
    left, height, bar_height = chart.plot_left, chart.height, chart.bar_height
    out = [
        f'<svg class="chart chart-{_text(variant)}" viewBox="0 0 {chart.width} {height}"'
        f' width="{chart.width}" role="img" aria-labelledby="{i}-title {i}-desc"'
        ' preserveAspectRatio="xMinYMin meet">\n'
        f'  <title id="{i}-title">{_text(chart.title)}</title>\n'
        f'  <desc id="{i}-desc">Bar chart; the same figures are in the table below it.</desc>\n'
        "  "
    ]
    if any(b.team for b in chart.bars):
        out.append(f"<defs>{HATCH.format(_text(id + '-team'))}</defs>")
    out.append('\n  <g class="grid">\n    ')
    for n, t in enumerate(chart.ticks):
        x = left + t.position
        anchor = "start" if chart.stacked and n == 0 else "middle"
        out.append(
            f'\n    <line x1="{x}" x2="{x}" y1="0" y2="{height - 34}"></line>\n'
            f'    <text class="tick" x="{x}" y="{height - 20}" text-anchor="{anchor}">'
            f"{_text(t.label)}</text>\n    "
        )
    out.append(
        f'\n    <text class="axis-label" x="{left + chart.plot_width / 2}" y="{height - 4}"'
        f' text-anchor="middle">{_text(chart.unit)}</text>\n  </g>\n  '
    )
    for b in chart.bars:
        y = b.y
        out.append(f'\n  <g class="bar">\n    <title>{_text(b.title)}</title>\n    ')
        if chart.stacked:
            out.append(
                f'\n    <text class="bar-label" x="{left}" y="{y - 4}">'
                f"{_text(b.label)}</text>\n    "
            )
        else:
            out.append(
                f'\n    <text class="bar-label" x="{left - 8}" y="{y + bar_height * 0.68}"'
                f' text-anchor="end">{_text(b.label)}</text>\n    '
            )
        length = f"{b.length:.2f}"
        out.append(
            f'\n    <rect x="{left}" y="{y}" width="{length}" height="{bar_height}"'
            f' fill="{_text(b.colour)}" rx="2"></rect>\n    '
        )
        if b.team:
            out.append(
                f'<rect class="team-mark" x="{left}" y="{y}" width="{length}"'
                f' height="{bar_height}" fill="url(#{i}-team)" rx="2"></rect>'
            )
        out.append("\n    ")
        if b.error_from is not None:
            low = f"{left + b.error_from:.2f}"
            high = f"{left + b.error_to:.2f}"  # type: ignore[operator]
            mid = y + bar_height / 2
            top, bottom = y + 4, y + bar_height - 4
            out.append(
                '\n    <g class="range">\n'
                f'      <line x1="{low}" x2="{high}" y1="{mid}" y2="{mid}"></line>\n'
                f'      <line x1="{low}" x2="{low}" y1="{top}" y2="{bottom}"></line>\n'
                f'      <line x1="{high}" x2="{high}" y1="{top}" y2="{bottom}"></line>\n'
                "    </g>\n    "
            )
        end = f"{left + max(b.length, b.error_to or 0) + 6:.2f}"
        out.append(
            f'\n    <text class="value" x="{end}" y="{y + bar_height * 0.68}">'
            f"{_text(b.value_label)}</text>\n  </g>\n  "
        )
    out.append("\n</svg>")
    return Markup("".join(out))
