"""Standings: score, then the tie-breaks in their stated order (docs/rules/tournaments.md
"Tie-breaks"): Buchholz, Sonneborn-Berger, head to head, then rating.

A round a player did not play over the board (a bye, a forfeit either way, a round before they
joined or after they withdrew) counts as a game against a virtual opponent whose score is the
player's own, with the points the round gave them: the "dummy opponent" of FIDE's tie-break
regulations (C.07, 2023, Article 16), so that a bye neither helps nor hurts a player's
tie-breaks against those who played. A table of more than two counts its opponents as one, at
their mean score, so a round weighs the same at any table size.

The standings are ranked from each player's `Totals`: counted from every game (`totals_of`),
or kept up to date one result at a time (`record`, what the bot stores with each result), which
give the same totals; head to head reads the `Meeting`s among a tied group.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Iterable, Mapping, Sequence
from itertools import combinations, count, repeat
from operator import attrgetter, itemgetter
from typing import NamedTuple

from rules.tournament.model import Entrant, Game

# (name, what it is), in the order they break a tie after the score: stated on the card and the
# rules page from here.
TIE_BREAKS: tuple[tuple[str, str], ...] = (
    ("Buchholz", "the sum of the opponents' scores"),
    ("Sonneborn-Berger", "each game's points times that opponent's score"),
    ("head to head", "points in the games among the tied players, when each pair has met"),
    ("rating", "the higher rating first"),
)
# Totals kept one result at a time add the same numbers in another order than a recount: keys
# are compared in billionths of a point (whole numbers), so a tie is a tie either way.
SCALE = 1e9


class Standing(NamedTuple):
    rank: int  # 1 for the leader; every entrant has their own place
    entrant: Entrant
    score: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float | None  # None: it says nothing here (no tie, or not every pair met)
    games: int  # games played over the board


class Totals(NamedTuple):
    """A player's running totals: everything the standings need but the round count and head
    to head. `opponents`: the sum over their games played over the board of the opponents' mean
    score (Buchholz without the virtual opponents); `weighted`: the same times their points in
    each (Sonneborn-Berger without the unplayed rounds)."""

    score: float = 0.0
    unplayed: float = 0.0  # points of games not played over the board (a bye, a forfeit)
    games: int = 0  # games played over the board
    rounds_played: int = 0  # rounds with a game played over the board
    last_round: int = 0  # the latest of those
    opponents: float = 0.0
    weighted: float = 0.0


class Meeting(NamedTuple):
    """`user` met `opponent` over the board in game `game` of `round`, scoring `points`;
    `share` is the opponent's weight in the game's strength (1 / the opponents at the table)."""

    game: int
    round: int
    user: str
    opponent: str
    points: float
    share: float


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


def _over_board(game: Game) -> bool:
    return game.played and game.points is not None and len(game.seats) > 1


def meetings_of(games: Sequence[Game], users: Container[str] | None = None) -> list[Meeting]:
    """Every meeting over the board (of `users`, if given), a game known by its place in
    `games`."""
    found = []
    for key, game in enumerate(games):
        if not _over_board(game):
            continue
        if users is not None and not any(seat in users for seat in game.seats):
            continue
        share = 1 / (len(game.seats) - 1)
        for user, points in zip(game.seats, game.points or (), strict=True):
            found += [
                Meeting(key, game.round, user, other, points, share)
                for other in game.seats
                if other != user
            ]
    return found


def totals_of(entrants: Sequence[Entrant], games: Sequence[Game]) -> dict[str, Totals]:
    """Each entrant's totals counted from every decided game (a seat no longer an entrant
    counts a score of 0 for its opponents)."""
    score = scores(entrants, games)
    played: dict[str, list[Game]] = defaultdict(list)
    unplayed: dict[str, float] = defaultdict(float)
    for game in games:
        if _over_board(game):
            for seat in game.seats:
                played[seat].append(game)
        elif game.points is not None:
            for seat, points in zip(game.seats, game.points, strict=True):
                unplayed[seat] += points
    totals = {}
    for entrant in entrants:
        opponents = weighted = 0.0
        over_board = played[entrant.id]
        for game in over_board:
            others = [seat for seat in game.seats if seat != entrant.id]
            strength = sum(score.get(seat, 0.0) for seat in others) / len(others)
            opponents += strength
            weighted += game.points_of(entrant.id) * strength
        rounds = {game.round for game in over_board}
        totals[entrant.id] = Totals(
            score=score[entrant.id],
            unplayed=unplayed[entrant.id],
            games=len(over_board),
            rounds_played=len(rounds),
            last_round=max(rounds, default=0),
            opponents=opponents,
            weighted=weighted,
        )
    return totals


def record(
    totals: Mapping[str, Totals], met: Iterable[Meeting], game: Game, key: int
) -> tuple[dict[str, Totals], list[Meeting]]:
    """One more decided game (`key`: its number) on running totals: the totals that change
    and the game's meetings. `totals` holds the game's seats and everyone who met them (those
    missing start at zero); `met` the meetings whose opponent sits in the game (those whose
    Buchholz the seats' new points move). Results come a round at a time, in any order within
    it: folding every game gives `totals_of` (tests/rules/tournament/test_totals.py)."""
    assert game.points is not None
    changed: dict[str, Totals] = {}

    def of(user: str) -> Totals:
        return changed.get(user) or totals.get(user) or Totals()

    gained = dict(zip(game.seats, game.points, strict=True))
    for seat, points in gained.items():
        now = of(seat)
        unplayed = now.unplayed if _over_board(game) else now.unplayed + points
        changed[seat] = now._replace(score=now.score + points, unplayed=unplayed)
    for meeting in met:  # a seat's new points raise its earlier opponents' strength
        points = gained.get(meeting.opponent, 0.0)
        if points:
            now = of(meeting.user)
            changed[meeting.user] = now._replace(
                opponents=now.opponents + points * meeting.share,
                weighted=now.weighted + points * meeting.share * meeting.points,
            )
    meetings: list[Meeting] = []
    if not _over_board(game):
        return changed, meetings
    share = 1 / (len(game.seats) - 1)
    for seat in game.seats:
        now = of(seat)
        others = [other for other in game.seats if other != seat]
        strength = sum(of(other).score for other in others) / len(others)
        new_round = now.last_round != game.round
        changed[seat] = now._replace(
            games=now.games + 1,
            rounds_played=now.rounds_played + new_round,
            last_round=game.round,
            opponents=now.opponents + strength,
            weighted=now.weighted + gained[seat] * strength,
        )
        meetings += [Meeting(key, game.round, seat, other, gained[seat], share) for other in others]
    return changed, meetings


def tied(
    entrants: Sequence[Entrant],
    totals: Mapping[str, Totals],
    rounds: int,
    keys: Mapping[str, tuple[int, int, int]] | None = None,
) -> list[list[str]]:
    """The groups of two or more level on score, Buchholz and Sonneborn-Berger: whom head to
    head may part (their meetings are what `rank` needs). `keys`: as `rank`'s."""
    return _groups(entrants, keys if keys is not None else sort_keys(entrants, totals, rounds))


def sort_keys(
    entrants: Sequence[Entrant], totals: Mapping[str, Totals], rounds: int
) -> dict[str, tuple[int, int, int]]:
    """Each entrant's score, Buchholz (each round not played over the board counts the
    player's own score) and Sonneborn-Berger (a round's points not played over the board
    count against it), as they are compared."""
    nothing = Totals()
    get = totals.get
    keys = {}
    for entrant in entrants:  # one pass, unrolled: the standings' read is this loop
        user = entrant.id
        score, unplayed, _, rounds_played, _, opponents, weighted = get(user, nothing)
        virtual = rounds - rounds_played if rounds > rounds_played else 0
        keys[user] = (
            round(score * SCALE),
            round((opponents + score * virtual) * SCALE),
            round((weighted + score * unplayed) * SCALE),
        )
    return keys


def _groups(
    entrants: Sequence[Entrant], keys: Mapping[str, tuple[int, int, int]]
) -> list[list[str]]:
    if len(set(map(keys.__getitem__, map(_ID, entrants)))) == len(entrants):
        return []  # nobody level, the usual case: found without a pass in Python
    groups: dict[tuple[int, int, int], list[str]] = defaultdict(list)
    for entrant in entrants:
        groups[keys[entrant.id]].append(entrant.id)
    return [group for group in groups.values() if len(group) > 1]


def rank(
    entrants: Sequence[Entrant],
    totals: Mapping[str, Totals],
    rounds: int,
    meetings: Iterable[Meeting],
    keys: Mapping[str, tuple[int, int, int]] | None = None,
) -> list[Standing]:
    """Everyone in order after `rounds` rounds: score, Buchholz, Sonneborn-Berger, head to
    head (from `meetings`, which need only hold those among each `tied` group), rating, and
    last the id so that the order is total. `keys`: the first three, when the caller has them
    (`sort_keys`)."""
    if keys is None:
        keys = sort_keys(entrants, totals, rounds)
    among: dict[str, list[Meeting]] = defaultdict(list)
    for meeting in meetings:
        among[meeting.user].append(meeting)
    head: dict[str, float | None] = {}
    if among:  # without meetings among the tied, head to head says nothing
        for group in _groups(entrants, keys):
            head.update(_head_to_head(group, among))

    # The order in sorts over whole lists, none calling Python code per entrant (the read of
    # 2,000 players is these passes): each sort is stable, also descending, so sorting by the
    # id, then by head to head and rating, then by the first three keys gives the order above.
    order = sorted(entrants, key=_ID)
    if head:
        own = {user: points or 0.0 for user, points in head.items()}
        order.sort(key=lambda entrant: (own.get(entrant.id, 0.0), entrant.rating), reverse=True)
    else:
        order.sort(key=_RATING, reverse=True)
    users = list(map(_ID, order))
    lines = sorted(
        zip(map(keys.__getitem__, users), order, users, strict=True), key=_FIRST, reverse=True
    )
    ranked = [line[0] for line in lines]
    users = [line[2] for line in lines]
    columns = zip(
        count(1),
        [line[1] for line in lines],
        [score / SCALE for score, _, _ in ranked],
        [buchholz / SCALE for _, buchholz, _ in ranked],
        [berger / SCALE for _, _, berger in ranked],
        map(head.get, users),
        map(_GAMES, map(totals.get, users, repeat(Totals()))),
        strict=False,  # count(1) never ends
    )
    # Standing._make's own construction, without its call in Python per line
    return list(map(tuple.__new__, repeat(Standing), columns))


_ID = attrgetter("id")
_RATING = attrgetter("rating")
_GAMES = attrgetter("games")
_FIRST = itemgetter(0)


def standings(entrants: Sequence[Entrant], games: Sequence[Game], rounds: int) -> list[Standing]:
    """Everyone in order after `rounds` rounds, counted from every game (`rank` of
    `totals_of`)."""
    totals = totals_of(entrants, games)
    level = {user for group in tied(entrants, totals, rounds) for user in group}
    return rank(entrants, totals, rounds, meetings_of(games, level))


def _head_to_head(group: list[str], among: Mapping[str, list[Meeting]]) -> dict[str, float | None]:
    """The points each of `group` scored in games played among them, when every pair of them
    has met over the board; None for all otherwise (a player who never had the chance to meet
    one of them is not ranked by it)."""
    members = set(group)
    mine = {user: [m for m in among.get(user, ()) if m.opponent in members] for user in group}
    met = {frozenset((m.user, m.opponent)) for meetings in mine.values() for m in meetings}
    if any(frozenset(pair) not in met for pair in combinations(group, 2)):
        return {entrant: None for entrant in group}
    # a game counts once however many of the group sat at it
    return {
        user: sum({m.game: m.points for m in meetings}.values()) for user, meetings in mine.items()
    }
