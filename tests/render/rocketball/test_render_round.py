"""Board defects players saw (pixel sampled) and the one image per round (`render_round`)."""

from __future__ import annotations

import io
from itertools import islice

import pytest
from PIL import Image, ImageChops
from PIL.GifImagePlugin import GifImageFile

from render import idle
from render.common import INK
from render.rocketball import geometry as g
from render.rocketball import prepare_round, render_board, render_round, square_centre
from render.rocketball import round as round_module
from render.rocketball.board import goal_label
from render.rocketball.sprites import WHITE
from rules.rocketball import (
    Ball,
    Chip,
    GameState,
    Resign,
    Roll,
    Settings,
    apply,
    legal_actions,
    new_game,
)
from tests.support.rocketball_rounds import nth_round, random_rounds
from tests.support.work_ahead import idle_at_once

UNIT = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@pytest.fixture(autouse=True)
def nothing_kept_from_other_tests():
    """What a test made ahead (prepare_round) is not another test's."""
    round_module._kept.clear()
    round_module._rounds.clear()
    yield
    round_module._kept.clear()
    round_module._rounds.clear()


def nothing_drawn(monkeypatch) -> None:
    """From here on a round drawn again fails the test: it must be one drawn ahead."""

    def no_drawing(*args, **kwargs):
        raise AssertionError("the click drew its round again")

    monkeypatch.setattr(round_module, "paint_board", no_drawing)
    monkeypatch.setattr(round_module, "move_frames", no_drawing)


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(pixel, colour, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def ball_on_chip(chip_facing: str, ball_facing: str) -> GameState:
    state, _ = new_game(1)
    state.balls = [Ball("c5", ball_facing)]
    state.chips = {"c5": Chip("vortex", chip_facing)}
    return state


def white_centroid(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[float, float, int]:
    """Mean position of the white pixels in `box` relative to its centre, and their count."""
    left, top, right, bottom = box
    xs, ys = [], []
    for y in range(top, bottom):
        for x in range(left, right):
            if near(image.getpixel((x, y)), WHITE, 4):  # not the paper (250, 248, 240)
                xs.append(x)
                ys.append(y)
    if not xs:
        return 0.0, 0.0, 0
    cx, cy = (left + right - 1) / 2, (top + bottom - 1) / 2
    return sum(xs) / len(xs) - cx, sum(ys) / len(ys) - cy, len(xs)


@pytest.mark.parametrize("chip_facing", ["N", "E", "S", "W"])
def test_the_chip_under_the_ball_shows_its_arrow(chip_facing):
    """The ball hid the chip under it. The chip is drawn small beside the ball, in
    the square's North-West corner, its arrow pointing the chip's way (the ball another)."""
    ball_facing = {"N": "S", "E": "W", "S": "N", "W": "E"}[chip_facing]
    image = decode(render_board(ball_on_chip(chip_facing, ball_facing)))
    x, y = square_centre("c5")
    dx, dy, count = white_centroid(image, (x - 23, y - 23, x + 1, y + 1))
    assert count >= 30, "the chip's white arrow is visible in the quarter"
    ux, uy = UNIT[chip_facing]
    assert dx * ux + dy * uy > 1.0, (dx, dy)  # the arrow's head (its wider end) leads
    # The ball is still there, pointing its own way.
    bx, by = x + 8, y + 8  # toward the South-East corner
    bux, buy = UNIT[ball_facing]
    assert near(image.getpixel((bx + 6 * bux, by + 6 * buy)), WHITE)  # its pointer
    assert near(image.getpixel((bx - 8 * bux, by - 8 * buy)), (213, 94, 0))  # its body


def test_a_goal_label_takes_both_lines_of_its_goal():
    """The defender's name on the first line, "defends" on the second (the panel has a long
    name whole and says who scores where)."""
    width = g.GOAL_COLUMNS.__len__() * g.CELL - 12
    assert goal_label("Computer (strong)", width) == ["Computer", "defends"]
    state, _ = new_game(1)
    image = decode(render_board(state, names={"N": "Computer (strong)", "S": "Bob"}))
    left, top, right, bottom = g.goal_box("N")  # the goal North defends
    inked_rows = [
        row
        for row in range(top + 4, bottom - 4)
        if any(near(image.getpixel((x, row)), INK, 60) for x in range(left + 8, right - 8))
    ]
    middle = (top + bottom) / 2
    assert any(row < middle - 3 for row in inked_rows) and any(
        row > middle + 3 for row in inked_rows
    )


def play_round(seed: int, settings: Settings | None = None):
    """A seeded game played at random to its 6th round: (before, events, after)."""
    return nth_round(seed, 6, settings)


def gif_frames(data: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append(image.convert("RGB"))
    return frames


def test_a_round_is_one_gif_ending_on_the_board_after_it():
    before, events, after = play_round(12)
    data, filename = render_round(before, events, after, {"N": "Alice", "S": "Bob"})
    assert filename == "round.gif" and data[:6] == b"GIF89a"
    frames = gif_frames(data)
    move = next(event for event in events if event.kind == "move")
    first, last = frames[0], frames[-1]
    # The first frame has the ball where the roll started, the last where the round left it.
    x, y = square_centre(move.start_square)
    shift = 8 if move.start_square in before.chips else 0
    ux, uy = UNIT[move.start_facing]
    assert near(first.getpixel((x + shift - 8 * ux, y + shift - 8 * uy)), (213, 94, 0), 60)
    ball = after.balls[0]
    x, y = square_centre(ball.square)
    shift = 8 if ball.square in after.chips else 0
    ux, uy = UNIT[ball.facing]
    assert near(last.getpixel((x + shift + 6 * ux, y + shift + 6 * uy)), WHITE)
    # Every chip of the board after the round is on the last frame, in its colour.
    for square in after.chips:
        if square in after.ball_squares():
            continue
        cx, cy = square_centre(square)
        assert near(last.getpixel((cx - 18, cy + 18)), (0, 114, 178), 30), square


def test_a_round_gif_opens_on_the_board_as_it_stood_then_says_the_roll():
    """The animation starts from what the card showed before the click (the board, its panel
    saying who rolls), then only the panel's lines change to the roll, then the ball moves."""
    before, events, after = play_round(12)
    names = {"N": "Alice", "S": "Bob"}
    data, _ = render_round(before, events, after, names)
    frames = gif_frames(data)
    assert frames[0].tobytes() == decode(render_board(before, names=names)).tobytes()
    assert Image.open(io.BytesIO(data)).info["duration"] == round_module.OPENING_MS
    lines = (g.STATUS_BOX[0], g.STATUS_BOX[1], g.NOTE_BOX[2], g.NOTE_BOX[3])
    outside = ImageChops.difference(frames[0], frames[1])
    assert outside.crop(lines).getbbox() is not None  # the panel says the roll
    outside.paste((0, 0, 0), lines)
    assert outside.getbbox() is None  # and nothing else changed yet


def test_a_round_gif_is_the_same_bytes_with_its_opening_made_ahead(monkeypatch):
    """A drawing worker compresses the next round's opening while idle (prepare_round); the
    round then uses it, once, and writes the same GIF as without it."""
    before, events, after = play_round(12)
    names = {"N": "Alice", "S": "Bob"}
    without, _ = render_round(before, events, after, names)
    idle_at_once(monkeypatch)
    prepare_round(before, names)
    assert len(round_module._kept) == 1
    with_it, _ = render_round(before, events, after, names)
    assert with_it == without
    assert not round_module._kept  # used once: the next round opens on another board


def test_a_roll_s_whole_round_is_drawn_ahead_from_the_seeded_dice(monkeypatch):
    """The roll is already decided by the match's seeded dice, so a drawing worker draws the
    whole round while idle (prepare_round): the click that rolls gets it with nothing drawn,
    the same bytes as drawn then."""
    before, _, _ = play_round(12)
    after, events = apply(before, Roll())
    names = {"N": "Alice", "S": "Bob"}
    drawn, filename = render_round(before, events, after, names)
    idle_at_once(monkeypatch)
    prepare_round(before, names)
    nothing_drawn(monkeypatch)
    assert render_round(before, events, after, names) == (drawn, filename)
    assert not round_module._rounds and not round_module._kept  # each used once


def test_a_round_other_than_the_one_drawn_ahead_is_drawn_at_the_click(monkeypatch):
    """What the worker drew ahead is used only for exactly that round: the same board rolled
    with other names on it, or the roll and the place after it together (a computer's reply),
    are drawn as they are."""
    before, roll_and_place, after_place = play_round(12)
    rolled, events = apply(before, Roll())
    names = {"N": "Alice", "S": "Bob"}
    idle_at_once(monkeypatch)
    prepare_round(before, names)
    other_names = {"N": "Alice", "S": "Carol"}
    assert render_round(before, events, rolled, other_names) == render_round(
        before, events, rolled, other_names
    )
    monkeypatch.setattr(idle, "later", lambda key, job, rank=0: None)  # nothing more ahead
    prepare_round(before, names)
    with_place = render_round(before, roll_and_place, after_place, names)
    round_module._rounds.clear()
    round_module._kept.clear()
    assert with_place == render_round(before, roll_and_place, after_place, names)


def test_the_suggested_chip_s_round_is_drawn_ahead_when_the_bot_rolls_next(monkeypatch):
    """Which chip is placed is the player's choice, but the card suggests one, the click most
    players make; with the next d4 left to the bot (the default), the round after that chip is
    decided by the seeded dice too. A drawing worker draws it while idle (prepare_round's
    `likely`), and the click that places it gets its round with nothing drawn, the same bytes."""
    before, _, _ = play_round(12)
    names = {"N": "Alice", "S": "Bob"}
    to_place, _ = apply(before, Roll())
    assert to_place.phase == "place"
    chip = legal_actions(to_place)[0]
    placed, _ = apply(to_place, chip)
    assert placed.phase == "roll" and placed.to_move != to_place.to_move
    after, events = apply(placed, Roll())
    drawn = render_round(placed, events, after, names)
    idle_at_once(monkeypatch)
    prepare_round(to_place, names, likely=(chip,), rolled_for=frozenset({placed.to_move}))
    nothing_drawn(monkeypatch)
    assert render_round(placed, events, after, names) == drawn
    assert not round_module._rounds  # used once


def test_a_round_drawn_ahead_is_taken_by_the_same_position_read_back_from_the_store(
    monkeypatch,
):
    """The click's position is read back from the database, its chips in the stored order,
    not in the order they were placed: the same position is the same round (board_view lists
    the chips by square), so what the worker drew ahead is what the click takes."""
    before, _, _ = play_round(12)
    names = {"N": "Alice", "S": "Bob"}
    assert len(before.chips) > 1
    idle_at_once(monkeypatch)
    prepare_round(before, names)
    read_back = GameState.from_dict(before.to_dict())
    read_back.chips = dict(reversed(read_back.chips.items()))
    after, events = apply(read_back, Roll())
    nothing_drawn(monkeypatch)
    render_round(read_back, events, after, names)


def test_a_suggested_chip_s_round_is_not_drawn_ahead_when_its_player_rolls(monkeypatch):
    """A player who rolls the d4 themselves sees the card between the chip and the roll: that
    card's roll is drawn ahead then (prepare_round with a roll due), not the chip's round now."""
    before, _, _ = play_round(12)
    to_place, _ = apply(before, Roll())
    chip = legal_actions(to_place)[0]
    idle_at_once(monkeypatch)
    prepare_round(to_place, {"N": "Alice", "S": "Bob"}, likely=(chip,), rolled_for=frozenset())
    assert not round_module._rounds and not round_module._kept


def test_no_opening_is_made_ahead_for_a_step_that_moves_no_ball(monkeypatch):
    """After the roll comes the place step: its image is the board PNG, with no opening."""
    before, _, _ = play_round(12)
    idle_at_once(monkeypatch)
    rolled, _ = apply(before, legal_actions(before)[0])
    assert rolled.phase == "place"
    prepare_round(rolled, {"N": "Alice", "S": "Bob"})
    assert not round_module._kept


def test_a_process_that_does_not_work_ahead_keeps_no_opening():
    before, _, _ = play_round(12)
    prepare_round(before, {"N": "Alice", "S": "Bob"})
    assert not round_module._kept


def test_a_round_gif_plays_once_and_stays_on_the_position_after_it():
    """A looping GIF showed the old score most of the time (the ball short of the goal, the
    board after the round only in its last 2.5 s): the animation plays once and stays on its
    last frame, the position as it is now (docs/rules/rocketball.md "On Discord")."""
    before, events, after = play_round(12)
    data, _ = render_round(before, events, after, {"N": "Alice", "S": "Bob"})
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    assert image.n_frames > 2
    assert "loop" not in image.info  # no NETSCAPE looping block: viewers play it once
    # (its last frame is the board after the round: the test above)


def test_a_round_without_a_move_is_the_board_png():
    state, _ = new_game(3)
    after, events = apply(state, Resign("N"))
    data, filename = render_round(state, events, after)
    assert filename == "board.png" and data[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_moguls_round_with_an_aimed_second_move_animates_both():
    settings = Settings.with_variants(["moguls"])
    for seed in range(200):
        for before, events, state in islice(random_rounds(seed, settings), 300):
            if any(event.kind == "aim" for event in events):
                data, filename = render_round(before, events, state)
                moves = [event for event in events if event.kind == "move"]
                assert filename == "round.gif" and len(moves) >= 2
                steps = sum(len(move.steps) for move in moves)
                assert len(gif_frames(data)) >= 1 + steps // 2
                return
    raise AssertionError("no Moguls round with an aim in 200 seeded games")


def saturation(pixel) -> int:
    """HSV saturation, 0-255: 0 for greys, high for the chip colours."""
    high, low = max(pixel), min(pixel)
    return 0 if high == 0 else (high - low) * 255 // high


def test_text_in_the_round_gif_has_no_coloured_fringes():
    """The round GIF's 16 colours have no mid greys: a smooth letter edge mapped to the nearest
    of all of them came out reddish purple (the twister's colour), pink fringes on the header,
    the coordinates and the goal labels. Every pixel of the text areas is a grey (or the goal's
    pale blue)."""
    before, events, after = play_round(12)
    data, _ = render_round(before, events, after, {"N": "Computer (strong)", "S": "Alice"})
    first, last = gif_frames(data)[0], gif_frames(data)[-1]
    text_areas = [
        (0, 0, g.BOARD_W, g.LETTERS_H),  # column letters
        g.SCORE_BOX,  # the panel: names and scores, what happens next, the windbag
        g.STATUS_BOX,
        g.NOTE_BOX,
        (0, g.FIELD_Y, g.LABEL_W, g.FIELD_Y + g.FIELD_H),  # row numbers
        g.goal_box("N"),
        g.goal_box("S"),
    ]
    for frame in (first, last):
        for left, top, right, bottom in text_areas:
            coloured = [
                (x, y)
                for y in range(top, bottom)
                for x in range(left, right)
                if saturation(frame.getpixel((x, y))) > 48
            ]
            assert coloured == [], (left, top, coloured[:5])


def test_chips_in_the_round_gif_have_clean_edges():
    """A chip in the round GIF is drawn in its own flat colours only (blue and white for a
    vortex), not with stray greys along the arrow and the corners: every pixel of the tile is
    blue, white or the square's background."""
    before, events, after = play_round(12)
    data, _ = render_round(before, events, after)
    last = gif_frames(data)[-1]
    background = {(250, 248, 240), (238, 236, 226), (255, 222, 120), (215, 215, 215)}
    allowed = {(0, 114, 178), WHITE} | background
    checked = 0
    for square in after.chips:
        if square in after.ball_squares():
            continue
        x, y = square_centre(square)
        pixels = {last.getpixel((x + dx, y + dy)) for dx in range(-23, 23) for dy in range(-23, 23)}
        assert pixels <= allowed, (square, pixels - allowed)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(
    "variants",
    [[], ["bumpers", "twisters", "gusts", "barricades", "moguls", "assault"]],
)
def test_the_round_gif_is_the_whole_board_and_fits_a_desktop_window(variants):
    """The board was 472 x 904, taller than a desktop window, its score and whose
    turn scrolling away from the buttons. The legend now sits beside the field: the round GIF
    is the whole board (nothing cut), at most 4:3, and the legend's last line is on it."""
    before, events, after = play_round(4, Settings.with_variants(variants))
    data, filename = render_round(before, events, after)
    assert filename == "round.gif"
    last = gif_frames(data)[-1]
    board = decode(render_board(after))
    assert last.size == board.size
    assert g.HEIGHT <= board.height <= board.width * 4 / 3
    inked = [
        y
        for y in range(g.LEGEND_Y, board.height)
        if any(near(board.getpixel((x, y)), INK) for x in range(g.PANEL_X, g.WIDTH))
    ]
    assert inked and max(inked) < board.height - 4  # the legend ends inside the image
    if not variants:
        assert board.height == g.HEIGHT  # a short legend: the field sets the height
