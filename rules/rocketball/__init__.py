"""Rocketball (seed 004, Jonathan Leistiko): pure rules engine and computer opponent.

The state and field geometry are in `rules.rocketball.state`; the public API is completed in
this package as the engine lands.
"""

from rules.rocketball.state import Ball, Chip, GameState, Settings

__all__ = ["Ball", "Chip", "GameState", "Settings"]
