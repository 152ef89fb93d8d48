"""The game's seeded random numbers: `random.Random`'s own sequence, with a state that is cheap
to copy.

`apply` must leave its input untouched, so every new state needs its own generator. Copying a
`random.Random` (getstate + setstate: 625 integers) took ~14 us, a third of a whole action.
`Dice` runs the same Mersenne Twister (MT19937) in Python over an immutable tuple of its 624
words plus a position, so a copy shares the tuple and costs nothing; only every 312th draw
builds a new tuple. `Dice(seed).random()` gives bit for bit what `random.Random(seed).random()`
gives, and `getstate()` is `random.Random`'s state tuple, so stored games (JSON) and every
seeded result stay what they were.
"""

from __future__ import annotations

import random
from typing import Any

_N = 624
_M = 397
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX = (0, 0x9908B0DF)
_STATE_VERSION = 3  # random.Random.VERSION: the layout of getstate()


def _twist(words: tuple[int, ...]) -> tuple[int, ...]:
    """The next 624 words (genrand_uint32's refill in CPython's _randommodule.c)."""
    mt = list(words)
    matrix = _MATRIX
    for k in range(_N - _M):
        y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
        mt[k] = mt[k + _M] ^ (y >> 1) ^ matrix[y & 1]
    for k in range(_N - _M, _N - 1):
        y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
        mt[k] = mt[k + (_M - _N)] ^ (y >> 1) ^ matrix[y & 1]
    y = (mt[_N - 1] & _UPPER) | (mt[0] & _LOWER)
    mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ matrix[y & 1]
    return tuple(mt)


class Dice:
    """A seeded generator with `random()`, `getstate()` and `setstate()` like random.Random.

    Copies (`copy()`) are independent: drawing from one never changes another."""

    __slots__ = ("_gauss", "_index", "_words")

    def __init__(self, seed: int | None = None) -> None:
        # Seeding (init_by_array) happens once per game: random.Random does it in C.
        self.setstate(random.Random(seed).getstate())

    @classmethod
    def from_state(cls, state: tuple[Any, ...]) -> Dice:
        dice = cls.__new__(cls)
        dice.setstate(state)
        return dice

    @classmethod
    def from_random(cls, rng: random.Random | Dice) -> Dice:
        """A Dice continuing `rng`'s sequence (tests hand the state a random.Random)."""
        return cls.from_state(rng.getstate())

    def copy(self) -> Dice:
        dice = Dice.__new__(Dice)
        dice._words = self._words  # immutable, shared until one of them twists
        dice._index = self._index
        dice._gauss = self._gauss
        return dice

    def getstate(self) -> tuple[Any, ...]:
        return (_STATE_VERSION, (*self._words, self._index), self._gauss)

    def setstate(self, state: tuple[Any, ...]) -> None:
        version, internal, gauss = state
        if version != _STATE_VERSION or len(internal) != _N + 1:
            raise ValueError(f"not a random.Random version-3 state: version {version!r}")
        index = int(internal[_N])
        if not 0 <= index <= _N:
            raise ValueError(f"random state position out of range: {index}")
        self._words = tuple(map(int, internal[:_N]))  # in C: a loop here dominated a state's load
        self._index = index
        self._gauss = gauss

    def _uint32(self) -> int:
        if self._index >= _N:
            self._words = _twist(self._words)
            self._index = 0
        y = self._words[self._index]
        self._index += 1
        # Tempering.
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def random(self) -> float:
        """A float in [0, 1): random.Random.random's genrand_res53 (two 32-bit words)."""
        index = self._index
        if index > _N - 2:  # a twist falls inside this draw
            a = self._uint32() >> 5
            b = self._uint32() >> 6
        else:
            # The common case, inlined: this is the engine's hot path.
            words = self._words
            self._index = index + 2
            a = words[index]
            a ^= a >> 11
            a ^= (a << 7) & 0x9D2C5680
            a ^= (a << 15) & 0xEFC60000
            a = (a ^ (a >> 18)) >> 5
            b = words[index + 1]
            b ^= b >> 11
            b ^= (b << 7) & 0x9D2C5680
            b ^= (b << 15) & 0xEFC60000
            b = (b ^ (b >> 18)) >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dice):
            return NotImplemented
        return self.getstate() == other.getstate()

    # unhashable (it changes as it is drawn from): typeshed's idiom, which type checkers see
    # as overriding a method
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Dice at position {self._index}>"
