"""The Volleyball league's state as plain data: players, teams, the season configuration and
the league itself, each serialising to JSON and back losslessly.

What the seed says "the GM makes public" at the start of a season is `SeasonConfig` (the bot
is the GM: docs/rules/volleyball.md, "What the league publishes at the start of a season"), with
documented defaults so a league can start with no tuning. The rules that change this data
live in their own modules (creation.py, match.py, rounds.py, ...); this module holds data.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.volleyball.orders import SetOrder

# Age categories of rule 1 / rule 10, youngest first.
AGE_CATEGORIES = ("A", "B", "C", "D", "E")
# Rule 6: a scouted new talent has no age category until the season ends (then Age A).
AGE_TALENT = "talent"
# Rule 7: "Contract players ... don't have a specific age".
AGE_CONTRACT = "contract"
# "A team consists of at least six players": neither a sale (rule 8) nor the bank (rule 9)
# leaves a team fewer players of its own (contract players do not count). Rulings, see
# docs/rules/volleyball.md.
MIN_OWN_PLAYERS = 6
# docs/rules/volleyball.md ruling 38, "Divisions": at most 16 teams (and at least two, to play).
MAX_DIVISION_TEAMS = 16
DEFAULT_PROMOTION_PLACES = 2


@dataclass
class Player:
    """One player (rule 1): a name, an age category and two levels.

    `ol`/`dl` are the player's own levels: the "original levels" that rule 2's tiredness
    recovers to and that every player "regains after a game". Positions, tiredness and points
    never change them; the match engine works on per-set copies.

    - `trained_ol`/`trained_dl`: TP training gained on each level this season (rule 6: at most
      5 per level a season, except new talents).
    - `talent_matches`: for a talent, the matches this season in which he played at least two
      sets (rule 6: after four he gets 2/2 and can be trained).
    - `lack_of_devotion`: rule 4, the player plays the next match at half levels.
    - `contract_pay_per_round`/`contract_last_round`: rule 7, for contract players only.
    """

    name: str
    age: str
    ol: int
    dl: int
    trained_ol: int = 0
    trained_dl: int = 0
    talent_matches: int = 0
    lack_of_devotion: bool = False
    contract_pay_per_round: int = 0
    contract_last_round: int = 0

    @property
    def is_talent(self) -> bool:
        return self.age == AGE_TALENT

    @property
    def is_contract(self) -> bool:
        return self.age == AGE_CONTRACT

    @property
    def total(self) -> int:
        return self.ol + self.dl

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "age": self.age,
            "ol": self.ol,
            "dl": self.dl,
            "trained_ol": self.trained_ol,
            "trained_dl": self.trained_dl,
            "talent_matches": self.talent_matches,
            "lack_of_devotion": self.lack_of_devotion,
            "contract_pay_per_round": self.contract_pay_per_round,
            "contract_last_round": self.contract_last_round,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Player:
        return cls(
            name=str(data["name"]),
            age=str(data["age"]),
            ol=int(data["ol"]),
            dl=int(data["dl"]),
            trained_ol=int(data.get("trained_ol", 0)),
            trained_dl=int(data.get("trained_dl", 0)),
            talent_matches=int(data.get("talent_matches", 0)),
            lack_of_devotion=bool(data.get("lack_of_devotion", False)),
            contract_pay_per_round=int(data.get("contract_pay_per_round", 0)),
            contract_last_round=int(data.get("contract_last_round", 0)),
        )


@dataclass
class Team:
    """One team (rule 1) and what it owns.

    - `manager_id`: the managing Discord user's id as a string; None for a computer manager.
    - `money`: the bank account in dollars; may go down to -$1,000 (rule 9).
    - `special_points`: what is left of the season's SP pool (rule 4).
    - `training_points`: TP in hand (rule 6).
    - `spies_used`: spying orders paid this season (rule 9: at most four).
    - `talents_scouted`: talents scouted this season (rule 6: three).
    - `sponsor`: the chosen sponsor's name, None for none (rule 9).
    - `last_lineup`: the sets of the last match played, for rule 12's NMR line-up.
    - `below_credit_since_round`: the round in which the account first fell below
      -$1,000 and has stayed there (rule 9's one round of grace), None when it is fine.
    - `division`: the division it plays in, 1 the highest (the form's DIVISION NO.).
    """

    name: str
    players: list[Player] = field(default_factory=list)
    manager_id: str | None = None
    money: int = 750
    special_points: int = 0
    training_points: int = 0
    spies_used: int = 0
    talents_scouted: int = 0
    sponsor: str | None = None
    last_lineup: list[SetOrder] = field(default_factory=list)
    below_credit_since_round: int | None = None
    division: int = 1
    _names: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def known_player(self, name: str) -> Player:
        """The player of this name where the caller knows he is on the roster (checked
        orders, a line-up of the team's own players)."""
        player = self.player(name)
        if player is None:
            raise KeyError(f"{self.name} has no player {name!r}")
        return player

    def player(self, name: str) -> Player | None:
        """The player of this name (case-insensitive; the first if two share it), or None.

        Looked up in an index of the roster (this is the engine's most
        frequent call). A hit is used only when the roster still holds that very player at
        the indexed place under that name; otherwise the roster is scanned and the index
        rebuilt, so a changed roster or a renamed player is never missed nor wrongly found."""
        key = name.strip().casefold()
        players = self.players
        hit = self._names.get(key)
        if hit is not None:
            position, found, spelled = hit
            if position < len(players) and players[position] is found and found.name == spelled:
                return found
        if hit is None and len(self._names) == len(players):
            # Probably not in the team: confirm by a scan (the index may be stale).
            for candidate in players:
                if candidate.name.casefold() == key:
                    break
            else:
                return None
        index: dict = {}
        for position, candidate in reversed(list(enumerate(players))):
            index[candidate.name.casefold()] = (position, candidate, candidate.name)
        self._names = index
        hit = index.get(key)
        return None if hit is None else hit[1]

    def copy(self) -> Team:
        """A copy whose roster and players can be changed without touching this team. The
        last line-up's SetOrders are never changed in place (a new list replaces them), so
        the copy shares them."""
        return Team(
            name=self.name,
            players=[Player(**vars(p)) for p in self.players],
            manager_id=self.manager_id,
            money=self.money,
            special_points=self.special_points,
            training_points=self.training_points,
            spies_used=self.spies_used,
            talents_scouted=self.talents_scouted,
            sponsor=self.sponsor,
            last_lineup=list(self.last_lineup),
            below_credit_since_round=self.below_credit_since_round,
            division=self.division,
        )

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "players": [p.to_dict() for p in self.players],
            "manager_id": self.manager_id,
            "money": self.money,
            "special_points": self.special_points,
            "training_points": self.training_points,
            "spies_used": self.spies_used,
            "talents_scouted": self.talents_scouted,
            "sponsor": self.sponsor,
            "last_lineup": [s.to_dict() for s in self.last_lineup],
            "below_credit_since_round": self.below_credit_since_round,
            "division": self.division,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Team:
        manager = data.get("manager_id")
        sponsor = data.get("sponsor")
        below = data.get("below_credit_since_round")
        return cls(
            name=str(data["name"]),
            players=[Player.from_dict(p) for p in data.get("players", [])],
            manager_id=None if manager is None else str(manager),
            money=int(data.get("money", 0)),
            special_points=int(data.get("special_points", 0)),
            training_points=int(data.get("training_points", 0)),
            spies_used=int(data.get("spies_used", 0)),
            talents_scouted=int(data.get("talents_scouted", 0)),
            sponsor=None if sponsor is None else str(sponsor),
            last_lineup=[SetOrder.from_dict(s) for s in data.get("last_lineup", [])],
            below_credit_since_round=None if below is None else int(below),
            division=int(data.get("division", 1)),
        )


@dataclass
class Sponsor:
    """Rule 9: a sponsor and its conditions: a fixed sum per round plus sums per match and
    per set the team wins that round."""

    name: str
    per_round: int = 0
    per_match_won: int = 0
    per_set_won: int = 0

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "per_round": self.per_round,
            "per_match_won": self.per_match_won,
            "per_set_won": self.per_set_won,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Sponsor:
        return cls(
            str(data["name"]),
            int(data.get("per_round", 0)),
            int(data.get("per_match_won", 0)),
            int(data.get("per_set_won", 0)),
        )


@dataclass
class ContractPlayerSpec:
    """Rule 7: a contract player the GM makes public at the start of the season; his levels
    never change."""

    name: str
    ol: int
    dl: int

    def to_dict(self) -> dict:
        return {"name": self.name, "ol": self.ol, "dl": self.dl}

    @classmethod
    def from_dict(cls, data: dict) -> ContractPlayerSpec:
        return cls(str(data["name"]), int(data["ol"]), int(data["dl"]))


def default_player_points_by_age() -> dict[str, int]:
    """Rule 1's PP for a new team and their split over the age categories: 120 PP in all,
    enough for six to eight players of 15-20 points."""
    return {"A": 20, "B": 24, "C": 32, "D": 24, "E": 20}


def default_sponsors() -> list[Sponsor]:
    """Three sponsors with different appetites for risk (rule 9)."""
    return [
        Sponsor("Steady Savings Bank", per_round=200),
        Sponsor("Champion Cola", per_round=50, per_match_won=150),
        Sponsor("Set Point Sports", per_round=100, per_set_won=30),
    ]


def default_contract_players() -> list[ContractPlayerSpec]:
    """Rule 7's contract players: six, from specialists to all-rounders."""
    return [
        ContractPlayerSpec("Kasper Hammer", 18, 10),
        ContractPlayerSpec("Ilse Muur", 10, 18),
        ContractPlayerSpec("Ramon Vlam", 16, 14),
        ContractPlayerSpec("Greta Blok", 14, 16),
        ContractPlayerSpec("Tomas Spike", 20, 12),
        ContractPlayerSpec("Anouk Dijk", 12, 20),
    ]


@dataclass
class SeasonConfig:
    """What the GM makes public at the start of a season (seed: "Information at the start of
    the season"), with defaults a league can start with.

    - `player_points_by_age`: rule 1's PP for a new team per age category; a new team may
      spend at most this many PP on players of that age (unspent points are lost).
    - `max_points_per_player`: rule 1, 24. `min_players`: rule 1, six.
    - `starting_money`: rule 1, $750.
    - `special_points_per_season`: rule 4's SP pool per team.
    - `home_advantage_start` / `home_advantage_growth_per_round`: rule 4, "24 and this
      becomes higher during the season": HA for a home match in round r is
      start + growth * (r - 1).
    - `training_points_per_round`, `training_points_per_match_played`,
      `training_points_per_match_won`, `training_points_per_set_won`: rule 6's TP a team
      earns each round. The seed says the TP "depend on the number of matches that are played
      during the season", so most of them come per match played: over a season a squad then
      earns about what ageing (rule 10) takes from it, and within the training limits
      (5 per level per player per season) it can be spent.
    - `matches_per_round`: rule 7 "a round consists normally of two matches"; the schedule
      is a double round robin (each pair meets home and away).
    - `talent_scouts_per_season`: rule 6, three.
    - `sponsors`, `contract_players`: rules 9 and 7.
    """

    player_points_by_age: dict[str, int] = field(default_factory=default_player_points_by_age)
    max_points_per_player: int = 24
    min_players: int = 6
    starting_money: int = 750
    special_points_per_season: int = 160
    home_advantage_start: int = 24
    home_advantage_growth_per_round: int = 2
    training_points_per_round: int = 2
    training_points_per_match_played: int = 3
    training_points_per_match_won: int = 1
    training_points_per_set_won: int = 0
    matches_per_round: int = 2
    talent_scouts_per_season: int = 3
    sponsors: list[Sponsor] = field(default_factory=default_sponsors)
    contract_players: list[ContractPlayerSpec] = field(default_factory=default_contract_players)

    @property
    def player_points_total(self) -> int:
        return sum(self.player_points_by_age.values())

    def home_advantage_points(self, round_number: int) -> int:
        """Rule 4: the HA points a home team has for its home match in `round_number` (1-based)."""
        return self.home_advantage_start + self.home_advantage_growth_per_round * max(
            0, round_number - 1
        )

    def to_dict(self) -> dict:
        return {
            "player_points_by_age": dict(self.player_points_by_age),
            "max_points_per_player": self.max_points_per_player,
            "min_players": self.min_players,
            "starting_money": self.starting_money,
            "special_points_per_season": self.special_points_per_season,
            "home_advantage_start": self.home_advantage_start,
            "home_advantage_growth_per_round": self.home_advantage_growth_per_round,
            "training_points_per_round": self.training_points_per_round,
            "training_points_per_match_played": self.training_points_per_match_played,
            "training_points_per_match_won": self.training_points_per_match_won,
            "training_points_per_set_won": self.training_points_per_set_won,
            "matches_per_round": self.matches_per_round,
            "talent_scouts_per_season": self.talent_scouts_per_season,
            "sponsors": [s.to_dict() for s in self.sponsors],
            "contract_players": [c.to_dict() for c in self.contract_players],
        }

    @classmethod
    def from_dict(cls, data: dict) -> SeasonConfig:
        defaults = cls()
        return cls(
            player_points_by_age={
                str(k): int(v)
                for k, v in data.get("player_points_by_age", defaults.player_points_by_age).items()
            },
            max_points_per_player=int(
                data.get("max_points_per_player", defaults.max_points_per_player)
            ),
            min_players=int(data.get("min_players", defaults.min_players)),
            starting_money=int(data.get("starting_money", defaults.starting_money)),
            special_points_per_season=int(
                data.get("special_points_per_season", defaults.special_points_per_season)
            ),
            home_advantage_start=int(
                data.get("home_advantage_start", defaults.home_advantage_start)
            ),
            home_advantage_growth_per_round=int(
                data.get(
                    "home_advantage_growth_per_round", defaults.home_advantage_growth_per_round
                )
            ),
            training_points_per_round=int(
                data.get("training_points_per_round", defaults.training_points_per_round)
            ),
            training_points_per_match_played=int(
                data.get(
                    "training_points_per_match_played", defaults.training_points_per_match_played
                )
            ),
            training_points_per_match_won=int(
                data.get("training_points_per_match_won", defaults.training_points_per_match_won)
            ),
            training_points_per_set_won=int(
                data.get("training_points_per_set_won", defaults.training_points_per_set_won)
            ),
            matches_per_round=int(data.get("matches_per_round", defaults.matches_per_round)),
            talent_scouts_per_season=int(
                data.get("talent_scouts_per_season", defaults.talent_scouts_per_season)
            ),
            sponsors=[Sponsor.from_dict(s) for s in data["sponsors"]]
            if "sponsors" in data
            else defaults.sponsors,
            contract_players=[ContractPlayerSpec.from_dict(c) for c in data["contract_players"]]
            if "contract_players" in data
            else defaults.contract_players,
        )


@dataclass
class Fixture:
    """One scheduled match: `round_number` (1-based), `match_number` within the round,
    home and away team names, and the competition ("league" or "cup")."""

    round_number: int
    match_number: int
    home: str
    away: str
    competition: str = "league"

    def to_dict(self) -> dict:
        return {
            "round_number": self.round_number,
            "match_number": self.match_number,
            "home": self.home,
            "away": self.away,
            "competition": self.competition,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Fixture:
        return cls(
            int(data["round_number"]),
            int(data["match_number"]),
            str(data["home"]),
            str(data["away"]),
            str(data.get("competition", "league")),
        )


@dataclass
class FixtureResult:
    """A played match as the league table and the public results need it: sets won, each
    set's score (home points, away points) and the players of each side who played, in the
    order they came on (what a spectator saw; docs/rules/volleyball.md, "What the public sees")."""

    fixture: Fixture
    home_sets: int
    away_sets: int
    set_scores: list[tuple[int, int]] = field(default_factory=list)
    home_players: list[str] = field(default_factory=list)
    away_players: list[str] = field(default_factory=list)

    @property
    def winner(self) -> str:
        return self.fixture.home if self.home_sets > self.away_sets else self.fixture.away

    def to_dict(self) -> dict:
        data = {
            "fixture": self.fixture.to_dict(),
            "home_sets": self.home_sets,
            "away_sets": self.away_sets,
            "set_scores": [[h, a] for h, a in self.set_scores],
        }
        if self.home_players or self.away_players:
            data["players"] = [list(self.home_players), list(self.away_players)]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> FixtureResult:
        home, away = data.get("players", [[], []])
        return cls(
            fixture=Fixture.from_dict(data["fixture"]),
            home_sets=int(data["home_sets"]),
            away_sets=int(data["away_sets"]),
            set_scores=[(int(h), int(a)) for h, a in data.get("set_scores", [])],
            home_players=[str(n) for n in home],
            away_players=[str(n) for n in away],
        )


def rng_state_to_json(state: tuple) -> list:
    """`random.Random.getstate()` as JSON-safe lists."""
    version, internal, gauss_next = state
    return [version, list(internal), gauss_next]


def rng_state_from_json(data: list) -> tuple:
    version, internal, gauss_next = data
    return (int(version), tuple(int(x) for x in internal), gauss_next)


@dataclass
class League:
    """A whole league: its configuration, teams, schedule, results and the random generator
    every die roll of the league comes from (its state is part of the league, so the same
    seed and the same orders give the same season).

    `round_number` is the round to be played next (1-based); `season` counts seasons.
    `promotion_places`: how many teams go down from each division and up from the one below
    at the end of a season (docs/rules/volleyball.md ruling 38, set at league creation).
    Use `rng()` to get a generator at the stored state and `store_rng(rng)` after drawing.
    `secret`: where set, each round's dice come from seeds derived from it, committed to before
    the round and revealed after it (rules/volleyball/fair.py, ruling 57); a league saved
    before it had one plays with `rng()` until the bot gives it one.
    """

    config: SeasonConfig = field(default_factory=SeasonConfig)
    teams: list[Team] = field(default_factory=list)
    season: int = 1
    round_number: int = 1
    schedule: list[Fixture] = field(default_factory=list)
    results: list[FixtureResult] = field(default_factory=list)
    seed: int = 0
    rng_state: list | None = None
    promotion_places: int = DEFAULT_PROMOTION_PLACES
    secret: str | None = None
    _names: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def divisions(self) -> list[int]:
        """The league's division numbers, highest (1) first."""
        return sorted({t.division for t in self.teams}) or [1]

    def known_team(self, name: str) -> Team:
        """The team of this name where the caller knows it is in the league (a fixture's, a
        checked order's, a bid's)."""
        team = self.team(name)
        if team is None:
            raise KeyError(f"no team {name!r} in the league")
        return team

    def team(self, name: str) -> Team | None:
        """The team of this name (case-insensitive), or None. The exact name is looked up in
        an index first; a hit is used only when that very team is still at
        the indexed place under that name, otherwise the teams are scanned."""
        teams = self.teams
        hit = self._names.get(name)
        if hit is not None:
            position, found = hit
            if position < len(teams) and teams[position] is found and found.name == name:
                return found
        self._names = {t.name: (i, t) for i, t in reversed(list(enumerate(teams)))}
        key = name.strip().casefold()
        for candidate in teams:
            if candidate.name.casefold() == key:
                return candidate
        return None

    def rng(self) -> random.Random:
        """A generator at the league's stored state (seeded from `seed` the first time)."""
        generator = random.Random(self.seed)
        if self.rng_state is not None:
            generator.setstate(rng_state_from_json(self.rng_state))
        return generator

    def store_rng(self, generator: random.Random) -> None:
        """Keep the generator's state after drawing from it."""
        self.rng_state = rng_state_to_json(generator.getstate())

    def to_dict(self) -> dict:
        return {
            "config": self.config.to_dict(),
            "teams": [t.to_dict() for t in self.teams],
            "season": self.season,
            "round_number": self.round_number,
            "schedule": [f.to_dict() for f in self.schedule],
            "results": [r.to_dict() for r in self.results],
            "seed": self.seed,
            "rng_state": self.rng_state,
            "promotion_places": self.promotion_places,
            **({"secret": self.secret} if self.secret is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> League:
        return cls(
            config=SeasonConfig.from_dict(data.get("config", {})),
            teams=[Team.from_dict(t) for t in data.get("teams", [])],
            season=int(data.get("season", 1)),
            round_number=int(data.get("round_number", 1)),
            schedule=[Fixture.from_dict(f) for f in data.get("schedule", [])],
            results=[FixtureResult.from_dict(r) for r in data.get("results", [])],
            seed=int(data.get("seed", 0)),
            rng_state=data.get("rng_state"),
            promotion_places=int(data.get("promotion_places", DEFAULT_PROMOTION_PLACES)),
            secret=None if data.get("secret") is None else str(data["secret"]),
        )
