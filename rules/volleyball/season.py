"""The league calendar and table: the double round robin, the league table and the season's shape.

Seed, "Information at the start of the season": the GM makes public "the playing scheme for
the whole season". The bot builds it here: a double round robin (every team meets every other
team once at home and once away), grouped into rounds of `matches_per_round` matches per team
(two by default, seed rule 7: "a round consists normally of two matches").

The league table ranks teams by league points (2 for a win, 0 for a loss), then set
difference, then rally-point difference, then sets won, then team name (ruling, see
docs/rules/volleyball.md: the seed does not say how a league is ranked).
"""

from __future__ import annotations

import itertools
import json
from bisect import bisect_left
from dataclasses import dataclass, field

from rules import schedule
from rules.errors import echoed
from rules.volleyball.ageing import age_team, ageing_split_problems
from rules.volleyball.cup import CupState, new_cup
from rules.volleyball.market import (
    GmOffer,
    TransferListing,
    contract_holders,
    draw_gm_offers,
    gm_offers_allowed,
    gm_player_offers,
)
from rules.volleyball.models import (
    DEFAULT_PROMOTION_PLACES,
    MAX_DIVISION_TEAMS,
    Fixture,
    FixtureResult,
    League,
    SeasonConfig,
    Team,
)
from rules.volleyball.orders import AgeingSplit, RoundOrders, VolleyballError

SCHEMA_VERSION = 3
"""The version of LeagueState.to_dict's layout (ruling 41). 1: before versions were
written; 2: versioned; 3: divisions (Team.division, League.promotion_places; older states
read as one division with the default promotion places). A newer version than this code
knows is refused."""

POINTS_FOR_A_WIN = 2
"""League points for a won match (ruling: the seed gives no table; a loss scores nothing)."""


def double_round_robin(team_names: list[str], matches_per_round: int = 2) -> list[Fixture]:
    """The whole league schedule: fixtures numbered by round and by match within the round.

    The matchdays are the round robin both leagues play (rules/schedule.py): home and away
    alternate, and the second half repeats the first with home and away swapped. Consecutive
    matchdays are grouped `matches_per_round` at a time into a round (the last round may hold
    fewer), and a fixture's `match_number` is its matchday's place in the round (1, 2, ...):
    the form's "MATCH NO.".
    """
    if matches_per_round < 1:
        raise ValueError("A round needs at least one match per team.")
    fixtures: list[Fixture] = []
    for index, day in enumerate(schedule.double_round_robin(team_names)):
        round_number = index // matches_per_round + 1
        match_number = index % matches_per_round + 1
        fixtures.extend(Fixture(round_number, match_number, h, a, "league") for h, a in day)
    return fixtures


def rounds_in_schedule(fixtures: list[Fixture]) -> int:
    """How many rounds the league schedule has."""
    return max((f.round_number for f in fixtures if f.competition == "league"), default=0)


@dataclass
class ScheduleIndex:
    """The schedule sorted once (a round must not scan the whole season's
    schedule per team): fixtures per round, the league's length, and per team the rounds of
    its league matches."""

    by_round: dict[int, list[Fixture]]
    total_rounds: int
    team_rounds: dict[str, list[int]]

    def league_matches_from(self, team: str, round_number: int) -> int:
        """How many league matches `team` plays in `round_number` and later rounds."""
        rounds = self.team_rounds.get(team, [])
        return len(rounds) - bisect_left(rounds, round_number)


def index_schedule(fixtures: list[Fixture]) -> ScheduleIndex:
    """One pass over the schedule."""
    by_round: dict[int, list[Fixture]] = {}
    team_rounds: dict[str, list[int]] = {}
    for fixture in fixtures:
        by_round.setdefault(fixture.round_number, []).append(fixture)
        if fixture.competition == "league":
            team_rounds.setdefault(fixture.home, []).append(fixture.round_number)
            team_rounds.setdefault(fixture.away, []).append(fixture.round_number)
    for rounds in team_rounds.values():
        rounds.sort()
    return ScheduleIndex(by_round, rounds_in_schedule(fixtures), team_rounds)


@dataclass
class TableRow:
    """One team's line in the league table."""

    team: str
    played: int = 0
    won: int = 0
    lost: int = 0
    sets_for: int = 0
    sets_against: int = 0
    rallies_for: int = 0
    rallies_against: int = 0

    @property
    def points(self) -> int:
        return POINTS_FOR_A_WIN * self.won

    def to_json(self) -> dict:
        return {
            "team": self.team,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "sets_for": self.sets_for,
            "sets_against": self.sets_against,
            "rallies_for": self.rallies_for,
            "rallies_against": self.rallies_against,
        }

    @staticmethod
    def from_json(data: dict) -> TableRow:
        return TableRow(**data)


