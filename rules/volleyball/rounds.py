"""One round of the league: the seed's "Sequence of the several stages for the results", in
its order, from every team's orders (or rule 12's NMR orders when a team sent none).

1. Training of the players with TP            6. Lack of devotion, sponsor income, TP earned
2. Scouting of new talents                    7. Payment of contract pay and wages (+ $500)
3. Payment of spying orders                   8. Sale of players on the transfer market
4. Calculation of the wages                   9. Sale of the GM offers (players, TP, SP)
5. The matches, Galaxy Cup matches first     10. Contracting of the contract players
Then the bank rule (rule 9) and the round number moves on.

Public API:
- `round_fixtures(state, round_number)`: the matches teams give line-ups for (cup first).
- `round_order_problems(state, orders) -> list[str]`: every problem with one team's orders,
  checked against the team as it will be at each step (call it when orders come in).
- `play_round(state, orders) -> (LeagueState, RoundReport)`: never changes `state`; it works
  on a copy. Orders with problems are refused as a whole with every problem listed
  (VolleyballError). `RoundReport.text(team)` is the results as that team may read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.volleyball import economy, fair, market, training
from rules.volleyball.creation import scout_problems, scout_talent
from rules.volleyball.cup import cup_rounds_in, fixtures_for_next_cup_round, record_cup_round
from rules.volleyball.lineups import lineup_warnings
from rules.volleyball.match import (
    AWAY,
    HOME,
    MatchResult,
    apply_lack_of_devotion,
    count_talent_match,
    default_match_orders,
    play_match,
    roll_lack_of_devotion,
    team_after_match,
    validate_match_orders,
)
from rules.volleyball.models import Fixture, FixtureResult, Player, Team
from rules.volleyball.orders import MatchOrders, RoundOrders, SpyOrder, VolleyballError
from rules.volleyball.season import LeagueState
from rules.volleyball.wording import possessive


@dataclass
class RoundReport:
    """What the GM sends out after a round: the public events in the order they happened,
    every match result, private messages (spy reports) per team, the teams that sent no
    orders, and the ledger of every dollar booked. `private[team]` is for that team's eyes
    only (rule 9: the spy report goes to the spying team); `text(team)` respects that."""

    season: int
    round_number: int
    events: list[str] = field(default_factory=list)
    matches: list[MatchResult] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    nmr_teams: list[str] = field(default_factory=list)
    ledger: list[economy.MoneyEntry] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "season": self.season,
            "round_number": self.round_number,
            "events": list(self.events),
            "matches": [m.to_dict() for m in self.matches],
            "private": {k: list(v) for k, v in self.private.items()},
            "nmr_teams": list(self.nmr_teams),
            "ledger": [entry.to_dict() for entry in self.ledger],
        }

    @classmethod
    def from_dict(cls, data: dict) -> RoundReport:
        return cls(
            season=int(data["season"]),
            round_number=int(data["round_number"]),
            events=[str(e) for e in data.get("events", [])],
            matches=[MatchResult.from_dict(m) for m in data.get("matches", [])],
            private={str(k): [str(x) for x in v] for k, v in data.get("private", {}).items()},
            nmr_teams=[str(t) for t in data.get("nmr_teams", [])],
            ledger=[economy.MoneyEntry.from_dict(e) for e in data.get("ledger", [])],
        )

    def text(self, team: str | None = None) -> str:
        """The results as plain text: the public events in order, then every match as a
        spectator saw it (docs/rules/volleyball.md, "What the public sees"); with `team`, that
        team's private lines at the end (its training, money, its own totals per set, its spy
        reports: only for its eyes)."""
        lines = [f"Season {self.season}, round {self.round_number}: results", ""]
        if self.nmr_teams:
            lines.append(f"No orders received from: {', '.join(self.nmr_teams)} (NMR).")
        lines.extend(self.events)
        for match in self.matches:
            lines.append("")
            lines.extend(match.public_summary())
        private = self.private.get(team, []) if team else []
        if private:
            lines.append("")
            lines.extend(private)
        return "\n".join(lines)


# --- the round's fixtures -----------------------------------------------------------------


def round_fixtures(state: LeagueState, round_number: int) -> list[Fixture]:
    """Every fixture a team may have to give orders for in `round_number`: the league
    fixtures and the next cup round's pairs if the cup plays this round (a second cup round
    in the same league round is not drawn yet; its line-up is the NMR one)."""
    fixtures = state.fixtures(round_number, "league")
    cup_rounds = cup_rounds_in(state.cup, round_number)
    if cup_rounds and state.cup.winner is None:
        first_cup_number = state.league.config.matches_per_round + 1
        fixtures = fixtures_for_next_cup_round(state.cup, round_number, first_cup_number) + fixtures
    return fixtures


def team_fixtures(fixtures: list[Fixture], team_name: str) -> list[Fixture]:
    """A team's fixtures in the order they are played: cup first, then by match number."""
    own = [f for f in fixtures if team_name == f.home or team_name == f.away]
    if not own:  # the name as typed may differ in case
        key = team_name.casefold()
        own = [f for f in fixtures if key in (f.home.casefold(), f.away.casefold())]
    return sorted(own, key=lambda f: (f.competition != "cup", f.match_number))


