"""The line-ups a manager starts from are complete and legal, say what they give away, and
last round's line-ups repeat onto this round's matches (docs/rules/volleyball.md, "Starting
line-up" and "Repeating last round's line-ups")."""

from __future__ import annotations

from rules.volleyball import PlayerDraft, SeasonConfig, create_team, default_match_orders
from rules.volleyball.lineups import (
    lineup_warnings,
    plan_sets,
    refill_sets,
    repeat_lineups,
    spread_points,
    starting_lineup,
)
from rules.volleyball.match import validate_match_orders
from rules.volleyball.models import Fixture
from rules.volleyball.orders import (
    Concept,
    ContractBid,
    LevelPoints,
    PlayerSlot,
    Position,
    RoundOrders,
    SpyOrder,
    TransferBid,
)
from rules.volleyball.rounds import credit_warnings

ROOMY = SeasonConfig(player_points_by_age={"A": 200, "B": 200, "C": 200, "D": 200, "E": 200})
# Eight players whose fittest six each set leave set 5 without six able players: the NMR
# line-up (ruling 16) forfeits it, a rotation fields all five.
SQUAD = [
    ("Anna", 12, 12),
    ("Bram", 3, 5),
    ("Cees", 7, 7),
    ("Dirk", 12, 6),
    ("Eva", 8, 4),
    ("Fenna", 3, 2),
    ("Gijs", 11, 6),
    ("Hans", 9, 15),
]


def squad(players=SQUAD):
    return create_team("Red Rockets", [PlayerDraft(n, "C", o, d) for n, o, d in players], ROOMY)


def test_the_starting_line_up_fills_every_set_where_the_nmr_line_up_forfeits_one():
    team = squad()
    nmr = default_match_orders(team)
    assert [len(s.slots) for s in nmr.sets].count(0) == 1  # the greedy plan runs dry
    start = starting_lineup(team, home=True, home_advantage=24)
    assert [len(s.slots) for s in start.sets] == [6] * 5
    assert validate_match_orders(team, start, home=True, home_advantage_points=24) == []
    assert lineup_warnings(start, 24) == []


def test_home_advantage_is_spread_over_the_filled_sets_and_none_away():
    team = squad()
    home = starting_lineup(team, home=True, home_advantage=24)
    assert home.home_advantage_total == 24
    assert [s.home_advantage.total for s in home.sets] == [5, 5, 5, 5, 4]
    assert home.sets[0].home_advantage == LevelPoints(3, 2)
    away = starting_lineup(team, home=False, home_advantage=24)
    assert away.home_advantage_total == 0
    assert spread_points(7, 3) == [LevelPoints(2, 1), LevelPoints(1, 1), LevelPoints(1, 1)]


def test_a_squad_that_cannot_field_five_sets_gets_the_sets_it_can_and_a_warning():
    weak = squad([(f"P{c}x", 3, 3) for c in "ABCDEFG"])
    assert not all(plan_sets(weak))
    start = starting_lineup(weak, home=True, home_advantage=24)
    empty = [n for n, s in enumerate(start.sets, start=1) if not s.slots]
    assert empty and all(not start.sets[n - 1].home_advantage.total for n in empty)
    assert validate_match_orders(weak, start, home=True, home_advantage_points=24) == []
    warned = lineup_warnings(start, 24)
    assert any("no players and" in w and "lost 0-15" in w for w in warned), warned


def test_unused_home_advantage_is_warned_about():
    team = squad()
    lineup = starting_lineup(team, home=True, home_advantage=0)
    assert lineup_warnings(lineup, 24) == [
        "Match 1: 0 of the 24 home-advantage points are used; the other 24 are lost."
    ]
    away = starting_lineup(team, home=False)
    assert lineup_warnings(away, 24) == []


def test_last_rounds_line_ups_repeat_onto_this_rounds_matches():
    team = squad()
    last = starting_lineup(team, opponent="Old", home=False, match_number=1)
    last.sets[0].slots[0].position = Position.SETTER
    last.sets[0].devotion = LevelPoints(4, 0)
    fixtures = [
        Fixture(2, 3, "Red Rockets", "Blue Whales"),
        Fixture(2, 4, "Green Geckos", "Red Rockets"),
    ]
    gone = last.sets[1].slots[2].player
    team.players = [p for p in team.players if p.name != gone]
    repeated = repeat_lineups(team, RoundOrders(team.name, matches=[last]), fixtures, 26)
    first, second = repeated.orders.matches
    assert (first.match_number, first.opponent, first.home) == (3, "Blue Whales", True)
    assert (second.match_number, second.opponent, second.home) == (4, "Green Geckos", False)
    assert first.home_advantage_total == 26 and second.home_advantage_total == 0
    assert first.sets[0].slots[0].position is Position.SETTER
    assert first.sets[0].devotion == LevelPoints(4, 0)
    assert all(gone not in s.player_names for s in first.sets)
    assert any(f"for {gone} (no longer in the team)" in c for c in repeated.changes)
    for match in (first, second):
        problems = validate_match_orders(
            team, match, home=match.home, home_advantage_points=26 if match.home else 0
        )
        assert problems == [], problems


