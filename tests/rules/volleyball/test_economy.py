"""Money rules with worked numbers: wages bands, compensation, contract bonus, the credit
limit, sponsor income and spying (seed rules 7-9)."""

from __future__ import annotations

import pytest

from rules.volleyball import economy
from rules.volleyball.models import AGE_CONTRACT, AGE_TALENT, Fixture, Player, Sponsor, Team
from rules.volleyball.orders import SpyOrder


@pytest.mark.parametrize(
    ("total", "wage"),
    [
        (0, 0),  # a new talent at 0/0 gets no pay
        (2, 25),
        (10, 25),
        (11, 50),
        (20, 50),
        (21, 100),
        (28, 100),
        (29, 200),
        (35, 200),
    ],
)
def test_wage_bands_of_rule_9(total: int, wage: int) -> None:
    assert economy.wage_for_levels(total) == wage


def test_wages_due_counts_own_players_only() -> None:
    team = Team(
        "Reds",
        players=[
            Player("A", "A", 6, 4),  # 10 -> $25
            Player("B", "B", 8, 7),  # 15 -> $50
            Player("C", "C", 12, 12),  # 24 -> $100
            Player("D", "D", 15, 15),  # 30 -> $200
            Player("T", AGE_TALENT, 0, 0),  # no pay at 0
            Player("K", AGE_CONTRACT, 18, 10, contract_pay_per_round=120),
        ],
    )
    assert economy.wages_due(team) == 25 + 50 + 100 + 200
    assert economy.contract_pay_due(team) == 120


@pytest.mark.parametrize(
    ("age", "points", "money"),
    [("A", 15, 900), ("B", 15, 675), ("C", 15, 450), ("D", 15, 225), ("E", 15, 0)],
)
def test_compensation_per_level_point_by_age(age: str, points: int, money: int) -> None:
    assert economy.compensation(age, points) == money


def test_talents_and_contract_players_bring_no_compensation() -> None:
    assert economy.compensation(AGE_TALENT, 4) == 0
    assert economy.compensation(AGE_CONTRACT, 28) == 0


@pytest.mark.parametrize(
    ("pay", "rounds", "bonus"),
    [(100, 2, 0), (100, 3, 30), (150, 4, 120), (33, 3, 10), (35, 3, 11)],
)
def test_contract_bonus_is_a_share_of_the_whole_contract(pay: int, rounds: int, bonus: int) -> None:
    # 33 x 3 x 10 % = 9.9 -> $10; 35 x 3 x 10 % = 10.5 -> $11 (half up).
    assert economy.contract_bonus(pay, rounds) == bonus


def test_credit_limit_allows_exactly_minus_1000() -> None:
    assert economy.within_credit(-1000)
    assert not economy.within_credit(-1001)


def test_spy_prices() -> None:
    assert economy.spy_price(False) == 300
    assert economy.spy_price(True) == 550


def test_sponsor_income_by_results() -> None:
    sponsor = Sponsor("Cola", per_round=50, per_match_won=150, per_set_won=30)
    # two matches won, seven sets won
    assert economy.sponsor_income(sponsor, 2, 7) == 50 + 300 + 210
    assert economy.sponsor_income(None, 2, 7) == 0


def test_book_writes_the_ledger() -> None:
    team = Team("Reds", money=100)
    ledger: list[economy.MoneyEntry] = []
    economy.book(team, -250, "wages", ledger)
    assert team.money == -150
    assert ledger == [economy.MoneyEntry("Reds", -250, "wages")]


def test_dollars_are_written_as_managers_read_them() -> None:
    assert economy.dollars(1250) == "$1,250"
    assert economy.dollars(-4775) == "-$4,775"


def test_spy_order_names_the_game_by_number_or_by_opponent() -> None:
    fixtures = [Fixture(1, 1, "Reds", "Blues"), Fixture(1, 2, "Greens", "Reds")]
    assert economy.spy_target_fixture(SpyOrder("reds", 2), fixtures) == fixtures[1]
    assert (
        economy.spy_target_fixture(SpyOrder("Reds", 1, against="Greens"), fixtures) == (fixtures[1])
    )
    assert economy.spy_target_fixture(SpyOrder("Reds", 1, against="Yellows"), fixtures) is None
    team = Team("Blues", spies_used=3)
    problems = economy.spy_problems(
        team, [SpyOrder("Reds", 3), SpyOrder("Reds", 1, against="Yellows")], fixtures
    )
    assert problems == [
        "Blues has used 3 of its four spying orders this season and cannot give 2 more.",
        "Reds plays no match number 3 this round.",
        "Reds does not play Yellows this round.",
    ]


def test_two_spying_orders_on_the_same_match_are_refused() -> None:
    fixtures = [Fixture(1, 1, "Reds", "Blues")]
    problems = economy.spy_problems(
        Team("Greens"), [SpyOrder("Reds", 1), SpyOrder("Reds", 1, against="Blues")], fixtures
    )
    assert problems == ["There are two spying orders on Reds in the same match; give one."]


def test_a_spying_order_on_a_team_no_longer_in_the_league_says_so() -> None:
    """A seat taken over by a new team plays under the new name: the order on the old name is
    about a team that is gone, not a team without a match."""
    fixtures = [Fixture(1, 1, "Reds", "Blues")]
    problems = economy.spy_problems(
        Team("Greens"), [SpyOrder("Yellows", 1)], fixtures, ["Reds", "Blues", "Greens"]
    )
    assert problems == [
        "There is no team called Yellows in the league (any more: a seat taken over by a new "
        "team plays under its new name); spy on a team of the league."
    ]
