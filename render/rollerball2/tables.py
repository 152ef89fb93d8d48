"""Pages of plain tables for a phone: the game card, the box score's summary pages, standings.

A page is a title band, a few lead lines in large type, then titled tables (a header row and
shaded rows, text wrapped inside each cell). `paginate` splits long tables over several pages of
at most `max_height` pixels, repeating the title and the table's header, so no image is a
2,000-pixel strip a phone shrinks to nothing. Layout is kept apart from drawing so the tests can
check that every line stays inside its cell.

Phone-first (render/textsize.py): a page is 480 px wide (the PHONE style), and its smallest type
is 18 px: 11.2 px as a 390-px phone shows the page, 298 px wide in a card.
Pages are drawn on a palette canvas and written as indexed PNGs (`page_png`): a third of the
bytes to compress.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render.common import INK, LIGHT_GREY, PAPER
from render.rollerball2.palette import paint_png
from render.rollerball2.text import (
    Colour,
    PlacedText,
    Rect,
    clip_lines,
    draw_texts,
    line_height,
    place_lines,
    wrap,
)
from render.textsize import smallest_font

MARGIN = 16
PADDING = 5
ROW_SHADE = (238, 235, 225)
NOTE_INK = (70, 70, 70)
MAX_PAGE_HEIGHT = 1100


@dataclass(frozen=True)
class Style:
    """A page's width and type sizes (px)."""

    width: int
    title_height: int
    title_size: int
    lead_size: int
    table_title_size: int
    header_size: int
    text_size: int
    note_size: int

    @property
    def inner(self) -> int:
        return self.width - 2 * MARGIN


# The phone page: shown SHOWN_WIDTH (298) px wide in a card on a 390-px phone, so its smallest
# type, 18 px (smallest_font), shows 11.2 px tall.
PHONE = Style(480, 44, 20, 24, 20, smallest_font(480), 18, smallest_font(480))
# The page before the phone layout, kept for render_gamecard() (one tall image, 800 px wide).
WIDE = Style(800, 56, 24, 26, 22, 17, 20, 17)
PAGE_WIDTH = PHONE.width
TITLE_HEIGHT = PHONE.title_height


@dataclass(frozen=True)
class Column:
    heading: str
    width: int  # pixels on the phone page (scaled on a wider one); 0: it takes the rest
    align: str = "left"
    bold: bool = False


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    fill: Colour | None = None  # a row's own ground (e.g. a team colour tag), else shaded
    tag: Colour | None = None  # a colour strip at the row's left edge (which team)


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    stripe: Colour = INK  # the title's colour mark
    note: str = ""  # a legend line under the table


@dataclass(frozen=True)
class Band:
    box: Rect
    fill: Colour


@dataclass
class PageLayout:
    width: int
    height: int
    style: Style = PHONE
    texts: list[PlacedText] = field(default_factory=list)
    bands: list[Band] = field(default_factory=list)
    rules: list[tuple[int, int, int, int]] = field(default_factory=list)
    cells: list[Rect] = field(default_factory=list)  # every table cell, for the tests


def _widths(columns: tuple[Column, ...], width: int) -> list[int]:
    scale = width / PHONE.inner
    fixed = [round(column.width * scale) for column in columns]
    rest = width - sum(fixed)
    return [share or rest for share in fixed]


def _row_layout(
    style: Style,
    cells: tuple[str, ...],
    columns: tuple[Column, ...],
    top: int,
    size: int,
    bold_all: bool,
) -> tuple[list[PlacedText], list[Rect], int]:
    widths = _widths(columns, style.inner)
    wrapped = []
    for text, column, width in zip(cells, columns, widths, strict=True):
        bold = bold_all or column.bold
        lines = wrap(text, width - 2 * PADDING, size, bold=bold) if text else []
        wrapped.append((clip_lines(lines, size, width - 2 * PADDING, 3, bold=bold), bold))
    height = 2 * PADDING + max(
        [
            line_height(size, bold=True),
            *(len(lines) * line_height(size, bold=b) for lines, b in wrapped),
        ]
    )
    texts: list[PlacedText] = []
    boxes: list[Rect] = []
    left = MARGIN
    for (lines, bold), column, width in zip(wrapped, columns, widths, strict=True):
        box = (left, top, left + width, top + height)
        boxes.append(box)
        texts += place_lines(
            lines,
            box,
            size,
            bold=bold,
            fill=INK if not bold_all else PAPER,
            align=column.align,
            valign="middle",
            padding=PADDING,
        )
        left += width
    return texts, boxes, height


def _title(page: PageLayout, title: str) -> int:
    style = page.style
    page.bands.append(Band((0, 0, style.width, style.title_height), INK))
    page.texts += place_lines(
        clip_lines(
            wrap(title, style.inner, style.title_size, bold=True),
            style.title_size,
            style.inner,
            1,
            bold=True,
        ),
        (0, 0, style.width, style.title_height),
        style.title_size,
        bold=True,
        fill=PAPER,
        valign="middle",
        padding=MARGIN,
    )
    return style.title_height + 10


