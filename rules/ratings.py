"""Elo ratings: what a player's results say about their strength, as a number.

A new player starts at 1500. After a game each side moves by K times (result - expected), where
expected = 1 / (1 + 10^((opponent - own) / 400)) and the result is 1, 0.5 or 0. K is 32, the
value most clubs use for players with few games.
"""

from __future__ import annotations

START = 1500.0
K = 32.0


def expected(own: float, opponent: float) -> float:
    """The share of the points `own` is expected to score against `opponent`."""
    return 1.0 / (1.0 + 10 ** ((opponent - own) / 400.0))


def updated(own: float, opponent: float, result: float, k: float = K) -> float:
    """`own` after a game against `opponent` that scored `result` (1 win, 0.5 draw, 0 loss)."""
    return own + k * (result - expected(own, opponent))


RESULT_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
