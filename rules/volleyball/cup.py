"""The Galaxy Cup (seed rule 11): "a knock out tournament between all teams, together with a
number of amateurteams", played inside the league's rounds (results step 5: "starting with
matches for the Galaxy Cup").

Rulings (docs/rules/volleyball.md):
- The draw holds the smallest power of two that is larger than the number of league teams;
  the places left are filled with generated amateur teams (so there is always at least one).
- The whole first round is drawn by lot at the start of the season; later rounds pair the
  winners in draw order. The team drawn first in a pair plays at home.
- Cup round i of C is played in league round R - floor((C-1-i) * R / C) of R, so the final is
  in the last round and the cup rounds are spread over the season; when there are more cup
  rounds than league rounds, a round holds several cup rounds, played one after the other.
- Amateur teams are managed by the computer; they have no money, training or market.
- A cup match is match number (league matches per round) + 1, +2, ... of its round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.volleyball.models import Fixture, FixtureResult, Player, Team

AMATEUR_CLUB_NAMES = (
    "Orion Amateurs",
    "Vega Volley Club",
    "Sirius Social",
    "Lyra Students",
    "Cygnus Veterans",
    "Draco Dockers",
    "Pegasus Postmen",
    "Andromeda Academy",
    "Aquila Farmers",
    "Carina Firemen",
    "Perseus Police",
    "Hydra Harbour",
    "Auriga Bakers",
    "Cassiopeia College",
    "Centaurus Miners",
    "Phoenix Nurses",
)
AMATEUR_FIRST_NAMES = (
    "Jan", "Piet", "Kees", "Anna", "Mieke", "Joost", "Sanne", "Bram", "Lotte", "Daan",
    "Femke", "Ruud", "Noor", "Sem", "Eva", "Tijn",
)  # fmt: skip
AMATEUR_LAST_NAMES = (
    "Bakker", "Visser", "Smit", "Mulder", "Bos", "Vos", "Peters", "Hendriks", "Dekker",
    "Jansen", "Willems", "Meijer",
)  # fmt: skip
# Ruling 37: with seven players an amateur team could not field six in sets 4-5 and
# forfeited them. Twelve is two full formations, so one rests while the other plays.
AMATEUR_PLAYERS_PER_TEAM = 12


@dataclass
class CupState:
    """The Galaxy Cup of one season.

    - `amateur_teams`: the generated amateur teams (not in the league).
    - `entrants`: the teams still in, in draw order (pairs 1-2, 3-4, ... meet next).
    - `league_rounds`: for each cup round, the league round it is played in.
    - `rounds_played`: cup rounds finished; `winner` once the final is played.
    """

    amateur_teams: list[Team] = field(default_factory=list)
    entrants: list[str] = field(default_factory=list)
    league_rounds: list[int] = field(default_factory=list)
    rounds_played: int = 0
    winner: str | None = None

    def amateur(self, name: str) -> Team | None:
        for team in self.amateur_teams:
            if team.name == name:
                return team
        for team in self.amateur_teams:
            if team.name.casefold() == name.casefold():
                return team
        return None

    def to_dict(self) -> dict:
        return {
            "amateur_teams": [t.to_dict() for t in self.amateur_teams],
            "entrants": list(self.entrants),
            "league_rounds": list(self.league_rounds),
            "rounds_played": self.rounds_played,
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict) -> CupState:
        return cls(
            amateur_teams=[Team.from_dict(t) for t in data.get("amateur_teams", [])],
            entrants=[str(n) for n in data.get("entrants", [])],
            league_rounds=[int(r) for r in data.get("league_rounds", [])],
            rounds_played=int(data.get("rounds_played", 0)),
            winner=data.get("winner"),
        )


def draw_size(league_teams: int) -> int:
    """The smallest power of two larger than the number of league teams."""
    size = 2
    while size <= league_teams:
        size *= 2
    return size


def cup_round_schedule(cup_rounds: int, league_rounds: int) -> list[int]:
    """The league round each cup round is played in (see the module's rulings)."""
    return [
        league_rounds - ((cup_rounds - 1 - i) * league_rounds) // cup_rounds
        for i in range(cup_rounds)
    ]


def amateur_team(name: str, rng: random.Random) -> Team:
    """A generated amateur team: twelve Age C players with 5-9 points per level."""
    players: list[Player] = []
    for number in range(AMATEUR_PLAYERS_PER_TEAM):
        # Distinct surnames keep the names unique within the team.
        first = AMATEUR_FIRST_NAMES[rng.randrange(len(AMATEUR_FIRST_NAMES))]
        player_name = f"{first} {AMATEUR_LAST_NAMES[number]}"
        players.append(Player(player_name, "C", rng.randint(5, 9), rng.randint(5, 9)))
    return Team(name=name, players=players, money=0)


def amateur_names(count: int, taken: set[str]) -> list[str]:
    """`count` amateur club names that no league team uses (" B", " C" ... when the list
    runs out)."""
    names: list[str] = []
    suffix = 0
    while len(names) < count:
        for club in AMATEUR_CLUB_NAMES:
            name = club if suffix == 0 else f"{club} {chr(ord('A') + suffix)}"
            if name.casefold() not in taken and len(names) < count:
                names.append(name)
        suffix += 1
    return names


def new_cup(team_names: list[str], league_rounds: int, rng: random.Random) -> CupState:
    """The season's cup: amateur teams generated, the first round drawn by lot."""
    size = draw_size(len(team_names))
    taken = {name.casefold() for name in team_names}
    amateurs: list[Team] = []
    for name in amateur_names(size - len(team_names), taken):
        amateurs.append(amateur_team(name, rng))
    entrants = list(team_names) + [t.name for t in amateurs]
    rng.shuffle(entrants)
    cup_rounds = size.bit_length() - 1
    return CupState(
        amateur_teams=amateurs,
        entrants=entrants,
        league_rounds=cup_round_schedule(cup_rounds, league_rounds),
    )


def cup_rounds_in(cup: CupState, league_round: int) -> list[int]:
    """The (0-based) cup rounds still to play in `league_round`, in order."""
    return [
        i
        for i, played_in in enumerate(cup.league_rounds)
        if played_in == league_round and i >= cup.rounds_played
    ]


def fixtures_for_next_cup_round(
    cup: CupState, league_round: int, match_number: int
) -> list[Fixture]:
    """The pairs of the next cup round, first-drawn team at home."""
    return [
        Fixture(league_round, match_number, cup.entrants[i], cup.entrants[i + 1], "cup")
        for i in range(0, len(cup.entrants), 2)
    ]


def record_cup_round(cup: CupState, results: list[FixtureResult], events: list[str]) -> None:
    """Advance the winners of a finished cup round, keeping draw order."""
    winners = {r.fixture.home: r.winner for r in results}
    winners.update({r.fixture.away: r.winner for r in results})
    cup.entrants = [winners[cup.entrants[i]] for i in range(0, len(cup.entrants), 2)]
    cup.rounds_played += 1
    remaining = len(cup.entrants)
    if remaining == 1:
        cup.winner = cup.entrants[0]
        events.append(f"{cup.winner} win the Galaxy Cup!")
    else:
        label = {2: "the final", 4: "the semi-finals", 8: "the quarter-finals"}.get(
            remaining, f"the last {remaining}"
        )
        events.append(f"Galaxy Cup: {', '.join(cup.entrants)} reach {label}.")
