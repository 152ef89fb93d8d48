"""The nine variants (Seed, Variants; docs/rules/rocketball.md): special-chip placement
restrictions, Djinns, Tug-of-War, Assault! and Drifting Winds. Chip effects on the ball:
test_movement.py."""

import pytest

from rules.rocketball import (
    Drift,
    MoveEvent,
    Place,
    RocketballError,
    Roll,
    Rotate,
    Settings,
    apply,
    legal_actions,
    new_game,
)
from rules.rocketball.state import PHASE_PLACE, PHASE_ROLL, Ball

SPECIALS = Settings(bumpers=6, twisters=6, gusts=6, barricades=6, moguls=True)


@pytest.mark.parametrize(
    ("square", "reason"),
    [
        ("a5", "touch a wall"),
        ("e11", "touch a wall"),
        ("b2", "within two squares of a goal"),
        ("d2", "within two squares of a goal"),
        ("f10", "within two squares of a goal"),
    ],
)
def test_special_chips_keep_off_walls_and_goals(position, square, reason):
    state = position(phase=PHASE_PLACE, drawn="bumper", settings=SPECIALS)
    with pytest.raises(RocketballError, match=reason):
        apply(state, Place(square))


def test_special_chips_may_go_three_rows_from_a_goal(position):
    state = position(phase=PHASE_PLACE, drawn="twister", settings=SPECIALS)
    for square in ("b3", "c3", "d3", "f9", "c9"):
        placed, _ = apply(state, Place(square))
        assert placed.chips[square].kind == "twister"


def test_special_chips_may_not_touch_each_other_even_diagonally(position):
    state = position(
        phase=PHASE_PLACE, drawn="gust", settings=SPECIALS, chips={"c5": ("barricade", None)}
    )
    with pytest.raises(RocketballError, match="next to the barricade on c5"):
        apply(state, Place("d4", "N"))
    with pytest.raises(RocketballError, match="next to the barricade on c5"):
        apply(state, Place("c4", "N"))
    placed, _ = apply(state, Place("e4", "N"))  # two columns away is fine
    assert placed.chips["e4"].facing == "N"


def test_legal_placements_for_a_special_chip_on_an_empty_field(position):
    state = position(phase=PHASE_PLACE, drawn="bumper", settings=SPECIALS)
    squares = {action.square for action in legal_actions(state) if isinstance(action, Place)}
    # Rows 3-9, columns b-f, without the centre; no facing for a bumper.
    assert len(squares) == 7 * 5 - 1 and "d6" not in squares and "b3" in squares
    assert all(a.facing is None for a in legal_actions(state) if isinstance(a, Place))


def test_moguls_ignore_the_neighbour_rule_but_not_walls_or_goals(position):
    state = position(
        phase=PHASE_PLACE, drawn="mogul", settings=SPECIALS, chips={"c5": ("bumper", None)}
    )
    placed, _ = apply(state, Place("c4"))
    assert placed.chips["c4"].kind == "mogul"
    for square in ("a4", "d2"):
        with pytest.raises(RocketballError):
            apply(state, Place(square))


def test_vortexes_have_no_special_restrictions(position):
    state = position(phase=PHASE_PLACE, settings=SPECIALS, chips={"c5": ("bumper", None)})
    for square in ("a5", "d1", "c4"):
        placed, _ = apply(state, Place(square, "E"))
        assert placed.chips[square].kind == "vortex"


def test_bumpers_twisters_barricades_and_moguls_never_rotate_gusts_do(position):
    chips = {
        "c3": ("bumper", None),
        "e3": ("twister", None),
        "c8": ("barricade", None),
        "e8": ("mogul", None),
        "c6": ("gust", "N"),
    }
    state = position(phase=PHASE_PLACE, settings=SPECIALS, chips=chips)
    for square in ("c3", "e3", "c8", "e8"):
        with pytest.raises(RocketballError, match="can never be rotated"):
            apply(state, Rotate(square, True))
    turned, _ = apply(state, Rotate("c6", True))
    assert turned.chips["c6"].facing == "E"


def test_djinn_lets_the_player_pick_any_chip_then_leaves_play(position):
    settings = Settings(bumpers=6, djinns=True)
    state = position(phase=PHASE_PLACE, drawn="djinn", settings=settings)
    kinds = {a.kind for a in legal_actions(state) if isinstance(a, Place)}
    assert kinds == {"vortex", "bumper"}
    with pytest.raises(RocketballError, match="say which chip"):
        apply(state, Place("c4", "N"))
    with pytest.raises(RocketballError, match="no twister chip"):
        apply(state, Place("c4", None, "twister"))
    picked, events = apply(state, Place("c4", None, "bumper"))
    assert picked.chips["c4"].kind == "bumper"
    assert picked.bag["bumper"] == 5 and picked.removed["djinn"] == 1
    assert "uses the djinn to pick a bumper" in events[0].text
    assert picked.chips_in_play() == 76 + 6 + 2


def test_a_djinn_drawn_before_a_rotation_does_nothing_and_still_leaves(position):
    settings = Settings(djinns=True)
    state = position(
        phase=PHASE_PLACE, drawn="djinn", settings=settings, chips={"c4": ("vortex", "N")}
    )
    rotated, _ = apply(state, Rotate("c4", True))
    assert rotated.removed["djinn"] == 1 and rotated.bag["djinn"] == 1


