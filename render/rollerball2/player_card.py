"""Rollerball II player cards: one card as a business-card image, and a printable sheet of ten.

The card follows the seed's sample player card: uniform number, name, position, experience
level, team, and the D10 table with OFFENSE and DEFENSE columns showing action codes, rows
printed 0-9 as on the seed's sample card (a die face 0 is the engine's 10). A row can be lit to
show the die just rolled on the card. It shows no numeric ratings (seed, design objective 7): the codes are printed plain,
ink on paper, not colour-coded, so a player's worth is read from the card as the designer
intended. A short legend explains the six codes.

Sizes: a card is 700 x 400 px, 3.5 x 2 inches at 200 dpi; the sheet is US Letter at 200 dpi
with ten cards in 2 columns x 5 rows, the layout of the ten-per-page perforated business-card
stock the seed prints on. Phone-first (render/textsize.py): a phone shows the card SHOWN_WIDTH (298) px
wide in a match's card, so nothing on it is printed smaller than 26 px (11.1 px on the screen).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    BLUE,
    GREEN,
    INK,
    LIGHT_GREY,
    ORANGE,
    PAPER,
    PURPLE,
    SKY,
    VERMILION,
)
from render.rollerball2.faces import CODE_MEANINGS, CardFace
from render.rollerball2.text import (
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
from render.textsize import smallest_font
from rules.rollerball2.cards import PRINTED_FACES, face_label

CARD_WIDTH = 700
CARD_HEIGHT = 400
BORDER = 4

# Experience badge colours: distinct Okabe-Ito hues, each with the text colour that keeps
# contrast above 4.5:1 on it.
EXPERIENCE_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "STAR": (ORANGE, INK),
    "VETERAN": (BLUE, PAPER),
    "ROOKIE": (GREEN, INK),
}
# A stripe along the card's top edge tells the positions apart on a sheet at a glance.
POSITION_COLOURS = {"SKATER": SKY, "BIKER": PURPLE, "CATCHER": VERMILION}

ROW_SHADE = (236, 233, 222)  # every other table row, still light ground under dark ink
D10_SHADE = (224, 221, 210)

# Geometry of the table panel (right) and identity panel (left).
TABLE_LEFT = 300
TABLE_TOP = 22
HEADER_HEIGHT = 34
ROW_HEIGHT = 32
D10_WIDTH = 56
TYPE = smallest_font(CARD_WIDTH)  # the card's smallest type: 26 px, 11.1 px on a phone
CODE_WIDTH = (CARD_WIDTH - BORDER - 14 - TABLE_LEFT - 2 * D10_WIDTH) // 2
PANEL_LEFT = 20
PANEL_RIGHT = TABLE_LEFT - 16


@dataclass(frozen=True)
class CardLayout:
    """Where everything on a card goes; the tests read this to sample pixels and check fits.

    `template_texts` are the same on every card of one position and experience (table
    headings, D10 faces, position, badge, legend) and are drawn once into a cached template;
    `face_texts` are this player's own (number, name, team, the twenty action codes).
    """

    template_texts: list[PlacedText]
    face_texts: list[PlacedText]
    number_box: Rect
    badge_box: Rect
    stripe_box: Rect
    offense_cells: list[Rect]  # D10 rows as printed: faces 0, 1, ..., 9
    defense_cells: list[Rect]
    header_cells: list[Rect]  # D10, OFFENSE, DEFENSE, D10
    d10_cells: list[Rect]  # both D10 columns, left then right
    legend_box: Rect

    @property
    def texts(self) -> list[PlacedText]:
        return self.template_texts + self.face_texts


def _table_cells() -> tuple[list[Rect], list[Rect], list[Rect], list[Rect], list[Rect]]:
    """Header cells and the four columns' cells (D10, OFFENSE, DEFENSE, D10), rows 1-10."""
    lefts = [TABLE_LEFT]
    for width in (D10_WIDTH, CODE_WIDTH, CODE_WIDTH):
        lefts.append(lefts[-1] + width)
    widths = (D10_WIDTH, CODE_WIDTH, CODE_WIDTH, D10_WIDTH)
    header = [
        (x, TABLE_TOP, x + w, TABLE_TOP + HEADER_HEIGHT) for x, w in zip(lefts, widths, strict=True)
    ]
    columns: list[list[Rect]] = [[], [], [], []]
    for row in range(10):
        top = TABLE_TOP + HEADER_HEIGHT + row * ROW_HEIGHT
        for column, (x, w) in enumerate(zip(lefts, widths, strict=True)):
            columns[column].append((x, top, x + w, top + ROW_HEIGHT))
    return header, columns[0], columns[1], columns[2], columns[3]


