"""Provably fair dice: a match commits to its secret seed at the start and reveals it at the end.

At the start the bot publishes `commitment(game, seed, salt)`, a SHA-256 hash; the seed and the
salt (128 random bits, so the seed cannot be found by trying every value) stay secret while the
match is played. When it ends both are revealed, and anyone can check that they hash to what was
published before the first roll, then replay the record to see every roll follow from the seed
(`python -m rules.GAME verify FILE`).
"""

from __future__ import annotations

import hashlib
import hmac


def commitment(game: str, seed: int, salt: str) -> str:
    """The published hash of a match's secret seed (hex)."""
    return hashlib.sha256(f"ballcourt:{game}:{seed}:{salt}".encode()).hexdigest()


def verify_commitment(game: str, seed: int, salt: str, published: str) -> bool:
    """True when `seed` and `salt` are what was committed to as `published`."""
    return hmac.compare_digest(commitment(game, seed, salt), published.strip().lower())
