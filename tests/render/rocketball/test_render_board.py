"""The Rocketball board PNG shows what the state says: checked by sampling pixels at the squares
(no golden images, so a font or anti-aliasing change does not break them).

States are built directly from rules.rocketball.state, so these tests do not depend on how the
engine reaches a position.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render.common import BLUE, GREEN, GREY, INK, ORANGE, PURPLE, VERMILION, YELLOW, font
from render.rocketball import geometry as g
from render.rocketball import render_board, square_centre
from render.rocketball.board import (
    CHECKER,
    HIGHLIGHT,
    board_height,
    goal_label,
    goal_label_texts,
    score_block,
)
from render.rocketball.from_state import board_view
from render.rocketball.sprites import WHITE
from rules.rocketball.engine import apply, legal_actions, new_game
from rules.rocketball.state import (
    EDGE_ARROWS,
    FIELD_SQUARES,
    Ball,
    Chip,
    GameState,
    Settings,
)

PAPER_OR_CHECKER = [(250, 248, 240), CHECKER]
UNIT = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
SPECIAL_COLOURS = {
    "bumper": ORANGE,
    "twister": PURPLE,
    "gust": GREEN,
    "barricade": GREY,
    "mogul": YELLOW,
}


def make_state(
    *,
    chips: dict[str, Chip] | None = None,
    balls: list[Ball] | None = None,
    settings: Settings | None = None,
    **fields,
) -> GameState:
    values = {
        "seed": 1,
        "settings": settings or Settings(),
        "rng": random.Random(1),
        "score": {"N": 0, "S": 0},
        "balls": balls or [Ball("d6", "N")],
        "chips": chips or {},
        "bag": {"vortex": 76},
        "removed": {},
        "windbag": "N",
        "to_move": "N",
        "phase": "roll",
    }
    values.update(fields)
    return GameState(**values)


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def rgb(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """A pixel of an RGB image, as its three channels."""
    pixel = image.getpixel(xy)
    assert isinstance(pixel, tuple), pixel
    return pixel


def near(pixel, colour, tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def at(
    image: Image.Image,
    square: str,
    facing: str = "N",
    forward: int = 0,
    across: int = 0,
    shift: tuple[int, int] = (0, 0),
):
    """The pixel `forward` px from a square's centre (moved by `shift`) in direction `facing`,
    `across` to its right."""
    x, y = square_centre(square)
    x, y = x + shift[0], y + shift[1]
    fx, fy = UNIT[facing]
    rx, ry = -fy, fx  # a quarter turn clockwise: the facing's right-hand side
    return image.getpixel((x + fx * forward + rx * across, y + fy * forward + ry * across))


def share(image: Image.Image, square: str, colour) -> float:
    """Fraction of a square's pixels that are (near) `colour`."""
    x, y = square_centre(square)
    half = g.CELL // 2
    box = image.crop((x - half, y - half, x + half, y + half))
    counts = box.getcolors(maxcolors=box.width * box.height)
    matching = sum(count for count, pixel in counts if near(pixel, colour, 12))
    return matching / (box.width * box.height)


def ball_shift(state: GameState, square: str) -> tuple[int, int]:
    """A ball on a chip sits 8 px toward the South-East corner (the chip is drawn beside it)."""
    return (8, 8) if square in state.chips else (0, 0)


def busy_state() -> GameState:
    """Every chip kind on the field, about two thirds full, two balls (Assault)."""
    rng = random.Random(11)
    kinds = ["vortex"] * 8 + ["gust", "bumper", "twister", "barricade", "mogul"]
    chips = {}
    for square in FIELD_SQUARES:
        if square != "d6" and rng.random() < 0.7:
            kind = rng.choice(kinds)
            facing = rng.choice("NESW") if kind in ("vortex", "gust") else None
            chips[square] = Chip(kind, facing)
    settings = Settings.with_variants(
        ["bumpers", "twisters", "gusts", "barricades", "moguls", "assault"]
    )
    balls = [Ball("c4", "E", "N", "d1"), Ball("f9", "W", "S", "d11")]
    return make_state(chips=chips, balls=balls, settings=settings, score={"N": 1, "S": 1})


