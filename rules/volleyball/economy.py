"""Money in the Volleyball league: wages, the round income, sponsors, spying and the bank rule.

Every rule about dollars is written here once; rounds.py calls these in the seed's order.
Money enters a team's account only through the documented sources (the $500 a round, sponsor
income, amateurs compensation, transfer fees received) and leaves only through the documented
sinks (wages, contract pay and bonuses, spying, transfer fees paid, GM offers). Transfers move
money between teams; the rest comes from or goes to the GM.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.volleyball.models import (
    AGE_TALENT,
    MIN_OWN_PLAYERS,
    Fixture,
    League,
    SeasonConfig,
    Sponsor,
    Team,
)
from rules.volleyball.orders import SpyOrder
from rules.volleyball.wording import possessive

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


def dollars(amount: int) -> str:
    """Money as a manager reads it: $1,250 or -$300."""
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,}"


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


def refused_for_credit(team: Team, order: str, cost: str) -> str:
    """The event for an order the bank refuses (rules 8 and 9; see within_credit):
    "<team>'s <order> is not valid: <cost> would take the bank account below -$1,000"."""
    return (
        f"{possessive(team.name)} {order} is not valid: {cost} would take the bank account below "
        f"{dollars(CREDIT_LIMIT)}."
    )


def contract_bonus(pay_per_round: int, rounds: int) -> int:
    """The up-front bonus for a contract (seed rule 7).

    Ruling: the 10 % (3 rounds) or 20 % (4 rounds) is of the whole contract's pay
    (pay x rounds), rounded half up to whole dollars; a 2-round contract has no bonus.
    """
    percent = {2: 0, 3: 10, 4: 20}[rounds]
    return (pay_per_round * rounds * percent + 50) // 100


# --- the ledger: every dollar that moves, with its reason ---------------------------------

# The documented sources (money from the GM or the amateurs) and sinks (money to the GM or
# to players); "transfer fee" moves money between two teams and sums to zero over a round.
MONEY_SOURCES = frozenset({"round money", "sponsor", "compensation"})
MONEY_SINKS = frozenset({"wages", "contract pay", "contract bonus", "spying", "GM offer"})
TRANSFER_FEE = "transfer fee"


@dataclass(frozen=True)
class MoneyEntry:
    """One booking on a team's bank account: + received, - paid."""

    team: str
    amount: int
    reason: str

    def to_dict(self) -> dict:
        return {"team": self.team, "amount": self.amount, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict) -> MoneyEntry:
        return cls(str(data["team"]), int(data["amount"]), str(data["reason"]))


def book(team: Team, amount: int, reason: str, ledger: list[MoneyEntry] | None) -> None:
    """Change a team's bank account, writing the booking in the round's ledger. Every change
    of money in the engine goes through here."""
    team.money += amount
    if ledger is not None:
        ledger.append(MoneyEntry(team.name, amount, reason))


# --- applied to teams ---------------------------------------------------------------------


def wages_due(team: Team) -> int:
    """Step 4: the wages of a team's own players this round, from their levels after training
    (rule 9: "The levels at the start of the round (after training) fix the wages")."""
    return sum(wage_for_levels(p.total) for p in team.players if not p.is_contract)


def contract_pay_due(team: Team) -> int:
    """Rule 7: the agreed pay per round of the team's contract players."""
    return sum(p.contract_pay_per_round for p in team.players if p.is_contract)


def find_sponsor(config: SeasonConfig, name: str | None) -> Sponsor | None:
    if name is None:
        return None
    for sponsor in config.sponsors:
        if sponsor.name.casefold() == name.strip().casefold():
            return sponsor
    return None


def sponsor_problems(config: SeasonConfig, name: str | None) -> list[str]:
    """A sponsor choice names one of the season's sponsors (rule 9)."""
    if name is None or find_sponsor(config, name) is not None:
        return []
    names = ", ".join(s.name for s in config.sponsors)
    return [f"There is no sponsor called {name}; the sponsors this season are {names}."]


def sponsor_income(sponsor: Sponsor | None, matches_won: int, sets_won: int) -> int:
    """Step 6: the sponsor's contribution for the round's results (rule 9). Ruling: every
    match of the round counts, cup matches too."""
    if sponsor is None:
        return 0
    return sponsor.per_round + sponsor.per_match_won * matches_won + sponsor.per_set_won * sets_won


