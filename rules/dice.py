"""Dice notation for /roll: `2d10`, `d4`, `3d6+2`, `1d8+1d6-1`.

A pure engine (like avrae's `d20` library, far smaller): parse the notation into terms, roll them
with an RNG the caller passes in, and keep every die so the bot can show each one, not just the
total.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from rules.errors import PlayerError

MAX_TERMS = 10
MAX_DICE = 100  # in one roll, all terms together (keeps the reply readable)
MAX_SIDES = 1000
MAX_MODIFIER = 10_000

ACCEPTED = (
    "Use dice notation such as `d4`, `2d10`, `3d6+2` or `1d8+1d6-1`: up to "
    f"{MAX_TERMS} terms and {MAX_DICE} dice in all, each die with 2 to {MAX_SIDES} sides."
)

_TERM = re.compile(r"([+-])(?:(\d*)d(\d+)|(\d+))")


class DiceError(PlayerError):
    """The notation is not understood; the message says what is accepted."""


@dataclass(frozen=True)
class Term:
    sign: int  # +1 or -1
    count: int  # dice in the term; 0 for a plain number
    sides: int  # 0 for a plain number
    value: int = 0  # the plain number

    def label(self) -> str:
        body = f"{self.count}d{self.sides}" if self.sides else str(self.value)
        return ("-" if self.sign < 0 else "+") + body


@dataclass(frozen=True)
class RolledTerm:
    term: Term
    dice: tuple[int, ...]

    @property
    def subtotal(self) -> int:
        return self.term.sign * (sum(self.dice) if self.term.sides else self.term.value)


@dataclass(frozen=True)
class Roll:
    notation: str
    terms: tuple[RolledTerm, ...]

    @property
    def total(self) -> int:
        return sum(term.subtotal for term in self.terms)

    @property
    def working(self) -> str:
        """`3d6+2` -> `[4, 1, 6] + 2`: every die, as the sum that makes the total; "" for a
        lone die, whose face is the total (no "[5] = 5")."""
        if len(self.terms) == 1 and self.terms[0].term.sign > 0 and len(self.terms[0].dice) == 1:
            return ""
        parts: list[str] = []
        for index, rolled in enumerate(self.terms):
            shown = (
                "[" + ", ".join(str(d) for d in rolled.dice) + "]"
                if rolled.term.sides
                else str(rolled.term.value)
            )
            if index == 0:
                parts.append(("-" if rolled.term.sign < 0 else "") + shown)
            else:
                parts.append(("- " if rolled.term.sign < 0 else "+ ") + shown)
        return " ".join(parts)

    def describe(self) -> str:
        """`3d6+2` -> `[4, 1, 6] + 2 = 13`: every die shown, then the total; `1d20` -> `17`."""
        return f"{self.working} = {self.total}" if self.working else str(self.total)


def parse(notation: str) -> tuple[Term, ...]:
    """Parse dice notation; raise DiceError (saying what is accepted) for anything else."""
    text = notation.replace(" ", "").lower()
    if not text:
        raise DiceError(f"Nothing to roll. {ACCEPTED}")
    if text[0] not in "+-":
        text = "+" + text
    terms: list[Term] = []
    position = 0
    while position < len(text):
        match = _TERM.match(text, position)
        if not match:
            raise DiceError(f"`{notation}` is not dice notation I understand. {ACCEPTED}")
        sign = -1 if match.group(1) == "-" else 1
        if match.group(3) is not None:
            count = int(match.group(2) or 1)
            sides = int(match.group(3))
            dice_so_far = sum(term.count for term in terms) + count
            if count < 1 or dice_so_far > MAX_DICE:
                raise DiceError(f"Roll between 1 and {MAX_DICE} dice at a time, not {dice_so_far}.")
            if not 2 <= sides <= MAX_SIDES:
                raise DiceError(f"A die has 2 to {MAX_SIDES} sides, not {sides}.")
            terms.append(Term(sign, count, sides))
        else:
            value = int(match.group(4))
            if value > MAX_MODIFIER:
                raise DiceError(f"A number to add is at most {MAX_MODIFIER}, not {value}.")
            terms.append(Term(sign, 0, 0, value))
        position = match.end()
        if len(terms) > MAX_TERMS:
            raise DiceError(f"At most {MAX_TERMS} terms in one roll. {ACCEPTED}")
    if not any(term.sides for term in terms):
        raise DiceError(f"`{notation}` has no dice in it. {ACCEPTED}")
    return tuple(terms)


def roll(notation: str, rng: random.Random) -> Roll:
    """Parse and roll `notation`, drawing every die from `rng`."""
    rolled = tuple(
        RolledTerm(term, tuple(rng.randint(1, term.sides) for _ in range(term.count)))
        for term in parse(notation)
    )
    canonical = "".join(r.term.label() for r in rolled).lstrip("+")
    return Roll(canonical, rolled)
