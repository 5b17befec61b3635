"""The picture a shared /compare link unfurls with: systems, licences and key differences.

Drawn on the server with Pillow (1200×630, the size chat apps and social sites expect), so a
link pasted into a chat shows what it compares before anyone opens it. Pure: a Comparison in,
PNG bytes out; no database, no HTTP.
"""

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from app.queries.compare import CompareRow, Comparison

WIDTH, HEIGHT = 1200, 630
MARGIN = 56
LABEL_WIDTH = 300
ROW_HEIGHT = 46
MAX_CAPABILITY_ROWS = 5
INK, MUTED, RULE, ACCENT = "#1d232c", "#555d6b", "#d9dde4", "#0172ad"
# Text and background per level, the same pairs as the pages' light scheme.
LEVEL_COLOURS = {
    "yes": ("#1b6e3a", "#e3f4e8"),
    "via": ("#1f4f8a", "#e2ecf8"),
    "partial": ("#7a4d00", "#fdf0d5"),
    "experimental": ("#7a4d00", "#fdf0d5"),
    "no": ("#8a1f2b", "#f9e1e4"),
    "unknown": ("#4a4f57", "#eceef1"),
}
LEVEL_WORDS = {
    "yes": "Yes",
    "via": "Via",
    "partial": "Partial",
    "experimental": "Experimental",
    "no": "No",
    "unknown": "Unknown",
}
SHORT_WORDS = {"partial": "Part.", "experimental": "Exp.", "unknown": "?"}  # for narrow columns
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font(size: int, bold: bool = False) -> Font:
    """DejaVu where the system has it; otherwise Pillow's own font, so the picture never fails."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size=size)


def preview_png(comparison: Comparison, names: list[str], site: str) -> bytes:
    """The preview of `comparison` (systems named `names`, in order) as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 10, HEIGHT), fill=ACCENT)
    draw.text((MARGIN, 34), "Inference Atlas · compare", font=font(22, True), fill=ACCENT)
    title = fit(draw, " vs ".join(names), WIDTH - 2 * MARGIN, 50, bold=True)
    draw.text((MARGIN, 70), title[0], font=title[1], fill=INK)
    draw.text((MARGIN, 140), comparison.headline(), font=font(24), fill=MUTED)
    _table(draw, comparison, names, top=196)
    footer = f"Every claim cites its source · {site}"
    draw.text((MARGIN, HEIGHT - 44), footer, font=font(20), fill=MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def fit(
    draw: ImageDraw.ImageDraw, text: str, width: int, size: int, bold: bool = False
) -> tuple[str, Font]:
    """`text` in the largest font up to `size` that fits `width`, cut with … if even 60% won't."""
    for step in range(size, int(size * 0.6), -2):
        if draw.textlength(text, font=font(step, bold)) <= width:
            return text, font(step, bold)
    small = font(int(size * 0.6), bold)
    while text and draw.textlength(text + "…", font=small) > width:
        text = text[:-1]
    return text + "…", small


def key_rows(comparison: Comparison) -> list[CompareRow]:
    """Differences worth a glance: rows with a system strictly ahead first, then the rest."""
    rows = [r for s in comparison.features + comparison.hardware for r in s.rows if r.differs]
    rows.sort(key=lambda r: r.ahead is None)  # stable: seed order within each group
    return rows[:MAX_CAPABILITY_ROWS]


def _table(draw: ImageDraw.ImageDraw, comparison: Comparison, names: list[str], top: int) -> None:
    column = (WIDTH - 2 * MARGIN - LABEL_WIDTH) // len(names)
    xs = [MARGIN + LABEL_WIDTH + i * column for i in range(len(names))]
    for x, name in zip(xs, names, strict=True):
        text, face = fit(draw, name, column - 16, 26, bold=True)
        draw.text((x, top), text, font=face, fill=INK)
    y = top + 44
    overview = {r.name: r.values for r in comparison.overview}
    for label in ("Kind", "Licence"):
        if label in overview:
            y = _text_row(draw, label, overview[label], xs, column, y)
    rows = key_rows(comparison)
    for row in rows:
        y = _level_row(draw, row, xs, column, y)
    if not rows:
        note = "No feature or hardware row where the sources disagree."
        draw.text((MARGIN, y + 12), note, font=font(22), fill=MUTED)


def _rule(draw: ImageDraw.ImageDraw, y: int) -> None:
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=1)


def _text_row(
    draw: ImageDraw.ImageDraw, label: str, values: list[str], xs: list[int], column: int, y: int
) -> int:
    _rule(draw, y)
    draw.text((MARGIN, y + 10), label, font=font(22, True), fill=INK)
    for x, value in zip(xs, values, strict=True):
        text, face = fit(draw, value, column - 16, 22)
        draw.text((x, y + 10), text, font=face, fill=MUTED if value == "not stated" else INK)
    return y + ROW_HEIGHT


def _level_row(
    draw: ImageDraw.ImageDraw, row: CompareRow, xs: list[int], column: int, y: int
) -> int:
    _rule(draw, y)
    label, face = fit(draw, row.name, LABEL_WIDTH - 16, 22, bold=True)
    draw.text((MARGIN, y + 10), label, font=face, fill=INK)
    for index, (x, cell) in enumerate(zip(xs, row.cells, strict=True)):
        if cell is None:
            draw.text((x, y + 11), "no source says", font=font(20), fill=MUTED)
            continue
        ahead = row.ahead == index
        words = _level_words(draw, cell.level, ahead, column - 12)
        ink, fill = LEVEL_COLOURS.get(cell.level, LEVEL_COLOURS["unknown"])
        _pill(draw, x, y + 6, words, ink, fill, ahead)
    return y + ROW_HEIGHT


def _level_words(draw: ImageDraw.ImageDraw, level: str, ahead: bool, width: int) -> str:
    """'Experimental', or 'Exp.' when the column is too narrow for the long word (and mark)."""
    words = LEVEL_WORDS.get(level, level)
    if draw.textlength(words, font=font(21, True)) + 22 + (AHEAD_MARK if ahead else 0) > width:
        words = SHORT_WORDS.get(level, words)
    return words


AHEAD_MARK = 22  # room for the ▲, drawn as a shape: not every font has the glyph


def _pill(
    draw: ImageDraw.ImageDraw, x: int, y: int, text: str, ink: str, fill: str, ahead: bool = False
) -> None:
    face = font(21, True)
    width = int(draw.textlength(text, font=face)) + (AHEAD_MARK if ahead else 0)
    draw.rounded_rectangle((x, y, x + width + 22, y + 33), radius=8, fill=fill)
    draw.text((x + 11, y + 4), text, font=face, fill=ink)
    if ahead:
        left = x + width + 11 - 14
        draw.polygon([(left, y + 24), (left + 14, y + 24), (left + 7, y + 11)], fill=ink)