TOP = 22
NUMBER_BOX: Rect = (PANEL_LEFT, TOP, PANEL_LEFT + 96, TOP + 62)
BESIDE_LEFT = NUMBER_BOX[2] + 12


def _badge_label(experience: str) -> str:
    return ("★ " + experience) if experience == "STAR" else experience


def _badge_box(experience: str) -> Rect:
    label_width = int(text_width(_badge_label(experience), TYPE, bold=True)) + 16
    width = min(PANEL_RIGHT - BESIDE_LEFT, label_width)
    return (BESIDE_LEFT, TOP + 36, BESIDE_LEFT + width, NUMBER_BOX[3])


def _legend(texts: list[PlacedText]) -> Rect:
    """One code a line, in bold, then its meaning, pinned to the bottom of the panel."""
    step = line_height(TYPE, bold=True)
    legend_box = (PANEL_LEFT, CARD_HEIGHT - 12 - 6 * step, PANEL_RIGHT, CARD_HEIGHT - 12)
    code_width = 10 + int(max(text_width(code, TYPE, bold=True) for code, _ in CODE_MEANINGS))
    for index, (code, meaning) in enumerate(CODE_MEANINGS):
        top = legend_box[1] + index * step
        code_box = (PANEL_LEFT, top, PANEL_LEFT + code_width, top + step)
        texts += place_lines([code], code_box, TYPE, bold=True, fill=INK)
        meaning_box = (code_box[2], top, PANEL_RIGHT, top + step)
        width = meaning_box[2] - meaning_box[0]
        lines = clip_lines(wrap(meaning, width, TYPE), TYPE, width, 1, bold=False)
        texts += place_lines(lines, meaning_box, TYPE, fill=INK)
    return legend_box


def _template_texts(position: str, experience: str) -> tuple[list[PlacedText], Rect]:
    """The printing shared by every card of this position and experience; returns the legend box."""
    texts: list[PlacedText] = []
    header, left_d10, _, _, right_d10 = _table_cells()
    # The headings in the regular weight: OFFENSE in the phone's type size in bold is wider
    # than its column.
    for box, label in zip(header, ("D10", "OFFENSE", "DEFENSE", "D10"), strict=True):
        texts += place_lines([label], box, TYPE, fill=PAPER, align="center", valign="middle")
    for row, face in enumerate(PRINTED_FACES):
        # Printed 0-9 as the seed's sample card; the engine reads the die's 0 as 10.
        for box in (left_d10[row], right_d10[row]):
            texts += place_lines(
                [face_label(face)], box, TYPE, bold=True, fill=INK, align="center", valign="middle"
            )

    position_box = (BESIDE_LEFT, TOP, PANEL_RIGHT, TOP + 34)
    width = PANEL_RIGHT - BESIDE_LEFT
    size, lines = fit_lines(position, width, 34, (26, TYPE), bold=True)
    lines = clip_lines(lines, size, width, 1, bold=True)
    texts += place_lines(lines, position_box, size, bold=True, fill=INK, valign="middle")

    _, ink = EXPERIENCE_COLOURS.get(experience, (LIGHT_GREY, INK))
    texts += place_lines(
        [_badge_label(experience)],
        _badge_box(experience),
        TYPE,
        bold=True,
        fill=ink,
        align="center",
        valign="middle",
    )
    legend_box = _legend(texts)
    return texts, legend_box


