"""What players read: defects in the engine's wording and in what it said happens next, each
shown failing first through what the engine and the board said at the time."""

from render.rocketball.from_state import board_view
from rules.rocketball import (
    Chip,
    NextStep,
    Place,
    Resign,
    Roll,
    Settings,
    actors,
    apply,
    describe_next,
    new_game,
    next_step,
    turn_prompt,
)
from rules.rocketball.events import MoveEvent
from rules.rocketball.state import PHASE_PLACE


def test_the_board_and_the_prompt_say_the_same_under_drifting_winds(position):
    """The board said "rotate or drift" while another prompt said "places or
    rotates". Both now come from one phrase, and it names every possible move."""
    state = position(
        holder="S",
        phase=PHASE_PLACE,
        drawn="vortex",
        chips={"b3": ("vortex", "N")},
        settings=Settings(drifting_winds=True),
    )
    names = {"N": "Alice", "S": "Bob"}
    board = board_view(state, names).status
    assert board == "South (Bob) places, rotates or drifts a chip."
    assert turn_prompt(state) == "South places, rotates or drifts a chip."


def test_an_own_goal_in_assault_says_whose_ball_went_in(position):
    """The goal line "…flies into the North goal; went into its own goal and restarts on c1"
    had no subject."""
    state = position(settings=Settings(assault=True), rolls=(1, 1))
    state.balls[0].facing = "N"  # North's ball on c1 turned to face its own goal
    _, events = apply(state, Roll())
    move = next(event for event in events if isinstance(event, MoveEvent) and event.ball == 0)
    assert "; went into" not in move.text
    assert "North's ball went into its own goal and restarts on c1" in move.text
    assert move.text.startswith("North rolls d4 = 1 for North's ball on c1. North's ball ")


def test_a_plain_vortex_draw_is_not_announced_but_a_special_chip_is(position):
    """A "draws a vortex chip" line every base-game turn was noise."""
    _, events = apply(position(ball=("d6", "E"), rolls=(1,)), Roll())
    assert not [event.text for event in events if "draws" in event.text]
    bumpers = position(ball=("d6", "E"), rolls=(1,), settings=Settings(bumpers=7))
    bumpers.bag = {kind: 0 for kind in bumpers.bag} | {"bumper": 1}
    _, events = apply(bumpers, Roll())
    assert "North draws a bumper chip from the windbag." in [event.text for event in events]


def test_a_resignation_says_who_resigned_and_not_a_score_like_a_win():
    """A resignation read "North wins 0-0!"."""
    state, _ = new_game(4)
    over, events = apply(state, Resign("S"))
    assert over.winner == "N"
    assert events[-1].text == "South resigns: North wins the match."
    assert turn_prompt(over) == "South resigned: North wins."


def test_next_step_in_assault_names_the_second_placer(position):
    """The second placer in Assault acts while the other player holds the windbag."""
    state = position(
        settings=Settings(assault=True), rolls=(1, 1), holder="N", chips={"f8": ("vortex", "N")}
    )
    state, _ = apply(state, Roll())
    assert next_step(state).actors == frozenset({"N"}) == actors(state)
    state, _ = apply(state, Place("b4", "E"))
    step = next_step(state)
    assert state.windbag == "N" and step.actors == frozenset({"S"}) == actors(state)
    assert step.kind == "place" and step.options == ("place", "rotate")
    text = describe_next(step, {"N": "Alice", "S": "Bob"})
    assert text == "South (Bob) places or rotates a chip."


def test_next_step_names_a_drawn_special_chip_and_only_possible_moves(position):
    state = position(phase=PHASE_PLACE, drawn="bumper", settings=Settings(bumpers=7))
    step = next_step(state)
    assert step == NextStep(frozenset({"N"}), "place", ("place",), "bumper")
    assert describe_next(step, {"N": "Alice"}) == "North (Alice) places the drawn bumper."
    state.chips["b3"] = Chip("vortex", "N")
    assert describe_next(next_step(state), {"N": "Alice"}) == (
        "North (Alice) places the drawn bumper or rotates a chip."
    )


def test_next_step_rolls_aims_and_ends(position):
    names = {"N": "Alice", "S": "Bob"}
    assert describe_next(next_step(position(holder="S")), names) == "South (Bob) rolls the d4."
    assert next_step(position(phase="aim")).kind == "aim"
    state, _ = new_game(4)
    over, _ = apply(state, Resign("N"))
    step = next_step(over)
    assert step.kind == "over" and step.actors == frozenset() and step.winner == "S"
    assert describe_next(step, names) == "North (Alice) resigned: South (Bob) wins."
