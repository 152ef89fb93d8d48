"""Rollerball II Fast Action Cards as index-card images (5:3, the seed's 3" x 5" card stock).

The six sections are printed in the seed's order (ACTION, BIKER ID, ATTACK (SKATER/CATCHER),
ATTACK (BIKER), The BALL FIRES..., EVENT) as a two-column table like the seed's sample FAC:
headings on the left, the words on the right. The text is set as large as the card allows;
a card whose words do not fit even at the smallest size grows taller rather than cut rules
text. The section the game is reading can be highlighted, so a player sees at a glance which
part of the drawn card applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import (
    GREEN,
    INK,
    LIGHT_GREY,
    ORANGE,
    PAPER,
    PURPLE,
    SKY,
    VERMILION,
    YELLOW,
)
from render.rollerball2.faces import FAC_SECTIONS, FacFace
from render.rollerball2.palette import PaletteCanvas, paint_png, paint_rgb
from render.rollerball2.text import (
    Colour,
    PlacedText,
    Rect,
    clip_lines,
    draw_texts,
    fit_lines,
    line_height,
    place_lines,
    text_width,
    wrap,
)

FAC_WIDTH = 800
FAC_HEIGHT = 480  # 5:3, a 3" x 5" card at 160 dpi
BORDER = 3
HEADER_HEIGHT = 50
MARGIN = 11
LABEL_WIDTH = 166
CELL_PADDING = 7
STRIPE_WIDTH = 8
# Largest first. 14 px on an 800 px card is the floor: scaled to a 400 px preview that is
# still 7 px, legible when tapped open, and the card is only drawn that small when crowded.
TEXT_SIZES = tuple(range(24, 13, -1))
LABEL_SIZES = (17, 16, 15, 14, 13, 12)

# A colour strip per section helps find "the ATTACK part" quickly on a small screen.
SECTION_COLOURS = {
    "ACTION": ORANGE,
    "BIKER ID": PURPLE,
    "ATTACK (SKATER/CATCHER)": VERMILION,
    "ATTACK (BIKER)": VERMILION,
    "The BALL FIRES...": SKY,
    "EVENT": GREEN,
}
LABEL_SHADE = (236, 233, 222)
HIGHLIGHT_SHADE = (255, 247, 200)


@dataclass(frozen=True)
class FacLayout:
    """Where everything on a FAC goes; the tests read this to check that text stays inside."""

    width: int
    height: int
    text_size: int
    texts: list[PlacedText]
    header_box: Rect
    label_cells: list[Rect]
    text_cells: list[Rect]
    highlighted: int | None  # index of the highlighted section, if any


def _section_lines(face: FacFace, size: int, width: int) -> list[list[str]]:
    return [wrap(text, width, size) for _, text in face.sections]


def section_index(face: FacFace, heading: str) -> int:
    """Which of the six sections `heading` names (case and surrounding spaces ignored)."""
    wanted = heading.strip().upper()
    for index, (printed, _) in enumerate(face.sections):
        if printed.upper() == wanted:
            return index
    raise ValueError(f"a FAC has no section called {heading!r}; it has {', '.join(FAC_SECTIONS)}")


def layout_fac(face: FacFace, highlight: str | None = None) -> FacLayout:
    """Lay out a FAC: pick the largest text size at which all six sections fit the card."""
    headings = [heading for heading, _ in face.sections]
    highlighted = None if highlight is None else section_index(face, highlight)

    label_left = MARGIN
    label_right = label_left + LABEL_WIDTH
    text_left = label_right
    text_right = FAC_WIDTH - MARGIN
    label_inner = LABEL_WIDTH - STRIPE_WIDTH - 2 * CELL_PADDING
    text_inner = text_right - text_left - 2 * CELL_PADDING
    body_top = HEADER_HEIGHT + 6
    body_height = FAC_HEIGHT - MARGIN - body_top

    # Headings: one size for all six, the largest at which each fits in three lines, breaking
    # only between words or after a slash ("(SKATER/" over "CATCHER)"), never inside a word.
    label_size = LABEL_SIZES[-1]
    for size in LABEL_SIZES:
        if all(
            len(wrap(heading, label_inner, size, bold=True)) <= 3
            and all(
                text_width(part, size, bold=True) <= label_inner
                for part in re.findall(r"[^\s/]+/?", heading)
            )
            for heading in headings
        ):
            label_size = size
            break
    label_lines = [wrap(heading, label_inner, label_size, bold=True) for heading in headings]
    label_heights = [len(lines) * line_height(label_size, bold=True) for lines in label_lines]

    def row_heights(size: int) -> list[int]:
        step = line_height(size)
        return [
            max(label_h, len(lines) * step) + 2 * CELL_PADDING
            for label_h, lines in zip(
                label_heights, _section_lines(face, size, text_inner), strict=True
            )
        ]

    # Binary search for the largest size that fits (smaller type never needs more room, so
    # "fits" is monotonic); it costs four trial wraps instead of fourteen.
    smallest_first = sorted(TEXT_SIZES)
    low, high = 0, len(smallest_first) - 1
    text_size = smallest_first[0]
    while low <= high:
        middle = (low + high) // 2
        if sum(row_heights(smallest_first[middle])) <= body_height:
            text_size = smallest_first[middle]
            low = middle + 1
        else:
            high = middle - 1
    heights = row_heights(text_size)
    height = FAC_HEIGHT
    spare = body_height - sum(heights)
    if spare < 0:
        # Too many words even at the smallest size: the card grows instead of cutting text.
        height = FAC_HEIGHT - spare
        spare = 0
    # Share the spare room evenly so the table fills the card like a printed one.
    heights = [h + spare // len(heights) for h in heights]
    heights[-1] += spare % len(heights)

    texts: list[PlacedText] = []
    label_cells: list[Rect] = []
    text_cells: list[Rect] = []
    top = body_top
    all_text_lines = _section_lines(face, text_size, text_inner)
    for index, row_height in enumerate(heights):
        label_cell = (label_left, top, label_right, top + row_height)
        text_cell = (text_left, top, text_right, top + row_height)
        label_cells.append(label_cell)
        text_cells.append(text_cell)
        label_box = (
            label_left + STRIPE_WIDTH + CELL_PADDING,
            top + CELL_PADDING,
            label_right - CELL_PADDING,
            top + row_height - CELL_PADDING,
        )
        text_box = (
            text_left + CELL_PADDING,
            top + CELL_PADDING,
            text_right - CELL_PADDING,
            top + row_height - CELL_PADDING,
        )
        texts += place_lines(
            label_lines[index], label_box, label_size, bold=True, fill=INK, valign="middle"
        )
        texts += place_lines(all_text_lines[index], text_box, text_size, fill=INK, valign="middle")
        top += row_height

    header_box = (0, 0, FAC_WIDTH, HEADER_HEIGHT)
    title_box = (MARGIN + 6, 0, FAC_WIDTH // 2, HEADER_HEIGHT)
    texts += place_lines(
        ["FAST ACTION CARD"], title_box, 19, bold=True, fill=PAPER, valign="middle"
    )
    number_box = (FAC_WIDTH // 2, 0, FAC_WIDTH - MARGIN - 6, HEADER_HEIGHT)
    texts += place_lines(
        [f"No. {face.number}"],
        number_box,
        30,
        bold=True,
        fill=YELLOW,
        align="right",
        valign="middle",
    )

    return FacLayout(
        width=FAC_WIDTH,
        height=height,
        text_size=text_size,
        texts=texts,
        header_box=header_box,
        label_cells=label_cells,
        text_cells=text_cells,
        highlighted=highlighted,
    )


def fac_image(face: FacFace, highlight: str | None = None) -> Image.Image:
    layout = layout_fac(face, highlight)
    image = Image.new("RGB", (layout.width, layout.height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle(layout.header_box, fill=INK)
    for index, (label_cell, text_cell) in enumerate(
        zip(layout.label_cells, layout.text_cells, strict=True)
    ):
        heading = face.sections[index][0]
        is_highlighted = index == layout.highlighted
        draw.rectangle(label_cell, fill=YELLOW if is_highlighted else LABEL_SHADE)
        if is_highlighted:
            draw.rectangle(text_cell, fill=HIGHLIGHT_SHADE)
        stripe = (label_cell[0], label_cell[1], label_cell[0] + STRIPE_WIDTH, label_cell[3])
        draw.rectangle(stripe, fill=SECTION_COLOURS.get(heading, LIGHT_GREY))
        if index:
            draw.line(
                (label_cell[0], label_cell[1], text_cell[2], label_cell[1]),
                fill=LIGHT_GREY,
                width=2,
            )
    if layout.highlighted is not None:
        cell = layout.label_cells[layout.highlighted]
        right = layout.text_cells[layout.highlighted][2]
        draw.rectangle((cell[0], cell[1], right, cell[3]), outline=ORANGE, width=3)
    draw_texts(draw, layout.texts)
    draw.rectangle((0, 0, layout.width - 1, layout.height - 1), outline=INK, width=BORDER)
    return image


# Every colour a FAC uses, and every text colour on every ground it is printed on.
FAC_COLOURS = (
    INK,
    LABEL_SHADE,
    HIGHLIGHT_SHADE,
    YELLOW,
    ORANGE,
    LIGHT_GREY,
    *SECTION_COLOURS.values(),
)
FAC_TEXT_PAIRS = (
    (INK, PAPER),
    (INK, LABEL_SHADE),
    (INK, HIGHLIGHT_SHADE),
    (INK, YELLOW),
    (PAPER, INK),
    (YELLOW, INK),
)


def fac_png(face: FacFace, highlight: str | None = None) -> bytes:
    """The FAC of fac_image drawn on a palette canvas and written as an indexed PNG: the same
    card (text edges within 1/16 of the contrast), in a third of the encoding time."""
    layout = layout_fac(face, highlight)
    canvas = PaletteCanvas((layout.width, layout.height), PAPER, FAC_COLOURS, FAC_TEXT_PAIRS)
    draw, index = canvas.draw, canvas.index
    draw.rectangle(layout.header_box, fill=index(INK))
    for number, (label_cell, text_cell) in enumerate(
        zip(layout.label_cells, layout.text_cells, strict=True)
    ):
        heading = face.sections[number][0]
        is_highlighted = number == layout.highlighted
        draw.rectangle(label_cell, fill=index(YELLOW if is_highlighted else LABEL_SHADE))
        if is_highlighted:
            draw.rectangle(text_cell, fill=index(HIGHLIGHT_SHADE))
        stripe = (label_cell[0], label_cell[1], label_cell[0] + STRIPE_WIDTH, label_cell[3])
        draw.rectangle(stripe, fill=index(SECTION_COLOURS.get(heading, LIGHT_GREY)))
        if number:
            draw.line(
                (label_cell[0], label_cell[1], text_cell[2], label_cell[1]),
                fill=index(LIGHT_GREY),
                width=2,
            )
    if layout.highlighted is not None:
        cell = layout.label_cells[layout.highlighted]
        right = layout.text_cells[layout.highlighted][2]
        draw.rectangle((cell[0], cell[1], right, cell[3]), outline=index(ORANGE), width=3)
    canvas.text(layout.texts)
    draw.rectangle((0, 0, layout.width - 1, layout.height - 1), outline=index(INK), width=BORDER)
    return canvas.png()


# --- One section on its own ---------------------------------------------------------------------
# In play only one section of a drawn FAC is read. This strip shows just that section in large
# type, for a phone following the play-by-play: 480 px wide (shown 298 px wide in a card on a
# phone) with 22 px words, 13.7 px on the screen; nothing smaller than 18 px.

SECTION_WIDTH = 480
SECTION_TEXT_SIZE = 22
SECTION_MARGIN = 14
SECTION_HEADER = 40
SECTION_HEADING = 40


@dataclass(frozen=True)
class SectionLayout:
    width: int
    height: int
    texts: list[PlacedText]
    header_box: Rect
    heading_box: Rect
    body_box: Rect
    index: int


def layout_fac_section(face: FacFace, heading: str) -> SectionLayout:
    index = section_index(face, heading)
    printed_heading, words = face.sections[index]
    texts: list[PlacedText] = []
    header_box = (0, 0, SECTION_WIDTH, SECTION_HEADER)
    texts += place_lines(
        [f"FAST ACTION CARD No. {face.number}"],
        (SECTION_MARGIN, 0, SECTION_WIDTH - SECTION_MARGIN, SECTION_HEADER),
        18,
        bold=True,
        fill=PAPER,
        valign="middle",
    )
    heading_box = (0, SECTION_HEADER, SECTION_WIDTH, SECTION_HEADER + SECTION_HEADING)
    room = SECTION_WIDTH - 2 * SECTION_MARGIN - STRIPE_WIDTH - 6
    size, heading_lines = fit_lines(printed_heading, room, SECTION_HEADING, (20, 18), bold=True)
    texts += place_lines(
        clip_lines(heading_lines, size, room, 1, bold=True),
        (
            SECTION_MARGIN + STRIPE_WIDTH + 6,
            heading_box[1],
            SECTION_WIDTH - SECTION_MARGIN,
            heading_box[3],
        ),
        size,
        bold=True,
        fill=INK,
        valign="middle",
    )
    inner = SECTION_WIDTH - 2 * SECTION_MARGIN
    lines = wrap(words, inner, SECTION_TEXT_SIZE)
    body_top = heading_box[3] + 10
    body_height = len(lines) * line_height(SECTION_TEXT_SIZE)
    body_box = (SECTION_MARGIN, body_top, SECTION_WIDTH - SECTION_MARGIN, body_top + body_height)
    texts += place_lines(lines, body_box, SECTION_TEXT_SIZE, fill=INK)
    height = body_box[3] + 14
    return SectionLayout(SECTION_WIDTH, height, texts, header_box, heading_box, body_box, index)


def _section_fills(face: FacFace, layout: SectionLayout) -> list[tuple[Rect, Colour]]:
    colour = SECTION_COLOURS.get(face.sections[layout.index][0], LIGHT_GREY)
    box = layout.heading_box
    return [
        (layout.header_box, INK),
        (layout.heading_box, LABEL_SHADE),
        ((SECTION_MARGIN, box[1], SECTION_MARGIN + STRIPE_WIDTH + 1, box[3]), colour),
    ]


def fac_section_image(face: FacFace, heading: str) -> Image.Image:
    layout = layout_fac_section(face, heading)
    return paint_rgb(
        (layout.width, layout.height),
        PAPER,
        _section_fills(face, layout),
        texts=layout.texts,
        outlines=[((0, 0, layout.width, layout.height), INK, BORDER)],
    )


def fac_section_png(face: FacFace, heading: str) -> bytes:
    """The section as an indexed PNG (palette.py)."""
    layout = layout_fac_section(face, heading)
    return paint_png(
        (layout.width, layout.height),
        PAPER,
        fills=_section_fills(face, layout),
        texts=layout.texts,
        outlines=[((0, 0, layout.width, layout.height), INK, BORDER)],
        level=3,
    )


# --- The whole card for a phone -----------------------------------------------------------------
# The index card above is 800 x 480 px with 14-24 px words: a phone shows it 298 px wide,
# its words 5-9 px tall. For the phone the six sections are stacked, each under a heading band
# (its colour stripe; the section being read in yellow), 480 px wide with 18 px words.

PHONE_TEXT_SIZE = 18
PHONE_HEADING_SIZE = 18


@dataclass(frozen=True)
class PhoneFacLayout:
    width: int
    height: int
    texts: list[PlacedText]
    fills: list[tuple[Rect, Colour]]
    outlines: list[tuple[Rect, Colour, int]]


def layout_fac_phone(face: FacFace, highlight: str | None = None) -> PhoneFacLayout:
    """The six sections in card order, one under the other, with the card's number on top."""
    highlighted = None if highlight is None else section_index(face, highlight)
    texts: list[PlacedText] = []
    fills: list[tuple[Rect, Colour]] = [((0, 0, SECTION_WIDTH, SECTION_HEADER), INK)]
    outlines: list[tuple[Rect, Colour, int]] = []
    texts += place_lines(
        ["FAST ACTION CARD"],
        (SECTION_MARGIN, 0, SECTION_WIDTH // 2 + 40, SECTION_HEADER),
        18,
        bold=True,
        fill=PAPER,
        valign="middle",
    )
    texts += place_lines(
        [f"No. {face.number}"],
        (SECTION_WIDTH // 2, 0, SECTION_WIDTH - SECTION_MARGIN, SECTION_HEADER),
        24,
        bold=True,
        fill=YELLOW,
        align="right",
        valign="middle",
    )
    top = SECTION_HEADER + 6
    inner = SECTION_WIDTH - 2 * SECTION_MARGIN
    heading_height = line_height(PHONE_HEADING_SIZE, bold=True) + 8
    for index, (heading, words) in enumerate(face.sections):
        lit = index == highlighted
        section_top = top
        band = (SECTION_MARGIN, top, SECTION_WIDTH - SECTION_MARGIN, top + heading_height)
        fills.append((band, YELLOW if lit else LABEL_SHADE))
        fills.append(
            (
                (band[0], band[1], band[0] + STRIPE_WIDTH, band[3]),
                SECTION_COLOURS.get(heading, LIGHT_GREY),
            )
        )
        room = inner - STRIPE_WIDTH - 12
        texts += place_lines(
            clip_lines(
                wrap(heading, room, PHONE_HEADING_SIZE, bold=True),
                PHONE_HEADING_SIZE,
                room,
                1,
                bold=True,
            ),
            (band[0] + STRIPE_WIDTH + 6, band[1], band[2], band[3]),
            PHONE_HEADING_SIZE,
            bold=True,
            fill=INK,
            valign="middle",
        )
        top = band[3]
        lines = wrap(words, inner - 12, PHONE_TEXT_SIZE)
        body = (
            SECTION_MARGIN,
            top,
            SECTION_WIDTH - SECTION_MARGIN,
            top + 12 + len(lines) * line_height(PHONE_TEXT_SIZE),
        )
        if lit:
            fills.append((body, HIGHLIGHT_SHADE))
        texts += place_lines(lines, body, PHONE_TEXT_SIZE, fill=INK, padding=6)
        top = body[3]
        if lit:
            outlines.append(((SECTION_MARGIN, section_top, body[2], body[3]), ORANGE, 3))
        top += 8
    height = top + 6
    outlines.append(((0, 0, SECTION_WIDTH, height), INK, BORDER))
    return PhoneFacLayout(SECTION_WIDTH, height, texts, fills, outlines)


def fac_phone_png(face: FacFace, highlight: str | None = None) -> bytes:
    layout = layout_fac_phone(face, highlight)
    return paint_png(
        (layout.width, layout.height),
        PAPER,
        fills=layout.fills,
        texts=layout.texts,
        outlines=layout.outlines,
        level=6,
    )
