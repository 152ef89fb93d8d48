"""A replay's frames (rules/replay.py): each step of a verified record drawn by the game's own
renderer, exactly as the live card drew that step, so the last frame is the final card's image.
The Discord replay card and `python -m render replay FILE DIR` both draw through here:
the same record gives the same bytes on any machine (the fonts ship with the repository; the
images carry no time or path)."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from render.common import draw_text, font, text_length, to_gif
from render.rocketball import render_round
from render.rollerball import render_turn
from render.rollerball2 import render_scoreboard
from render.textsize import smallest_font
from render.volleyball.replay import match_png
from render.wrap import wrap_words
from rules.replay import Position, Replay
from rules.rollerball import view_for

Frame = tuple[str, bytes]  # (file name as the card shows it, the image's bytes)


def _rocketball(replay: Replay, position: Position) -> Frame:
    """The card's image of a round (cogs/rocketball/presenter.py draw_turn): the ball's path as
    a GIF ending on the board, or the board with the squares the step touched."""
    names: dict[str, str] = dict(zip(("N", "S"), replay.names, strict=False))
    image, filename = render_round(position.before, position.events, position.after, names)
    return filename, image


def _rollerball(replay: Replay, position: Position) -> Frame:
    """The card's image of a step (cogs/rollerball/presenter.py draw_turn): the balls' movement
    ending on the board, or the board, as everyone saw it (hands counted, open bids hidden)."""
    names = dict(enumerate(replay.names))
    return render_turn(view_for(position.after, None), position.events, names)


def _rollerball2(replay: Replay, position: Position) -> Frame:
    """The card's scoreboard (cogs/rollerball2/presenter.py draw_turn): score, period and clock,
    the ball, the penalty box; the final card's only image."""
    return "scoreboard.png", render_scoreboard(position.after)


def _volleyball(replay: Replay, position: Position) -> Frame:
    """A match's scoreboard after the step: the sets so far, the one just played marked
    (render/volleyball/replay.py)."""
    return "match.png", match_png(position.after)


DRAWERS: dict[str, Callable[[Replay, Position], Frame]] = {
    "rocketball": _rocketball,
    "rollerball": _rollerball,
    "rollerball2": _rollerball2,
    "volleyball": _volleyball,
}


def replayable(game: str) -> bool:
    """Whether `game`'s matches can be replayed step by step (its frames are drawn here)."""
    return game in DRAWERS


def frame(replay: Replay, index: int) -> Frame:
    """Step `index`'s image (0: the set-up). KeyError for a game without replays."""
    return DRAWERS[replay.game](replay, replay.position(index))


def frame_name(index: int, filename: str) -> str:
    """A frame's file name in a directory of frames: its step, then the card's name."""
    return f"{index:04d}-{filename}"


def write_frames(replay: Replay, directory: Path) -> list[Path]:
    """Every step's frame into `directory` (made if missing), in order; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(len(replay)):
        filename, image = frame(replay, index)
        path = directory / frame_name(index, filename)
        path.write_bytes(image)
        written.append(path)
    return written


# --- highlights ------------------------------------------------------------------------------

HIGHLIGHT_MS = 2500  # each moment stays this long: a few seconds to read its caption
HIGHLIGHT_MOMENTS = 10  # at most: the set-up, the last step and the milestones between
CAPTION_LINES = 3
CAPTION_PAD = 10
CAPTION_BACKGROUND = (32, 34, 37)
CAPTION_INK = (255, 255, 255)


def still(image: bytes) -> Image.Image:
    """A frame as one still picture: an animation's last frame (where its move ends)."""
    with Image.open(io.BytesIO(image)) as opened:
        opened.seek(getattr(opened, "n_frames", 1) - 1)
        return opened.convert("RGB")


def _caption(text: str, width: int) -> Image.Image:
    """The moment's words above its picture, at least 11 px on a phone (render/textsize.py)
    at `width`, in at most CAPTION_LINES lines (the last ended with … if it is cut)."""
    face = font(smallest_font(width) + 2, bold=True)
    room = width - 2 * CAPTION_PAD
    lines = wrap_words(text, lambda line: text_length(face, line) <= room)
    if len(lines) > CAPTION_LINES:
        lines = lines[:CAPTION_LINES]
        while lines[-1] and text_length(face, lines[-1] + " …") > room:
            lines[-1] = lines[-1][:-1]
        lines[-1] = lines[-1].rstrip() + " …"
    step = round(face.size * 1.25)
    band = Image.new("RGB", (width, 2 * CAPTION_PAD + step * CAPTION_LINES), CAPTION_BACKGROUND)
    draw = ImageDraw.Draw(band)
    for number, line in enumerate(lines):
        y = CAPTION_PAD + number * step
        draw_text(draw, (CAPTION_PAD, y), line, fill=CAPTION_INK, font=face)
    return band


def highlight(replay: Replay, moments: Sequence[tuple[int, str]]) -> bytes:
    """A short animated GIF of a finished match: each moment, (step, what made it one), its
    frame as the replay draws it (an animation's last picture) under its caption, for
    HIGHLIGHT_MS each, looping. Every moment is drawn at the frames' widest width, so no
    board's text is shrunk below what a phone can read."""
    if not moments:
        raise ValueError("a highlight needs at least one moment")
    pictures = [(still(frame(replay, index)[1]), text) for index, text in moments]
    width = max(picture.width for picture, _ in pictures)
    height = max(picture.height for picture, _ in pictures)
    frames = []
    for picture, text in pictures:
        band = _caption(text, width)
        canvas = Image.new("RGB", (width, band.height + height), "white")
        canvas.paste(band, (0, 0))
        canvas.paste(picture, ((width - picture.width) // 2, band.height))
        frames.append(
            canvas.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        )
    return to_gif(frames, frame_ms=HIGHLIGHT_MS)
