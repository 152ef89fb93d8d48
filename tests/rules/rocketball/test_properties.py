"""Property tests: whatever legal actions are played, with any sensible variant mix, the ball
stays on the field or in a goal, chips are conserved, the state survives JSON, illegal
actions change nothing, and the record replays to the same state."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.rocketball import (
    Aim,
    Drift,
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
    replay,
    to_record,
)
from rules.rocketball.events import DrawEvent
from rules.rocketball.placement import NEAR_GOAL, WALL_SQUARES
from rules.rocketball.state import (
    CENTRE,
    SPECIAL_KINDS,
    GameState,
    is_field_square,
    is_goal_square,
)

CHIP_VARIANTS = ["bumpers", "twisters", "gusts", "barricades", "moguls", "djinns"]
OTHER_VARIANTS = ["tug_of_war", "assault", "drifting_winds"]


@st.composite
def match_settings(draw):
    names = draw(st.lists(st.sampled_from(CHIP_VARIANTS + OTHER_VARIANTS), unique=True))
    if "tug_of_war" in names and "assault" in names:
        names.remove("tug_of_war")
    options = {"target_score": draw(st.integers(1, 3))}
    if "tug_of_war" in names:
        options["tug_swap_rounds"] = draw(st.integers(0, 4))
    return Settings.with_variants(names, **options)


def check_invariants(state: GameState) -> None:
    total = sum(state.settings.initial_bag().values())
    assert state.chips_in_play() == total
    assert all(count >= 0 for count in state.bag.values())
    for ball in state.balls:
        assert is_field_square(ball.square) or (is_goal_square(ball.square) and state.over)
    assert CENTRE not in state.chips
    for square, chip in state.chips.items():
        assert is_field_square(square)
        if chip.kind in SPECIAL_KINDS:
            assert square not in WALL_SQUARES and square not in NEAR_GOAL
        assert (chip.facing is None) == (chip.kind not in ("vortex", "gust"))
    assert max(state.score.values()) <= state.settings.target_score


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), variants=match_settings(), steps=st.integers(1, 160))
def test_random_legal_play_keeps_every_invariant(seed, variants, steps):
    state, _ = new_game(seed, variants)
    chooser = random.Random(seed)
    check_invariants(state)
    for _ in range(steps):
        if state.over:
            break
        actions = legal_actions(state)
        assert actions, "a live match always has a legal action"
        before = state.to_json()
        try:  # an illegal action is refused and changes nothing
            apply(state, Place(CENTRE, "N"))
            raise AssertionError("a chip was placed on the centre")
        except RocketballError:
            pass
        assert state.to_json() == before
        state, events = apply(state, chooser.choice(actions))
        # Every event says what happened, except a plain vortex draw (every turn's: noise).
        silent = [e for e in events if not e.text]
        assert events and all(isinstance(e, DrawEvent) and e.chip == "vortex" for e in silent)
        check_invariants(state)
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
    assert replay(to_record(state, reveal=True)).to_json() == state.to_json()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), variants=match_settings())
def test_same_seed_and_actions_give_the_same_game(seed, variants):
    def play():
        state, log = new_game(seed, variants)
        texts = [e.text for e in log]
        chooser = random.Random(seed + 1)
        for _ in range(60):
            if state.over:
                break
            state, events = apply(state, chooser.choice(legal_actions(state)))
            texts += [e.text for e in events]
        return state.to_json(), texts

    assert play() == play()


square_text = st.one_of(
    st.sampled_from(["a1", "d6", "c4", "g11", "d0", "c12", "h4", "", "c"]), st.text(max_size=4)
)
direction_text = st.one_of(st.sampled_from(["N", "E", "S", "W", None, "X"]), st.text(max_size=2))
kind_text = st.sampled_from([None, "vortex", "bumper", "djinn", "mogul", "rocket"])
any_action = st.one_of(
    st.builds(Place, square_text, direction_text, kind_text),
    st.builds(Rotate, square_text, st.booleans()),
    st.builds(Drift, square_text, square_text),
    st.builds(Aim, direction_text),
    st.just(Roll()),
    st.just(Pass()),
    st.builds(Resign, st.sampled_from(["N", "S", "X"])),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 1000), warmup=st.integers(0, 30), action=any_action)
def test_any_action_is_applied_or_refused_cleanly(seed, warmup, action):
    """Whatever a cog might pass in, apply either works or raises RocketballError with a
    message, and a refused action leaves the state exactly as it was."""
    state, _ = new_game(seed, Settings.with_variants(["bumpers", "djinns", "drifting_winds"]))
    chooser = random.Random(seed)
    for _ in range(warmup):
        if state.over:
            break
        state, _ = apply(state, chooser.choice(legal_actions(state)))
    before = state.to_json()
    try:
        after, _ = apply(state, action)
    except RocketballError as error:
        assert str(error)
        assert state.to_json() == before
    else:
        check_invariants(after)
