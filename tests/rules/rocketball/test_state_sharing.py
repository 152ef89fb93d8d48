"""The cheap-to-copy parts of the state: the dice give random.Random's exact sequence, and a
history or dice shared between states never lets one state change another."""

import copy
import pickle
import random

import pytest

from rules.rocketball import GameState, Roll, apply, legal_actions, new_game
from rules.rocketball.dice import Dice
from rules.rocketball.state import History


@pytest.mark.parametrize("seed", [0, 1, 4, 2**40 + 3, -7])
def test_dice_draw_what_random_random_draws_across_many_twists(seed):
    reference, dice = random.Random(seed), Dice(seed)
    for draw in range(2000):  # 2000 draws = 4000 words: six twists
        assert dice.random() == reference.random()
        if draw % 311 == 0:
            assert dice.getstate() == reference.getstate()


def test_dice_continue_a_random_random_at_an_odd_position():
    reference = random.Random(9)
    reference.getrandbits(32)  # one word: the next draw straddles word pairs differently
    dice = Dice.from_random(reference)
    for _ in range(1500):
        assert dice.random() == reference.random()


def test_a_dice_copy_is_independent():
    dice = Dice(5)
    twin = dice.copy()
    first = [dice.random() for _ in range(700)]  # past a twist
    assert [twin.random() for _ in range(700)] == first
    assert dice.getstate() == twin.getstate()


def test_a_state_stored_with_random_random_loads_and_plays_on_identically():
    state, _ = new_game(3)
    data = state.to_dict()
    reference = random.Random(3)
    reference.random()  # the start-table roll
    assert data["rng"] == [3, list(reference.getstate()[1]), None]
    loaded = GameState.from_dict(data)
    assert loaded.rng.random() == reference.random()


def test_the_history_is_shared_but_never_changed_by_a_later_action():
    state, _ = new_game(2)
    for _ in range(30):
        state, _ = apply(state, random.Random(len(state.history)).choice(legal_actions(state)))
    lines = list(state.history)
    branch_a, _ = apply(state, legal_actions(state)[0])
    branch_b, _ = apply(state, legal_actions(state)[-1])
    assert state.history == lines and len(state.history) == 30
    assert branch_a.history[:30] == branch_b.history[:30] == tuple(lines)
    assert branch_a.history[-1] != branch_b.history[-1] or len(legal_actions(state)) == 1
    assert GameState.from_json(branch_a.to_json()).history == branch_a.history


def test_history_reads_like_a_list_and_copies_flat():
    history = History()
    for number in range(5000):  # deeper than the recursion limit as a chain of nodes
        history = history.appended(f"N move {number}")
    assert len(history) == 5000 and history[-1] == "N move 4999" and history[0] == "N move 0"
    assert history == [f"N move {number}" for number in range(5000)]
    assert pickle.loads(pickle.dumps(history)) == history
    assert copy.deepcopy(history) == history


def test_a_state_built_with_a_list_history_and_random_random_plays_on():
    state, _ = new_game(4)
    values = {name: getattr(state, name) for name in state.__dataclass_fields__}
    values["history"] = ["N roll"]
    values["rng"] = random.Random(11)
    built = GameState(**values)
    assert isinstance(built.history, History) and isinstance(built.rng, Dice)
    after, _ = (
        apply(built, Roll()) if built.phase == "roll" else apply(built, legal_actions(built)[0])
    )
    assert after.history[0] == "N roll" and len(after.history) == 2
