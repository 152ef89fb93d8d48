"""What the GM sends out, per audience (docs/rules/volleyball.md, "What the public sees"), as
lines of text (the presenter packs them into messages).

- `public_round_summary(state, report)`: for the results channel: scores by set and who
  played, the market and cup news, the standings after the round, the next fixtures and cup
  pairs. Nothing of totals, concepts, risk, levels or money (docs/rules/volleyball.md, "What the
  public sees").
- `team_sheet(state, team, report=None)`: for one manager's eyes: the roster after training
  with levels, ages and tiredness-free match levels, money, TP, SP left, the HA of the next
  home match, lack-of-devotion players, talent progress, contracts and their ends, and the
  round's private lines (training, money, own totals, spy reports).
- `season_publication(state)`: what the seed says the GM makes public at the start of a
  season (PP, SP, TP rule, sponsors, contract players, schedule, HA), as data and as text.
- `cup_bracket(state)`: the Galaxy Cup round by round, for the bracket image and `/cup`.
- `schedule_lines`, `results_lines`, `team_history`, `market_lines`: the answers of the
  read-only commands.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.volleyball import economy
from rules.volleyball.cup import fixtures_for_next_cup_round
from rules.volleyball.market import contract_players_open_for_bids
from rules.volleyball.models import Team
from rules.volleyball.rounds import RoundReport, round_fixtures
from rules.volleyball.season import LeagueState
from rules.volleyball.training import training_points_earned

FENCE = "```"  # a code block (the standings table) opens and closes on a line of its own


# --- the public round summary --------------------------------------------------------------


def standings_lines(state: LeagueState, division: int | None = None) -> list[str]:
    """The league table as a code block: position, team, played, won, lost, sets for and
    against, points; one table per division (with its heading) when there are several."""
    divisions = state.league.divisions
    if division is None and len(divisions) > 1:
        lines: list[str] = []
        for number in divisions:
            lines += [f"Division {number}", *standings_lines(state, number)]
        return lines
    rows = state.table(division).standings()
    width = max([len(r.team) for r in rows] + [4])
    lines = [FENCE, f"{'#':>2} {'Team':<{width}}  P  W  L  Sets   Pts"]
    for position, row in enumerate(rows, start=1):
        lines.append(
            f"{position:>2} {row.team:<{width}} {row.played:>2} {row.won:>2} {row.lost:>2}"
            f" {row.sets_for:>2}-{row.sets_against:<2} {row.points:>4}"
        )
    lines.append(FENCE)
    return lines


def next_fixture_lines(state: LeagueState) -> list[str]:
    """The next round's league fixtures and Galaxy Cup pairs, or that the season is over."""
    r = state.league.round_number
    if state.season_over:
        return ["The season is over."]
    lines = [f"**Round {r}**"]
    for fixture in round_fixtures(state, r):
        label = "Cup" if fixture.competition == "cup" else f"Match {fixture.match_number}"
        lines.append(f"{label}: {fixture.home} v {fixture.away}")
    return lines


def _is_score_event(event: str) -> bool:
    return event.startswith("Match ") or (
        event.startswith("Galaxy Cup: ") and " reach " not in event
    )


def public_round_summary(state: LeagueState, report: RoundReport) -> list[str]:
    """The round's public results, a line each (the standings a ``` code block). `state` is
    the league after the round."""
    lines = [f"**Volleyball: season {report.season}, round {report.round_number} results**"]
    if report.nmr_teams:
        lines.append(f"No orders from: {', '.join(report.nmr_teams)} (NMR, rule 12).")
    # The cup's matches are played first (results sequence step 5), so they are the first
    # ones of the report; a league pairing may repeat a cup pairing in the same round.
    cup_matches = _cup_match_count(state, report)
    for index, match in enumerate(report.matches):
        label = "Galaxy Cup" if index < cup_matches else ""
        lines += ["", *match.public_summary(label)]
    news = [e for e in report.events if not _is_score_event(e)]
    if news:
        lines += ["", "**News**"] + [f"- {e}" for e in news]
    lines += ["", "**Standings**", *standings_lines(state)]
    lines += ["", "**Next**", *next_fixture_lines(state)]
    return lines


def _cup_match_count(state: LeagueState, report: RoundReport) -> int:
    """How many of the round's matches were the Galaxy Cup's."""
    return sum(
        1
        for f in state.league.schedule
        if f.competition == "cup" and f.round_number == report.round_number
    )


