"""Order validation: rule 3's formation limits and concept requirements (docs/rules/volleyball.md
ruling 2), risk ranges, rule 2's eligibility after tiredness, rule 4's point limits;
every problem is reported at once in a sentence; orders survive a JSON round trip."""

import json

import pytest

from rules.volleyball.match import default_match_orders, validate_match_orders
from rules.volleyball.models import Player, Team
from rules.volleyball.orders import (
    AgeingSplit,
    Concept,
    ContractBid,
    GmOfferBid,
    LevelPoints,
    MatchOrders,
    PlayerSlot,
    Position,
    RoundOrders,
    SetOrder,
    SpyOrder,
    TrainingOrder,
    TransferBid,
    TransferSale,
    lowest_risk,
    set_order_problems,
)

S, A, R, D, B = (
    Position.SETTER,
    Position.ATTACKER,
    Position.ALLROUND,
    Position.DEFENDER,
    Position.BLOCKER,
)


def formation(
    *positions: Position, concept: Concept = Concept.NEUTRAL, risk: int | None = None
) -> SetOrder:
    return SetOrder(
        slots=[PlayerSlot(f"P{i}", p) for i, p in enumerate(positions)], concept=concept, risk=risk
    )


def team_of(count: int = 12, ol: int = 12, dl: int = 12, special: int = 100) -> Team:
    return Team("Red", [Player(f"P{i}", "B", ol, dl) for i in range(count)], special_points=special)


def test_a_neutral_formation_of_six_different_players_is_fine():
    assert set_order_problems(formation(S, S, A, R, B, B), 1) == []


def test_at_most_two_setters_and_two_blockers():
    problems = set_order_problems(formation(S, S, S, B, B, B), 2)
    assert "Set 2 has 3 setters; at most two setters may play in a set." in problems
    assert "Set 2 has 3 blockers; at most two blockers may play in a set." in problems


def test_six_players_exactly_and_no_one_twice():
    assert set_order_problems(formation(R, R, R, R, R), 1) == [
        "Set 1 has 5 players; a formation needs exactly six."
    ]
    doubled = formation(R, R, R, R, R, R)
    doubled.slots[5].player = "p0"
    assert set_order_problems(doubled, 1) == [
        "Set 1 lists p0 twice; each player can take one place only."
    ]


@pytest.mark.parametrize(
    ("concept", "risk", "ok", "short"),
    [
        (Concept.AGGRESSIVE, 9, (S, S, A, A, A, R), (S, S, A, A, R, R)),
        (Concept.OFFENSIVE, 6, (S, A, A, A, R, R), (S, A, A, R, R, R)),
        (Concept.DEFENSIVE, 3, (B, D, D, D, R, R), (B, D, D, R, R, R)),
        (Concept.WALL, 0, (B, B, D, D, D, R), (B, B, D, D, R, R)),
    ],
)
def test_each_concept_needs_its_formation(concept, risk, ok, short):
    assert set_order_problems(formation(*ok, concept=concept, risk=risk), 1) == []
    problems = set_order_problems(formation(*short, concept=concept, risk=risk), 1)
    assert len(problems) == 1
    assert problems[0].startswith(
        f"Set 1 plays the {concept.label} concept ({concept.abbreviation})"
    )
    assert "but the formation has" in problems[0]


def test_neutral_has_no_formation_requirement():
    assert set_order_problems(formation(B, B, D, D, D, D, concept=Concept.NEUTRAL), 1) == []


@pytest.mark.parametrize(
    ("concept", "low", "high"),
    [
        (Concept.AGGRESSIVE, 9, 12),
        (Concept.OFFENSIVE, 6, 9),
        (Concept.NEUTRAL, 3, 9),
        (Concept.DEFENSIVE, 3, 6),
        (Concept.WALL, 0, 3),
    ],
)
def test_risk_factor_ranges_and_the_lowest_by_default(concept, low, high):
    shapes = {
        Concept.AGGRESSIVE: (S, S, A, A, A, R),
        Concept.OFFENSIVE: (S, S, A, A, R, R),
        Concept.NEUTRAL: (R,) * 6,
        Concept.DEFENSIVE: (B, B, D, D, R, R),
        Concept.WALL: (B, B, D, D, D, R),
    }
    assert lowest_risk(concept) == low
    assert formation(*shapes[concept], concept=concept).effective_risk == low
    for risk in (low, high):
        assert set_order_problems(formation(*shapes[concept], concept=concept, risk=risk), 1) == []
    for risk in (low - 1, high + 1):
        assert set_order_problems(formation(*shapes[concept], concept=concept, risk=risk), 3) == [
            f"Set 3: risk factor {risk} is outside the {concept.label} concept's range of {low} to {high}."
        ]


def test_valid_default_orders_have_no_problems():
    team = team_of()
    assert validate_match_orders(team, default_match_orders(team), home=True) == []


