"""Standings: score, then the tie-breaks in their stated order (docs/rules/tournaments.md
"Tie-breaks"): Buchholz, Sonneborn-Berger, head to head, then rating.

A round a player did not play over the board (a bye, a forfeit either way, a round before they
joined or after they withdrew) counts as a game against a virtual opponent whose score is the
player's own, with the points the round gave them: the "dummy opponent" of FIDE's tie-break
regulations (C.07, 2023, Article 16), so that a bye neither helps nor hurts a player's
tie-breaks against those who played. A table of more than two counts its opponents as one, at
their mean score, so a round weighs the same at any table size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from rules.tournament.model import Entrant, Game

# (name, what it is), in the order they break a tie after the score: stated on the card and the
# rules page from here.
TIE_BREAKS: tuple[tuple[str, str], ...] = (
    ("Buchholz", "the sum of the opponents' scores"),
    ("Sonneborn-Berger", "each game's points times that opponent's score"),
    ("head to head", "points in the games among the tied players, when each pair has met"),
    ("rating", "the higher rating first"),
)


@dataclass(frozen=True)
class Standing:
    rank: int  # 1 for the leader; every entrant has their own place
    entrant: Entrant
    score: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float | None  # None: it says nothing here (no tie, or not every pair met)
    games: int  # games played over the board


def scores(entrants: Iterable[Entrant], games: Iterable[Game]) -> dict[str, float]:
    """Each entrant's points from the decided games (a bye's points included)."""
    total = {entrant.id: 0.0 for entrant in entrants}
    for game in games:
        if game.points is None:
            continue
        for seat, points in zip(game.seats, game.points, strict=True):
            if seat in total:
                total[seat] += points
    return total


def standings(entrants: Sequence[Entrant], games: Sequence[Game], rounds: int) -> list[Standing]:
    """Everyone in order after `rounds` rounds: score, Buchholz, Sonneborn-Berger, head to
    head, rating, and last the id so that the order is total."""
    score = scores(entrants, games)
    played: dict[str, list[Game]] = defaultdict(list)
    for game in games:
        if game.played and game.points is not None and len(game.seats) > 1:
            for seat in game.seats:
                played[seat].append(game)
    unplayed_points: dict[str, float] = defaultdict(float)
    for game in games:
        if not game.played and game.points is not None:
            for seat, points in zip(game.seats, game.points, strict=True):
                unplayed_points[seat] += points

    buchholz: dict[str, float] = {}
    berger: dict[str, float] = {}
    for entrant in entrants:
        own = score[entrant.id]
        over_board = played[entrant.id]
        virtual_rounds = max(0, rounds - len({game.round for game in over_board}))
        total = own * virtual_rounds
        weighted = own * unplayed_points[entrant.id]
        for game in over_board:
            others = [seat for seat in game.seats if seat != entrant.id]
            strength = sum(score.get(seat, 0.0) for seat in others) / len(others)
            total += strength
            weighted += game.points_of(entrant.id) * strength
        buchholz[entrant.id] = total
        berger[entrant.id] = weighted

    def first_keys(entrant: Entrant) -> tuple[float, float, float]:
        return (score[entrant.id], buchholz[entrant.id], berger[entrant.id])

    tied: dict[tuple[float, float, float], list[str]] = defaultdict(list)
    for entrant in entrants:
        tied[first_keys(entrant)].append(entrant.id)
    head: dict[str, float | None] = {}
    for group in tied.values():
        head.update(_head_to_head(group, played))

    ordered = sorted(
        entrants,
        key=lambda entrant: (
            *(-key for key in first_keys(entrant)),
            -(head[entrant.id] or 0.0),
            -entrant.rating,
            entrant.id,
        ),
    )
    return [
        Standing(
            rank=place,
            entrant=entrant,
            score=score[entrant.id],
            buchholz=buchholz[entrant.id],
            sonneborn_berger=berger[entrant.id],
            head_to_head=head[entrant.id],
            games=len(played[entrant.id]),
        )
        for place, entrant in enumerate(ordered, start=1)
    ]


def _head_to_head(group: list[str], played: dict[str, list[Game]]) -> dict[str, float | None]:
    """The points each of `group` scored in games played among them, when every pair of them
    has met over the board; None for all otherwise (a player who never had the chance to meet
    one of them is not ranked by it) and for a group of one."""
    if len(group) < 2:
        return {entrant: None for entrant in group}
    members = set(group)
    met = {
        frozenset(pair)
        for entrant in group
        for game in played[entrant]
        for pair in combinations(members.intersection(game.seats), 2)
    }
    if any(frozenset(pair) not in met for pair in combinations(group, 2)):
        return {entrant: None for entrant in group}
    return {
        entrant: sum(
            game.points_of(entrant)
            for game in played[entrant]
            if len(members.intersection(game.seats)) > 1
        )
        for entrant in group
    }