# --- the private team sheet ----------------------------------------------------------------


def next_home_advantage(state: LeagueState, team: Team) -> str:
    """The HA points of the team's next home match this season, or that it has none."""
    for r in range(state.league.round_number, state.total_rounds + 1):
        for fixture in state.fixtures(r, "league"):
            if fixture.home == team.name:
                points = state.league.config.home_advantage_points(r)
                return f"{points} HA points for match {fixture.match_number} of round {r}"
    return "no home match left this season"


def round_results(state: LeagueState, team_name: str, round_number: int) -> list[str]:
    """The team's results of a round as its manager reads them first: "won 3-1 v Blue
    Whales", "lost 0-3 at Green Geckos", "Galaxy Cup: won 3-0 v Orion Amateurs"."""
    lines = []
    for result in state.league.results:
        fixture = result.fixture
        if fixture.round_number != round_number or team_name not in (fixture.home, fixture.away):
            continue
        home = fixture.home == team_name
        own, other = (
            (result.home_sets, result.away_sets) if home else (result.away_sets, result.home_sets)
        )
        opponent = fixture.away if home else fixture.home
        word = "won" if own > other else "lost"
        where = "v" if home else "at"
        cup = "Galaxy Cup: " if fixture.competition == "cup" else ""
        lines.append(f"{cup}{word} {own}-{other} {where} {opponent}")
    return lines


def money_line(team: Team, report: RoundReport | None = None) -> str:
    """ "Money $1,234 (+$16 this round), TP 12, SP 140 left, sponsor Champion Cola" """
    change = ""
    if report is not None:
        delta = sum(e.amount for e in report.ledger if e.team == team.name)
        change = f" ({'+' if delta >= 0 else '-'}${abs(delta):,} this round)"
    return (
        f"Money {economy.dollars(team.money)}{change}, TP {team.training_points}, "
        f"SP {team.special_points} left, sponsor {team.sponsor or 'none'}"
    )


def squad_lines(team: Team) -> list[str]:
    """One short line per player, narrow enough for a phone: name, age, levels, training this
    season, and what is special about him (lack of devotion, talent, contract)."""
    lines = []
    for p in team.players:
        notes = [f"Age {p.age}" if not p.is_talent and not p.is_contract else "", f"{p.ol}/{p.dl}"]
        if not p.is_contract and (p.trained_ol or p.trained_dl):
            notes.append(f"trained {p.trained_ol}/{p.trained_dl}")
        if p.lack_of_devotion:
            notes.append("half levels next match (lack of devotion)")
        if p.is_talent:
            notes.append(f"talent, {p.talent_matches}/4 matches")
        if p.is_contract:
            notes.append(
                f"contract to round {p.contract_last_round}, ${p.contract_pay_per_round} a round"
            )
        lines.append(f"{p.name}: " + ", ".join(n for n in notes if n))
    return lines


def team_status(state: LeagueState, team: Team) -> str:
    """ "Next home match: 26 HA points for match 1 of round 4; spying orders used 1 of 4." """
    return (
        f"Next home match: {next_home_advantage(state, team)}; spying orders used "
        f"{team.spies_used} of {economy.SPY_ORDERS_PER_SEASON}."
    )


def team_sheet(
    state: LeagueState,
    team_name: str,
    report: RoundReport | None = None,
) -> list[str]:
    """One team's private sheet (for its manager only) as plain-text lines: the round's
    results and money first, then the squad one player a line, then the round's private
    lines."""
    team = state.league.team(team_name)
    if team is None:
        return [f"There is no team called {team_name}."]
    lines = [f"{team.name}: your team sheet (private)"]
    if report is not None:
        results = round_results(state, team.name, report.round_number)
        lines.append(
            f"Round {report.round_number}: " + ("; ".join(results) if results else "no match")
        )
    lines += [money_line(team, report) + ".", team_status(state, team), "", "Squad:"]
    lines += squad_lines(team)
    if report is not None:
        private = report.private.get(team.name, [])
        if private:
            lines += ["", f"Round {report.round_number}, for your eyes only:", *private]
    return lines


# --- the start of the season -----------------------------------------------------------------