def test_tug_of_war_players_aim_for_their_own_goal(position):
    state = position(ball=("d2", "N"), rolls=(2, 1), settings=Settings(tug_of_war=True))
    assert state.goals_reversed
    scored, events = apply(state, Roll())
    assert scored.score == {"N": 1, "S": 0}  # the North goal: North scores
    assert any(e.kind == "goal" and "North scores" in e.text for e in events)


def test_tug_of_war_goals_swap_every_n_full_rounds(position):
    settings = Settings(tug_of_war=True, tug_swap_rounds=2)
    state = position(ball=("d6", "E"), rolls=(1, 1, 1, 1), settings=settings)
    state, _ = apply(state, Roll())
    state, events = apply(state, Place("a3", "N"))
    assert state.goals_reversed and not any(e.kind == "swap" for e in events)
    state, _ = apply(state, Roll())
    state, events = apply(state, Place("a9", "N"))
    assert not state.goals_reversed and state.rounds == 2
    assert any(e.kind == "swap" and "opponent's goal" in e.text for e in events)


def assault_position(position, north: tuple[str, str], south: tuple[str, str], rolls, score=(0, 0)):
    state = position(rolls=rolls, settings=Settings(assault=True))
    state.balls = [Ball(*north, "N", "c1"), Ball(*south, "S", "e11")]
    state.score = {"N": score[0], "S": score[1]}
    return state


def test_assault_starts_with_a_ball_in_front_of_each_goal():
    state, events = new_game(3, Settings(assault=True))
    assert [(b.square, b.facing, b.owner) for b in state.balls] == [
        ("c1", "S", "N"),
        ("e11", "N", "S"),
    ]
    assert "c1" in events[0].text and "e11" in events[0].text


def test_assault_round_both_balls_move_then_both_players_place(position):
    state = assault_position(position, ("c1", "S"), ("e11", "N"), rolls=(2, 3))
    state, events = apply(state, Roll())
    moves = [e for e in events if isinstance(e, MoveEvent)]
    assert [(m.ball, m.roll) for m in moves] == [(0, 2), (1, 3)]
    assert [b.square for b in state.balls] == ["c3", "e8"]
    assert state.phase == PHASE_PLACE and state.to_move == "N"
    state, _ = apply(state, Place("a4", "E"))
    assert state.phase == PHASE_PLACE and state.to_move == "S" and state.windbag == "N"
    with pytest.raises(RocketballError, match="placed this round"):
        apply(state, Rotate("a4", True))
    state, events = apply(state, Place("g4", "W"))
    assert state.windbag == "S" and state.to_move == "S" and state.phase == PHASE_ROLL
    assert events[-1].text == "The windbag passes to South."


def test_assault_ball_in_its_own_goal_restarts_and_the_other_goal_scores(position):
    state = assault_position(position, ("c2", "N"), ("d10", "N"), rolls=(2, 1))
    moved, events = apply(state, Roll())
    north_ball = moved.balls[0]
    assert (north_ball.square, north_ball.facing) == ("c1", "S")
    assert moved.score == {"N": 0, "S": 0}
    assert moves_of(events)[0].steps[-1].what == "own_goal"
    scoring = assault_position(position, ("d10", "S"), ("e5", "W"), rolls=(2, 1, 1))
    scored, _ = apply(scoring, Roll())
    assert scored.score == {"N": 1, "S": 0}


def moves_of(events):
    return [e for e in events if isinstance(e, MoveEvent)]


@pytest.mark.parametrize(("score", "winner"), [((1, 0), "N"), ((0, 0), None)])
def test_assault_collision_ends_the_game(position, score, winner):
    state = assault_position(position, ("d4", "S"), ("d8", "N"), rolls=(3, 3), score=score)
    over, events = apply(state, Roll())
    assert over.over and over.end_reason == "collision" and over.winner == winner
    assert over.draw == (winner is None)
    assert "collide on d6" in events[-1].text
    # Lockstep: both balls met on their second step, the third was never taken.
    assert [len(m.steps) for m in moves_of(events)] == [3, 3]


def test_drifting_winds_moves_a_chip_one_square_to_a_vacant_square(position):
    settings = Settings(drifting_winds=True, bumpers=6)
    chips = {
        "c4": ("vortex", "N"),
        "c5": ("vortex", "E"),
        "b5": ("bumper", None),
        "d7": ("vortex", "S"),
    }
    state = position(ball=("e7", "N"), phase=PHASE_PLACE, settings=settings, chips=chips)
    drifted, events = apply(state, Drift("c4", "d4"))
    assert "d4" in drifted.chips and "c4" not in drifted.chips
    assert events[0].text == "North drifts the vortex from c4 to d4."
    for move, reason in (
        (Drift("c4", "c5"), "already holds"),
        (Drift("c4", "c2"), "not next to"),
        (Drift("c4", "d3"), "not diagonally"),
        (Drift("b5", "a5"), "touch a wall"),
        (Drift("d7", "d6"), "centre"),
    ):
        with pytest.raises(RocketballError, match=reason):
            apply(state, move)
    assert Drift("b5", "b4") in legal_actions(state)
    plain = position(phase=PHASE_PLACE, chips={"c4": ("vortex", "N")})
    with pytest.raises(RocketballError, match="Drifting Winds"):
        apply(plain, Drift("c4", "d4"))


def test_the_chip_under_the_ball_cannot_drift(position):
    settings = Settings(drifting_winds=True)
    state = position(
        ball=("c4", "N"), phase=PHASE_PLACE, settings=settings, chips={"c4": ("vortex", "N")}
    )
    with pytest.raises(RocketballError, match="under the ball"):
        apply(state, Drift("c4", "d4"))
