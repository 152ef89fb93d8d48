"""Text layout primitives for the Rollerball II images: measure, wrap and fit text into boxes.

Every renderer in this package first lays its text out as `PlacedText` lines (position, font,
and the box the line must stay inside), then draws them. Keeping layout separate from drawing
lets the tests check, with the font's own metrics, that no line ever spills out of its box.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw, ImageFont

from render.common import font
from render.wrap import wrap_words

Rect = tuple[int, int, int, int]
"""A box as (left, top, right, bottom) in pixels, right and bottom exclusive."""

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class PlacedText:
    """One line of text at its drawing origin (left, ascender-top), and the box it must fit in."""

    text: str
    x: int
    y: int
    size: int
    bold: bool
    fill: Colour
    box: Rect

    @property
    def font(self) -> ImageFont.FreeTypeFont:
        return font(self.size, bold=self.bold)

    def ink_bbox(self) -> Rect:
        """Where the glyphs actually land in the image (the font's textbbox at this origin)."""
        left, top, right, bottom = self.font.getbbox(self.text)
        return (self.x + int(left), self.y + int(top), self.x + int(right), self.y + int(bottom))


def line_height(size: int, *, bold: bool = False) -> int:
    """Distance between baselines: the font's ascent plus descent, so lines never touch."""
    ascent, descent = font(size, bold=bold).getmetrics()
    return ascent + descent


# Measurements are pure functions of (text, size, bold) and the same strings recur on every
# card (codes, digits, headings), so they are memoised: layout then costs almost nothing.
@lru_cache(maxsize=16384)
def left_overhang(text: str, size: int, *, bold: bool = False) -> int:
    """How far the first glyph's ink reaches left of the pen position (e.g. "j", "T")."""
    return max(0, -int(font(size, bold=bold).getbbox(text)[0])) if text else 0


@lru_cache(maxsize=16384)
def text_width(text: str, size: int, *, bold: bool = False) -> float:
    """Width the line needs: its advance, widened to cover ink that overhangs either end."""
    if not text:
        return 0.0
    face = font(size, bold=bold)
    ink_right = face.getbbox(text)[2]
    return max(face.getlength(text), ink_right) + left_overhang(text, size, bold=bold)


@lru_cache(maxsize=16384)
def fits(text: str, size: int, max_width: float, *, bold: bool = False) -> bool:
    """Whether `text` fits `max_width`, measuring the ink exactly only near the limit.

    The advance width is cheap; the ink box is not. DejaVu's overhangs stay well under a
    quarter of the font size, so a line whose advance clears the limit by that much fits.
    """
    advance = font(size, bold=bold).getlength(text)
    if advance > max_width:
        return False
    if advance + size / 4 <= max_width:
        return True
    return text_width(text, size, bold=bold) <= max_width


def _break_long_word(word: str, size: int, bold: bool, max_width: float) -> list[str]:
    """Split a single word wider than the box into pieces that fit (rare: long names).

    It breaks after a hyphen or slash where it can ("Montgomery-" / "Featherstonehaugh"), and
    between characters only when one such part is still too wide.
    """
    parts = re.findall(r"[^-/]+[-/]*|[-/]+", word)
    pieces: list[str] = []
    current = ""
    for part in parts:
        if fits(current + part, size, max_width, bold=bold):
            current += part
            continue
        if current:
            pieces.append(current)
            current = ""
        for char in part:
            if current and not fits(current + char, size, max_width, bold=bold):
                pieces.append(current)
                current = char
            else:
                current += char
    if current:
        pieces.append(current)
    return pieces


def wrap(text: str, max_width: float, size: int, *, bold: bool = False) -> list[str]:
    """Greedy word wrap (render.wrap) measured with the real font; explicit newlines start
    new lines.

    A word that is wider than the whole box on its own is cut between characters, so no line
    is ever wider than `max_width`.
    """
    return list(_wrap(text, max_width, size, bold))


# Layouts try several sizes and re-wrap the same FAC texts on every draw: memoised too.
@lru_cache(maxsize=4096)
def _wrap(text: str, max_width: float, size: int, bold: bool) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += wrap_words(
            paragraph,
            lambda line: fits(line, size, max_width, bold=bold),
            lambda word: _break_long_word(word, size, bold, max_width),
        ) or [""]  # an empty paragraph is an empty line
    return tuple(lines)


def fit_lines(
    text: str,
    box_width: float,
    box_height: float,
    sizes: Sequence[int],
    *,
    bold: bool = False,
) -> tuple[int, list[str]]:
    """The largest size in `sizes` (tried in order) whose wrapped lines fit the box.

    If none fits, the last (smallest) size is returned with its lines; callers that cannot
    grow must then cut lines (see `clip_lines`).
    """
    lines: list[str] = []
    for size in sizes:
        lines = wrap(text, box_width, size, bold=bold)
        if len(lines) * line_height(size, bold=bold) <= box_height:
            return size, lines
    return sizes[-1], lines


def clip_lines(
    lines: list[str], size: int, max_width: float, max_lines: int, *, bold: bool
) -> list[str]:
    """Keep at most `max_lines`, ending the last kept one with an ellipsis when text was cut."""
    if len(lines) <= max_lines:
        return lines
    kept = lines[: max(max_lines, 1)]
    last = kept[-1]
    while last and text_width(last + "…", size, bold=bold) > max_width:
        last = last[:-1].rstrip()
    kept[-1] = last + "…"
    return kept


def place_lines(
    lines: Sequence[str],
    box: Rect,
    size: int,
    *,
    bold: bool = False,
    fill: Colour,
    align: str = "left",
    valign: str = "top",
    padding: int = 0,
) -> list[PlacedText]:
    """Position already-wrapped lines inside `box` (left/centre/right, top/middle)."""
    left, top, right, bottom = box
    step = line_height(size, bold=bold)
    block_height = step * len(lines)
    if valign == "middle":
        y = top + max(0, (bottom - top - block_height) // 2)
    else:
        y = top + padding
    placed = []
    for line in lines:
        width = text_width(line, size, bold=bold)
        # The pen starts right of any left overhang, so the ink begins inside the box.
        overhang = left_overhang(line, size, bold=bold)
        if align == "center":
            x = left + int((right - left - width) // 2) + overhang
        elif align == "right":
            x = int(right - padding - width) + overhang
        else:
            x = left + padding + overhang
        placed.append(PlacedText(line, x, y, size, bold, fill, box))
        y += step
    return placed


# A line's rasterised glyphs depend only on (text, size, bold): the FAC deck's sections, headings,
# digits and action codes recur card after card, so their masks are kept (FreeType costs about
# two thirds of drawing a FAC). Bounded: 4096 masks of a few KiB each.
@lru_cache(maxsize=4096)
def _line_mask(text: str, size: int, bold: bool) -> tuple[object, tuple[int, int]]:
    return font(size, bold=bold).getmask2(text, "L", anchor="la", start=(0, 0))


def draw_texts(draw: ImageDraw.ImageDraw, texts: Sequence[PlacedText]) -> None:
    """Draw every placed line, as ImageDraw.text would (anchor "la", whole-pixel origin)."""
    inks: dict[Colour, int] = {}
    for item in texts:
        if not item.text:
            continue
        ink = inks.get(item.fill)
        if ink is None:
            ink = draw._getink(item.fill)[0]
            if ink is None:  # a colour always has an ink; only None has not
                raise ValueError(f"no ink for {item.fill!r}")
            inks[item.fill] = ink
        mask, (dx, dy) = _line_mask(item.text, item.size, item.bold)
        draw.draw.draw_bitmap((item.x + dx, item.y + dy), mask, ink)
