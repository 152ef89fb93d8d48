"""A replay's frames (rules/replay.py): each step of a verified record drawn by the game's own
renderer, exactly as the live card drew that step, so the last frame is the final card's image.
The Discord replay card and `python -m render replay FILE DIR` both draw through here:
the same record gives the same bytes on any machine (the fonts ship with the repository; the
images carry no time or path)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from render.rocketball import render_round
from rules.replay import Position, Replay

Frame = tuple[str, bytes]  # (file name as the card shows it, the image's bytes)


def _rocketball(replay: Replay, position: Position) -> Frame:
    """The card's image of a round (cogs/rocketball/presenter.py draw_turn): the ball's path as
    a GIF ending on the board, or the board with the squares the step touched."""
    names: dict[str, str] = dict(zip(("N", "S"), replay.names, strict=False))
    image, filename = render_round(position.before, position.events, position.after, names)
    return filename, image


DRAWERS: dict[str, Callable[[Replay, Position], Frame]] = {
    "rocketball": _rocketball,
}


def replayable(game: str) -> bool:
    """Whether `game`'s matches can be replayed step by step (its frames are drawn here)."""
    return game in DRAWERS


def frame(replay: Replay, index: int) -> Frame:
    """Step `index`'s image (0: the set-up). KeyError for a game without replays."""
    return DRAWERS[replay.game](replay, replay.positions[index])


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
