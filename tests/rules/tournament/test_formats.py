"""The tournament face (rules/tournament/formats.py): each format pairs its rounds from the
entrants and the games so far, and knows when it is over."""

from __future__ import annotations

from itertools import combinations

from rules.tournament import Entrant, Game, Knockout, RoundRobin, Swiss, Tables, standings


def field(count: int) -> list[Entrant]:
    return [Entrant(f"p{n}", 2000 - 10 * n) for n in range(1, count + 1)]


def run(fmt, entrants, decide, rounds=None):
    """The tournament played to its end with `decide(round, seats) -> points`."""
    games: list[Game] = []
    played = 0
    while not fmt.finished(entrants, games, played):
        played += 1
        pairing = fmt.pair(entrants, games, played)
        for game in pairing.games():
            games.append(game if game.decided else Game(played, game.seats, decide(game.seats)))
        assert rounds is None or played <= rounds
    return games, played


def higher_rated_wins(entrants):
    rating = {e.id: e.rating for e in entrants}

    def decide(seats):
        best = max(seats, key=rating.__getitem__)
        return tuple(1.0 if seat == best else 0.0 for seat in seats)

    return decide


def test_a_round_robin_meets_everyone_once_and_a_withdrawal_leaves_a_rest():
    entrants = field(5)
    games, played = run(RoundRobin(), entrants, higher_rated_wins(entrants))
    assert played == 5
    pairs = [frozenset(game.seats) for game in games]
    assert sorted(map(sorted, pairs)) == sorted(
        map(sorted, combinations([e.id for e in entrants], 2))
    )
    leaver = [*entrants[:4], Entrant("p5", 1960, withdrawn_from=1)]
    first = RoundRobin().pair(leaver, [], 1)
    assert all("p5" not in table for table in first.tables)
    assert sum(len(table) for table in first.tables) + len(first.resting) == 4


def test_swiss_ends_after_its_rounds_and_the_favourite_leads():
    entrants = field(7)
    games, played = run(Swiss(3), entrants, higher_rated_wins(entrants))
    assert played == 3
    assert standings(entrants, games, 3)[0].entrant.id == "p1"
    assert sum(1 for game in games if game.is_bye) == 3


def test_tables_of_three_go_by_score_then_rating_and_rotate_the_first_seat():
    entrants = field(9)
    fmt = Tables(3, 2)
    first = fmt.pair(entrants, [], 1)
    assert first.tables == (("p1", "p2", "p3"), ("p4", "p5", "p6"), ("p7", "p8", "p9"))
    games = [Game(1, t, (0.0, 0.0, 1.0)) for t in first.tables]  # the third seat wins
    second = fmt.pair(entrants, games, 2)
    assert second.tables[0] == ("p3", "p6", "p9")
    # p1 sat first in round 1; at their new table someone who has not goes first
    table_of_p1 = next(t for t in second.tables if "p1" in t)
    assert table_of_p1[0] != "p1"
    assert [len(t) for t in Tables(3, 1).pair(field(10), [], 1).tables] == [3, 3, 2, 2]


def test_a_single_elimination_is_won_by_the_top_seed_when_favourites_win():
    entrants = field(6)
    fmt = Knockout()
    games, played = run(fmt, entrants, higher_rated_wins(entrants), rounds=fmt.rounds(entrants))
    assert played == 3
    assert [g.seats for g in games if g.round == 3] == [("p1", "p2")]


def test_a_withdrawn_player_loses_their_next_knockout_match_by_walkover():
    entrants = [*field(3), Entrant("p4", 1960, withdrawn_from=2)]
    fmt = Knockout()
    first = fmt.pair(entrants, [], 1)
    assert first.tables == (("p1", "p4"), ("p2", "p3"))
    games = [Game(1, ("p1", "p4"), (0.0, 1.0)), Game(1, ("p2", "p3"), (1.0, 0.0))]
    # p4 beat p1 but withdrew: p2 goes through without a game and the knockout is over
    assert fmt.pair(entrants, games, 2).tables == ()
    assert fmt.finished(entrants, games, 1)


def test_a_double_elimination_runs_to_its_champion():
    entrants = field(8)
    fmt = Knockout(double=True)
    games, played = run(fmt, entrants, higher_rated_wins(entrants), rounds=fmt.rounds(entrants))
    assert len(games) == 14 and games[-1].seats == ("p1", "p2")
    assert fmt.finished(entrants, games, played)