def test_unknown_players_and_five_sets_are_reported():
    team = team_of()
    orders = default_match_orders(team)
    orders.sets[0].slots[0] = PlayerSlot("Nobody")
    orders.sets.pop()
    problems = validate_match_orders(team, orders, home=True)
    assert "Set 1: there is no player called 'Nobody' in Red." in problems
    assert (
        "The orders have 4 sets; fill in all five sets (sets 4 and 5 are only played when needed)."
        in problems
    )


def test_a_player_too_tired_for_a_later_set_is_refused():
    # 7/7 players: 7/7 -> 4/5 -> 2/2 -> 0/0 after three sets in a row.
    team = team_of(count=6, ol=7, dl=7)
    same = [PlayerSlot(p.name) for p in team.players]
    orders = MatchOrders(sets=[SetOrder(list(same)) for _ in range(5)])
    problems = validate_match_orders(team, orders, home=True)
    assert (
        "Set 4: P0 cannot play: his levels would be OL 0 / DL 0 after the sets before, "
        "and a player needs both levels at least 1." in problems
    )
    assert not any(p.startswith(("Set 1", "Set 2", "Set 3")) for p in problems)


def test_an_empty_set_is_allowed_only_when_six_cannot_play():
    team = team_of()
    orders = default_match_orders(team)
    orders.sets[4] = SetOrder()
    assert validate_match_orders(team, orders, home=True) == [
        "Set 5 has no players; fill in six. A set may be left empty only when you cannot "
        "field six players able to play (it is then lost 0-15)."
    ]


def test_devotion_special_and_home_advantage_limits_all_at_once():
    team = team_of(special=30)
    orders = default_match_orders(team)
    orders.sets[0].devotion = LevelPoints(20, 0)
    orders.sets[1].devotion = LevelPoints(0, 11)
    orders.sets[0].special = LevelPoints(25, 0)
    orders.sets[2].special = LevelPoints(0, 16)
    orders.sets[0].home_advantage = LevelPoints(20, 10)
    problems = validate_match_orders(team, orders, home=True, home_advantage_points=24)
    assert problems == [
        "The orders use 31 devotion points; at most 30 may be used in a match.",
        "The orders use 41 special points; at most 40 may be used in a match.",
        "The orders use 41 special points but Red has only 30 left this season.",
        "The orders use 30 home-advantage points; this home match has 24.",
    ]
    orders.sets[0].home_advantage = LevelPoints(1, 0)
    assert (
        "Home-advantage points can only be used in a home match; this is an away match."
        in validate_match_orders(team, orders, home=False)
    )


def test_exactly_at_the_limits_is_fine():
    team = team_of(special=40)
    orders = default_match_orders(team)
    orders.sets[0].devotion = LevelPoints(15, 15)
    orders.sets[1].special = LevelPoints(20, 20)
    orders.sets[2].home_advantage = LevelPoints(12, 12)
    assert validate_match_orders(team, orders, home=True, home_advantage_points=24) == []


def test_round_orders_survive_json():
    orders = RoundOrders(
        team="Red",
        matches=[
            MatchOrders(
                sets=[
                    SetOrder(
                        [PlayerSlot("Ann", Position.SETTER, tired_from_ol=2)],
                        Concept.OFFENSIVE,
                        7,
                        LevelPoints(3, 1),
                        LevelPoints(0, 5),
                        LevelPoints(2, 2),
                    )
                ],
                match_number=2,
                opponent="Blue",
                home=False,
            )
        ],
        training=[TrainingOrder("Ann", 1, 0)],
        scout_talents=["Tim"],
        spies=[SpyOrder("Green", 1, True, "Blue")],
        sponsor="Champion Cola",
        sales=[TransferSale("Bob", 300)],
        transfer_bids=[TransferBid("Green", "Gus", 450)],
        gm_offer_bids=[GmOfferBid("player-1", 200, "New Guy")],
        contract_bids=[ContractBid("Kasper Hammer", 120, 3)],
        ageing=[AgeingSplit("Ann", 4)],
    )
    assert RoundOrders.from_dict(json.loads(json.dumps(orders.to_dict()))) == orders


def test_the_nmr_line_up_keeps_players_and_drops_points():
    order = SetOrder(
        [PlayerSlot("Ann", Position.SETTER)],
        Concept.NEUTRAL,
        5,
        LevelPoints(3, 1),
        LevelPoints(0, 5),
        LevelPoints(2, 2),
    )
    stripped = MatchOrders([order]).without_points().sets[0]
    assert stripped.slots == order.slots and stripped.risk == 5
    assert stripped.home_advantage.total == stripped.devotion.total == stripped.special.total == 0


def test_a_set_s_points_are_written_one_way_those_unused_left_out():
    """Rule 4's points per level, as the reports, the orders read back and the editor show
    them."""
    from rules.volleyball import LevelPoints, SetOrder, points_used

    used = SetOrder(home_advantage=LevelPoints(4, 0), special=LevelPoints(0, 2))
    assert points_used(used) == ["HA 4/0", "SP 0/2"]
    assert points_used(used, every=True) == ["HA 4/0", "DP 0/0", "SP 0/2"]
    assert points_used(SetOrder()) == []
