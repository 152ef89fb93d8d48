"""How large an image's text looks on a phone: the rule every posted image is held to.

Discord scales an image down to the width of the message's column, keeping its proportions. On a
390-px-wide phone that is SHOWN_WIDTH = 298 px inside a card (a Components v2 container's media
gallery: the screen less the message's margins of 10 px, the 32-px avatar and its 8-px gap, the
container's 4-px accent bar and its 14-px padding on each side) and 330 px for a plain attachment
(no container): the sandbox page at 390 px lays a message out as Discord's mobile client does
(fakediscord/web/static/style.css, `.message` and `.v2-container`), and
tests/sandbox/test_page_rendering.py measures both widths there. Every image is held to the
narrower, the card's gallery. A line drawn in a font of `size` pixels on an image `width` pixels
wide is then `size * min(1, SHOWN_WIDTH / width)` pixels tall on the screen (the font's em size,
as CSS sizes text), not `size` itself: the file's width is not what the phone shows. Text is
readable without zoom from MIN_SHOWN_TEXT = 11 px up (docs/rules: images readable on a phone), so an image `width` wide needs every font at least `smallest_font(width)`.

`recorded_text_sizes()` measures what a renderer really draws: inside it, every line rasterised by
Pillow's FreeType fonts is recorded with its size (the renderers' memoised masks, sprites and
backgrounds are emptied first so nothing comes from an earlier draw). Text drawn on a supersampled
sprite that is shrunk afterwards is recorded at its shown size through `drawn_at_scale`.
Benchmarks and tests only: it patches a Pillow method for the duration, which is not thread-safe.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from PIL import ImageFont

SHOWN_WIDTH = 298  # px: an image's width in a card's gallery on a 390-px phone (see above)
ATTACHMENT_WIDTH = 330  # px: a plain attachment's, outside a card, on the same phone
MIN_SHOWN_TEXT = 11.0  # px on the screen
BOARD_MAX_RATIO = 4 / 3  # height / width of a board: it fits a desktop window with its card

_scale: ContextVar[float] = ContextVar("text_scale", default=1.0)
_records: ContextVar[list[float] | None] = ContextVar("text_records", default=None)


def shown_scale(width: int) -> float:
    """How much an image `width` px wide is shrunk on the phone (1: not at all)."""
    return min(1.0, SHOWN_WIDTH / width)


def shown_text(size: float, width: int) -> float:
    """Pixels on the phone's screen of a font of `size` px on an image `width` px wide."""
    return size * shown_scale(width)


def smallest_font(width: int) -> int:
    """The smallest font size (px) readable on a phone in an image `width` px wide."""
    return math.ceil(MIN_SHOWN_TEXT / shown_scale(width) - 1e-9)


@contextmanager
def drawn_at_scale(scale: float) -> Iterator[None]:
    """Text drawn inside is shown `scale` times its drawn size (a sprite drawn large, shrunk)."""
    token = _scale.set(_scale.get() * scale)
    try:
        yield
    finally:
        _scale.reset(token)


def clear_render_caches() -> None:
    """Empty every memo of the renderers (fonts, masks, sprites, backgrounds, finished PNGs)."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "render" or name.startswith("render.")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


@contextmanager
def recorded_text_sizes() -> Iterator[list[float]]:
    """Record the shown font size (px, before the phone's shrinking) of every line drawn inside."""
    records: list[float] = []
    original = ImageFont.FreeTypeFont.getmask2

    def getmask2(self: ImageFont.FreeTypeFont, *args: Any, **kwargs: Any):
        sink = _records.get()
        if sink is not None:
            sink.append(self.size * _scale.get())
        return original(self, *args, **kwargs)

    clear_render_caches()
    token = _records.set(records)
    ImageFont.FreeTypeFont.getmask2 = getmask2
    try:
        yield records
    finally:
        ImageFont.FreeTypeFont.getmask2 = original
        _records.reset(token)
        clear_render_caches()
