"""A round of Rocketball: the start table, placing, rotating, passing, the windbag, scoring
and winning (Seed, Setting Up / Play / Winning; docs/rules/rocketball.md)."""

import random

import pytest

from rules.rocketball import (
    Pass,
    Place,
    Resign,
    RocketballError,
    Roll,
    Rotate,
    Settings,
    apply,
    legal_actions,
    new_game,
    turn_prompt,
)
from rules.rocketball.events import DrawEvent, StartEvent
from rules.rocketball.state import FIELD_SQUARES, PHASE_PLACE, PHASE_ROLL, Chip


def first_roll(seed):
    rng = random.Random(seed)
    return 1 + int(rng.random() * 4)


@pytest.mark.parametrize(
    ("die", "facing", "holder"), [(1, "N", "N"), (2, "E", "N"), (3, "S", "S"), (4, "W", "S")]
)
def test_start_table_sets_the_facing_and_the_windbag(die, facing, holder):
    seed = next(s for s in range(100) if first_roll(s) == die)
    state, events = new_game(seed)
    assert state.ball.square == "d6" and state.ball.facing == facing
    assert state.windbag == holder and state.to_move == holder and state.phase == PHASE_ROLL
    start = events[0]
    assert isinstance(start, StartEvent) and start.roll == die and f"d4 = {die}" in start.text
    assert state.bag["vortex"] == 76 and state.chips == {}


def test_only_the_roll_is_legal_before_the_ball_moves(position):
    state = position(rolls=(2,))
    assert legal_actions(state) == [Roll()]
    with pytest.raises(RocketballError, match="can't place or rotate a chip now"):
        apply(state, Place("c4", "N"))


def test_acting_out_of_turn_is_refused_and_changes_nothing(position):
    state = position(holder="S", rolls=(2,))
    before = state.to_json()
    with pytest.raises(RocketballError, match="South's turn: North must wait"):
        apply(state, Roll(), player="N")
    assert state.to_json() == before


def test_after_the_move_the_holder_draws_then_places_and_the_windbag_passes(position):
    state = position(ball=("d6", "E"), rolls=(1,))
    state, events = apply(state, Roll())
    assert state.phase == PHASE_PLACE and state.drawn == "vortex"
    assert any(isinstance(e, DrawEvent) and e.chip == "vortex" and not e.text for e in events)
    state, events = apply(state, Place("c4", "S"))
    assert state.chips["c4"] == Chip("vortex", "S")
    assert state.windbag == "S" and state.to_move == "S" and state.phase == PHASE_ROLL
    assert [e.text for e in events] == [
        "North places a vortex on c4 facing South.",
        "The windbag passes to South.",
    ]
    assert state.bag["vortex"] == 75 and state.drawn is None


@pytest.mark.parametrize(
    ("square", "message"),
    [
        ("d6", "centre square"),
        ("c4", "already holds a vortex"),
        ("e5", "The ball is on e5"),
        ("h2", "not a square"),
    ],
)
def test_placing_is_refused_on_the_centre_occupied_squares_and_under_the_ball(
    position, square, message
):
    state = position(ball=("e5", "N"), chips={"c4": ("vortex", "N")}, phase=PHASE_PLACE)
    before = state.to_json()
    with pytest.raises(RocketballError, match=message):
        apply(state, Place(square, "N"))
    assert state.to_json() == before


def test_a_vortex_needs_a_facing(position):
    state = position(phase=PHASE_PLACE)
    with pytest.raises(RocketballError, match="N, E, S or W"):
        apply(state, Place("c4"))


def test_rotation_is_a_quarter_turn_either_way(position):
    state = position(chips={"c4": ("vortex", "N")}, phase=PHASE_PLACE)
    clockwise, _ = apply(state, Rotate("c4", True))
    counter, _ = apply(state, Rotate("c4", False))
    assert clockwise.chips["c4"].facing == "E" and counter.chips["c4"].facing == "W"
    # The drawn chip was not placed: it goes back into the windbag.
    assert clockwise.bag["vortex"] == state.bag["vortex"] + 1