def spy_problems(
    team: Team,
    spies: list[SpyOrder],
    fixtures: list[Fixture],
    team_names: list[str] | None = None,
) -> list[str]:
    """Every problem with a team's spying orders that can be seen when they come in: the
    target is a team of the league (`team_names`, when given: a seat taken over by a new team
    has its new name) and plays that match this round, not one's own team, at most four a
    season. The bank check is made when the order is paid (step 3)."""
    known = {n.casefold() for n in team_names} if team_names is not None else None
    problems: list[str] = []
    if team.spies_used + len(spies) > SPY_ORDERS_PER_SEASON:
        problems.append(
            f"{team.name} has used {team.spies_used} of its four spying orders this season "
            f"and cannot give {len(spies)} more."
        )
    seen: set[tuple[str, int, str, str]] = set()
    for spy in spies:
        if spy.target_team.casefold() == team.name.casefold():
            problems.append("A team cannot spy on itself.")
            continue
        if known is not None and spy.target_team.casefold() not in known:
            problems.append(
                f"There is no team called {spy.target_team} in the league (any more: a seat "
                "taken over by a new team plays under its new name); spy on a team of the "
                "league."
            )
            continue
        fixture = spy_target_fixture(spy, fixtures)
        if fixture is None:
            if spy.against.strip():
                problems.append(f"{spy.target_team} does not play {spy.against} this round.")
            else:
                problems.append(
                    f"{spy.target_team} plays no match number {spy.match_number} this round."
                )
            continue
        key = (spy.target_team.casefold(), fixture.match_number, fixture.home, fixture.away)
        if key in seen:
            problems.append(
                f"There are two spying orders on {spy.target_team} in the same match; give one."
            )
        seen.add(key)
    return problems


def spy_target_fixture(spy: SpyOrder, fixtures: list[Fixture]) -> Fixture | None:
    """The fixture a spying order is about, or None: the target's game against `against`
    when the order names the opponent (the form's TEAM ... AGAINST ...), else the target's
    match with that match number."""
    key = spy.target_team.casefold()
    other = spy.against.strip().casefold()
    for fixture in fixtures:
        teams = (fixture.home.casefold(), fixture.away.casefold())
        if key not in teams:
            continue
        if other:
            if other in teams:
                return fixture
        elif fixture.match_number == spy.match_number:
            return fixture
    return None


# --- the bank -----------------------------------------------------------------------------


def private_line(
    events: list[str], private: dict[str, list[str]] | None, team_name: str, line: str
) -> None:
    """A line only `team_name` may read (its bids, its bank account: docs/rules/volleyball.md,
    "What the public sees"): into `private[team_name]`, or into `events` when no private lines are
    kept."""
    if private is None:
        events.append(line)
    else:
        private.setdefault(team_name, []).append(line)


def apply_bank_rule(
    league: League,
    round_number: int,
    events: list[str],
    ledger: list[MoneyEntry] | None = None,
    private: dict[str, list[str]] | None = None,
) -> None:
    """Rule 9's bank, at the end of every round.

    "When the bank account of a team becomes below minus $ 1.000, the manager has got one
    round to take his measures. When at the end of the next round, the bank account is still
    under minus $ 1.000 ... All contractplayers will be fired right away and when this won't
    lead towards an acceptable bank account at the end of the round, players are sold to the
    amateurs untill the bank account is acceptable."

    Rulings: players sold this way bring the amateurs compensation of rule 8 (that is what
    makes the account acceptable); the bank sells the player with the smallest compensation
    that is enough, else the one with the largest, and repeats; it never sells players who
    bring nothing (talents, Age E) nor takes a team below six players, so a team that still
    cannot pay stays in the red and the measures repeat next round.
    """
    for team in league.teams:
        if within_credit(team.money):
            team.below_credit_since_round = None
            continue
        if team.below_credit_since_round is None:  # first round in the red: a warning
            team.below_credit_since_round = round_number
            private_line(
                events,
                private,
                team.name,
                f"{possessive(team.name)} bank account is {dollars(team.money)}, below "
                f"{dollars(CREDIT_LIMIT)}: the manager has one round to put it right before the "
                "bank takes measures.",
            )
            continue
        for player in [p for p in team.players if p.is_contract]:
            team.players.remove(player)
            events.append(f"The bank fires contract player {player.name} from {team.name}.")
        while not within_credit(team.money):
            own = [p for p in team.players if not p.is_contract]
            if len(own) <= MIN_OWN_PLAYERS:
                break
            priced = [
                (compensation(p.age, p.total), index, p)
                for index, p in enumerate(own)
                if p.age != AGE_TALENT and compensation(p.age, p.total) > 0
            ]
            if not priced:
                break
            shortfall = CREDIT_LIMIT - team.money
            enough = [entry for entry in priced if entry[0] >= shortfall]
            money, _index, player = min(enough) if enough else max(priced)
            team.players.remove(player)
            book(team, money, "compensation", ledger)
            events.append(
                f"The bank sells {player.name} of {team.name} to the amateurs for ${money}."
            )
        if within_credit(team.money):
            team.below_credit_since_round = None
        else:
            private_line(
                events,
                private,
                team.name,
                f"{team.name} is still at {dollars(team.money)} in the bank after the bank's "
                "measures.",
            )