def test_board_is_a_png_of_the_documented_size_and_small():
    state = busy_state()
    png = render_board(state, highlight=["c2", "c3", "c4"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = Image.open(io.BytesIO(png)).size
    assert (width, height) == (g.WIDTH, board_height(board_view(state)))
    # The whole board fits a desktop window beside its buttons (at most 4:3).
    assert g.HEIGHT <= height <= width * 4 / 3
    assert len(png) < 150_000


@pytest.mark.parametrize("facing", ["N", "E", "S", "W"])
def test_ball_is_drawn_on_its_square_pointing_its_way(facing):
    image = decode(render_board(make_state(balls=[Ball("b3", facing)])))
    # White pointer ahead of the centre, vermilion body behind it.
    assert near(at(image, "b3", facing, forward=6), WHITE)
    assert near(at(image, "b3", facing, forward=-8), VERMILION)
    # Nowhere else: the start square and a far square are plain field.
    for square in ("d6", "g11", "b4"):
        assert not near(at(image, square, "N", forward=-8), VERMILION)


def test_ball_on_a_chip_leaves_the_chip_arrow_visible():
    """The ball can sit on a vortex facing another way (it bounced off an edge there)."""
    state = make_state(balls=[Ball("a5", "N")], chips={"a5": Chip("vortex", "E")})
    image = decode(render_board(state))
    assert near(at(image, "a5", "N", forward=6, shift=(8, 8)), WHITE)  # the ball's pointer: North
    assert near(at(image, "a5", "N", forward=-8, shift=(8, 8)), VERMILION)
    # The chip, drawn small in the North-West corner (test_render_round checks its arrow).
    assert near(at(image, "a5", "N", forward=20, across=-20), BLUE)


@pytest.mark.parametrize("facing", ["N", "E", "S", "W"])
def test_vortex_chip_arrow_points_its_facing(facing):
    state = make_state(chips={"e8": Chip("vortex", facing)})
    image = decode(render_board(state))
    assert share(image, "e8", BLUE) > 0.4
    assert near(at(image, "e8", facing, forward=18), WHITE)  # arrow head
    assert near(at(image, "e8", facing, forward=-18), BLUE)  # plain tail end
    # The arrow is not drawn across: both sides of the head at the tail end are blue.
    assert near(at(image, "e8", facing, forward=-14, across=12), BLUE)


@pytest.mark.parametrize("facing", ["N", "E", "S", "W"])
def test_gust_chip_is_green_with_a_chevron_pointing_its_facing(facing):
    settings = Settings.with_variants(["gusts"])
    image = decode(render_board(make_state(chips={"c9": Chip("gust", facing)}, settings=settings)))
    assert share(image, "c9", GREEN) > 0.3
    assert share(image, "c9", BLUE) == 0
    assert near(at(image, "c9", facing, forward=18), WHITE)
    assert near(at(image, "c9", facing, forward=-20), GREEN)


@pytest.mark.parametrize("kind", ["bumper", "twister", "barricade", "mogul"])
def test_special_chips_have_their_own_colour_and_no_arrow(kind):
    settings = Settings.with_variants([kind + "s"])
    image = decode(render_board(make_state(chips={"c3": Chip(kind)}, settings=settings)))
    assert share(image, "c3", SPECIAL_COLOURS[kind]) > 0.2
    for other, colour in [("vortex", BLUE), *SPECIAL_COLOURS.items()]:
        if other != kind and colour != SPECIAL_COLOURS[kind]:
            assert share(image, "c3", colour) < 0.02, other


def test_every_chip_of_a_busy_board_is_where_the_state_says():
    state = busy_state()
    image = decode(render_board(state))
    colours = {"vortex": BLUE, **SPECIAL_COLOURS}
    for square in FIELD_SQUARES:
        chip = state.chips.get(square)
        if chip is None:
            if square not in state.ball_squares():
                corner = at(image, square, forward=18, across=18)
                assert any(near(corner, c, 4) for c in PAPER_OR_CHECKER), square
            continue
        if square in state.ball_squares():  # drawn small beside the ball
            assert share(image, square, colours[chip.kind]) > 0.1, (square, chip)
            continue
        assert share(image, square, colours[chip.kind]) > 0.2, (square, chip)
        if chip.kind == "vortex":
            assert chip.facing is not None
            assert near(at(image, square, chip.facing, forward=18), WHITE), square


def test_assault_balls_are_told_apart():
    state = busy_state()
    image = decode(render_board(state))
    north, south = state.balls
    n_shift, s_shift = ball_shift(state, north.square), ball_shift(state, south.square)
    assert near(at(image, north.square, north.facing, forward=-8, shift=n_shift), VERMILION)
    assert near(at(image, south.square, south.facing, forward=-8, shift=s_shift), INK)
    assert near(at(image, south.square, south.facing, forward=6, shift=s_shift), WHITE)


def test_ball_in_a_goal_is_drawn_in_the_goal_box():
    state = make_state(balls=[Ball("e0", "N")], phase="over", winner="S", score={"N": 0, "S": 2})
    image = decode(render_board(state))
    x, y = square_centre("e0")
    left, top, right, bottom = g.goal_box("N")
    assert left <= x < right and top <= y < bottom
    assert near(image.getpixel((x, y + 8)), VERMILION)


def test_every_edge_arrow_points_as_the_rules_say():
    image = decode(render_board(make_state()))
    for square, edge, arrow in EDGE_ARROWS:
        x, y = g.edge_arrow_centre(*_drawing_coords(square), edge)
        fx, fy = UNIT[arrow]
        rx, ry = -fy, fx
        # The head is wide just behind its tip; the tail is a thin shaft.
        head = [rgb(image, (x + 3 * fx + s * 3 * rx, y + 3 * fy + s * 3 * ry)) for s in (1, -1)]
        tail = [rgb(image, (x - 5 * fx + s * 4 * rx, y - 5 * fy + s * 4 * ry)) for s in (1, -1)]
        assert all(sum(p) < 300 for p in head), (square, edge, arrow, head)
        assert all(sum(p) > 600 for p in tail), (square, edge, arrow, tail)


def _drawing_coords(square: str) -> tuple[int, int]:
    column = "abcdefg".index(square[0])
    return column, int(square[1:]) - 1


def test_no_edge_arrow_in_a_goal_mouth():
    image = decode(render_board(make_state()))
    for column in (2, 3, 4):
        for edge in ("N", "S"):
            x, y = g.edge_arrow_centre(column, 0 if edge == "N" else 10, edge)
            assert sum(rgb(image, (x, y))) > 600


def test_highlight_tints_the_last_move_squares_only():
    state = make_state(balls=[Ball("d3", "N")])
    image = decode(render_board(state, highlight=["d5", "d4", "d3"]))
    for square in ("d5", "d4"):
        assert near(at(image, square, "N", forward=20, across=20), HIGHLIGHT, 4)
    assert near(at(image, "d3", "N", forward=20, across=20), HIGHLIGHT, 4)
    for square in ("d2", "c4", "e5"):
        assert not near(at(image, square, "N", forward=20, across=20), HIGHLIGHT, 20)


def test_header_and_goal_labels_say_who_is_who():
    state = make_state(
        score={"N": 1, "S": 0},
        windbag="S",
        to_move="S",
        phase="place",
        drawn="vortex",
        bag={"vortex": 60},
    )
    view = board_view(state, {"N": "Alice", "S": "Bob"})
    assert view.status == "South (Bob) places a chip."
    assert view.note == "Windbag: Bob · 60 chips in it"
    # The North goal is where South scores, and the other way round.
    assert view.goal_scorer == {"N": "S", "S": "N"}


@pytest.mark.parametrize(
    ("fields", "status"),
    [
        ({"phase": "roll"}, "North rolls the d4."),
        ({"phase": "aim"}, "North aims the ball on d6 (N, E, S or W)."),
        (
            {"phase": "place", "drawn": "djinn"},
            "North places any chip from the windbag (djinn).",
        ),
        (
            {"phase": "place", "drawn": None},
            "North can neither place nor rotate a chip and passes.",
        ),
        ({"phase": "over", "winner": "S", "end_reason": "resign"}, "North resigned: South wins."),
        (
            {"phase": "over", "winner": "S", "end_reason": "score", "score": {"N": 0, "S": 2}},
            "South wins 2-0.",
        ),
        (
            {"phase": "over", "draw": True, "end_reason": "collision", "score": {"N": 1, "S": 1}},
            "The balls collided: a draw at 1-1.",
        ),
    ],
)
def test_status_line_says_what_happens_next(fields, status):
    assert board_view(make_state(**fields)).status == status


def test_tug_of_war_reversal_relabels_the_goals():
    settings = Settings.with_variants(["tug_of_war"], tug_swap_rounds=10)
    state = make_state(settings=settings, goals_reversed=True, rounds=7)
    view = board_view(state)
    assert view.goal_scorer == {"N": "N", "S": "S"}
    assert view.note is not None
    assert "goals swap in 3 rounds" in view.note


def test_winner_is_announced():
    state = make_state(phase="over", winner="N", score={"N": 2, "S": 1}, end_reason="score")
    assert board_view(state, {"N": "Alice"}).status == "North (Alice) wins 2-1."


def test_long_names_are_cut_to_fit():
    view = board_view(make_state(), {"N": "Bartholomew the Magnificent", "S": ""})
    assert view.names == {"N": "Bartholomew the M…", "S": "South"}


def test_goal_label_cuts_a_long_name_on_its_one_line():
    goal_width = 3 * g.CELL - 12
    lines = goal_label("xXx_DragonSlayer_xXx", goal_width)
    assert len(lines) == 2 and lines[0].startswith("xXx_Dra") and lines[0].endswith("…")
    assert all(font(g.TYPE).getlength(line) <= goal_width for line in lines)
    assert goal_label("Bob", goal_width) == ["Bob", "defends"]
    # A ball lying in the goal leaves two thirds: the name alone when "defends" has no room.
    assert goal_label("Bob", 2 * g.CELL - 8 - 12) == ["Bob"]


def test_the_panel_says_who_scores_in_which_goal():
    """The goal labels say who defends each goal (24 px type leaves no room for the scorer's
    name too): the panel beside the field says each player's goal, ▲ the top one, ▼ the
    bottom one."""
    view = board_view(make_state(score={"N": 1, "S": 0}), {"N": "Alice", "S": "Bob"})
    shown = [line.text for line in score_block(view.names, view.score, view.goal_scorer).lines]
    # North scores in the South goal (at the bottom), South in the North goal (at the top).
    assert shown == ["Alice", "scores ▼", "1", "Bob", "scores ▲", "0"]


def test_each_goal_is_labelled_with_who_defends_it():
    """The challenge says "North (Alice)": the North goal is Alice's, the one she defends, so
    her name stands there (it used to stand at the South goal, the one she scores in). The
    panel says who scores in it (▲ the top goal)."""
    names = {"N": "Alice", "S": "Bob"}
    view = board_view(make_state(), names)
    assert goal_label_texts(view) == {"N": ["Alice", "defends"], "S": ["Bob", "defends"]}
    # Tug-of-War swapped: each aims at their own goal, so the other one defends it.
    swapped = board_view(make_state(goals_reversed=True), names)
    assert goal_label_texts(swapped) == {"N": ["Bob", "defends"], "S": ["Alice", "defends"]}
    # A long name keeps one line, cut, so the word stays.
    long = board_view(make_state(), {"N": "Computer (strong)", "S": "Bob"})
    assert goal_label_texts(long)["N"] == ["Computer", "defends"]


@pytest.mark.parametrize(
    "variants",
    [
        ["bumpers", "twisters", "gusts", "barricades", "moguls", "djinns"],
        ["assault", "gusts", "drifting_winds"],
    ],
)
def test_positions_from_real_games_show_every_chip_and_ball(variants):
    """Seeded random games through the engine; every 15th position is drawn and checked."""
    colours = {"vortex": BLUE, **SPECIAL_COLOURS}
    bodies = {None: VERMILION, "N": VERMILION, "S": INK}
    rng = random.Random(8)
    state, _ = new_game(8, Settings.with_variants(variants))
    drawn = 0
    for turn in range(150):
        if state.phase == "over":
            break
        state, _ = apply(state, rng.choice(legal_actions(state)))
        if turn % 15 or state.phase == "over":
            continue
        image = decode(render_board(state))
        for square, chip in state.chips.items():
            least = 0.1 if square in state.ball_squares() else 0.15  # small beside a ball
            assert share(image, square, colours[chip.kind]) > least, (turn, square, chip)
        for ball in state.balls:
            owner = ball.owner if state.settings.assault else None
            shift = ball_shift(state, ball.square)
            pointer = at(image, ball.square, ball.facing, forward=6, shift=shift)
            assert near(pointer, WHITE), (turn, ball)
            body = at(image, ball.square, ball.facing, forward=-8, shift=shift)
            assert near(body, bodies[owner]), ball
        drawn += 1
    assert drawn >= 4
