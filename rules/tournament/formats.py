"""The tournament face: one small typed protocol every format implements, as rules/face.py is
for the games, so that whatever runs a tournament (the Discord side) pairs a round, reads the
standings and knows when it is over without knowing which format it runs.

Formats (docs/rules/tournaments.md): `Swiss(rounds)`, `RoundRobin()`, `Tables(size, rounds)`
(Rollerball's tables of up to six, by score then rating), `Knockout(double=False)` (single or
double elimination, seeded by rating). Ratings are inputs; nothing here computes one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rules.schedule import round_robin
from rules.tournament import elimination
from rules.tournament.model import Entrant, Game, Pairing
from rules.tournament.swiss import pair_swiss, ranked


class Format(Protocol):
    @property
    def name(self) -> str:
        """ "swiss": what is stored."""
        ...

    @property
    def title(self) -> str:
        """ "Swiss, 3 rounds": as players read it."""
        ...

    def rounds(self, entrants: Sequence[Entrant]) -> int:
        """How many rounds the tournament has at most for these entrants."""
        ...

    def pair(
        self, entrants: Sequence[Entrant], games: Sequence[Game], round_number: int
    ) -> Pairing:
        """Round `round_number`'s pairing from the entrants and the games of the rounds before
        it (all decided)."""
        ...

    def finished(self, entrants: Sequence[Entrant], games: Sequence[Game], played: int) -> bool:
        """Whether the tournament is over once `played` rounds are complete."""
        ...


@dataclass(frozen=True)
class Swiss:
    count: int  # rounds
    name: str = "swiss"

    @property
    def title(self) -> str:
        return f"Swiss, {self.count} rounds"

    def rounds(self, entrants: Sequence[Entrant]) -> int:
        return self.count

    def pair(
        self, entrants: Sequence[Entrant], games: Sequence[Game], round_number: int
    ) -> Pairing:
        return pair_swiss(entrants, games, round_number)

    def finished(self, entrants: Sequence[Entrant], games: Sequence[Game], played: int) -> bool:
        return played >= self.count


@dataclass(frozen=True)
class RoundRobin:
    """Everyone meets everyone once, in rules/schedule.py's matchdays, the players seeded by
    rating. A player who withdrew is not paired: their opponent of that round rests."""

    name: str = "round_robin"
    title: str = "Round robin"

    def rounds(self, entrants: Sequence[Entrant]) -> int:
        return len(_schedule(entrants))

    def pair(
        self, entrants: Sequence[Entrant], games: Sequence[Game], round_number: int
    ) -> Pairing:
        day = _schedule(entrants)[round_number - 1]
        active = {entrant.id for entrant in entrants if entrant.active_in(round_number)}
        tables = tuple(pair for pair in day if set(pair) <= active)
        seated = {player for pair in tables for player in pair}
        resting = tuple(sorted(active - seated))
        return Pairing(round_number, tables, resting=resting)

    def finished(self, entrants: Sequence[Entrant], games: Sequence[Game], played: int) -> bool:
        return played >= self.rounds(entrants)


def _schedule(entrants: Sequence[Entrant]) -> list[list[tuple[str, str]]]:
    return round_robin(elimination.seeded({entrant.id: entrant.rating for entrant in entrants}))


@dataclass(frozen=True)
class Tables:
    """Tables of up to `size` (Rollerball: 2-6 seats) by score then rating: the standings cut
    into tables in order, as even as they can be (sizes differ by at most one, the larger
    first); at each table the seat that moves first goes to whoever has had it least, then in
    rank order. A lone player left over has the bye."""

    size: int
    count: int  # rounds
    name: str = "tables"

    def __post_init__(self) -> None:
        if not 2 <= self.size <= 6:
            raise ValueError("A table seats 2 to 6 players.")

    @property
    def title(self) -> str:
        return f"Tables of {self.size}, {self.count} rounds"

    def rounds(self, entrants: Sequence[Entrant]) -> int:
        return self.count

    def pair(
        self, entrants: Sequence[Entrant], games: Sequence[Game], round_number: int
    ) -> Pairing:
        earlier = [game for game in games if game.round < round_number]
        order = [e.id for e in ranked(entrants, earlier) if e.active_in(round_number)]
        if len(order) < 2:
            return Pairing(round_number, (), bye=order[0] if order else None)
        count = -(-len(order) // self.size)
        base, larger = divmod(len(order), count)
        first_seats: dict[str, int] = {}
        for game in earlier:
            if len(game.seats) > 1:
                first_seats[game.seats[0]] = first_seats.get(game.seats[0], 0) + 1
        tables, start = [], 0
        for table in range(count):
            members = order[start : start + base + (1 if table < larger else 0)]
            start += len(members)
            rank = {player: place for place, player in enumerate(members)}
            tables.append(tuple(sorted(members, key=lambda p: (first_seats.get(p, 0), rank[p]))))
        return Pairing(round_number, tuple(tables))

    def finished(self, entrants: Sequence[Entrant], games: Sequence[Game], played: int) -> bool:
        return played >= self.count


@dataclass(frozen=True)
class Knockout:
    """Single (or `double`) elimination seeded by rating. A round pairs every bracket match
    whose players are known; a player who withdrew loses their next match by walkover. A
    knockout game cannot stay level: a draw, or both losing, goes to the better seed
    (docs/rules/tournaments.md "Elimination")."""

    double: bool = False

    @property
    def name(self) -> str:
        return "double_elimination" if self.double else "single_elimination"

    @property
    def title(self) -> str:
        return "Double elimination" if self.double else "Single elimination"

    def bracket(self, entrants: Sequence[Entrant]) -> elimination.Bracket:
        seeds = elimination.seeded({entrant.id: entrant.rating for entrant in entrants})
        build = elimination.double_elimination if self.double else elimination.single_elimination
        return build(seeds)

    def rounds(self, entrants: Sequence[Entrant]) -> int:
        """The most rounds the bracket can take (a double's reset included)."""
        bracket = self.bracket(entrants)
        depth: dict[str, int] = {}
        for match in bracket.matches:
            depth[match.part] = max(depth.get(match.part, 0), match.round)
        return max(depth.get("winners", 0), depth.get("losers", 0) + 1) + (2 if self.double else 0)

    def winners(
        self, entrants: Sequence[Entrant], games: Sequence[Game], through: int
    ) -> tuple[dict[int, str], list[elimination.Place]]:
        """The bracket's winners after rounds 1..`through`, and the matches ready to be played
        in round `through` + 1 (walkovers of withdrawn players already given)."""
        bracket = self.bracket(entrants)
        seed = {player: place for place, player in enumerate(bracket.seeds)}
        active = {entrant.id: entrant for entrant in entrants}
        winners: dict[int, str] = {}
        for round_number in range(1, through + 2):
            ready = self._ready(bracket, winners, active, round_number)
            if round_number == through + 1:
                return winners, ready
            for place in ready:
                players = {player for player in place.players if player}
                for game in games:
                    if game.round == round_number and set(game.seats) == players and game.points:
                        winners[place.match.number] = _game_winner(game, seed)
        raise AssertionError("unreachable")

    @staticmethod
    def _ready(
        bracket: elimination.Bracket,
        winners: dict[int, str],
        entrants: dict[str, Entrant],
        round_number: int,
    ) -> list[elimination.Place]:
        while True:
            ready = [place for place in elimination.resolve(bracket, winners) if place.ready]
            walkover = False
            for place in ready:
                first, second = place.players
                assert first and second
                if not entrants[first].active_in(round_number):
                    winners[place.match.number], walkover = second, True
                elif not entrants[second].active_in(round_number):
                    winners[place.match.number], walkover = first, True
            if not walkover:
                return ready

    def pair(
        self, entrants: Sequence[Entrant], games: Sequence[Game], round_number: int
    ) -> Pairing:
        _, ready = self.winners(entrants, games, round_number - 1)
        return Pairing(
            round_number,
            tuple((place.players[0] or "", place.players[1] or "") for place in ready),
        )

    def finished(self, entrants: Sequence[Entrant], games: Sequence[Game], played: int) -> bool:
        winners, _ = self.winners(entrants, games, played)
        return elimination.champion(self.bracket(entrants), winners) is not None


def _game_winner(game: Game, seed: dict[str, int]) -> str:
    assert game.points is not None
    first, second = game.seats
    if game.points[0] == game.points[1]:
        return min(game.seats, key=seed.__getitem__)
    return first if game.points[0] > game.points[1] else second
