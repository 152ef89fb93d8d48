"""The Rocketball move GIF: one frame to open, one per step, two more for a goal or a collision
(render.rocketball.animation's docstring); the ball is where each step says, the last frame is
held longest. Pixels are sampled; no golden files.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops
from PIL.GifImagePlugin import GifImageFile

from render.common import GREY, INK, VERMILION, YELLOW
from render.rocketball import geometry as g
from render.rocketball import move_squares, render_move_gif, square_centre, turn_squares
from render.rocketball.animation import (
    FLASH_MS,
    LAST_FRAME_MS,
    STEP_MS,
    PathStep,
    move_frames,
    move_gif,
    ticks,
)
from render.rocketball.board import to_palette
from render.rocketball.from_state import board_view
from render.rocketball.render import ball_paths
from render.rocketball.sprites import WHITE
from rules.rocketball.engine import apply, legal_actions, new_game
from rules.rocketball.events import MoveEvent
from rules.rocketball.state import Ball, Chip, Settings
from tests.render.rocketball.test_render_board import UNIT, make_state, near


def step(square: str, facing: str, what: str = "moved", text: str = "") -> dict:
    return {"square": square, "facing": facing, "what": what, "text": text or what}


def move(start: str, facing: str, roll: int, steps: list[dict], *, ball: int = 0, player="N"):
    """A move event in the engine's to_dict() form."""
    return {
        "kind": "move",
        "text": f"d4 = {roll}",
        "player": player,
        "ball": ball,
        "roll": roll,
        "start_square": start,
        "start_facing": facing,
        "steps": steps,
    }


def frames_of(gif: bytes) -> tuple[list[Image.Image], list[int]]:
    image = Image.open(io.BytesIO(gif))
    assert isinstance(image, GifImageFile)
    frames, durations = [], []
    for index in range(image.n_frames):
        image.seek(index)
        durations.append(image.info["duration"])
        frames.append(image.convert("RGB"))
    return frames, durations


def ball_drawn(
    frame: Image.Image, square: str, facing: str, body=VERMILION, *, on_chip: bool = False
) -> bool:
    """The ball's body behind its centre and its white pointer ahead, as on the board. A ball
    on a chip sits 8 px toward the South-East corner (the chip is drawn small beside it)."""
    x, y = square_centre(square)
    if on_chip:
        x, y = x + 8, y + 8
    fx, fy = UNIT[facing]
    return near(frame.getpixel((x + 6 * fx, y + 6 * fy)), WHITE) and near(
        frame.getpixel((x - 8 * fx, y - 8 * fy)), body
    )


def test_each_step_and_the_vortex_turn_get_a_frame():
    # d4 = 3 from d6 East: e6, f6 (the vortex there turns it North at no cost), f5.
    state = make_state(balls=[Ball("d6", "E")], chips={"f6": Chip("vortex", "N")})
    steps = [
        step("e6", "E"),
        step("f6", "E"),
        step("f6", "N", "vortex"),
        step("f5", "N"),
    ]
    frames, durations = frames_of(render_move_gif(state, [move("d6", "E", 3, steps)]))
    assert len(frames) == 1 + len(steps)
    assert ball_drawn(frames[0], "d6", "E")
    for frame, where in zip(frames[1:], steps, strict=True):
        on_chip = where["square"] in ("f6",)
        assert ball_drawn(frame, where["square"], where["facing"], on_chip=on_chip)
    # The ball left d6: the opening square no longer holds it in the last frame.
    assert not ball_drawn(frames[-1], "d6", "E")
    assert durations == [STEP_MS] * 4 + [LAST_FRAME_MS]


def test_bounce_keeps_the_ball_on_its_square_and_turns_it():
    state = make_state(balls=[Ball("g4", "E")])
    # g4 is an even row: its East arrow points North (docs/rules/rocketball.md, Setup: alternating).
    steps = [step("g4", "N", "bounce"), step("g3", "N")]
    frames, _ = frames_of(render_move_gif(state, move("g4", "E", 2, steps)))
    assert len(frames) == 3
    assert ball_drawn(frames[0], "g4", "E")
    assert ball_drawn(frames[1], "g4", "N")
    assert ball_drawn(frames[2], "g3", "N")


def test_the_path_so_far_is_tinted():
    state = make_state(balls=[Ball("b9", "N")])
    frames, _ = frames_of(
        render_move_gif(state, move("b9", "N", 2, [step("b8", "N"), step("b7", "N")]))
    )
    x, y = square_centre("b9")
    corner = (x + 18, y + 18)
    assert near(frames[-1].getpixel(corner), (255, 222, 120), 4)  # start square is on the path
    x, y = square_centre("b6")
    assert not near(frames[-1].getpixel((x + 18, y + 18)), (255, 222, 120), 20)


