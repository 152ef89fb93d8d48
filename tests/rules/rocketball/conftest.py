"""Helpers for the Rocketball engine tests: build a position by hand and load the dice."""

from __future__ import annotations

import random

import pytest

from rules.rocketball import Ball, Chip, GameState, Settings, new_game
from rules.rocketball.state import PHASE_PLACE, PHASE_ROLL


def rigged_rng(*rolls: int) -> random.Random:
    """A seeded Random whose next d4 rolls are `rolls` (found by searching seeds, so the
    engine's own dice code is what produces them)."""
    for seed in range(1_000_000):
        rng = random.Random(seed)
        if all(1 + int(rng.random() * 4) == roll for roll in rolls):
            rng = random.Random(seed)
            return rng
    raise AssertionError(f"no seed found for {rolls}")


def build(
    *,
    ball: tuple[str, str] = ("d6", "N"),
    chips: dict[str, tuple[str, str | None]] | None = None,
    rolls: tuple[int, ...] = (),
    settings: Settings | None = None,
    holder: str = "N",
    phase: str = PHASE_ROLL,
    drawn: str | None = None,
) -> GameState:
    """A position: the ball on `ball`, the given chips (square -> (kind, facing)) taken out of
    the windbag, `holder` to act, and dice that will roll `rolls` next."""
    state, _ = new_game(1, settings or Settings())
    state.balls = [Ball(*ball)] if not state.settings.assault else state.balls
    for square, (kind, facing) in (chips or {}).items():
        state.chips[square] = Chip(kind, facing)
        state.bag[kind] -= 1
    state.windbag = holder
    state.to_move = holder
    state.phase = phase
    if phase == PHASE_PLACE:
        kind = drawn or "vortex"
        state.bag[kind] -= 1
        state.drawn = kind
        state.placers = [holder]
    state.rng = rigged_rng(*rolls)
    return state


@pytest.fixture
def position():
    return build


@pytest.fixture
def dice():
    return rigged_rng
