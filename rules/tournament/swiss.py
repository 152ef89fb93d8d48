"""Swiss pairing (docs/rules/tournaments.md "Swiss"): players meet others on the same score,
the Dutch way: in rank order (score, then rating), each score group's top half against its
bottom half, an odd one out moved down to the next group.

What a pairing always keeps, in this order:
1. Sides stay balanced within one: a player never has two more first sides (White, North) than
   second sides, nor the reverse; so nobody has the same side three times running. Only a
   withdrawal can make that impossible (the players left may all lean the same way); then
   the balance may reach two, never more while that is possible.
2. Nobody meets the same opponent twice while a pairing keeping (1) exists in which nobody
   does (every such pairing is searched before a repeat is allowed).
3. With an odd number of players, the pairing-allocated bye (worth a win) goes to the
   lowest-ranked player who has not had one; once everyone has, to the lowest-ranked of those
   with the fewest.
Late joiners come in with zero points; withdrawn players are no longer paired. No randomness:
the same entrants and games give the same pairing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rules.tournament.model import Entrant, Game, Pairing
from rules.tournament.standings import scores

# The search for a pairing without repeats visits at most this many choices before it settles
# for the fewest repeats it can find quickly: enough to search every pairing of a few dozen
# players exhaustively, and a bound on a round of thousands.
SEARCH_LIMIT = 200_000
# Below this many players left, a set of players that cannot all be paired is remembered, so
# the search never tries the same dead end twice.
REMEMBERED = 32


@dataclass(frozen=True)
class History:
    """What the pairing needs to know of a player's past games."""

    opponents: frozenset[str]
    balance: int  # first sides minus second sides
    sides: tuple[int, ...]  # +1 first, -1 second, by round, oldest first
    byes: int


def histories(entrants: Sequence[Entrant], games: Sequence[Game]) -> dict[str, History]:
    """Each entrant's opponents, sides and byes so far. Every pairing counts, a forfeit too:
    the players were paired, and a player who did not turn up is not paired with the same
    opponent again."""
    opponents: dict[str, set[str]] = defaultdict(set)
    sides: dict[str, list[tuple[int, int]]] = defaultdict(list)
    byes: dict[str, int] = defaultdict(int)
    for game in games:
        if game.is_bye:
            byes[game.seats[0]] += 1
            continue
        for seat in game.seats:
            opponents[seat].update(other for other in game.seats if other != seat)
        if len(game.seats) == 2:
            sides[game.seats[0]].append((game.round, 1))
            sides[game.seats[1]].append((game.round, -1))
    result = {}
    for entrant in entrants:
        sequence = tuple(side for _, side in sorted(sides[entrant.id]))
        result[entrant.id] = History(
            frozenset(opponents[entrant.id]), sum(sequence), sequence, byes[entrant.id]
        )
    return result


def ranked(entrants: Sequence[Entrant], games: Sequence[Game]) -> list[Entrant]:
    """The pairing order: score, then rating, then id (so the order is total)."""
    score = scores(entrants, games)
    return sorted(entrants, key=lambda entrant: (-score[entrant.id], -entrant.rating, entrant.id))


