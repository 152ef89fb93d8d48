"""The seeded random numbers: draw number k of a game is sha256("rollerball:<seed>:<k>"), so
the state carries only the seed and a counter, and a revealed seed lets anyone redo the shuffles."""

from __future__ import annotations

import hashlib

from rules.rollerball.state import GameState


def randbelow(state: GameState, n: int) -> int:
    if state.seed is None:
        raise ValueError("a view has no seed: it cannot shuffle")
    digest = hashlib.sha256(f"rollerball:{state.seed}:{state.rng_counter}".encode()).digest()
    state.rng_counter += 1
    return int.from_bytes(digest, "big") % n


def shuffle(state: GameState, items: list[int]) -> None:
    """Fisher-Yates with `randbelow`, in place."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(state, i + 1)
        items[i], items[j] = items[j], items[i]
