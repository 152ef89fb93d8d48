"""Swiss pairing (rules/tournament/swiss.py; docs/rules/tournaments.md "Swiss"), as properties
over whole tournaments that hypothesis plays out: random fields, ratings, results, late joiners
and withdrawals, every round's pairing checked against an exhaustive search of the pairings
that were possible."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.tournament import Entrant, Game, Pairing, histories, pair_swiss, ranked


def matchings(players: list[str]) -> list[list[tuple[str, str]]]:
    """Every way to pair `players` (an even number of them)."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    return [
        [(first, other), *more]
        for index, other in enumerate(rest)
        for more in matchings(rest[:index] + rest[index + 1 :])
    ]


def balance_kept(first: int, second: int) -> bool:
    """Some seating of two players with these side balances keeps both within one."""
    return (first <= 0 <= second) or (second <= 0 <= first)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Entrant], int, random.Random]:
    count = draw(st.integers(2, 10))
    ratings = draw(st.lists(st.integers(1000, 2400), min_size=count, max_size=count))
    rounds = draw(st.integers(1, count - 1 if count > 2 else 1))
    entrants = []
    for number, rating in enumerate(ratings):
        joined = draw(st.sampled_from([1, 1, 1, 2, 3]))
        withdrawn = draw(st.sampled_from([None, None, None, 2, 3, 4]))
        if withdrawn is not None and withdrawn <= joined:
            withdrawn = None
        entrants.append(Entrant(f"p{number}", rating, joined, withdrawn))
    return entrants, rounds, random.Random(draw(st.integers(0, 2**32)))


def play(
    entrants: list[Entrant], rounds: int, rng: random.Random
) -> list[tuple[Pairing, list[Game]]]:
    """The tournament round by round: each round's pairing and the games before it."""
    games: list[Game] = []
    played = []
    for round_number in range(1, rounds + 1):
        pairing = pair_swiss(entrants, games, round_number)
        played.append((pairing, list(games)))
        for game in pairing.games():
            if game.decided:
                games.append(game)
            else:
                points = rng.choice([1.0, 0.5, 0.0])
                games.append(Game(round_number, game.seats, (points, 1.0 - points)))
    return played


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_everyone_active_is_paired_once_and_nobody_else(tournament):
    entrants, rounds, rng = tournament
    for pairing, _ in play(entrants, rounds, rng):
        seated = [player for table in pairing.tables for player in table]
        if pairing.bye:
            seated.append(pairing.bye)
        assert sorted(seated) == sorted(e.id for e in entrants if e.active_in(pairing.round))
        assert all(len(table) == 2 for table in pairing.tables)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_no_repeat_pairing_while_a_pairing_without_one_exists(tournament):
    """Among the pairings that keep everyone's sides within one (the rule above it), if any
    has no repeat meeting, the one made has none."""
    entrants, rounds, rng = tournament
    for pairing, before in play(entrants, rounds, rng):
        past = histories(entrants, before)
        players = sorted(player for table in pairing.tables for player in table)
        made_repeats = [pair for pair in pairing.tables if pair[1] in past[pair[0]].opponents]
        if not made_repeats:
            continue
        possible = [
            pairs
            for pairs in matchings(players)
            if all(balance_kept(past[a].balance, past[b].balance) for a, b in pairs)
        ]
        assert all(any(b in past[a].opponents for a, b in pairs) for pairs in possible), (
            pairing,
            made_repeats,
        )


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_sides_stay_balanced_within_one_whenever_a_pairing_can_keep_them(tournament):
    """Every round, each paired player's first sides and second sides differ by at most one
    afterwards, whenever some pairing of that round's players keeps everyone so (only a
    withdrawal can leave a field where none does: then within two)."""
    entrants, rounds, rng = tournament
    for pairing, before in play(entrants, rounds, rng):
        past = histories(entrants, before)
        players = sorted(player for table in pairing.tables for player in table)
        after = dict.fromkeys(players, 0)
        for first, second in pairing.tables:
            after[first] = past[first].balance + 1
            after[second] = past[second].balance - 1
        possible = any(
            all(balance_kept(past[a].balance, past[b].balance) for a, b in pairs)
            for pairs in matchings(players)
        )
        worst = max((abs(balance) for balance in after.values()), default=0)
        assert worst <= (1 if possible else 2), pairing


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_the_bye_goes_to_the_lowest_ranked_player_without_one(tournament):
    entrants, rounds, rng = tournament
    for pairing, before in play(entrants, rounds, rng):
        active = [e for e in ranked(entrants, before) if e.active_in(pairing.round)]
        if len(active) % 2 == 0:
            assert pairing.bye is None
            continue
        past = histories(entrants, before)
        fewest = min(past[e.id].byes for e in active)
        assert pairing.bye == [e.id for e in active if past[e.id].byes == fewest][-1]
        if fewest == 0:
            assert pairing.bye is not None and past[pairing.bye].byes == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 12), st.integers(0, 2**32))
def test_at_most_one_bye_each_when_rounds_are_fewer_than_players(count, seed):
    rng = random.Random(seed)
    entrants = [Entrant(f"p{n}", rng.randint(1000, 2000)) for n in range(count)]
    played = play(entrants, count - 1, rng)
    byes = Counter(pairing.bye for pairing, _ in played if pairing.bye)
    assert all(number == 1 for number in byes.values())


@settings(max_examples=100, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_the_same_inputs_give_the_same_pairing_in_any_order(tournament, shuffler):
    entrants, rounds, rng = tournament
    for pairing, before in play(entrants, rounds, rng):
        assert pair_swiss(entrants, before, pairing.round) == pairing
        shuffled_entrants, shuffled_games = list(entrants), list(before)
        shuffler.shuffle(shuffled_entrants)
        shuffler.shuffle(shuffled_games)
        assert pair_swiss(shuffled_entrants, shuffled_games, pairing.round) == pairing


def test_winners_meet_winners_with_sides_kept_balanced():
    """Eight players, round 2 after the higher-rated won every game. The four on 1 point play
    each other, as do the four on 0; the top half against the bottom half would set p1 against
    p3, who both had the first side, so (as the Dutch system's colour rule transposes) p1
    meets p4 and p2 meets p3, each with the side they did not have."""
    entrants = [Entrant(f"p{n}", 2000 - 10 * n) for n in range(1, 9)]
    first = pair_swiss(entrants, [], 1)
    assert first.tables == (("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4"))
    rating = {e.id: e.rating for e in entrants}
    games = [
        Game(1, table, (1.0, 0.0) if rating[table[0]] > rating[table[1]] else (0.0, 1.0))
        for table in first.tables
    ]
    second = pair_swiss(entrants, games, 2)
    assert second.tables == (("p4", "p1"), ("p2", "p3"), ("p5", "p8"), ("p7", "p6"))


def test_a_withdrawn_player_is_not_paired_and_a_late_joiner_starts_on_zero():
    entrants = [
        Entrant("a", 1800),
        Entrant("b", 1700, withdrawn_from=2),
        Entrant("c", 1600),
        Entrant("d", 1500, joined=2),
    ]
    first = pair_swiss(entrants, [], 1)
    assert first.bye == "c" and first.tables == (("a", "b"),)
    games = [game if game.decided else Game(1, game.seats, (1.0, 0.0)) for game in first.games()]
    second = pair_swiss(entrants, games, 2)
    # b is gone; d comes in on zero, the lowest, and c has had the bye: d has it now
    assert second.tables == (("c", "a"),) and second.bye == "d"