@dataclass
class LeagueTable:
    """The league standings; cup matches never count here."""

    rows: dict[str, TableRow] = field(default_factory=dict)

    @staticmethod
    def for_teams(team_ids: list[str]) -> LeagueTable:
        return LeagueTable(rows={t: TableRow(team=t) for t in team_ids})

    def record(
        self,
        home: str,
        away: str,
        home_sets: int,
        away_sets: int,
        home_rallies: int,
        away_rallies: int,
    ) -> None:
        """Add one finished league match (sets won and rally points of each side)."""
        for team, sf, sa, rf, ra in (
            (home, home_sets, away_sets, home_rallies, away_rallies),
            (away, away_sets, home_sets, away_rallies, home_rallies),
        ):
            row = self.rows.setdefault(team, TableRow(team=team))
            row.played += 1
            row.won += 1 if sf > sa else 0
            row.lost += 1 if sf < sa else 0
            row.sets_for += sf
            row.sets_against += sa
            row.rallies_for += rf
            row.rallies_against += ra

    def standings(self) -> list[TableRow]:
        """Rows best first: points, set difference, rally difference, sets won, then name."""
        return sorted(
            self.rows.values(),
            key=lambda r: (
                -r.points,
                -(r.sets_for - r.sets_against),
                -(r.rallies_for - r.rallies_against),
                -r.sets_for,
                r.team,
            ),
        )

    def to_json(self) -> list[dict]:
        return [row.to_json() for row in self.rows.values()]

    @staticmethod
    def from_json(data: list[dict]) -> LeagueTable:
        return LeagueTable(rows={d["team"]: TableRow.from_json(d) for d in data})

    def render_text(self, names: dict[str, str] | None = None) -> str:
        """A plain-text table as a manager would read it in the results."""
        names = names or {}
        lines = ["Pos Team                     P  W  L  Sets    Rallies    Pts"]
        for pos, row in enumerate(self.standings(), start=1):
            name = names.get(row.team, row.team)[:24]
            lines.append(
                f"{pos:>3} {name:<24} {row.played:>2} {row.won:>2} {row.lost:>2}"
                f" {row.sets_for:>3}-{row.sets_against:<3} {row.rallies_for:>4}-{row.rallies_against:<5}"
                f" {row.points:>3}"
            )
        return "\n".join(lines)


def table_from_results(team_names: list[str], results: list[FixtureResult]) -> LeagueTable:
    """The league table from the league's results (cup matches do not count)."""
    table = LeagueTable.for_teams(team_names)
    for result in results:
        if result.fixture.competition != "league":
            continue
        table.record(
            result.fixture.home,
            result.fixture.away,
            result.home_sets,
            result.away_sets,
            sum(h for h, _a in result.set_scores),
            sum(a for _h, a in result.set_scores),
        )
    return table


# --- the league's whole state between rounds ---------------------------------------------


