"""What a tournament is made of, as plain data: its entrants (a rating is an input, a number
from whatever rates the game; nothing here computes one), its games with their points, and a
round's pairing. Everything is frozen; the same inputs always give the same pairing and the
same standings (docs/rules/tournaments.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    """A player in the tournament.

    `joined`: the first round they may be paired in (a late joiner starts there with zero
    points and no game in the rounds before). `withdrawn_from`: the first round they are no
    longer paired in (None: still playing); their results so far stand."""

    id: str
    rating: float
    joined: int = 1
    withdrawn_from: int | None = None

    def active_in(self, round_number: int) -> bool:
        """Whether the entrant is paired in `round_number`."""
        if round_number < self.joined:
            return False
        return self.withdrawn_from is None or round_number < self.withdrawn_from


@dataclass(frozen=True)
class Game:
    """One game of a round: `seats` in seat order (two for a pairing, the first side first:
    White, North, the home side; up to six for a table; one for a bye), and the `points`
    each seat scored (None while undecided). `played` is False for a game decided without
    being played (a bye, a forfeit, a double absence): tie-breaks treat such a round as
    unplayed (docs/rules/tournaments.md "Tie-breaks")."""

    round: int
    seats: tuple[str, ...]
    points: tuple[float, ...] | None = None
    played: bool = True

    def __post_init__(self) -> None:
        if not self.seats or len(set(self.seats)) != len(self.seats):
            raise ValueError("A game needs its seats, each player once.")
        if self.points is not None and len(self.points) != len(self.seats):
            raise ValueError("A game's points are one number per seat.")

    @property
    def is_bye(self) -> bool:
        """A pairing-allocated bye: a game of one seat."""
        return len(self.seats) == 1

    @property
    def decided(self) -> bool:
        return self.points is not None

    def points_of(self, entrant: str) -> float:
        """What `entrant` scored in this game (0 while undecided)."""
        if self.points is None:
            return 0.0
        return self.points[self.seats.index(entrant)]


@dataclass(frozen=True)
class Pairing:
    """A round's pairing: the `tables` in board order (each in seat order: for two seats the
    first side first), the player given the pairing-allocated `bye` (worth a win), and the
    players who rest this round without a game or points (round robin's odd player out)."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    bye: str | None = None
    resting: tuple[str, ...] = field(default=())

    def games(self, bye_points: float = 1.0) -> list[Game]:
        """The round's games as they start: undecided, and the bye already scored."""
        games = [Game(self.round, seats) for seats in self.tables]
        if self.bye is not None:
            games.append(Game(self.round, (self.bye,), (bye_points,), played=False))
        return games
