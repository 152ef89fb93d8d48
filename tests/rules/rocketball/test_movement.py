"""Moving the rocketball: straight lines, vortexes, edge bounces, goals (Seed, Moving the
Rocketball; docs/rules/rocketball.md) and the variant chips that act on the ball."""

from rules.rocketball import MoveEvent, Roll, Settings, apply
from rules.rocketball.events import GoalEvent
from rules.rocketball.state import PHASE_AIM, PHASE_PLACE, PHASE_ROLL


def roll(state):
    new, events = apply(state, Roll())
    move = next(e for e in events if isinstance(e, MoveEvent))
    return new, events, move


def path(move):
    return [(step.square, step.facing, step.what) for step in move.steps]


def test_ball_moves_the_rolled_number_of_squares_in_a_straight_line(position):
    state = position(ball=("d6", "N"), rolls=(3,))
    new, _, move = roll(state)
    assert move.roll == 3
    assert path(move) == [("d5", "N", "moved"), ("d4", "N", "moved"), ("d3", "N", "moved")]
    assert new.ball.square == "d3" and new.phase == PHASE_PLACE
    assert "d4 = 3" in move.text


def test_vortex_turns_the_ball_without_using_a_step(position):
    state = position(ball=("d6", "N"), chips={"d5": ("vortex", "E")}, rolls=(3,))
    _, _, move = roll(state)
    assert path(move) == [
        ("d5", "N", "moved"),
        ("d5", "E", "vortex"),
        ("e5", "E", "moved"),
        ("f5", "E", "moved"),
    ]
    assert "enters a vortex at d5 and turns East" in move.text


def test_edge_bounce_uses_a_step_and_follows_the_arrow(position):
    # a5 is on the West side, odd row: its arrow points North.
    state = position(ball=("b5", "W"), rolls=(4,))
    new, _, move = roll(state)
    assert path(move) == [
        ("a5", "W", "moved"),
        ("a5", "N", "bounce"),
        ("a4", "N", "moved"),
        ("a3", "N", "moved"),
    ]
    assert "bounces off the West side at a5 and now faces North" in move.text
    assert new.ball.square == "a3"


def test_facing_a_wall_with_a_roll_of_one_only_turns(position):
    state = position(ball=("g4", "E"), rolls=(1,))
    _, _, move = roll(state)
    assert path(move) == [("g4", "N", "bounce")]  # g4: East side, even row, arrow North


def test_corner_uses_the_edge_in_the_direction_of_travel(position):
    # At a1 going North the North end's arrow (East) applies, not the West side's (North).
    state = position(ball=("a2", "N"), rolls=(3,))
    _, _, move = roll(state)
    assert path(move) == [("a1", "N", "moved"), ("a1", "E", "bounce"), ("b1", "E", "moved")]


def test_ball_into_the_north_goal_scores_for_south_and_resets(position):
    state = position(ball=("d3", "N"), chips={"c7": ("vortex", "S")}, rolls=(4, 3))
    new, events, move = roll(state)
    assert path(move)[-1] == ("d0", "N", "goal")
    assert new.score == {"N": 0, "S": 1}
    goal = next(e for e in events if e.kind == "goal")
    assert isinstance(goal, GoalEvent) and goal.scorer == "S" and "South scores" in goal.text
    # docs/rules/rocketball.md "A turn": every chip goes back in the windbag; the start table is
    # rolled again (3: the ball faces South and South holds the windbag).
    assert new.chips == {} and new.bag["vortex"] == 76
    assert new.ball.square == "d6" and new.ball.facing == "S"
    assert new.windbag == "S" and new.to_move == "S" and new.phase == PHASE_ROLL
    assert [e.kind for e in events][-2:] == ["reset", "start"]


def test_ball_stepping_off_the_end_beside_the_goal_bounces(position):
    state = position(ball=("b2", "N"), rolls=(2,))
    new, _, move = roll(state)
    assert path(move) == [("b1", "N", "moved"), ("b1", "E", "bounce")]
    assert new.score == {"N": 0, "S": 0}