def _lead(page: PageLayout, lines_in: list[str], top: int) -> int:
    style = page.style
    size = style.lead_size
    for text in lines_in:
        lines = wrap(text, style.inner, size, bold=True)
        box = (MARGIN, top, style.width - MARGIN, top + len(lines) * line_height(size, bold=True))
        page.texts += place_lines(lines, box, size, bold=True, fill=INK)
        top = box[3] + 4
    return top + 6


def _table_head(page: PageLayout, table: Table, top: int, continued: bool) -> int:
    style = page.style
    size = style.table_title_size
    title = table.title + (" (continued)" if continued else "")
    room = style.inner - 14
    lines = clip_lines(wrap(title, room, size, bold=True), size, room, 2, bold=True)
    height = len(lines) * line_height(size, bold=True) + 2 * PADDING
    page.bands.append(Band((MARGIN, top, MARGIN + 8, top + height), table.stripe))
    page.texts += place_lines(
        lines,
        (MARGIN + 14, top, style.width - MARGIN, top + height),
        size,
        bold=True,
        fill=INK,
        valign="middle",
    )
    top += height + 2
    texts, _, head_height = _row_layout(
        style,
        tuple(column.heading for column in table.columns),
        table.columns,
        top,
        style.header_size,
        True,
    )
    page.bands.append(Band((MARGIN, top, style.width - MARGIN, top + head_height), INK))
    page.texts += texts
    return top + head_height


def _note(page: PageLayout, note: str, top: int) -> int:
    style = page.style
    lines = wrap(note, style.inner, style.note_size)
    box = (
        MARGIN,
        top + 4,
        style.width - MARGIN,
        top + 4 + len(lines) * line_height(style.note_size),
    )
    page.texts += place_lines(lines, box, style.note_size, fill=NOTE_INK)
    return box[3]


def paginate(
    title: str,
    lead: list[str],
    tables: list[Table],
    max_height: int = MAX_PAGE_HEIGHT,
    style: Style = PHONE,
) -> list[PageLayout]:
    """Lay the tables out on as many pages as they need; the lead lines go on the first page
    only, the title on every page ("title · page 2 of 3" when there are several)."""
    pages: list[PageLayout] = []
    width = style.width

    def new_page() -> tuple[PageLayout, int]:
        page = PageLayout(width, 0, style)
        pages.append(page)
        top = _title(page, title)
        return page, (_lead(page, lead, top) if len(pages) == 1 else top)

    page, top = new_page()
    bottom_room = MARGIN + 2 * line_height(style.note_size)
    for table in tables:
        top += 14
        if top + 150 > max_height:  # not even a heading and a row: start a new page
            page.height = top
            page, top = new_page()
        top = _table_head(page, table, top, continued=False)
        for index, row in enumerate(table.rows):
            texts, boxes, height = _row_layout(
                style, row.cells, table.columns, top, style.text_size, False
            )
            if top + height + bottom_room > max_height:
                page.height = top + MARGIN
                page, top = new_page()
                top = _table_head(page, table, top + 14, continued=True)
                texts, boxes, height = _row_layout(
                    style, row.cells, table.columns, top, style.text_size, False
                )
            if row.fill is not None:
                page.bands.append(Band((MARGIN, top, width - MARGIN, top + height), row.fill))
            elif index % 2:
                page.bands.append(Band((MARGIN, top, width - MARGIN, top + height), ROW_SHADE))
            if row.tag is not None:  # in the margin, clear of the first cell's text
                page.bands.append(Band((MARGIN - 11, top, MARGIN - 3, top + height), row.tag))
            page.texts += texts
            page.cells += boxes
            top += height
            page.rules.append((MARGIN, top, width - MARGIN, top))
        if table.note:
            top = _note(page, table.note, top)
    page.height = top + MARGIN
    if len(pages) > 1:
        for number, laid in enumerate(pages, start=1):
            laid.texts = [t for t in laid.texts if t.box != (0, 0, width, style.title_height)]
            _title(laid, f"{title} · page {number} of {len(pages)}")
    return pages


def page_png(page: PageLayout, level: int = 6) -> bytes:
    """The page as an indexed PNG (render/rollerball2/palette.py)."""
    return paint_png(
        (page.width, page.height),
        PAPER,
        fills=[(band.box, band.fill) for band in page.bands],
        lines=[(rule, LIGHT_GREY, 1) for rule in page.rules],
        texts=page.texts,
        outlines=[((0, 0, page.width, page.height), INK, 3)],
        level=level,
    )


def page_image(page: PageLayout) -> Image.Image:
    image = Image.new("RGB", (page.width, page.height), PAPER)
    draw = ImageDraw.Draw(image)
    for band in page.bands:
        box = band.box
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=band.fill)
    for rule in page.rules:
        draw.line(rule, fill=LIGHT_GREY, width=1)
    draw_texts(draw, page.texts)
    draw.rectangle((0, 0, page.width - 1, page.height - 1), outline=INK, width=3)
    return image
