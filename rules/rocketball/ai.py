"""Rocketball computer opponent (placeholder until the strong level lands)."""

from __future__ import annotations

import random

from rules.rocketball.actions import Action
from rules.rocketball.engine import legal_actions
from rules.rocketball.state import GameState

LEVELS = ("easy", "strong")


def choose_action(state: GameState, level: str, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))
