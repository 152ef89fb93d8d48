"""Shared drawing helpers for every game's renderer: the shipped fonts, a palette readable on a
phone (strong contrast, colour-blind-safe pairs) and PNG/GIF encoding to bytes.

Renderers are pure: state (or card) in, image bytes out. Nothing here touches Discord or disk
beyond reading the fonts shipped next to this file.
"""

from __future__ import annotations

import io
import math
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render.glyphs import code_points

FONT_DIR = Path(__file__).resolve().parent / "fonts"

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
INK = (20, 20, 24)
PAPER = (250, 248, 240)
ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILION = (213, 94, 0)
PURPLE = (204, 121, 167)
GREY = (120, 120, 120)
LIGHT_GREY = (215, 215, 215)


FALLBACK_FONT = "DroidSansFallback.ttf"  # CJK, Hangul, full-width forms (Apache-2.0)


@cache
def font(size: int, *, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu font at `size` pixels, falling back per character to Droid Sans
    Fallback for what DejaVu has no glyph for (a name in Chinese, Japanese, Korean or
    full-width letters): cached, loading a TTF costs milliseconds."""
    if mono:
        name = "DejaVuSansMono.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return FallbackFont(str(FONT_DIR / name), size)


class FallbackFont(ImageFont.FreeTypeFont):
    """A FreeType font that draws and measures each run of characters it has no glyph for
    with the fallback font instead (Pillow would draw its .notdef box). Everything Pillow does
    with a font goes through getmask2, getbbox and getlength, so ImageDraw.text, textlength,
    textbbox and draw_text below all fall back alike. Text the font covers (nearly all) takes
    Pillow's own path unchanged; vertical anchors of mixed text follow this font's metrics."""

    @property
    def fallback(self) -> ImageFont.FreeTypeFont:
        return _fallback_face(int(self.size))

    def runs(self, text: str) -> list[tuple[ImageFont.FreeTypeFont, str]]:
        """`text` cut where the font that has its characters changes."""
        return _runs(self, text)

    def getlength(self, text, mode="", direction=None, features=None, language=None) -> float:
        runs = self.runs(str(text))
        if len(runs) == 1 and runs[0][0] is self:
            return super().getlength(text, mode, direction, features, language)
        return sum(_own(face).getlength(part, mode) for face, part in runs)

    def getbbox(
        self,
        text,
        mode="",
        direction=None,
        features=None,
        language=None,
        stroke_width=0,
        anchor=None,
    ):
        runs = self.runs(str(text))
        if len(runs) == 1 and runs[0][0] is self:
            return super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
        placed, (dx, dy) = self._placed(runs, mode, stroke_width, anchor)
        left = min(x + box[0] for x, box in placed)
        top = min(box[1] for _, box in placed)
        right = max(x + box[2] for x, box in placed)
        bottom = max(box[3] for _, box in placed)
        return (
            round(left + dx),
            round(top + dy),
            round(right + dx),
            round(bottom + dy),
        )

    def getmask2(
        self,
        text,
        mode="",
        direction=None,
        features=None,
        language=None,
        stroke_width=0,
        anchor=None,
        ink=0,
        start=None,
        *args,
        **kwargs,
    ):
        runs = self.runs(str(text))
        if (len(runs) == 1 and runs[0][0] is self) or mode not in ("", "L", "1"):
            return super().getmask2(
                text,
                mode,
                direction,
                features,
                language,
                stroke_width,
                anchor,
                ink,
                start,
                *args,
                **kwargs,
            )
        fx, fy = start or (0.0, 0.0)
        pieces = []
        x = fx
        for face, part in runs:
            whole = math.floor(x)
            mask, (ox, oy) = _own(face).getmask2(
                part, "L", None, None, None, stroke_width, "ls", ink, (x - whole, fy), **kwargs
            )
            pieces.append((Image.Image()._new(mask), whole + ox, oy))
            x += _own(face).getlength(part, "L")
        left = min(px for _, px, _ in pieces)
        top = min(py for _, _, py in pieces)
        right = max(px + piece.width for piece, px, _ in pieces)
        bottom = max(py + piece.height for piece, _, py in pieces)
        canvas = Image.new("L", (max(right - left, 0), max(bottom - top, 0)))
        for piece, px, py in pieces:
            box = (px - left, py - top)
            region = canvas.crop((*box, box[0] + piece.width, box[1] + piece.height))
            canvas.paste(ImageChops.lighter(region, piece), box)
        dx, dy = self._anchor_shift(anchor, x - fx, top, bottom)
        if mode == "1":
            canvas = canvas.convert("1", dither=Image.Dither.NONE)
        return canvas.im, (left + round(dx), top + round(dy))

    def _placed(self, runs, mode, stroke_width, anchor):
        placed = []
        x = 0.0
        for face, part in runs:
            placed.append((x, _own(face).getbbox(part, mode, None, None, None, stroke_width, "ls")))
            x += _own(face).getlength(part, mode)
        top = min(box[1] for _, box in placed)
        bottom = max(box[3] for _, box in placed)
        return placed, self._anchor_shift(anchor, x, top, bottom)

    def _anchor_shift(self, anchor, width, top, bottom):
        """Where text drawn from its baseline's left end moves for `anchor` (Pillow's text
        anchors: horizontal l m r, vertical a t m s b d)."""
        horizontal, vertical = anchor or "la"
        ascent, descent = self.getmetrics()
        dx = {"l": 0.0, "m": -width / 2, "r": -width}[horizontal]
        dy = {
            "a": ascent,
            "t": -top,
            "m": (ascent - descent) / 2,
            "s": 0.0,
            "b": -bottom,
            "d": -descent,
        }[vertical]
        return dx, dy


def _own(face: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    """`face` with FreeTypeFont's own methods (a FallbackFont would split its runs again)."""
    return super(FallbackFont, face) if isinstance(face, FallbackFont) else face