@dataclass
class SeasonPublication:
    """Seed, "Information at the start of the season", as data (the cog may show it as an
    embed or a file): PP for a new team and their split by age, the season's SP, the TP rule,
    the sponsors, the contract players, the schedule and the HA of each round."""

    season: int
    player_points_by_age: dict[str, int]
    special_points: int
    training_points_rule: str
    sponsors: list[dict]
    contract_players: list[dict]
    schedule: list[dict]
    home_advantage_by_round: dict[int, int]

    def to_dict(self) -> dict:
        return {
            "season": self.season,
            "player_points_by_age": dict(self.player_points_by_age),
            "special_points": self.special_points,
            "training_points_rule": self.training_points_rule,
            "sponsors": list(self.sponsors),
            "contract_players": list(self.contract_players),
            "schedule": list(self.schedule),
            "home_advantage_by_round": dict(self.home_advantage_by_round),
        }

    def lines(self, *, schedule: bool = True) -> list[str]:
        """Plain lines (the presenter adds the emphasis); without `schedule`, the
        season's fixtures are left out."""
        pp = ", ".join(f"Age {a}: {n}" for a, n in self.player_points_by_age.items())
        out = [
            f"Volleyball: season {self.season}, what the GM makes public",
            f"Player points for a new team: {sum(self.player_points_by_age.values())} ({pp}).",
            f"Special points for the whole season: {self.special_points} per team.",
            f"Training points per round: {self.training_points_rule}.",
            "",
            "Sponsors (choose or change every round):",
        ]
        for s in self.sponsors:
            out.append(
                f"- {s['name']}: ${s['per_round']} a round, ${s['per_match_won']} a match won, "
                f"${s['per_set_won']} a set won"
            )
        out += ["", "Contract players (free at the start; levels never change):"]
        out += [f"- {c['name']}: OL {c['ol']}, DL {c['dl']}" for c in self.contract_players]
        ha = self.home_advantage_by_round
        if ha:
            first, last = min(ha), max(ha)
            out += [
                "",
                f"Home advantage: {ha[first]} points in round {first}, rising to "
                f"{ha[last]} in round {last}, for the home team's match only.",
            ]
        if not schedule:
            return out
        out += ["", "Schedule:"]
        by_round: dict[int, list[str]] = {}
        for f in self.schedule:
            by_round.setdefault(f["round_number"], []).append(
                f"M{f['match_number']} {f['home']} v {f['away']}"
            )
        out += [f"Round {r}: " + "; ".join(pairs) for r, pairs in sorted(by_round.items())]
        return out


def season_publication(state: LeagueState) -> SeasonPublication:
    """The start-of-season information the seed lists, for publishing at
    season start and on request."""
    config = state.league.config
    rule = (
        f"{config.training_points_per_round} each round, "
        f"+{config.training_points_per_match_played} per match played, "
        f"+{config.training_points_per_match_won} per match won"
        + (
            f", +{config.training_points_per_set_won} per set won"
            if config.training_points_per_set_won
            else ""
        )
        + f" (a round of two wins: {training_points_earned(config, 2, 2, 6)} TP)"
    )
    return SeasonPublication(
        season=state.league.season,
        player_points_by_age=dict(config.player_points_by_age),
        special_points=config.special_points_per_season,
        training_points_rule=rule,
        sponsors=[s.to_dict() for s in config.sponsors],
        contract_players=[c.to_dict() for c in config.contract_players],
        schedule=[f.to_dict() for f in state.league.schedule if f.competition == "league"],
        home_advantage_by_round={
            r: config.home_advantage_points(r) for r in range(1, state.total_rounds + 1)
        },
    )


# --- the cup, the schedule, results, history --------------------------------------------------


@dataclass
class BracketMatch:
    """One pairing in the cup bracket; `winner` None while unplayed, `score` "3-1"."""

    home: str
    away: str
    winner: str | None = None
    score: str = ""


