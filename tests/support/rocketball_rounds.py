"""Rounds of seeded Rocketball games played at random, for the renderer's tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rules.rocketball import apply, new_game, random_action
from rules.rocketball.state import Settings


def random_rounds(seed: int, settings: Settings | None = None) -> Iterator[tuple[Any, list, Any]]:
    """(before, events, after) of each round of a seeded game of random actions, to its end."""
    state, _ = new_game(seed, settings)
    rng = random.Random(seed)
    while not state.over:
        before, events = state, []
        state, new = apply(state, random_action(state, rng))
        events += new
        while not state.over and state.phase != "roll":
            state, new = apply(state, random_action(state, rng))
            events += new
        yield before, events, state


def nth_round(seed: int, number: int, settings: Settings | None = None) -> tuple[Any, list, Any]:
    """The `number`th round (from 1) of `random_rounds(seed, settings)`."""
    for count, found in enumerate(random_rounds(seed, settings), start=1):
        if count == number:
            return found
    raise AssertionError(f"the game of seed {seed} ended before round {number}")