# --- validation ---------------------------------------------------------------------------


def working_copy(team: Team) -> Team:
    """A copy of a team whose players can be changed freely, for checking orders (its last
    line-up is left out: checks never need it, and copying it is most of the cost)."""
    players = [Player(**vars(p)) for p in team.players]
    return replace(team, players=players, last_lineup=[])


def preview_team(team: Team, orders: RoundOrders, state: LeagueState) -> tuple[Team, list[str]]:
    """The team as it will be at the matches (after training and scouting), and the problems
    found on the way there."""
    problems = training.training_order_problems(team, orders.training)
    preview = working_copy(team)
    if not problems:
        gains = [(o.player, o.ol_gain, o.dl_gain) for o in orders.training]
        training.apply_training(preview, _resolved_gains(preview, gains), [])
    for name in orders.scout_talents:
        found = scout_problems(preview, name, state.league.config)
        if found:
            problems.extend(found)
        else:
            preview = scout_talent(preview, name, state.league.config)
    return preview, problems


def _resolved_gains(team: Team, gains: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Training orders with player names spelled as on the roster."""
    return [(team.known_player(name).name, ol, dl) for name, ol, dl in gains if ol or dl]


def round_order_problems(state: LeagueState, orders: RoundOrders) -> list[str]:
    """Every problem with one team's orders for the coming round, each a sentence; an empty
    list means the orders will be carried out as given."""
    league = state.league
    team = league.team(orders.team)
    if team is None:
        return [f"There is no team called {orders.team} in this league."]
    r, total = league.round_number, state.total_rounds
    if r > total:
        return ["The season is over; there are no more rounds to give orders for."]
    fixtures = round_fixtures(state, r)
    preview, problems = preview_team(team, orders, state)
    problems += economy.spy_problems(team, orders.spies, fixtures, [t.name for t in league.teams])
    problems += economy.sponsor_problems(league.config, orders.sponsor)
    problems += market.listing_problems(team, orders.sales, state.transfer_list, r, total)
    problems += market.transfer_bid_problems(
        team, orders.transfer_bids, state.transfer_list, r, total
    )
    reserved = [c.name for c in league.config.contract_players]
    problems += market.gm_bid_problems(team, orders.gm_offer_bids, state.gm_offers, reserved)
    problems += market.contract_bid_problems(
        team, orders.contract_bids, league, r, total, state.contract_holders()
    )
    if orders.ageing:
        problems.append("Ageing splits are given with the season-end orders, not a round's.")
    own = {f.match_number: f for f in team_fixtures(fixtures, team.name)}
    play_order = list(own)
    special_left = preview.special_points
    seen: set[int] = set()
    # Checked in playing order (cup first), each match against the team as it will be then.
    for match_orders in sorted(
        orders.matches,
        key=lambda m: play_order.index(m.match_number) if m.match_number in own else -1,
    ):
        number = match_orders.match_number
        fixture = own.get(number)
        if fixture is None:
            problems.append(f"{team.name} plays no match number {number} this round.")
            continue
        if number in seen:
            problems.append(f"There are two line-ups for match {number}; give one.")
            continue
        seen.add(number)
        home = fixture.home.casefold() == team.name.casefold()
        mismatch = schedule_problems(team.name, match_orders, fixture, list(own.values()))
        if mismatch:
            problems += mismatch
            continue
        found = validate_match_orders(
            preview,
            match_orders,
            home=home,
            home_advantage_points=league.config.home_advantage_points(r) if home else 0,
            special_points_left=special_left,
        )
        problems += [f"Match {number}: {p}" for p in found]
        special_left -= match_orders.special_total
        preview = after_match_preview(preview, match_orders)
    return problems


def _where(fixture: Fixture, team_name: str) -> str:
    """ "at home against X" / "away against X" for a team's fixture."""
    home = fixture.home.casefold() == team_name.casefold()
    opponent = fixture.away if home else fixture.home
    return f"{'at home' if home else 'away'} against {opponent}"


def schedule_problems(
    team_name: str, orders: MatchOrders, fixture: Fixture, own: list[Fixture]
) -> list[str]:
    """Ruling 33: a line-up's AGAINST and HOMEPLAY/OUTBOUND must be the schedule's for
    its MATCH NO. (the seed's form repeats them so a wrong match number is caught, not played
    in the other match). An empty `opponent` means the orders did not state one (structured
    orders from a command), and is not checked."""
    number = orders.match_number
    home = fixture.home.casefold() == team_name.casefold()
    opponent = fixture.away if home else fixture.home
    problems: list[str] = []
    if orders.opponent and orders.opponent.strip().casefold() != opponent.casefold():
        meant = next(
            (
                f
                for f in own
                if orders.opponent.strip().casefold() in (f.home.casefold(), f.away.casefold())
            ),
            None,
        )
        hint = (
            f" You play {orders.opponent.strip()} in match {meant.match_number}: check MATCH NO."
            if meant is not None
            else f" {team_name} does not play {orders.opponent.strip()} this round."
        )
        problems.append(
            f"Match {number}: the line-up is against {orders.opponent.strip()}, but match "
            f"{number} is {_where(fixture, team_name)}.{hint}"
        )
    if orders.home != home:
        problems.append(
            f"Match {number}: the line-up says {'HOMEPLAY' if orders.home else 'OUTBOUND'}, but "
            f"match {number} is {_where(fixture, team_name)}: write "
            f"{'HOMEPLAY' if home else 'OUTBOUND'}."
        )
    return problems


@dataclass
class OrderCheck:
    """What a manager is told when orders come in: the orders as they will be carried out,
    the `problems` that refuse them (empty: accepted) and the `warnings` that do not (a match
    without a line-up plays the NMR line-up, rule 12)."""

    orders: RoundOrders
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.problems


def round_order_warnings(state: LeagueState, orders: RoundOrders) -> list[str]:
    """What is incomplete or wasteful but allowed in a team's orders, said before they are
    stored: each of its matches this round with no line-up (it will play rule 12's NMR
    line-up), what a line-up gives away (lineups.lineup_warnings: a set without players,
    home-advantage points unused) and orders the bank would refuse at today's balance
    (credit_warnings)."""
    team = state.league.team(orders.team)
    if team is None or state.season_over:
        return []
    given = {m.match_number: m for m in orders.matches}
    allowance = state.league.config.home_advantage_points(state.league.round_number)
    warnings = []
    for fixture in team_fixtures(round_fixtures(state, state.league.round_number), team.name):
        cup = fixture.competition == "cup"
        label = "Galaxy Cup match" if cup else "match"
        match_orders = given.get(fixture.match_number)
        if match_orders is None:
            warnings.append(
                f"No line-up for {label} {fixture.match_number} "
                f"({_where(fixture, team.name)}): the NMR line-up will play it (rule 12: "
                "your last line-up without HA, DP and SP)."
            )
        else:
            warnings += lineup_warnings(
                match_orders,
                allowance,
                f"{'Galaxy Cup match' if cup else 'Match'} {fixture.match_number}",
            )
    return warnings + credit_warnings(team, orders)


def credit_warnings(team: Team, orders: RoundOrders) -> list[str]:
    """Orders the bank would refuse if they were carried out now (rules 8 and 9: no order
    may take the account below -$1,000): each spying order, bid or contract bonus that alone
    would, and all of them together. They are checked again when they are carried out, after
    the round's money has come in, so this is a warning, not a refusal."""
    costs = [
        (f"the spying order on {s.target_team}", economy.spy_price(s.player_detail))
        for s in orders.spies
    ]
    costs += [(f"the bid on {b.player}", b.amount) for b in orders.transfer_bids]
    costs += [(f"the GM bid on {b.offer_id}", b.amount) for b in orders.gm_offer_bids]
    costs += [
        (
            f"the contract bonus for {b.contract_player}",
            economy.contract_bonus(b.pay_per_round, b.rounds),
        )
        for b in orders.contract_bids
    ]
    room = team.money - economy.CREDIT_LIMIT
    warnings = [
        f"{what[0].upper()}{what[1:]} ({economy.dollars(cost)}) would take your account ({economy.dollars(team.money)} "
        f"now) below {economy.dollars(economy.CREDIT_LIMIT)}: the bank refuses it unless "
        "money comes in first."
        for what, cost in costs
        if cost > room
    ]
    total = sum(cost for _, cost in costs)
    if not warnings and len(costs) > 1 and total > room:
        warnings.append(
            f"Together your spying orders and bids cost {economy.dollars(total)}: with "
            f"{economy.dollars(team.money)} now, not all of them can be paid without going below "
            f"{economy.dollars(economy.CREDIT_LIMIT)}; the bank refuses those that would."
        )
    return warnings


def check_round_orders(state: LeagueState, orders: RoundOrders) -> OrderCheck:
    """Every problem and every warning with one team's orders for the coming round."""
    return OrderCheck(
        orders, round_order_problems(state, orders), round_order_warnings(state, orders)
    )


def after_match_preview(team: Team, orders: MatchOrders) -> Team:
    """The team as it will be after playing `orders`, as far as the next match's orders
    depend on it: a lack of devotion is used up (rule 4, "the next match"), and a 0/0 talent
    in at least two of sets 1-3 (always played) counts a match and may get his 2/2 (rule 6).
    match.team_after_match does the same with the real result (both: count_talent_match)."""
    # Only the players this can change are copied; the others are shared (a preview is
    # read, never changed in place).
    after = replace(
        team,
        players=[
            Player(**vars(p)) if p.lack_of_devotion or p.is_talent else p for p in team.players
        ],
        last_lineup=[],
    )
    sets_played: dict[str, int] = {}
    for set_order in orders.sets[:3]:
        for name in set_order.player_names:
            player = after.player(name)
            if player is not None:
                sets_played[player.name] = sets_played.get(player.name, 0) + 1
    for player in after.players:
        if player.lack_of_devotion or player.is_talent:
            player.lack_of_devotion = False
            count_talent_match(player, sets_played.get(player.name, 0))
    return after


# --- the round ----------------------------------------------------------------------------


def nmr_orders(team_name: str) -> RoundOrders:
    """Rule 12: no move received. Empty orders: the NMR training, the last line-up without
    HA/DP/SP and no bids are filled in while the round is played."""
    return RoundOrders(team=team_name)


def _lineup_for(
    team: Team, fixture: Fixture, given: RoundOrders | None, ha: int, events: list[str] | None
) -> MatchOrders:
    """The orders a team plays `fixture` with: its own line-up if it gave one, else rule 12's
    last line-up without HA, DP and SP, else (no last line-up, or one with players who can no
    longer play) the default line-up (match.default_match_orders). With `events`, a league
    team playing without its own line-up is announced."""
    home = fixture.home == team.name
    opponent = fixture.away if home else fixture.home
    if given is not None:
        for match_orders in given.matches:
            if match_orders.match_number == fixture.match_number:
                return match_orders
    if events is not None:
        events.append(
            f"{team.name} gave no line-up for match {fixture.match_number}: "
            "the NMR line-up plays (rule 12)."
        )
    if team.last_lineup:
        repeat = MatchOrders(
            sets=[s.without_points() for s in team.last_lineup],
            match_number=fixture.match_number,
            opponent=opponent,
            home=home,
        )
        problems = validate_match_orders(team, repeat, home=home, home_advantage_points=ha)
        if not problems:
            return repeat
        if events is not None:
            events.append(
                f"{possessive(team.name)} last line-up can't be played again ({' '.join(problems)}): "
                "the default line-up plays instead."
            )
    return default_match_orders(
        team, opponent=opponent, home=home, match_number=fixture.match_number
    )


class _Round:
    """The working state of one round being played (a copy of the league state)."""

    def __init__(self, state: LeagueState, orders: dict[str, RoundOrders]):
        self.state = state
        self.league = state.league
        self.r = self.league.round_number
        secret = self.league.secret
        # Ruling 57: the matches' rallies from the round's committed seed, one generator per
        # match; the rest of the round from a seed never revealed. A league saved before it had
        # a secret plays on its one generator.
        self.seed = None if secret is None else fair.round_seed(secret, self.league.season, self.r)
        self.rng = (
            self.league.rng()
            if secret is None
            else fair.rest_rng(secret, self.league.season, self.r)
        )
        self.total = state.total_rounds
        self.report = RoundReport(self.league.season, self.r)
        self.events = self.report.events
        self.orders: dict[str, RoundOrders] = {}
        for team in self.league.teams:
            given = next(
                (o for o in orders.values() if o.team.casefold() == team.name.casefold()), None
            )
            if given is None:
                self.report.nmr_teams.append(team.name)
                given = nmr_orders(team.name)
            self.orders[team.name] = given
        self.wages: dict[str, int] = {}
        self.paid_spies: dict[str, list[SpyOrder]] = {}
        self.results: list[tuple[Fixture, MatchResult]] = []

    def private(self, team_name: str) -> list[str]:
        """The private lines of one team (docs/rules/volleyball.md, "What the public sees":
        training, money, its totals, its spy reports are the team's own information)."""
        return self.report.private.setdefault(team_name, [])

    def team(self, name: str) -> Team:
        """A fixture's team: the league's, or an amateur club in the cup."""
        team = self.league.team(name)
        if team is None:
            team = self.state.cup.amateur(name)
        if team is None:
            raise KeyError(f"no team {name!r} in the league or the cup")
        return team

    def replace_team(self, team: Team) -> None:
        for group in (self.league.teams, self.state.cup.amateur_teams):
            for index, candidate in enumerate(group):
                if candidate.name == team.name:
                    group[index] = team
                    return

    # step 1
    def train(self) -> None:
        """Step 1: training with TP (rule 6); a team without orders gets the NMR training."""
        for team in self.league.teams:
            if team.name in self.report.nmr_teams:
                gains = training.nmr_training_for(team)
            else:
                given = self.orders[team.name].training
                gains = _resolved_gains(team, [(o.player, o.ol_gain, o.dl_gain) for o in given])
            training.apply_training(team, gains, self.private(team.name))

    # step 2
    def scout(self) -> None:
        """Step 2: scouting of new talents (rule 6)."""
        for team in list(self.league.teams):
            after = team
            for name in self.orders[team.name].scout_talents:
                after = scout_talent(after, name, self.league.config)
                self.private(team.name).append(f"You scout a new talent, {name.strip()}.")
            self.replace_team(after)

    # step 3
    def pay_spies(self) -> None:
        """Step 3: each spying order is paid if the bank allows it (rule 9)."""
        for team in self.league.teams:
            for spy in self.orders[team.name].spies:
                price = economy.spy_price(spy.player_detail)
                if not economy.within_credit(team.money - price):
                    self.private(team.name).append(
                        economy.refused_for_credit(
                            team, f"spying order on {spy.target_team}", f"${price}"
                        )
                    )
                    continue
                economy.book(team, -price, "spying", self.report.ledger)
                team.spies_used += 1
                self.paid_spies.setdefault(team.name, []).append(spy)
                self.private(team.name).append(f"You pay ${price} for a spying order.")

    # step 4
    def fix_wages(self) -> None:
        """Step 4: the wages are fixed by the levels after training (rule 9)."""
        for team in self.league.teams:
            self.wages[team.name] = economy.wages_due(team)

    # step 5
    def play_matches(self) -> None:
        """Step 5: the matches, the Galaxy Cup first (results sequence)."""
        cup = self.state.cup
        next_number = self.league.config.matches_per_round + 1
        for _cup_round in cup_rounds_in(cup, self.r):
            if cup.winner is not None:
                break
            fixtures = fixtures_for_next_cup_round(cup, self.r, next_number)
            next_number += 1
            self.league.schedule.extend(fixtures)
            results = [self.play(fixture) for fixture in fixtures]
            record_cup_round(cup, results, self.events)
        for fixture in sorted(self.state.fixtures(self.r, "league"), key=lambda f: f.match_number):
            self.play(fixture)

    def play(self, fixture: Fixture) -> FixtureResult:
        home, away = self.team(fixture.home), self.team(fixture.away)
        ha = self.league.config.home_advantage_points(self.r)
        home_orders, away_orders = (
            _lineup_for(
                team,
                fixture,
                self.orders.get(team.name),
                ha,
                self.private(team.name) if team.name in self.orders else None,
            )
            for team in (home, away)
        )
        # Orders checked when given can still fail here: a talent who got his 2/2 in the
        # round's first match tires to 0/0 after one set in the second. Only that team then
        # plays its NMR line-up; the opponent keeps its orders.
        for side, team in ((HOME, home), (AWAY, away)):
            given = home_orders if side == HOME else away_orders
            problems = validate_match_orders(
                team, given, home=side == HOME, home_advantage_points=ha if side == HOME else 0
            )
            if problems:
                fallback = _lineup_for(team, fixture, None, ha, None)
                self.private(team.name).append(
                    f"{possessive(team.name)} line-up for match {fixture.match_number} cannot be played "
                    f"({' '.join(problems)}): the NMR line-up plays instead."
                )
                if side == HOME:
                    home_orders = fallback
                else:
                    away_orders = fallback
        rng = (
            self.rng
            if self.seed is None
            else fair.match_rng(self.seed, fixture.match_number, fixture.home)
        )
        result = play_match(
            home, away, home_orders, away_orders, rng, home_advantage_points=ha, checked=True
        )
        self.replace_team(team_after_match(home, result, HOME))
        self.replace_team(team_after_match(away, result, AWAY))
        label = "Galaxy Cup" if fixture.competition == "cup" else f"Match {fixture.match_number}"
        self.events.append(f"{label}: {result.score_line}.")
        self.report.matches.append(result)
        for side, team in ((HOME, home), (AWAY, away)):
            if team.name in self.orders:
                # The manager knows his line-up: his sheet has the totals, not every player.
                self.private(team.name).extend(result.side_summary(side, player_detail=False))
        self.results.append((fixture, result))
        fixture_result = FixtureResult(
            fixture,
            result.home_sets,
            result.away_sets,
            [(s.home_points, s.away_points) for s in result.sets],
            result.players_who_played(HOME),
            result.players_who_played(AWAY),
        )
        self.league.results.append(fixture_result)
        self.spy_reports(fixture, result)
        return fixture_result

    def spy_reports(self, fixture: Fixture, result: MatchResult) -> None:
        """Rule 9: the spying team gets, with the results, the target's totals per set, its
        HA/DP/SP per set and level, concept and risk; with player detail the levels per
        player. Only the spying team sees it."""
        for spy_team, spies in self.paid_spies.items():
            for spy in spies:
                if economy.spy_target_fixture(spy, [fixture]) is None:
                    continue
                side = HOME if fixture.home.casefold() == spy.target_team.casefold() else AWAY
                lines = result.side_summary(side, player_detail=spy.player_detail)
                lines[0] = "Spy report on " + lines[0]
                self.private(spy_team).extend(lines)

    # step 6
    def after_matches(self) -> None:
        """Step 6: lack-of-devotion checks (rule 4), sponsor income (rule 9) and the training
        points earned (rule 6), for the league's teams."""
        won: dict[str, int] = {}
        sets: dict[str, int] = {}
        played: dict[str, int] = {}
        for _fixture, result in self.results:
            for side in (HOME, AWAY):
                name = result.team_name(side)
                team = self.league.team(name)
                if team is None:
                    continue  # amateur teams have no devotion, sponsor or training
                sets[name] = sets.get(name, 0) + (
                    result.home_sets if side == HOME else result.away_sets
                )
                won[name] = won.get(name, 0) + (1 if result.winner == name else 0)
                played[name] = played.get(name, 0) + 1
                check = roll_lack_of_devotion(team, result.devotion_used(side), self.rng)
                if check.rolls:
                    self.private(team.name).append(check.describe())
                    self.replace_team(apply_lack_of_devotion(team, check))
        for team in self.league.teams:
            chosen = self.orders[team.name].sponsor
            if chosen is not None:
                picked = economy.find_sponsor(self.league.config, chosen)
                if picked is None:  # orders are checked when sent (rule 9)
                    raise ValueError(f"{team.name}'s orders name no sponsor of the season")
                team.sponsor = picked.name
            sponsor = economy.find_sponsor(self.league.config, team.sponsor)
            income = economy.sponsor_income(sponsor, won.get(team.name, 0), sets.get(team.name, 0))
            if sponsor is not None and income:
                economy.book(team, income, "sponsor", self.report.ledger)
                self.private(team.name).append(f"You receive ${income} from {sponsor.name}.")
            points = training.training_points_earned(
                self.league.config,
                played.get(team.name, 0),
                won.get(team.name, 0),
                sets.get(team.name, 0),
            )
            team.training_points += points
            self.private(team.name).append(f"You earn {points} training points.")

    # step 7
    def pay(self) -> None:
        """Step 7: $500 for every team, then contract pay and the wages fixed at step 4."""
        for team in self.league.teams:
            contract = economy.contract_pay_due(team)
            wages = self.wages[team.name]
            economy.book(team, economy.ROUND_INCOME, "round money", self.report.ledger)
            economy.book(team, -wages, "wages", self.report.ledger)
            if contract:
                economy.book(team, -contract, "contract pay", self.report.ledger)
            self.private(team.name).append(
                f"Money: +${economy.ROUND_INCOME} round money, -${wages} wages"
                + (f", -${contract} contract pay" if contract else "")
                + f"; bank account {economy.dollars(team.money)}."
            )

    # step 8
    def transfers(self) -> None:
        """Step 8: the transfer list published last round is sold; this round's offers for
        sale go on the list for next round."""
        if market.transfers_allowed(self.r, self.total):
            bids = {name: o.transfer_bids for name, o in self.orders.items()}
            market.resolve_transfer_market(
                self.league,
                self.state.transfer_list,
                bids,
                self.rng,
                self.events,
                self.report.ledger,
                self.report.private,
            )
        # Everything on the list is resolved now (or can no longer be sold this season).
        self.state.transfer_list = []
        for team in self.league.teams:
            for sale in self.orders[team.name].sales:
                player = team.player(sale.player)
                if player is None:
                    continue  # checked when the orders came in; gone since (cannot happen)
                self.state.transfer_list.append(
                    market.TransferListing(team.name, player.name, sale.minimum_price, self.r)
                )
                self.events.append(
                    f"Transfer list: {player.name} ({team.name}, Age {player.age}, "
                    f"{player.ol}/{player.dl})"
                    + (f", minimum ${sale.minimum_price}" if sale.minimum_price else "")
                    + "."
                )

    # step 9
    def gm_offers(self) -> None:
        """Step 9: this round's GM offers are sold; next round's are drawn (none in the last
        four rounds)."""
        bids = {name: o.gm_offer_bids for name, o in self.orders.items()}
        market.resolve_gm_offers(
            self.league,
            self.state.gm_offers,
            bids,
            self.rng,
            self.events,
            self.report.ledger,
            self.report.private,
        )
        self.state.gm_offers = []
        if market.gm_offers_allowed(self.r + 1, self.total):
            players = market.gm_player_offers(len(self.league.teams))
            self.state.gm_offers = market.draw_gm_offers(self.rng, self.r + 1, players)
            for offer in self.state.gm_offers:
                self.events.append(f"Open for bids in round {self.r + 1}: {offer.describe()}.")

    # step 10
    def contracts(self) -> None:
        """Step 10: contracting of the contract players (rule 7)."""
        bids = {name: o.contract_bids for name, o in self.orders.items()}
        market.resolve_contract_players(
            self.league,
            bids,
            self.r,
            self.rng,
            self.events,
            self.report.ledger,
            self.report.private,
        )
        ending = [
            (team.name, p.name)
            for team in self.league.teams
            for p in team.players
            if p.is_contract and p.contract_last_round == self.r + 1
        ]
        for team_name, player_name in ending:
            self.events.append(
                f"{possessive(player_name)} contract with {team_name} ends after next round: "
                "contract bids for him are open."
            )


def play_round(
    state: LeagueState, orders: dict[str, RoundOrders]
) -> tuple[LeagueState, RoundReport]:
    """Play the league's next round from the teams' orders (missing teams: NMR) and return
    the new state and the round's report; `state` is not changed.

    Raises VolleyballError listing every problem, per team, when any orders are not valid.
    """
    if state.season_over:
        raise VolleyballError("The season is over; start the next season first.")
    problems: list[str] = []
    for team_name, team_orders in orders.items():
        problems += [f"{team_name}: {p}" for p in round_order_problems(state, team_orders)]
    if problems:
        raise VolleyballError(problems)
    working = state.copy()
    current = _Round(working, orders)
    current.train()
    current.scout()
    current.pay_spies()
    current.fix_wages()
    current.play_matches()
    current.after_matches()
    current.pay()
    current.transfers()
    current.gm_offers()
    current.contracts()
    economy.apply_bank_rule(
        working.league, current.r, current.events, current.report.ledger, current.report.private
    )
    working.league.round_number += 1
    working.league.store_rng(current.rng)
    return working, current.report