def test_goal_adds_a_flash_and_a_held_final_frame():
    state = make_state(balls=[Ball("d2", "N")], windbag="S", to_move="S")
    events = [
        move("d2", "N", 3, [step("d1", "N"), step("d0", "N", "goal")], player="S"),
        {"kind": "goal", "text": "GOAL!", "scorer": "S", "goal": "N", "score": {"N": 0, "S": 1}},
        {"kind": "reset", "text": "Every chip goes back in the windbag."},
    ]
    frames, durations = frames_of(render_move_gif(state, events))
    assert len(frames) == 1 + 2 + 2
    assert durations[-2:] == [FLASH_MS, LAST_FRAME_MS]
    left, top, _right, bottom = g.goal_box("N")
    sample = (left + 10, (top + bottom) // 2)  # inside the net, clear of the ball
    assert not near(frames[2].getpixel(sample), VERMILION)  # ball arrives: no flash yet
    assert near(frames[3].getpixel(sample), VERMILION)  # flash
    assert near(frames[4].getpixel(sample), YELLOW)  # held
    x, y = square_centre("d0")
    assert top <= y < bottom
    for frame in frames[2:]:
        assert near(frame.getpixel((x, y + 8)), VERMILION)  # the ball sits in the goal


def test_blasted_barricade_disappears_from_the_next_frame():
    settings = Settings.with_variants(["barricades"])
    state = make_state(balls=[Ball("c5", "N")], chips={"c4": Chip("barricade")}, settings=settings)
    steps = [step("c4", "N"), step("c4", "N", "barricade_blasted"), step("c3", "N")]
    frames, _ = frames_of(render_move_gif(state, move("c5", "N", 2, steps)))
    x, y = square_centre("c4")
    assert near(frames[0].getpixel((x - 17, y + 17)), GREY)  # brick, clear of the ball
    # With the ball on it, the barricade is drawn small in the square's North-West corner.
    corner = [frames[1].getpixel((x - d, y - e)) for d in range(12, 20) for e in range(12, 20)]
    assert any(near(pixel, GREY) for pixel in corner)
    assert not near(frames[3].getpixel((x - 17, y + 17)), GREY)


def test_assault_balls_move_together_and_collide():
    settings = Settings.with_variants(["assault"])
    balls = [Ball("d4", "S", "N", "d1"), Ball("d8", "N", "S", "d11")]
    state = make_state(balls=balls, settings=settings)
    # As the engine reports it: a collision is an extra step on the square both balls reached.
    events = [
        move("d4", "S", 2, [step("d5", "S"), step("d6", "S"), step("d6", "S", "collision")]),
        move(
            "d8", "N", 2, [step("d7", "N"), step("d6", "N"), step("d6", "N", "collision")], ball=1
        ),
    ]
    frames, _ = frames_of(render_move_gif(state, events))
    assert len(frames) == 1 + 2 + 2  # two ticks, then the flash and the held explosion
    assert ball_drawn(frames[1], "d5", "S")
    assert ball_drawn(frames[1], "d7", "N", body=INK)
    # The collision burst surrounds the square.
    x, y = square_centre("d6")
    assert near(frames[3].getpixel((x, y - 30)), VERMILION)
    assert near(frames[4].getpixel((x, y - 30)), YELLOW)


def test_assault_frames_follow_the_engines_ticks():
    """One ball turns on a vortex as it arrives; the other ball must not run a step ahead."""
    settings = Settings.with_variants(["assault"])
    balls = [Ball("b4", "E", "N", "d1"), Ball("f8", "N", "S", "d11")]
    chips = {"c4": Chip("vortex", "S")}
    state = make_state(balls=balls, settings=settings, chips=chips)
    events = [
        move("b4", "E", 2, [step("c4", "E"), step("c4", "S", "vortex"), step("c5", "S")]),
        move("f8", "N", 2, [step("f7", "N"), step("f6", "N")], ball=1),
    ]
    frames, _ = frames_of(render_move_gif(state, events))
    assert len(frames) == 1 + 2
    assert ball_drawn(frames[1], "c4", "S", on_chip=True)  # arrived and turned in the same tick
    assert ball_drawn(frames[1], "f7", "N", body=INK)
    assert ball_drawn(frames[2], "c5", "S")
    assert ball_drawn(frames[2], "f6", "N", body=INK)


def test_ticks_group_arrival_effects_and_tell_mogul_goals_apart():
    def path_step(square: str, what: str) -> PathStep:
        column, row = "abcdefg".index(square[0]), int(square[1:]) - 1
        in_goal = "N" if row == -1 else "S" if row == 11 else None
        return PathStep(column, row, "N", what, what, in_goal)

    steps = (
        path_step("d5", "moved"),
        path_step("d5", "vortex"),
        path_step("d4", "moved"),
        path_step("d0", "goal"),  # a mogul jump from d4 carried it in: same tick
    )
    assert [len(group) for group in ticks((3, 5), steps)] == [2, 2]
    direct = (path_step("d1", "moved"), path_step("d0", "goal"))  # flew in from d1: new tick
    assert [len(group) for group in ticks((3, 1), direct)] == [1, 1]


def test_a_move_starts_where_the_event_says():
    """After a Mogul sends the ball off the field it is aimed from the centre: the GIF of that
    roll starts on d6 even if the state passed still has the ball elsewhere."""
    state = make_state(balls=[Ball("b2", "W")], phase="aim")
    frames, _ = frames_of(render_move_gif(state, move("d6", "S", 1, [step("d7", "S")])))
    assert ball_drawn(frames[0], "d6", "S")
    assert not ball_drawn(frames[0], "b2", "W")


def test_events_without_movement_are_refused():
    with pytest.raises(ValueError, match="no ball movement"):
        render_move_gif(make_state(), [{"kind": "place", "text": "North places a vortex."}])


@pytest.mark.parametrize(
    "variants", [["bumpers", "gusts", "barricades", "moguls"], ["assault", "twisters"]]
)
def test_real_engine_moves_end_where_the_engine_put_the_balls(variants):
    rng = random.Random(3)
    state, _ = new_game(3, Settings.with_variants(variants))
    checked = 0
    while state.phase != "over" and checked < 8:
        before = state
        state, events = apply(state, rng.choice(legal_actions(state)))
        moves = [event for event in events if isinstance(event, MoveEvent)]
        if not moves or not any(move.steps for move in moves):
            continue
        steps = [step for move in moves for step in move.steps]
        finale = any(s.what in ("goal", "collision") for s in steps)
        frames, durations = frames_of(render_move_gif(before, events))
        if len(moves) == 1:
            assert len(frames) == 1 + len(moves[0].steps) + (2 if finale else 0)
        assert durations[-1] == LAST_FRAME_MS
        if not finale:  # after a goal the engine has already reset the field
            bodies = {None: VERMILION, "N": VERMILION, "S": INK}
            for ball in state.balls:
                owner = ball.owner if state.settings.assault else None
                assert ball_drawn(frames[-1], ball.square, ball.facing, bodies[owner])
        checked += 1
    assert checked >= 5


def test_move_squares_lists_the_path_for_highlighting():
    steps = [step("d5", "N"), step("d5", "E", "vortex"), step("e5", "E"), step("d0", "N", "goal")]
    events = [move("d6", "N", 3, steps), {"kind": "goal", "text": "GOAL!"}]
    assert move_squares(events) == ["d6", "d5", "e5"]


def test_turn_squares_add_the_chips_the_turn_touched():
    events = [
        move("d6", "N", 1, [step("d5", "N")]),
        {"kind": "place", "text": "North places a vortex on b2.", "square": "b2"},
        {"kind": "drift", "text": "South drifts a chip.", "from_square": "f3", "to_square": "f4"},
    ]
    assert turn_squares(events) == ["d6", "d5", "b2", "f3", "f4"]


def test_gif_frames_equal_the_full_drawings():
    """The GIF re-maps only the boxes each frame changed; every frame must still come out
    exactly as the whole drawing would (a missed box would leave a stale ball or caption)."""
    cases = []
    goal_state = make_state(balls=[Ball("d2", "N")])
    goal = [
        move("d2", "N", 3, [step("d1", "N"), step("d0", "N", "goal")], player="S"),
        {"kind": "goal", "text": "GOAL!", "scorer": "S", "goal": "N", "score": {"N": 0, "S": 1}},
    ]
    cases.append((goal_state, goal))
    settings = Settings.with_variants(["barricades", "assault"])
    balls = [Ball("c5", "N", "N", "d1"), Ball("e7", "N", "S", "d11")]
    blast_state = make_state(balls=balls, chips={"c4": Chip("barricade")}, settings=settings)
    blast = [
        move(
            "c5", "N", 2, [step("c4", "N"), step("c4", "N", "barricade_blasted"), step("c3", "N")]
        ),
        move("e7", "N", 2, [step("e6", "N"), step("e5", "N")], ball=1),
    ]
    cases.append((blast_state, blast))
    collide_state = make_state(balls=[Ball("d4", "S", "N", "d1"), Ball("d8", "N", "S", "d11")],
                               settings=settings)  # fmt: skip
    collide = [
        move("d4", "S", 2, [step("d5", "S"), step("d6", "S"), step("d6", "S", "collision")]),
        move(
            "d8", "N", 2, [step("d7", "N"), step("d6", "N"), step("d6", "N", "collision")], ball=1
        ),
    ]
    cases.append((collide_state, collide))
    for state, events in cases:
        view = board_view(state)
        paths = ball_paths(events, view.names)
        if len(paths) > 1:
            labelled = []
            for path in paths:
                owner = view.balls[path.ball].owner
                assert owner is not None, "each of several balls is a player's (Assault)"
                labelled.append(replace(path, label=view.names[owner]))
            paths = labelled
        _, drawn = move_frames(view, paths, final_score={"N": 0, "S": 1})
        frames, _ = frames_of(move_gif(view, paths, final_score={"N": 0, "S": 1}))
        assert len(frames) == len(drawn)
        for index, (frame, expected) in enumerate(zip(frames, drawn, strict=True)):
            full = to_palette(expected.image).convert("RGB")
            assert ImageChops.difference(frame, full).getbbox() is None, index