def _face_texts(face: CardFace) -> list[PlacedText]:
    """This player's own printing: the codes, the number, the name and the team."""
    texts: list[PlacedText] = []
    _, _, offense, defense, _ = _table_cells()
    for row, die in enumerate(PRINTED_FACES):
        results = ((offense[row], face.offense[die - 1]), (defense[row], face.defense[die - 1]))
        for box, code in results:
            width = box[2] - box[0] - 8
            size, lines = fit_lines(code, width, ROW_HEIGHT, (TYPE,), bold=True)
            lines = clip_lines(lines, size, width, 1, bold=True)
            texts += place_lines(
                lines, box, size, bold=True, fill=INK, align="center", valign="middle"
            )

    size, lines = fit_lines(face.number, 88, 66, (50, 42, 34, 28, TYPE), bold=True)
    lines = clip_lines(lines, size, 88, 1, bold=True)
    texts += place_lines(
        lines, NUMBER_BOX, size, bold=True, fill=PAPER, align="center", valign="middle"
    )

    # The name gets the most room: up to two lines, shrinking before it wraps further.
    name_top = NUMBER_BOX[3] + 10
    room = 2 * line_height(28, bold=True)
    name_box = (PANEL_LEFT, name_top, PANEL_RIGHT, name_top + room)
    width = PANEL_RIGHT - PANEL_LEFT
    size, lines = fit_lines(face.name, width, room, (32, 28, 26, TYPE), bold=True)
    lines = clip_lines(lines, size, width, room // line_height(size, bold=True), bold=True)
    texts += place_lines(lines, name_box, size, bold=True, fill=INK)

    team_top = name_box[1] + len(lines) * line_height(size, bold=True) + 2
    team_box = (PANEL_LEFT, team_top, PANEL_RIGHT, team_top + line_height(TYPE))
    team_lines = clip_lines(wrap("Team: " + face.team, width, TYPE), TYPE, width, 1, bold=False)
    texts += place_lines(team_lines, team_box, TYPE, fill=INK)
    return texts


def layout_card(face: CardFace) -> CardLayout:
    """Lay out one card (origin at the card's top-left corner)."""
    position, experience = face.position.upper(), face.experience.upper()
    template_texts, legend_box = _template_texts(position, experience)
    header, left_d10, offense, defense, right_d10 = _table_cells()
    return CardLayout(
        template_texts=template_texts,
        face_texts=_face_texts(face),
        number_box=NUMBER_BOX,
        badge_box=_badge_box(experience),
        stripe_box=(0, 0, CARD_WIDTH, 10),
        offense_cells=offense,
        defense_cells=defense,
        header_cells=header,
        d10_cells=left_d10 + right_d10,
        legend_box=legend_box,
    )


@lru_cache(maxsize=32)
def _card_template(position: str, experience: str) -> Image.Image:
    """Everything but the player's own printing, drawn once per position and experience."""
    image = Image.new("RGB", (CARD_WIDTH, CARD_HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    stripe = POSITION_COLOURS.get(position, LIGHT_GREY)
    draw.rectangle((0, 0, CARD_WIDTH - 1, 9), fill=stripe)
    draw.rectangle((0, 0, CARD_WIDTH - 1, CARD_HEIGHT - 1), outline=INK, width=BORDER)

    header, left_d10, offense, defense, right_d10 = _table_cells()
    for box in header:
        draw.rectangle(box, fill=INK)
    for row, box in enumerate(offense):
        shade = ROW_SHADE if row % 2 else PAPER
        draw.rectangle((box[0], box[1], defense[row][2], box[3]), fill=shade)
    for box in left_d10 + right_d10:
        draw.rectangle(box, fill=D10_SHADE)
    table = (TABLE_LEFT, TABLE_TOP, right_d10[-1][2], right_d10[-1][3])
    draw.rectangle(table, outline=INK, width=2)
    # The rule between OFFENSE and DEFENSE keeps the two columns from reading as one.
    middle = offense[0][2]
    draw.line((middle, TABLE_TOP, middle, table[3]), fill=INK, width=2)

    draw.rectangle(NUMBER_BOX, fill=INK)
    background, _ = EXPERIENCE_COLOURS.get(experience, (LIGHT_GREY, INK))
    draw.rounded_rectangle(_badge_box(experience), radius=8, fill=background)
    texts, legend = _template_texts(position, experience)
    draw.line((legend[0], legend[1] - 6, legend[2], legend[1] - 6), fill=LIGHT_GREY, width=2)
    draw_texts(draw, texts)
    return image


HIGHLIGHT_SHADE = (255, 226, 120)  # the rolled cell: still light ground under dark ink


def highlighted_row(die: int) -> int:
    """The printed row (0 at the top) of engine die face `die` (1..10)."""
    return PRINTED_FACES.index(die)


def draw_card(
    image: Image.Image,
    face: CardFace,
    origin: tuple[int, int] = (0, 0),
    highlight: tuple[str, int] | None = None,
) -> None:
    """Draw one card onto `image` with its top-left corner at `origin`. `highlight` is
    (column, die): "offense" or "defense" and the engine's face 1..10; that cell is filled
    and its whole row framed, so the result just rolled stands out."""
    image.paste(_card_template(face.position.upper(), face.experience.upper()), origin)
    ox, oy = origin
    draw = ImageDraw.Draw(image)
    if highlight is not None:
        column, die = highlight
        row = highlighted_row(die)
        _, left_d10, offense, defense, right_d10 = _table_cells()
        cell = (offense if column == "offense" else defense)[row]
        draw.rectangle(
            (cell[0] + ox, cell[1] + oy, cell[2] + ox - 1, cell[3] + oy - 1), fill=HIGHLIGHT_SHADE
        )
        frame = (
            left_d10[row][0] + ox,
            left_d10[row][1] + oy,
            right_d10[row][2] + ox - 1,
            right_d10[row][3] + oy - 1,
        )
        draw.rectangle(frame, outline=ORANGE, width=3)
    draw_texts(draw, [_shifted(t, ox, oy) for t in _face_texts(face)])


def _shifted(text: PlacedText, dx: int, dy: int) -> PlacedText:
    if not dx and not dy:
        return text
    box = (text.box[0] + dx, text.box[1] + dy, text.box[2] + dx, text.box[3] + dy)
    return PlacedText(text.text, text.x + dx, text.y + dy, text.size, text.bold, text.fill, box)


def card_image(face: CardFace, highlight: tuple[str, int] | None = None) -> Image.Image:
    image = Image.new("RGB", (CARD_WIDTH, CARD_HEIGHT), PAPER)
    draw_card(image, face, highlight=highlight)
    return image


# Sheet geometry: US Letter at 200 dpi, ten 3.5" x 2" cards touching, 0.75" side and 0.5"
# top margins, like the perforated ten-per-page business-card stock.
SHEET_WIDTH = 1700
SHEET_HEIGHT = 2200
SHEET_LEFT = 150
SHEET_TOP = 100
SHEET_COLUMNS = 2
SHEET_ROWS = 5
CARDS_PER_SHEET = SHEET_COLUMNS * SHEET_ROWS


def sheet_slot(index: int) -> tuple[int, int]:
    """Top-left corner of card `index` (0-9) on the sheet, filled row by row."""
    row, column = divmod(index, SHEET_COLUMNS)
    return SHEET_LEFT + column * CARD_WIDTH, SHEET_TOP + row * CARD_HEIGHT


def sheet_caption_texts(caption: str) -> list[PlacedText]:
    """The caption printed in the top margin, above the cards (one line, cut if too long)."""
    box = (SHEET_LEFT, 0, SHEET_WIDTH - SHEET_LEFT, SHEET_TOP)
    width = box[2] - box[0]
    size, lines = fit_lines(caption, width, SHEET_TOP, (30, 26, 22), bold=True)
    lines = clip_lines(lines, size, width, 1, bold=True)
    return place_lines(lines, box, size, bold=True, fill=INK, valign="middle")


def sheet_image(faces: Sequence[CardFace], caption: str = "") -> Image.Image:
    """Up to ten cards; empty slots keep a thin grey outline so the sheet still cuts cleanly."""
    if len(faces) > CARDS_PER_SHEET:
        raise ValueError(f"a sheet holds {CARDS_PER_SHEET} cards, not {len(faces)}")
    image = Image.new("RGB", (SHEET_WIDTH, SHEET_HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for index in range(CARDS_PER_SHEET):
        x, y = sheet_slot(index)
        if index < len(faces):
            draw_card(image, faces[index], (x, y))
        else:
            draw.rectangle(
                (x, y, x + CARD_WIDTH - 1, y + CARD_HEIGHT - 1), outline=LIGHT_GREY, width=2
            )
    if caption:
        draw_texts(draw, sheet_caption_texts(caption))
    return image
