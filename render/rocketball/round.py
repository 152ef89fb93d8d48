"""One image per round (issue 10: fold a round into one message): `render_round`.

A round is the roll (the ball moving; with Moguls perhaps an aim and a second move) and the
place step(s) after it. Its image is an animated GIF of the ball's path whose last frame is the
board after the round (the chip placed, the new score, what happens next), or the board PNG
when no ball moved (a resignation, say).

Size (issue 10: under 30 KB a round on average; measured 22.9 KB a round with
bench/rocketball_render.py, 25.2 KB in the thread of a 140-round match with
bench/rocketball_thread.py; 28.1 and 31.1 KB before gif.py, the hard-edged sprites, the grey
text edges, the goals without net lines and the foot left out): a GIF compresses a board much
worse than PNG does, so the round GIF
- uses a 16-colour palette (the board's exact colours: fewer colours make shorter LZW
  codes), written by gif.py with codes sized for 16 colours (Pillow's writer sizes them for
  256) and each later frame as its changed rectangle, unchanged pixels transparent when that
  is smaller;
- keeps one header on every frame: the score, then what happens next after the round, then
  the roll and the windbag ("South rolled 3 · Windbag: North · 52 chips in it"). Each frame
  then differs from the one before only around the ball, and the GIF stores just that patch;
  the changes at the end (the chip placed) are revealed patch by patch for the same reason;
- draws the sprites (chips, ball, edge arrows, legend icons) with hard edges and maps the
  smooth edges of text to greys only: a smooth edge mapped to the nearest of 16 colours gave
  stray grey and pink pixels, which cost bytes on every row of every chip;
- stops a margin below the legend (the room kept for three legend lines is empty paper in a
  base game).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from PIL import Image, ImageChops

from render.common import GREY, INK, LIGHT_GREY, PAPER
from render.rocketball import geometry as g
from render.rocketball.adapter import ball_view, board_view, highlight_coords
from render.rocketball.animation import LAST_FRAME_MS, STEP_MS, move_frames
from render.rocketball.board import EXACT_COLOURS, GOAL_FILL, compose_board
from render.rocketball.gif import write_gif
from render.rocketball.render import _field, _is_move, ball_paths, render_board, turn_squares
from rules.rocketball.state import PLAYER_NAMES, GameState

ROUND_COLOURS = 16
Box = tuple[int, int, int, int]


def _round_colours() -> list[tuple[int, int, int]]:
    exact = list(dict.fromkeys(EXACT_COLOURS))[:ROUND_COLOURS]
    return exact + [exact[0]] * (ROUND_COLOURS - len(exact))


@cache
def round_palette() -> Image.Image:
    """The round GIF's palette: the board's exact colours only, padded to ROUND_COLOURS (16,
    so every LZW code starts at 5 bits). Sprites are drawn with hard edges (`crisp`) and the
    smooth edges of text map to the nearest grey: smaller than with in-between shades
    (measured)."""
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in _round_colours() for channel in colour])
    return image


def _segments(events: list[Any]) -> list[list[Any]]:
    """The round's ball movements in order: the roll's move(s), then (Moguls) each aimed move.
    An aim starts a new segment: it is a separate action after the first move ended."""
    segments: list[list[Any]] = [[]]
    for event in events:
        if _field(event, "kind") == "aim" and segments[-1]:
            segments.append([])
        if _is_move(event):
            segments[-1].append(event)
    return [segment for segment in segments if segment]


def _rolls_text(segments: list[list[Any]]) -> str:
    """ "South rolled 3" (Assault: "3 and 2", one per ball; Moguls: "3, then 2")."""
    first = segments[0][0]
    rolls = [" and ".join(str(_field(event, "roll")) for event in segment) for segment in segments]
    return f"{PLAYER_NAMES[_field(first, 'player')]} rolled {', then '.join(rolls)}"


# The colours a smooth text edge (a near-grey pixel that is none of the round's colours) may
# take. Mapped to the nearest of all 16, a mid grey between the ink and the paper came out
# reddish purple (the twister's colour): pink fringes on the letters. The checker and white
# are left out: an edge pixel in them differs from the paper by a few levels, invisible, and
# only breaks the runs of paper the GIF compresses (measured: 0.26 KB a round).
TEXT_EDGE_COLOURS = (PAPER, GOAL_FILL, INK, LIGHT_GREY, GREY)
NEAR_GREY_CHROMA = 32  # a pixel whose channels differ by less counts as near-grey


@cache
def _text_edge_palette() -> Image.Image:
    """The round palette with every colour not in TEXT_EDGE_COLOURS replaced by one far from
    all near-grey pixels (pure magenta), so a near-grey pixel never maps there."""
    colours = [
        colour if colour in TEXT_EDGE_COLOURS else (255, 0, 255) for colour in _round_colours()
    ]
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


_NEAR_GREY = [255 if value < NEAR_GREY_CHROMA else 0 for value in range(256)]
_NONZERO = [0] + [255] * 255


def _quantize(image: Image.Image) -> Image.Image:
    """Each pixel to the nearest round colour; a near-grey pixel that is none of them (a smooth
    text edge) to the nearest of TEXT_EDGE_COLOURS."""
    mapped = image.quantize(palette=round_palette(), dither=Image.Dither.NONE)
    inexact = ImageChops.difference(mapped.convert("RGB"), image).convert("L").point(_NONZERO)
    if inexact.getbbox() is None:
        return mapped  # no smooth edges here (the sprites are drawn crisp)
    red, green, blue = image.split()
    highest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    lowest = ImageChops.darker(ImageChops.darker(red, green), blue)
    near_grey = ImageChops.subtract(highest, lowest).point(_NEAR_GREY)
    edges = image.quantize(palette=_text_edge_palette(), dither=Image.Dither.NONE)
    mapped.paste(edges, (0, 0), ImageChops.multiply(near_grey, inexact).convert("1"))
    return mapped


def render_round(
    before: GameState,
    events: list[Any],
    after: GameState,
    names: dict[str, str] | None = None,
) -> tuple[bytes, str]:
    """One image for a round: (bytes, filename).

    `before`: the state the round started from (before the roll); `events`: every event of the
    round's actions, in order (what each `apply` returned, concatenated); `after`: the state
    after the round. Returns (GIF bytes, "round.gif") when a ball moved: the ball's path, then
    the board after the round as the held last frame; else (PNG bytes, "board.png").
    """
    highlight = highlight_coords(turn_squares(events))
    segments = _segments(events)
    if not segments:
        return render_board(after, highlight=turn_squares(events), names=names), "board.png"
    after_view = board_view(after, names)
    rolled = _rolls_text(segments)
    note = f"{rolled} · {after_view.note}" if after_view.note else rolled
    view = replace(board_view(before, names), status=after_view.status, note=note)
    blasted: set[tuple[int, int]] = set()
    images: list[Image.Image] = []
    durations: list[int] = []
    for segment in segments:
        balls = list(view.balls)
        for event in segment:
            index = _field(event, "ball", 0)
            start = ball_view(_field(event, "start_square"), _field(event, "start_facing"), None)
            balls[index] = replace(start, owner=balls[index].owner)
        chips = tuple(chip for chip in view.chips if (chip.column, chip.row) not in blasted)
        segment_view = replace(view, balls=tuple(balls), chips=chips)
        paths = ball_paths(segment, view.names)
        score = None
        for event in events:
            if _field(event, "kind") == "goal" and _field(event, "score"):
                score = dict(_field(event, "score"))
        base, frames = move_frames(
            segment_view, paths, final_score=score, captions=False, crisp=True
        )
        base_palette = _quantize(base)
        for frame in frames:
            image = base_palette.copy()
            for left, top, right, bottom in frame.changed:
                box = (max(left, 0), max(top, 0), min(right, base.width), min(bottom, base.height))
                crop = frame.image.crop(box)
                if crop.tobytes() != base.crop(box).tobytes():  # else base_palette has it
                    image.paste(_quantize(crop), box[:2])
            images.append(image)
            durations.append(min(frame.duration_ms, STEP_MS))  # only the round's end is held
        for event in segment:
            for step in _field(event, "steps"):
                if _field(step, "what") == "barricade_blasted":
                    where = ball_view(_field(step, "square"), "N", None)
                    blasted.add((where.column, where.row))
    final_view = replace(after_view, note=note)
    final = _quantize(compose_board(final_view, highlight=highlight, crisp=True))
    for image in _reveal(images[-1], final):
        images.append(image)
        durations.append(REVEAL_MS)
    durations[-1] = LAST_FRAME_MS
    height = _content_height(final)
    images = [image.crop((0, 0, image.width, height)) for image in images]
    return write_gif(images, durations), "round.gif"  # codes sized for 16 colours: gif.py


LEGEND_MARGIN = 12  # px of paper kept below the legend's last line


def _content_height(board: Image.Image) -> int:
    """The board's height without the empty paper at its foot: the legend has room for three
    lines and a base game fills one. Left out of the round GIF, the board shows larger in a
    phone's preview (about 60 px less height) and takes about 0.17 KB less. The same for every
    round of a match: the legend does not change."""
    paper = Image.new("P", board.size, _round_colours().index(PAPER))
    box = ImageChops.difference(board, paper).getbbox()
    bottom = box[3] if box else board.height
    return min(board.height, bottom + LEGEND_MARGIN)


REVEAL_MS = 40  # each patch of the final board appears this long after the previous one


def _boxes() -> list[Box]:
    """The parts of the board that can change between two frames: header, goals, squares."""
    boxes = [(0, 0, g.WIDTH, g.HEADER_H), g.goal_box("N"), g.goal_box("S")]
    boxes += [g.square_box(column, row) for row in range(g.ROWS) for column in range(g.COLUMNS)]
    return boxes


def _merged(boxes: list[Box]) -> list[Box]:
    """Neighbouring boxes merged while the union wastes less than two squares of area."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                union = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if _area(union) <= _area(a) + _area(b) + 2 * g.CELL * g.CELL:
                    boxes[i] = union
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _reveal(previous: Image.Image, final: Image.Image) -> list[Image.Image]:
    """Frames going from `previous` to `final` one changed patch at a time, ending on `final`.

    A GIF frame stores the one rectangle around everything that changed since the frame
    before: the header and a chip placed far from the ball would make that nearly the whole
    board, so each patch gets its own short frame instead."""
    changed = [box for box in _boxes() if previous.crop(box).tobytes() != final.crop(box).tobytes()]
    frames = []
    current = previous
    for box in _merged(changed):
        current = current.copy()
        current.paste(final.crop(box), box[:2])
        frames.append(current)
    if not frames or frames[-1].tobytes() != final.tobytes():
        frames.append(final)
    return frames