def test_bumper_turns_clockwise_on_one_or_two_and_counterclockwise_on_three_or_four(position):
    settings = Settings(bumpers=6)
    state = position(
        ball=("d6", "N"), chips={"d5": ("bumper", None)}, rolls=(1, 2), settings=settings
    )
    _, _, move = roll(state)
    assert path(move)[:2] == [("d5", "N", "moved"), ("d5", "E", "bumper")]
    assert move.steps[1].roll == 2
    state = position(
        ball=("d6", "N"), chips={"d5": ("bumper", None)}, rolls=(1, 4), settings=settings
    )
    _, _, move = roll(state)
    assert path(move)[1] == ("d5", "W", "bumper")


def test_twister_faces_the_ball_by_the_die(position):
    settings = Settings(twisters=6)
    for die, facing in ((1, "N"), (2, "E"), (3, "S"), (4, "W")):
        state = position(
            ball=("d6", "N"), chips={"d5": ("twister", None)}, rolls=(1, die), settings=settings
        )
        _, _, move = roll(state)
        assert path(move)[1] == ("d5", facing, "twister")


def test_gust_pushes_the_leaving_ball_without_turning_it(position):
    settings = Settings(gusts=6)
    state = position(ball=("d6", "N"), chips={"d5": ("gust", "E")}, rolls=(3,), settings=settings)
    _, _, move = roll(state)
    assert path(move) == [("d5", "N", "moved"), ("e5", "N", "gust"), ("e4", "N", "moved")]


def test_barricade_turns_the_ball_round_or_is_blasted(position):
    settings = Settings(barricades=6)
    chips = {"d5": ("barricade", None)}
    state = position(ball=("d6", "N"), chips=chips, rolls=(2, 2), settings=settings)
    new, _, move = roll(state)
    assert path(move) == [("d5", "N", "moved"), ("d5", "S", "barricade_turn"), ("d6", "S", "moved")]
    assert "d5" in new.chips
    state = position(ball=("d6", "N"), chips=chips, rolls=(2, 3), settings=settings)
    new, _, move = roll(state)
    assert path(move) == [
        ("d5", "N", "moved"),
        ("d5", "N", "barricade_blasted"),
        ("d4", "N", "moved"),
    ]
    assert "d5" not in new.chips and new.removed["barricade"] == 1
    assert new.chips_in_play() == 76 + 6


def test_mogul_with_two_or_more_steps_left_jumps_over_chips(position):
    settings = Settings(moguls=True)
    chips = {"d5": ("mogul", None), "d4": ("vortex", "E"), "d2": ("vortex", "W")}
    state = position(ball=("d6", "N"), chips=chips, rolls=(4,), settings=settings)
    new, _, move = roll(state)
    # Entering d5 leaves 3 steps: the ball jumps straight to d2 ignoring d4, and the vortex
    # on d2 (where it lands) turns it West.
    assert path(move) == [("d5", "N", "moved"), ("d2", "N", "mogul_jump"), ("d2", "W", "vortex")]
    assert new.ball.square == "d2"


def test_mogul_with_one_step_left_does_nothing(position):
    state = position(
        ball=("d6", "N"), chips={"d5": ("mogul", None)}, rolls=(2,), settings=Settings(moguls=True)
    )
    _, _, move = roll(state)
    assert path(move) == [("d5", "N", "moved"), ("d4", "N", "moved")]


def test_mogul_jump_off_the_field_returns_to_the_centre_to_be_aimed(position):
    settings = Settings(moguls=True)
    state = position(
        ball=("c5", "W"), chips={"b5": ("mogul", None)}, rolls=(4, 2), settings=settings
    )
    new, _, move = roll(state)
    assert path(move) == [("b5", "W", "moved"), ("d6", "W", "mogul_out")]
    assert new.phase == PHASE_AIM and new.to_move == "N"
    from rules.rocketball import Aim, legal_actions

    assert legal_actions(new) == [Aim("N"), Aim("E"), Aim("S"), Aim("W")]
    aimed, events = apply(new, Aim("E"))
    move = [e for e in events if isinstance(e, MoveEvent)][-1]
    assert move.roll == 2 and path(move) == [("e6", "E", "moved"), ("f6", "E", "moved")]
    assert aimed.phase == PHASE_PLACE and aimed.to_move == "N"


def test_mogul_jump_into_a_goal_scores(position):
    settings = Settings(moguls=True)
    state = position(ball=("d4", "N"), chips={"d3": ("mogul", None)}, rolls=(4,), settings=settings)
    new, _, move = roll(state)
    assert path(move) == [("d3", "N", "moved"), ("d0", "N", "goal")]
    assert new.score["S"] == 1