@dataclass
class LeagueState:
    """Everything the GM keeps between rounds: the League (teams, schedule, results, the
    generator) plus what the markets and the cup need.

    - `transfer_list`: players offered for sale, sold at step 8 of the next round.
    - `gm_offers`: the GM's offers open for bids with this round's orders.
    - `cup`: the Galaxy Cup.
    - `past_seasons`: one line per finished season (champion, cup winner).
    """

    league: League
    transfer_list: list[TransferListing] = field(default_factory=list)
    gm_offers: list[GmOffer] = field(default_factory=list)
    cup: CupState = field(default_factory=CupState)
    past_seasons: list[dict] = field(default_factory=list)
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def schedule_index(self) -> ScheduleIndex:
        """The schedule's index, rebuilt only when the schedule changed (a new list, or
        fixtures added: the cup's are added as they are drawn)."""
        schedule = self.league.schedule
        key = (id(schedule), len(schedule))
        cached = self._cache.get("schedule")
        if cached is None or cached[0] != key:
            cached = (key, index_schedule(schedule))
            self._cache["schedule"] = cached
        return cached[1]

    def contract_holders(self) -> dict:
        """market.contract_holders, kept while the round and the rosters' sizes are the same
        (orders are checked one team at a time against an unchanged state)."""
        key = (
            self.league.round_number,
            tuple((id(t), len(t.players)) for t in self.league.teams),
        )
        cached = self._cache.get("holders")
        if cached is None or cached[0] != key:
            cached = (key, contract_holders(self.league))
            self._cache["holders"] = cached
        return cached[1]

    @property
    def total_rounds(self) -> int:
        return self.schedule_index().total_rounds

    @property
    def season_over(self) -> bool:
        return self.league.round_number > self.total_rounds

    def team_names(self, division: int | None = None) -> list[str]:
        return [t.name for t in self.league.teams if division is None or t.division == division]

    def table(self, division: int | None = None) -> LeagueTable:
        """The league table, of one division when given (teams only meet in their own
        division, so its results are its teams' results)."""
        names = self.team_names(division)
        if division is None:
            return table_from_results(names, self.league.results)
        members = set(names)
        return table_from_results(
            names, [r for r in self.league.results if r.fixture.home in members]
        )

    def fixtures(self, round_number: int, competition: str | None = None) -> list[Fixture]:
        fixtures = self.schedule_index().by_round.get(round_number, [])
        return [f for f in fixtures if competition is None or f.competition == competition]

    def to_dict(self) -> dict:
        return {
            "schema_version": SCHEMA_VERSION,
            "league": self.league.to_dict(),
            "transfer_list": [t.to_dict() for t in self.transfer_list],
            "gm_offers": [o.to_dict() for o in self.gm_offers],
            "cup": self.cup.to_dict(),
            "past_seasons": [dict(s) for s in self.past_seasons],
        }

    @classmethod
    def from_dict(cls, data: dict) -> LeagueState:
        version = int(data.get("schema_version", 1))
        if version > SCHEMA_VERSION:
            raise VolleyballError(
                f"This league was saved by a newer version of the bot (schema {version}; "
                f"this one reads up to {SCHEMA_VERSION}). Update the bot to open it."
            )
        return cls(
            league=League.from_dict(data["league"]),
            transfer_list=[TransferListing.from_dict(t) for t in data.get("transfer_list", [])],
            gm_offers=[GmOffer.from_dict(o) for o in data.get("gm_offers", [])],
            cup=CupState.from_dict(data.get("cup", {})),
            past_seasons=[dict(s) for s in data.get("past_seasons", [])],
        )

    def copy(self) -> LeagueState:
        """A copy a round can change freely (so a failed round never touches the original).
        Teams, markets and cup are copied deeply; the schedule's fixtures and the results
        are never changed once made, so the new lists share them (copying
        every past result each round made a season quadratic)."""
        league = self.league
        shell = League(
            config=league.config,
            season=league.season,
            round_number=league.round_number,
            seed=league.seed,
            rng_state=league.rng_state,
            secret=league.secret,
        )
        data = {
            "league": shell.to_dict(),
            "transfer_list": [t.to_dict() for t in self.transfer_list],
            "gm_offers": [o.to_dict() for o in self.gm_offers],
            "cup": CupState(
                entrants=self.cup.entrants,
                league_rounds=self.cup.league_rounds,
                rounds_played=self.cup.rounds_played,
                winner=self.cup.winner,
            ).to_dict(),
            "past_seasons": [dict(s) for s in self.past_seasons],
        }
        copied = LeagueState.from_dict(data)  # to_dict builds fresh dicts and lists
        copied.cup.amateur_teams = [team.copy() for team in self.cup.amateur_teams]
        copied.league.teams = [team.copy() for team in league.teams]
        copied.league.schedule = list(league.schedule)
        copied.league.results = list(league.results)
        return copied


def division_problems(league: League) -> list[str]:
    """docs/rules/volleyball.md ruling 38: divisions numbered 1, 2, ... each of 2 to 16 teams;
    promotion places leave each division at least one team that stays."""
    problems = []
    divisions = league.divisions
    if divisions != list(range(1, len(divisions) + 1)):
        problems.append(f"Divisions must be numbered 1 to {len(divisions)}, not {divisions}.")
    sizes = {d: sum(1 for t in league.teams if t.division == d) for d in divisions}
    for division, size in sizes.items():
        if size > MAX_DIVISION_TEAMS:
            problems.append(
                f"Division {division} has {size} teams; a division holds at most "
                f"{MAX_DIVISION_TEAMS}."
            )
        elif size < 2:
            problems.append(f"Division {division} has {size} team; a division needs two.")
    if len(divisions) > 1:
        smallest = min(sizes.values())
        if not 1 <= league.promotion_places < smallest:
            problems.append(
                f"Promotion places must be 1 to {smallest - 1} (the smallest division has "
                f"{smallest} teams), not {league.promotion_places}."
            )
    return problems


