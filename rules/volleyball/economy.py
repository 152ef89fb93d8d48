"""Money in the Volleyball league: wages, the round income, sponsors, spying prices and the bank.

Every rule about dollars is written here once; rounds.py calls these in the seed's order.
Money enters a team's account only through the documented sources (the $500 a round, sponsor
income, amateurs compensation, transfer fees received) and leaves only through the documented
sinks (wages, contract pay and bonuses, spying, transfer fees paid, GM offers). Transfers move
money between teams; the rest comes from or goes to the GM.
"""

from __future__ import annotations

ROUND_INCOME = 500
"""Seed rule 9: "Every team gets $ 500 a round"."""

CREDIT_LIMIT = -1000
"""Seed rules 8 and 9: "The bank allows a manager not more than $ 1.000 credit"."""

SPY_PRICE = 300
SPY_DETAIL_PRICE = 250
SPY_ORDERS_PER_SEASON = 4
"""Seed rule 9: spying at most four times a season, $300, plus $250 for levels per player."""

# Seed rule 8: compensation per level point when an unsold player goes to the amateurs.
COMPENSATION_PER_LEVEL_POINT = {"A": 60, "B": 45, "C": 30, "D": 15, "E": 0}


def wage_for_levels(level_total: int) -> int:
    """A team player's wage a round from the total of his OL and DL (seed rule 9).

    2-10 points: $25, 11-20: $50, 21-28: $100, 29 and higher: $200. New talents get no pay
    as long as their levels are 0; a total below 2 cannot occur for a regular player (each
    level is at least 1) and is paid nothing as well.
    """
    if level_total < 2:
        return 0
    if level_total <= 10:
        return 25
    if level_total <= 20:
        return 50
    if level_total <= 28:
        return 100
    return 200


def compensation(age: str, level_total: int) -> int:
    """What the amateurs pay a team for a player nobody bid on (seed rule 8).

    Age A $60, B $45, C $30, D $15 per level point, Age E nothing. Talents and contract players have
    no age category and bring nothing.
    """
    return COMPENSATION_PER_LEVEL_POINT.get(age, 0) * max(level_total, 0)


def spy_price(with_player_detail: bool) -> int:
    """The price of one spying order (seed rule 9)."""
    return SPY_PRICE + (SPY_DETAIL_PRICE if with_player_detail else 0)


def within_credit(balance_after: int) -> bool:
    """True when an account may end up at `balance_after` by a bid or spy order.

    Seed rules 8/9: a bid or spying order "is only valid when it doesn't lead to a bank
    account below minus $ 1.000"; exactly -$1,000 is still allowed.
    """
    return balance_after >= CREDIT_LIMIT


def contract_bonus(pay_per_round: int, rounds: int) -> int:
    """The up-front bonus for a contract (seed rule 7).

    Ruling: the 10 % (3 rounds) or 20 % (4 rounds) is of the whole contract's pay
    (pay x rounds), rounded half up to whole dollars; a 2-round contract has no bonus.
    """
    percent = {2: 0, 3: 10, 4: 20}[rounds]
    return (pay_per_round * rounds * percent + 50) // 100
