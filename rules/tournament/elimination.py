"""Knockout brackets seeded by rating (docs/rules/tournaments.md "Elimination"): single
elimination, and double elimination with a losers' bracket and a grand final.

Seeds are placed the standard way (1 against the last seed, and seeds 1 and 2 in opposite
halves, so they can only meet in the final); with fewer players than a power of two the top
seeds get the byes. In double elimination a player is out after two losses: the losers of each
winners' round drop into the losers' bracket (every other round in reverse order, so that two
players do not meet again at once), and the grand final sets the winners' champion against the
losers' champion; if the losers' champion wins it, both have lost once and a reset match
decides.

A bracket is a list of matches whose two slots are filled from a seed or from the winner or
loser of an earlier match; `resolve` reads who is where from the winners given so far. A slot
nobody can fill (a bye, the loser of a bye) gives the other player a walkover.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Source = Literal["seed", "winner", "loser"]
Part = Literal["winners", "losers", "final", "reset"]

NOBODY = ""  # a slot that stays empty (a bye): the other player walks over


@dataclass(frozen=True)
class Slot:
    source: Source
    number: int  # the seed (from 1) or the match it comes from


@dataclass(frozen=True)
class Match:
    number: int  # from 1, in the order the matches can be played
    part: Part
    round: int  # the round within its part, from 1
    slots: tuple[Slot, Slot]


@dataclass(frozen=True)
class Bracket:
    seeds: tuple[str, ...]  # the players, best seed first
    matches: tuple[Match, ...]

    @property
    def double(self) -> bool:
        return any(match.part == "losers" or match.part == "final" for match in self.matches)


@dataclass(frozen=True)
class Place:
    """A match as the results so far leave it: its players (None: not known yet, NOBODY: no
    one comes), and its winner once decided or walked over (None: not yet)."""

    match: Match
    players: tuple[str | None, str | None]
    winner: str | None
    loser: str | None

    @property
    def ready(self) -> bool:
        """Both players known and no winner yet: the match is to be played."""
        first, second = self.players
        return bool(first) and bool(second) and self.winner is None

    @property
    def needed(self) -> bool:
        """False for a match nobody plays (a bye's, a reset the grand final made needless)."""
        return self.players[0] != NOBODY and self.players[1] != NOBODY


def seeded(ratings: Mapping[str, float]) -> list[str]:
    """Players by rating, best first (then by id, so the order is total)."""
    return sorted(ratings, key=lambda player: (-ratings[player], player))


def seed_positions(size: int) -> list[int]:
    """The seeds in bracket order for `size` (a power of two) places: 1, 8, 4, 5, 2, 7, 3, 6
    for eight, so that each first-round match is seed s against size+1-s and the better seed of
    each half stays apart from the others until as late as possible."""
    order = [1]
    while len(order) < size:
        order = [seed for top in order for seed in (top, 2 * len(order) + 1 - top)]
    return order


def single_elimination(seeds: Sequence[str]) -> Bracket:
    """A knockout bracket for `seeds` (best first)."""
    matches, _ = _winners_bracket(len(seeds))
    return Bracket(tuple(seeds), tuple(matches))


def double_elimination(seeds: Sequence[str]) -> Bracket:
    """A double-elimination bracket for `seeds` (best first): winners' bracket, losers'
    bracket, grand final and its reset."""
    matches, winners_final = _winners_bracket(len(seeds))
    rounds: dict[int, list[int]] = {}
    for match in matches:
        rounds.setdefault(match.round, []).append(match.number)
    number = len(matches)

    def add(part: Part, round_number: int, first: Slot, second: Slot) -> int:
        nonlocal number
        number += 1
        matches.append(Match(number, part, round_number, (first, second)))
        return number

    depth = len(rounds)
    if depth == 1:  # two players: the loser of the only match is the losers' champion
        losers_champion = Slot("loser", winners_final)
    else:
        dropped = [Slot("loser", match) for match in rounds[1]]
        survivors = [
            Slot("winner", add("losers", 1, first, second))
            for first, second in zip(dropped[0::2], dropped[1::2], strict=True)
        ]
        losers_round = 1
        for winners_round in range(2, depth + 1):
            dropping = [Slot("loser", match) for match in rounds[winners_round]]
            if winners_round % 2 == 0:
                dropping.reverse()
            losers_round += 1
            survivors = [
                Slot("winner", add("losers", losers_round, survivor, drop))
                for survivor, drop in zip(survivors, dropping, strict=True)
            ]
            if len(survivors) > 1:
                losers_round += 1
                survivors = [
                    Slot("winner", add("losers", losers_round, first, second))
                    for first, second in zip(survivors[0::2], survivors[1::2], strict=True)
                ]
        losers_champion = survivors[0]
    final = add("final", 1, Slot("winner", winners_final), losers_champion)
    add("reset", 1, Slot("winner", final), Slot("loser", final))
    return Bracket(tuple(seeds), tuple(matches))


def _winners_bracket(count: int) -> tuple[list[Match], int]:
    """The single-elimination matches for `count` seeds, and the number of its final."""
    if count < 2:
        raise ValueError("A bracket needs at least two players.")
    size = 1
    while size < count:
        size *= 2
    positions = seed_positions(size)
    matches: list[Match] = []
    slots = [Slot("seed", seed) for seed in positions]
    round_number = 0
    while len(slots) > 1:
        round_number += 1
        next_slots = []
        for first, second in zip(slots[0::2], slots[1::2], strict=True):
            match = Match(len(matches) + 1, "winners", round_number, (first, second))
            matches.append(match)
            next_slots.append(Slot("winner", match.number))
        slots = next_slots
    return matches, matches[-1].number


def resolve(bracket: Bracket, winners: Mapping[int, str]) -> list[Place]:
    """Every match of `bracket` as the `winners` so far (match number -> its winner) leave it.
    A ValueError for a winner who is not one of that match's players."""
    places: dict[int, Place] = {}

    def fill(slot: Slot) -> str | None:
        if slot.source == "seed":
            return bracket.seeds[slot.number - 1] if slot.number <= len(bracket.seeds) else NOBODY
        earlier = places[slot.number]
        return earlier.winner if slot.source == "winner" else earlier.loser

    for match in bracket.matches:
        first, second = (fill(slot) for slot in match.slots)
        if match.part == "reset":
            final = places[match.slots[0].number]
            if final.winner is None:
                first = second = None
            elif final.winner == final.players[0]:  # the winners' champion won: no reset
                first = second = NOBODY
            else:
                first, second = final.players
        places[match.number] = _decided(match, first, second, winners.get(match.number))
    return [places[match.number] for match in bracket.matches]


def _decided(match: Match, first: str | None, second: str | None, winner: str | None) -> Place:
    if first == NOBODY or second == NOBODY:  # a walkover (or nobody at all)
        through = second if first == NOBODY else first
        return Place(match, (first, second), through, NOBODY if through is not None else None)
    if first is None or second is None or winner is None:
        return Place(match, (first, second), None, None)
    if winner not in (first, second):
        raise ValueError(f"Match {match.number} is between {first} and {second}, not {winner}.")
    return Place(match, (first, second), winner, second if winner == first else first)


def champion(bracket: Bracket, winners: Mapping[int, str]) -> str | None:
    """The bracket's winner once decided (None before)."""
    places = resolve(bracket, winners)
    last = places[-1]
    if last.match.part == "reset" and not last.needed and last.winner == NOBODY:
        return places[-2].winner
    return last.winner or None