@cache
def _fallback_face(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / FALLBACK_FONT), size)


@lru_cache(maxsize=8192)
def _runs(face: FallbackFont, text: str) -> list[tuple[ImageFont.FreeTypeFont, str]]:
    own = code_points(str(face.path))
    if all(ord(character) in own for character in text):
        return [(face, text)]
    extra = code_points(str(FONT_DIR / FALLBACK_FONT))
    runs: list[tuple[ImageFont.FreeTypeFont, str]] = []
    for character in text:
        code = ord(character)
        chosen = face.fallback if code not in own and code in extra else face
        if runs and runs[-1][0] is chosen:
            runs[-1] = (chosen, runs[-1][1] + character)
        else:
            runs.append((chosen, character))
    return runs


def to_png(
    image: Image.Image, *, optimize: bool = False, compress_level: int | None = None
) -> bytes:
    """Encode as PNG. Palette images stay small; `optimize` trades time for bytes, as does
    `compress_level` (zlib 0-9, Pillow's default 6)."""
    buffer = io.BytesIO()
    if compress_level is None:
        image.save(buffer, format="PNG", optimize=optimize)
    else:
        image.save(buffer, format="PNG", optimize=optimize, compress_level=compress_level)
    return buffer.getvalue()


@lru_cache(maxsize=8192)
def text_length(face: ImageFont.FreeTypeFont, text: str) -> float:
    """`face.getlength(text)`, memoised (layouts measure the same names turn after turn)."""
    return face.getlength(text)


@lru_cache(maxsize=4096)
def _text_mask(
    face: ImageFont.FreeTypeFont,
    text: str,
    mode: str,
    anchor: str | None,
    stroke_width: float,
    start: tuple[float, float],
) -> tuple[object, tuple[int, int]]:
    return face.getmask2(text, mode, None, None, None, stroke_width, anchor, start=start)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    fill,
    font: ImageFont.FreeTypeFont,
    anchor: str | None = None,
    stroke_width: float = 0,
    stroke_fill=None,
) -> None:
    """One line of text, as `ImageDraw.text` draws it (the same pixels, tested), with its
    rasterised glyphs memoised: a board's labels, numbers and names come back image after
    image, and FreeType is most of what drawing them costs."""
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])

    def ink_of(colour) -> int:
        ink, fill_ink = draw._getink(colour)  # one of them: the draw's own ink for None
        chosen = fill_ink if ink is None else ink
        if chosen is None:
            raise ValueError(f"no ink for {colour!r}")
        return chosen

    ink = ink_of(fill)
    passes = [(ink, 0.0)]
    if stroke_width:
        stroke_ink = ink_of(stroke_fill) if stroke_fill is not None else ink
        passes = [(stroke_ink, stroke_width)] + ([(ink, 0.0)] if ink != stroke_ink else [])
    for pass_ink, width in passes:
        mask, (dx, dy) = _text_mask(font, text, draw.fontmode, anchor, width, start)
        draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, pass_ink)


def hard_alpha(alpha: int) -> int:
    """An alpha made all-or-nothing (Image.point): opaque where at least half covered."""
    return 255 if alpha >= 128 else 0


def to_gif(frames: list[Image.Image], *, frame_ms: int | list[int], loop: int = 0) -> bytes:
    """Encode frames as an animated GIF (`loop=0` repeats forever)."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=frame_ms,
        loop=loop,
        disposal=1,
    )
    return buffer.getvalue()