def test_bids_the_bank_would_refuse_are_warned_about_when_sent():
    team = squad()
    team.money = 200
    orders = RoundOrders(
        team.name,
        transfer_bids=[TransferBid("Blue Whales", "Piet", 1500)],
        spies=[SpyOrder("Blue Whales", 1)],
    )
    warned = credit_warnings(team, orders)
    assert warned == [
        "The bid on Piet ($1,500) would take your account ($200 now) below -$1,000: the bank "
        "refuses it unless money comes in first."
    ]
    both = RoundOrders(
        team.name,
        spies=[SpyOrder("Blue Whales", 1, True)],
        contract_bids=[ContractBid("Ilse Muur", 900, 4)],
    )
    assert any("Together" in w for w in credit_warnings(team, both))
    assert credit_warnings(team, RoundOrders(team.name, spies=[SpyOrder("X", 1)])) == []


def test_a_squad_short_of_five_sets_fills_the_early_sets_first():
    """Seven players who can play 28 sets in all between them: four full sets at most, and
    they are sets 1 to 4 (set 5 is played least often), not 1, 2, 3 and 5 as the fittest
    six each set would have it."""
    seven = create_team(
        "Red Rockets",
        [
            PlayerDraft("Anna Visser", "A", 6, 4),
            PlayerDraft("Bram de Wit", "A", 5, 5),
            PlayerDraft("Cees Jansen", "B", 12, 12),
            PlayerDraft("Dirk Smit", "C", 8, 8),
            PlayerDraft("Eva Bakker", "C", 8, 8),
            PlayerDraft("Femke Mol", "D", 12, 12),
            PlayerDraft("Gijs Kok", "E", 10, 10),
        ],
        SeasonConfig(),
    )
    assert [bool(s.slots) for s in default_match_orders(seven).sets] == [1, 1, 1, 0, 1]
    start = starting_lineup(seven, home=True, home_advantage=24)
    assert [bool(s.slots) for s in start.sets] == [1, 1, 1, 1, 0]
    assert validate_match_orders(seven, start, home=True, home_advantage_points=24) == []
    assert lineup_warnings(start, 24) == [
        "Match 1: set 5 has no players and is lost 0-15 if played."
    ]


def test_a_change_to_a_set_refills_the_later_sets_a_player_is_now_too_tired_for():
    team = squad()
    lineup = starting_lineup(team, home=True, home_advantage=24)
    bench = [p.name for p in team.players if p.name not in lineup.sets[0].player_names]
    # everyone who rested in set 1 now plays it, and set 2 is left as it was
    lineup.sets[0].slots = [PlayerSlot(n) for n in bench] + lineup.sets[0].slots[len(bench) :]
    assert validate_match_orders(team, lineup, home=True, home_advantage_points=24)
    changes = refill_sets(team, lineup, 1)
    assert changes and all(c.startswith("set ") for c in changes)
    assert validate_match_orders(team, lineup, home=True, home_advantage_points=24) == []


def _round(team, numbers, concepts):
    """A round's line-ups: the starting line-up for each match number, set 1's concept as
    given (its players attack, so an Offensive set is legal)."""
    matches = []
    for number, concept in zip(numbers, concepts, strict=True):
        lineup = starting_lineup(team, opponent=f"Opp {number}", home=False, match_number=number)
        lineup.sets[0].concept = concept
        for slot in lineup.sets[0].slots[:4]:
            slot.position = Position.ATTACKER
        matches.append(lineup)
    return RoundOrders(team.name, matches=matches)


def test_a_repeated_cup_line_up_goes_to_the_cup_match_and_league_ones_to_league_matches():
    """Round 1: set 1 of the cup match (match 3) Offensive, the league matches Neutral. Round
    2 is played cup first: the repeat gives the cup match the cup's line-up, not Match 1's."""
    team = squad()
    last = _round(team, [1, 2, 3], [Concept.NEUTRAL, Concept.NEUTRAL, Concept.OFFENSIVE])
    fixtures = [  # playing order (rounds.team_fixtures): the cup first
        Fixture(2, 3, "Red Rockets", "Amateurs", "cup"),
        Fixture(2, 1, "Red Rockets", "Blue Whales"),
        Fixture(2, 2, "Green Geckos", "Red Rockets"),
    ]
    repeated = repeat_lineups(team, last, fixtures, 26)
    concepts = {m.match_number: m.sets[0].concept for m in repeated.orders.matches}
    assert concepts == {3: Concept.OFFENSIVE, 1: Concept.NEUTRAL, 2: Concept.NEUTRAL}
    assert repeated.changes == []


def test_a_match_with_no_line_up_of_its_kind_last_round_says_so():
    """Last round had no cup match: the cup match gets the starting line-up, and the answer
    says it could not be repeated; the league matches repeat as they were."""
    team = squad()
    last = _round(team, [1, 2], [Concept.OFFENSIVE, Concept.NEUTRAL])
    fixtures = [
        Fixture(2, 3, "Red Rockets", "Amateurs", "cup"),
        Fixture(2, 1, "Red Rockets", "Blue Whales"),
        Fixture(2, 2, "Green Geckos", "Red Rockets"),
    ]
    repeated = repeat_lineups(team, last, fixtures, 26)
    by_number = {m.match_number: m for m in repeated.orders.matches}
    assert by_number[1].sets[0].concept is Concept.OFFENSIVE
    assert by_number[2].sets[0].concept is Concept.NEUTRAL
    assert by_number[3].sets[0].concept is Concept.NEUTRAL  # the starting line-up
    assert [s.player_names for s in by_number[3].sets] == plan_sets(team)
    assert any(c.startswith("Cup match 3:") and "no cup" in c for c in repeated.changes), (
        repeated.changes
    )