def pair_swiss(entrants: Sequence[Entrant], games: Sequence[Game], round_number: int) -> Pairing:
    """The pairing of `round_number` from the entrants and every game before it."""
    earlier = [game for game in games if game.round < round_number]
    past = histories(entrants, earlier)
    score = scores(entrants, earlier)
    order = [entrant for entrant in ranked(entrants, earlier) if entrant.active_in(round_number)]
    bye = None
    if len(order) % 2:
        fewest = min(past[entrant.id].byes for entrant in order)
        bye = next(e for e in reversed(order) if past[e.id].byes == fewest).id
        order = [entrant for entrant in order if entrant.id != bye]
    ids = [entrant.id for entrant in order]
    rank = {player: place for place, player in enumerate(ids)}

    def allowed(limit: int, repeats: bool) -> Callable[[str, str], bool]:
        def check(first: str, second: str) -> bool:
            if not repeats and second in past[first].opponents:
                return False
            return _sides(past[first].balance, past[second].balance, limit) is not None

        return check

    tables, limit = None, 1
    for limit, repeats in ((1, False), (1, True), (2, False), (2, True), (len(ids) + 2, True)):
        tables = _search(ids, [score[player] for player in ids], allowed(limit, repeats))
        if tables is not None:
            break
    assert tables is not None  # the last pass allows every pair
    boards = sorted(tables, key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    seated = tuple(
        _seat(higher, lower, past, board, limit)
        for board, (higher, lower) in enumerate(
            (sorted(pair, key=rank.__getitem__) for pair in boards), start=1
        )
    )
    return Pairing(round_number, seated, bye=bye)


def _sides(first: int, second: int, limit: int) -> tuple[bool, ...] | None:
    """Which seatings of two players with these balances keep both within `limit`: True for
    `first` taking the first side, False for the second; None when neither does."""
    options = tuple(
        takes_first
        for takes_first in (True, False)
        if abs(first + (1 if takes_first else -1)) <= limit
        and abs(second + (-1 if takes_first else 1)) <= limit
    )
    return options or None


def _seat(
    higher: str, lower: str, past: dict[str, History], board: int, limit: int
) -> tuple[str, str]:
    """Sides for a pair (`higher` ranked above `lower`): what keeps both within one; when
    either way does, the one who had the second side more recently (their histories read back
    to the last round where they differ) takes the first; with the same history, the
    higher-ranked takes the first side on odd boards and the second on even ones, as the
    Dutch system's first round does."""
    options = _sides(past[higher].balance, past[lower].balance, min(limit, 1))
    if options is None:
        options = _sides(past[higher].balance, past[lower].balance, limit)
    if options is None:  # only when the search had to give up balance
        takes_first = past[higher].balance <= past[lower].balance
    elif len(options) == 1:
        takes_first = options[0]
    else:
        takes_first = board % 2 == 1
        for mine, theirs in zip(
            reversed(past[higher].sides), reversed(past[lower].sides), strict=False
        ):
            if mine != theirs:
                takes_first = mine < 0
                break
    return (higher, lower) if takes_first else (lower, higher)


def _candidates(remaining: list[str], score: dict[str, float]) -> Iterator[int]:
    """Where in `remaining` the top player (index 0) looks for an opponent, best first: its
    score group's bottom half from its top down (the Dutch pairing of top half against bottom
    half), then the group's top half upwards, then the lower groups in rank order."""
    top = score[remaining[0]]
    size = 1
    while size < len(remaining) and score[remaining[size]] == top:
        size += 1
    ideal = max(1, size // 2)
    yield from range(ideal, size)
    yield from range(ideal - 1, 0, -1)
    yield from range(size, len(remaining))


def _search(
    ids: list[str], player_scores: list[float], allowed: Callable[[str, str], bool]
) -> list[tuple[str, str]] | None:
    """Pairs of `ids` (in rank order) that `allowed` accepts, the first found in the order of
    `_candidates`, by a depth-first search that undoes its last choice at a dead end; None
    when there is none (or when the search met SEARCH_LIMIT)."""
    score = dict(zip(ids, player_scores, strict=True))
    dead_ends: set[frozenset[str]] = set()
    pairs: list[tuple[str, str]] = []
    # Each frame: the players left before its choice, and the rest of its choices.
    frames: list[tuple[list[str], Iterator[int]]] = []
    remaining = ids
    visits = 0
    while True:
        if not remaining:
            return pairs
        frames.append((remaining, _candidates(remaining, score)))
        while True:
            left, choices = frames[-1]
            top = left[0]
            found = None
            for index in choices:
                visits += 1
                if allowed(top, left[index]):
                    found = index
                    break
            if visits > SEARCH_LIMIT:
                return None
            if found is not None:
                pairs.append((top, left[found]))
                remaining = left[1:found] + left[found + 1 :]
                if len(remaining) <= REMEMBERED and frozenset(remaining) in dead_ends:
                    pairs.pop()
                    continue
                break
            frames.pop()
            if len(left) <= REMEMBERED:
                dead_ends.add(frozenset(left))
            if not frames:
                return None
            pairs.pop()
