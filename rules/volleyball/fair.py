"""A Volleyball league's dice, committed to round by round (docs/rules/volleyball.md ruling 57,
"Provably fair dice, round by round").

One secret generator used to run the whole league: revealing its state after a round would
predict every later roll, so nothing could be revealed. A league made now has a secret (128
random bits, drawn by the bot, never shown) and every round's dice come from seeds derived from
it with HMAC-SHA256, which tells nothing of the secret nor of any other round's seeds:

- the round's **rally seed** gives every d100 of the round's matches, one generator per match
  (`match_rng`), so a match's rallies depend only on that seed, the match and its line-ups;
- its **salt** makes the published hash impossible to invert by trying seeds;
- the **rest of the round** (lack-of-devotion checks, ties on the markets, the GM offers drawn)
  comes from a third seed that is never revealed: a lack of devotion's victim plays the team's
  next match at half levels, which its opponent must not read off a seed.

`round_commitment` (rules/records.py `commitment` of the rally seed and salt) is published before
the round's orders can matter: with the league's first post for round 1, with each round's
results for the next. Once the round is played its seed and salt are revealed in each of its
matches' records (rules/volleyball/record.py), and anyone can check them against the hash and
replay every rally.
"""

from __future__ import annotations

import hashlib
import hmac
import random

from rules import records

GAME = "volleyball"
SALT_HEX = 32  # 128 bits, as the other games' salts


def _derived(secret: str, purpose: str, season: int, round_number: int) -> str:
    message = f"{purpose}:{season}:{round_number}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def round_seed(secret: str, season: int, round_number: int) -> str:
    """The seed of every rally of a round (revealed once the round is played)."""
    return _derived(secret, "rallies", season, round_number)


def round_salt(secret: str, season: int, round_number: int) -> str:
    """The salt hashed with the round's seed (revealed with it)."""
    return _derived(secret, "salt", season, round_number)[:SALT_HEX]


def round_commitment(secret: str, season: int, round_number: int) -> str:
    """The hash published before the round: rules/records.py `commitment` of its seed and salt."""
    return records.commitment(
        GAME,
        round_seed(secret, season, round_number),
        round_salt(secret, season, round_number),
    )


def rest_rng(secret: str, season: int, round_number: int) -> random.Random:
    """The generator of the round's draws outside its matches (never revealed: module docstring)."""
    return random.Random(_derived(secret, "rest", season, round_number))


def match_rng(seed: str, match_number: int, home: str) -> random.Random:
    """The generator of one match's rallies: the round's seed, the match's number and its home
    team (a round's fixtures share numbers; a home team plays once per number)."""
    return random.Random(f"{seed}:{match_number}:{home}")