def cup_bracket(state: LeagueState) -> list[list[BracketMatch]]:
    """The Galaxy Cup so far, round by round: played rounds with their winners, then the
    next round's pairs (drawn from the teams still in), then empty rounds to the final."""
    cup = state.cup
    results = {
        (r.fixture.round_number, r.fixture.home, r.fixture.away): r
        for r in state.league.results
        if r.fixture.competition == "cup"
    }
    rounds: list[list[BracketMatch]] = []
    cup_fixtures = [f for f in state.league.schedule if f.competition == "cup"]
    for league_round in sorted({f.round_number for f in cup_fixtures}):
        for number in sorted(
            {f.match_number for f in cup_fixtures if f.round_number == league_round}
        ):
            matches = []
            for f in cup_fixtures:
                if f.round_number != league_round or f.match_number != number:
                    continue
                result = results.get((f.round_number, f.home, f.away))
                if result is None:
                    matches.append(BracketMatch(f.home, f.away))
                else:
                    matches.append(
                        BracketMatch(
                            f.home, f.away, result.winner, f"{result.home_sets}-{result.away_sets}"
                        )
                    )
            rounds.append(matches)
    if cup.winner is None and len(cup.entrants) >= 2:
        pending = fixtures_for_next_cup_round(cup, 0, 0)
        rounds.append([BracketMatch(f.home, f.away) for f in pending])
        size = len(pending) // 2
        while size >= 1:
            rounds.append([BracketMatch("", "") for _ in range(size)])
            size //= 2
    return rounds


def schedule_lines(state: LeagueState, team: str | None = None) -> list[str]:
    """The season's league schedule by round (only `team`'s matches with `team`)."""
    lines = []
    for r in range(1, state.total_rounds + 1):
        fixtures = [
            f
            for f in state.fixtures(r, "league")
            if team is None or team.casefold() in (f.home.casefold(), f.away.casefold())
        ]
        if fixtures:
            played = " (played)" if r < state.league.round_number else ""
            lines.append(
                f"Round {r}{played}: "
                + "; ".join(f"M{f.match_number} {f.home} v {f.away}" for f in fixtures)
            )
    return lines


def results_lines(state: LeagueState, round_number: int) -> list[str]:
    """The public results of one played round: every match's score by set."""
    lines = []
    for result in state.league.results:
        f = result.fixture
        if f.round_number != round_number:
            continue
        sets = ", ".join(f"{h}-{a}" for h, a in result.set_scores)
        label = "Galaxy Cup" if f.competition == "cup" else f"Match {f.match_number}"
        lines.append(f"{label}: {f.home} {result.home_sets}-{result.away_sets} {f.away} ({sets})")
    return lines or [f"No results for round {round_number}."]


def team_history(state: LeagueState, team: str) -> list[str]:
    """A team's results this season and its finishes in past seasons (public)."""
    key = team.casefold()
    lines = []
    for past in state.past_seasons:
        table = past.get("table", [])
        position = next(
            (i for i, row in enumerate(table, start=1) if row["team"].casefold() == key), None
        )
        if position is not None:
            extra = (
                " and won the Galaxy Cup"
                if (past.get("cup_winner") or "").casefold() == key
                else ""
            )
            lines.append(f"Season {past['season']}: finished {position} of {len(table)}{extra}.")
    for result in state.league.results:
        f = result.fixture
        if key not in (f.home.casefold(), f.away.casefold()):
            continue
        label = "Cup" if f.competition == "cup" else f"R{f.round_number} M{f.match_number}"
        outcome = "won" if result.winner.casefold() == key else "lost"
        lines.append(
            f"{label}: {f.home} {result.home_sets}-{result.away_sets} {f.away} ({outcome})"
        )
    return lines or [f"{team} has no results yet."]


def market_lines(state: LeagueState) -> list[str]:
    """What is open for bids with this round's orders (rules 7 and 8): the transfer list, the
    GM offers and the contract players, with the order line to bid on each."""
    r = state.league.round_number
    lines = [f"Market, round {r}"]
    if state.transfer_list:
        lines.append("Transfer list (BID: PLAYER from TEAM AMOUNT):")
        for listing in state.transfer_list:
            seller = state.league.team(listing.seller)
            player = seller.player(listing.player) if seller else None
            levels = f", Age {player.age}, {player.ol}/{player.dl}" if player else ""
            minimum = f", minimum ${listing.minimum_price}" if listing.minimum_price else ""
            lines.append(f"- {listing.player} ({listing.seller}{levels}){minimum}")
    else:
        lines.append("Transfer list: empty.")
    if state.gm_offers:
        lines.append("GM offers (GM BID: OFFER AMOUNT, and name NAME for a player):")
        lines += [f"- {offer.describe()}" for offer in state.gm_offers]
    else:
        lines.append("GM offers: none this round.")
    open_players = contract_players_open_for_bids(state.league, r, state.contract_holders())
    if open_players:
        lines.append("Contract players (CONTRACT: PLAYER PAY for 2|3|4 rounds):")
        lines += [f"- {c.name}: OL {c.ol}, DL {c.dl}" for c in open_players]
    return lines