def test_the_chip_under_the_ball_cannot_be_rotated(position):
    state = position(ball=("c4", "N"), chips={"c4": ("vortex", "N")}, phase=PHASE_PLACE)
    with pytest.raises(RocketballError, match="under the ball"):
        apply(state, Rotate("c4", True))
    assert Rotate("c4", True) not in legal_actions(state)


def test_the_chip_the_opponent_rotated_last_turn_cannot_be_rotated(position):
    state = position(
        ball=("d6", "N"),
        chips={"c4": ("vortex", "N"), "e8": ("vortex", "S")},
        phase=PHASE_PLACE,
        rolls=(1,),
    )
    state, _ = apply(state, Rotate("c4", True))  # North turns c4
    state, _ = apply(state, Roll())  # South rolls 1: d6 -> d5
    assert state.to_move == "S" and state.phase == PHASE_PLACE
    with pytest.raises(RocketballError, match="rotated by your opponent"):
        apply(state, Rotate("c4", False))
    assert Rotate("c4", True) not in legal_actions(state)
    assert Rotate("e8", True) in legal_actions(state)
    # South rotates e8; on North's next turn c4 is free again but e8 is locked.
    state, _ = apply(state, Rotate("e8", True))
    state, _ = apply(state, Roll())
    if state.phase == PHASE_PLACE:
        assert Rotate("c4", True) in legal_actions(state) or "c4" in state.ball_squares()
        assert Rotate("e8", True) not in legal_actions(state)


def test_pass_only_when_nothing_can_be_placed_or_rotated(position):
    state = position(chips={"c4": ("vortex", "N")}, phase=PHASE_PLACE)
    with pytest.raises(RocketballError, match="only pass"):
        apply(state, Pass())
    # A full field whose only chip free to turn is under the ball, and an empty windbag.
    # Every square but the centre holds a bumper (never rotatable) and the windbag is empty.
    full = position(ball=("d6", "N"), phase=PHASE_PLACE)
    full.chips = {sq: Chip("bumper", None) for sq in FIELD_SQUARES if sq != "d6"}
    full.bag = dict.fromkeys(full.bag, 0)
    full.drawn = None
    assert legal_actions(full) == [Pass()]
    passed, events = apply(full, Pass())
    assert events[0].kind == "pass" and passed.windbag == "S"


def test_first_to_two_points_wins_and_the_target_is_configurable(position):
    state = position(ball=("d2", "N"), rolls=(2,))
    state.score = {"N": 0, "S": 1}
    over, events = apply(state, Roll())
    assert over.over and over.winner == "S" and over.end_reason == "score"
    assert events[-1].text == "South wins 2-0!"
    assert legal_actions(over) == []
    with pytest.raises(RocketballError, match="over"):
        apply(over, Roll())
    longer = position(ball=("d2", "N"), rolls=(2, 1), settings=Settings(target_score=3))
    longer.score = {"N": 0, "S": 1}
    on, _ = apply(longer, Roll())
    assert not on.over and on.score == {"N": 0, "S": 2}


def test_either_player_may_resign_at_any_time(position):
    state = position(holder="N", rolls=(1,))
    over, events = apply(state, Resign("S"))
    assert over.winner == "N" and over.end_reason == "resign"
    assert events[-1].text == "South resigns: North wins the match."


def test_bad_settings_are_refused_with_reasons():
    with pytest.raises(RocketballError, match="6 to 8"):
        new_game(1, Settings(bumpers=3))
    with pytest.raises(RocketballError, match="don't mix"):
        new_game(1, Settings(assault=True, tug_of_war=True))


def test_turn_prompt_tells_the_channel_what_happens_next(position):
    assert turn_prompt(position(rolls=(1,))) == "North rolls the d4."
    placing = position(holder="S", phase=PHASE_PLACE, drawn="vortex")
    assert turn_prompt(placing) == "South places a chip."
    over, _ = apply(placing, Resign("S"))
    assert turn_prompt(over) == "South resigned: North wins."