def create_league(
    teams: list[Team],
    *,
    config: SeasonConfig | None = None,
    seed: int = 0,
    promotion_places: int = DEFAULT_PROMOTION_PLACES,
    secret: str | None = None,
) -> LeagueState:
    """A new league of `teams` (each with its `division` set), its first season opened.
    `secret` is what its rounds' dice are derived from (ruling 57): the bot draws 128 random
    bits; without one it is derived from `seed` (a seeded league on the command line or in a
    test, whose dice anyone knowing the seed can foresee). Raises VolleyballError listing every
    problem with the divisions."""
    league = League(
        config=config or SeasonConfig(),
        teams=[Team.from_dict(t.to_dict()) for t in teams],
        seed=seed,
        promotion_places=promotion_places,
        secret=secret if secret is not None else f"seed:{seed}",
    )
    return start_season(league)


def promote_and_relegate(state: LeagueState, events: list[str]) -> None:
    """docs/rules/volleyball.md ruling 38: at the end of a season the bottom N of each division and
    the top N of the division below swap places (N = league.promotion_places)."""
    league = state.league
    places = league.promotion_places
    moves: dict[str, int] = {}
    divisions = league.divisions
    for upper, lower in itertools.pairwise(divisions):
        down = [r.team for r in state.table(upper).standings()[-places:]]
        up = [r.team for r in state.table(lower).standings()[:places]]
        for name in down:
            moves[name] = lower
        for name in up:
            moves[name] = upper
        events.append(f"Relegated from division {upper}: {', '.join(down)}.")
        events.append(f"Promoted to division {upper}: {', '.join(up)}.")
    for team in league.teams:
        if team.name in moves:
            team.division = moves[team.name]


def start_season(league: League) -> LeagueState:
    """Open a season for a league whose teams are created: the schedule (double round robin),
    the Galaxy Cup draw, each team's special-point pool for the season (rule 4; ruling: what
    is left of last season's pool lapses) and the GM offers for round 1."""
    problems = division_problems(league)
    if problems:
        raise VolleyballError(problems)
    league = League.from_dict(league.to_dict())
    league.round_number = 1
    league.results = []
    names = [t.name for t in league.teams]
    league.schedule = []
    # docs/rules/volleyball.md ruling 38: a double round robin per division
    for division in league.divisions:
        members = [t.name for t in league.teams if t.division == division]
        league.schedule += double_round_robin(members, league.config.matches_per_round)
    for team in league.teams:
        team.special_points = league.config.special_points_per_season
    rng = league.rng()
    state = LeagueState(league=league)
    state.cup = new_cup(names, state.total_rounds, rng)
    if gm_offers_allowed(1, state.total_rounds):
        state.gm_offers = draw_gm_offers(rng, 1, gm_player_offers(len(names)))
    league.store_rng(rng)
    return state


@dataclass
class SeasonEnd:
    """A season closed (rule 10) and the next one opened: `public` is what the whole league
    may read (champions, cup winner, promotion and relegation, contract players leaving, the
    new season's opening); `private[team]` that team's own lines (its sponsor ending, its
    players' ageing and levels, its talents), for its manager only (docs/rules/volleyball.md, "What
    the public sees")."""

    state: LeagueState
    public: list[str]
    private: dict[str, list[str]]


def close_season(
    state: LeagueState, splits: dict[str, list[AgeingSplit]] | None = None
) -> SeasonEnd:
    """Rule 10 at the end of a finished season, then the next season opened.

    `splits` are the managers' ageing choices per team (missing: the documented default).
    Raises VolleyballError listing every problem if the season is not over or a split is
    not allowed; `state` is never changed.
    """
    splits = splits or {}
    if not state.season_over:
        raise VolleyballError(
            f"Season {state.league.season} is not over: round {state.league.round_number} of "
            f"{state.total_rounds} is still to play."
        )
    problems: list[str] = []
    for team_name, team_splits in splits.items():
        team = state.league.team(team_name)
        if team is None:
            problems.append(f"There is no team called {team_name} in this league.")
        else:
            problems += [f"{team.name}: {p}" for p in ageing_split_problems(team, team_splits)]
    if problems:
        raise VolleyballError(problems)
    working = state.copy()
    league = working.league
    standings = working.table(1).standings()
    events = [
        f"Season {league.season} ends: {standings[0].team} are champions"
        + (f", {working.cup.winner} win the Galaxy Cup." if working.cup.winner else ".")
    ]
    past = {
        "season": league.season,
        "champion": standings[0].team,
        "cup_winner": working.cup.winner,
        "table": [row.to_json() for row in standings],
        "tables": {
            str(d): [row.to_json() for row in working.table(d).standings()]
            for d in league.divisions
        },
    }
    promote_and_relegate(working, events)
    private: dict[str, list[str]] = {}
    for team in league.teams:
        given = next((v for k, v in splits.items() if k.casefold() == team.name.casefold()), [])
        age_team(team, given, private.setdefault(team.name, []), events)
    league.season += 1
    opened = start_season(league)
    opened.past_seasons = [*working.past_seasons, past]
    events.extend(season_opening_events(opened))
    return SeasonEnd(opened, events, private)


