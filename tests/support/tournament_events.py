"""A seeded random tournament for the running totals' tests: rounds of two-player games and
tables of three to six, a bye, forfeits and double losses, draws and shared points, players
joining late and withdrawing; results of a round come in shuffled."""

from __future__ import annotations

import random

from rules.tournament import Entrant, Game


def tournament(seed: int, players: int, rounds: int) -> tuple[list[Entrant], list[list[Game]]]:
    """The entrants and each round's decided games, in the order their results come in."""
    rng = random.Random(seed)
    entrants = [
        Entrant(
            f"p{n}",
            rng.choice((1200.0, 1500.0, rng.uniform(1000, 2000))),  # some equal ratings
            joined=rng.choice((1, 1, 1, 2)),
            withdrawn_from=rng.choice((None, None, None, rng.randint(2, rounds + 1))),
        )
        for n in range(players)
    ]
    played = []
    for number in range(1, rounds + 1):
        active = [e.id for e in entrants if e.active_in(number)]
        rng.shuffle(active)
        games = []
        if len(active) % 2:
            games.append(Game(number, (active.pop(),), (1.0,), played=False))
        while active:
            size = min(len(active), rng.choice((2, 2, 2, 3, 4, 6)))
            if len(active) - size == 1:
                size = len(active)
            seats = tuple(active[:size])
            del active[:size]
            games.append(_result(rng, number, seats))
        rng.shuffle(games)
        played.append(games)
    return entrants, played


def _result(rng: random.Random, number: int, seats: tuple[str, ...]) -> Game:
    kind = rng.random()
    if kind < 0.1:  # both (all) lose, not played
        return Game(number, seats, (0.0,) * len(seats), played=False)
    if kind < 0.2:  # a forfeit: the absent score nothing, the others share the point
        absent = rng.randrange(len(seats))
        share = 1 / (len(seats) - 1)
        return Game(
            number, seats, tuple(0.0 if s == absent else share for s in range(len(seats))), False
        )
    if kind < 0.35:  # a draw: the point shared
        return Game(number, seats, (1 / len(seats),) * len(seats))
    winner = rng.randrange(len(seats))
    return Game(number, seats, tuple(float(s == winner) for s in range(len(seats))))