def end_season(
    state: LeagueState, splits: dict[str, list[AgeingSplit]] | None = None
) -> tuple[LeagueState, list[str]]:
    """close_season for callers that show everything at once (the command line, records):
    the new state and the public lines followed by every team's own lines."""
    closed = close_season(state, splits)
    lines = list(closed.public)
    for team in sorted(closed.private):
        lines += closed.private[team]
    return closed.state, lines


def season_opening_events(state: LeagueState) -> list[str]:
    """What the GM makes public when a season opens: its length, the Galaxy Cup draw (drawn
    by lot, so everyone sees it) and the first round's GM offers."""
    events = [
        f"Season {state.league.season} begins: {state.total_rounds} rounds, "
        f"{state.league.config.matches_per_round} matches a round."
    ]
    entrants = state.cup.entrants
    pairs = ", ".join(f"{entrants[i]} v {entrants[i + 1]}" for i in range(0, len(entrants), 2))
    rounds = ", ".join(str(r) for r in state.cup.league_rounds)
    events.append(f"Galaxy Cup draw (played in rounds {rounds}): {pairs}.")
    events.extend(f"Open for bids in round 1: {offer.describe()}." for offer in state.gm_offers)
    return events


# --- the league record ----------------------------------------------------------------------

RECORD_HEADER = "# Ballcourt Volleyball league record, version 1"


def record_header(state: LeagueState) -> list[str]:
    """A record's first lines: the header, the seed and settings, and the whole starting
    state (teams, configuration, schedule, cup draw) as JSON."""
    league = state.league
    return [
        RECORD_HEADER,
        f"# seed {league.seed}, {len(league.teams)} teams, season {league.season}",
        "start " + json.dumps(state.to_dict(), sort_keys=True),
    ]


def record_round(state: LeagueState, orders: dict[str, RoundOrders]) -> list[str]:
    """The lines for one round: each team's orders, then the `play` line. A team without a
    line had no move received (rule 12)."""
    lines = ["orders " + json.dumps(o.to_dict(), sort_keys=True) for o in orders.values()]
    lines.append(
        "play " + json.dumps({"season": state.league.season, "round": state.league.round_number})
    )
    return lines


def record_season_end(state: LeagueState, splits: dict[str, list[AgeingSplit]]) -> list[str]:
    """The lines for a season end: the managers' ageing splits, then the `season-end` line."""
    lines = [
        "ageing " + json.dumps({"team": team, "splits": [s.to_dict() for s in given]})
        for team, given in splits.items()
    ]
    lines.append("season-end " + json.dumps({"season": state.league.season}))
    return lines


@dataclass
class RecordStep:
    """One step of a record: play a round with `orders`, or end a season with `splits`."""

    kind: str  # "play" or "season-end"
    season: int
    round_number: int = 0
    orders: dict[str, RoundOrders] = field(default_factory=dict)
    splits: dict[str, list[AgeingSplit]] = field(default_factory=dict)


def parse_record(text: str) -> tuple[LeagueState, list[RecordStep]]:
    """The starting state and the steps of a record (see record_header/record_round).
    Raises VolleyballError naming the line of anything it cannot read."""
    start: LeagueState | None = None
    steps: list[RecordStep] = []
    orders: dict[str, RoundOrders] = {}
    splits: dict[str, list[AgeingSplit]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, payload = line.partition(" ")
        try:
            data = json.loads(payload)
            if keyword == "start":
                start = LeagueState.from_dict(data)
            elif keyword == "orders":
                given = RoundOrders.from_dict(data)
                orders[given.team] = given
            elif keyword == "play":
                steps.append(RecordStep("play", int(data["season"]), int(data["round"]), orders))
                orders = {}
            elif keyword == "ageing":
                splits[str(data["team"])] = [AgeingSplit.from_dict(s) for s in data["splits"]]
            elif keyword == "season-end":
                steps.append(RecordStep("season-end", int(data["season"]), splits=splits))
                splits = {}
            else:
                raise VolleyballError(f"Line {number}: unknown record line {echoed(keyword)}.")
        except (ValueError, KeyError, TypeError) as error:
            if isinstance(error, VolleyballError):
                raise
            raise VolleyballError(
                f"Line {number}: cannot read this {keyword} line ({error})."
            ) from error
    if start is None:
        raise VolleyballError("The record has no start line.")
    return start, steps
