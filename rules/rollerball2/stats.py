"""Player and team statistics from match results, without a database.

Seed clause: the workbook's "ScoreSheet" (goals, assists, penalty minutes, catches, casualties,
nature of injury), summed over matches. A player is known by his team and uniform number (a
rename does not start a new career). Points are goals plus assists, as sim leagues count them
(the seed has none). A finished match adds one row per player who appeared (player_rows) and one
per team (team_line); the database keeps those rows and their sums (docs/rules/rollerball2.md,
"Teams, seasons and statistics").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from rules.rollerball2.scoresheet import MatchResult, PlayerLine, TeamSheet

LEADER_STATS = ("points", "goals", "assists", "catches", "penalty_minutes", "casualties")


def score_line(away: str, away_goals: int | None, home: str, home_goals: int | None) -> str:
    """How a score reads everywhere (docs/rules/rollerball2.md, "Teams, seasons and
    statistics"): the visitors first, as on the seed's scoresheet, each number next to its team,
    and "at" before the home team: "Madrid 5 at Houston 6" ("Madrid at Houston" unplayed)."""
    if away_goals is None or home_goals is None:
        return f"{away} at {home}"
    return f"{away} {away_goals} at {home} {home_goals}"


@dataclass
class PlayerStats:
    """A player's numbers for one match or a career (matches: matches he took the track in)."""

    matches: int = 0
    goals: int = 0
    assists: int = 0
    penalty_minutes: int = 0
    catches: int = 0
    casualties: int = 0  # opponents he knocked out for the match or longer
    injuries: int = 0  # injuries he suffered

    @property
    def points(self) -> int:
        """Goals plus assists."""
        return self.goals + self.assists

    def __add__(self, other: PlayerStats) -> PlayerStats:
        return PlayerStats(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )


def match_stats(line: PlayerLine) -> PlayerStats:
    """One scoresheet row as a stat line (a match counts if he was on the track)."""
    return PlayerStats(
        matches=1 if line.on_track else 0,
        goals=line.goals,
        assists=line.assists,
        penalty_minutes=line.penalty_minutes,
        catches=line.catches,
        casualties=len(line.casualties),
        injuries=line.injuries,
    )


def appeared(line: PlayerLine) -> bool:
    """He took the track, was penalised or was hurt: the rows a box score lists."""
    return bool(line.on_track or line.penalty_minutes or line.injury or line.injuries)


def player_rows(result: MatchResult, side: str) -> list[tuple[PlayerLine, PlayerStats]]:
    """The stat rows one team's players add by a finished match: every player who appeared,
    with his numbers (match_stats), by uniform number."""
    sheet = result.home if side == "home" else result.away
    return [(line, match_stats(line)) for line in sheet.players if appeared(line)]


def career_stats(lines: Iterable[PlayerLine]) -> PlayerStats:
    """The sum of a player's match rows."""
    total = PlayerStats()
    for line in lines:
        total = total + match_stats(line)
    return total


def lines_for(results: Iterable[MatchResult], team: str, number: int) -> list[PlayerLine]:
    """Every scoresheet row of `team`'s #`number` in `results`, oldest first."""
    found = []
    for result in results:
        for sheet in (result.home, result.away):
            if sheet.team == team:
                found.extend(line for line in sheet.players if line.number == number)
    return found


@dataclass
class TeamStats:
    """A team's record over matches: W-L-T, goals for and against, its players' assists and
    catches, casualties inflicted and suffered, penalty minutes, injuries suffered."""

    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    goals_for: int = 0
    goals_against: int = 0
    assists: int = 0
    catches: int = 0
    casualties: int = 0  # opponents its players knocked out
    casualties_suffered: int = 0
    penalty_minutes: int = 0
    injuries: int = 0  # injuries its players suffered

    def __add__(self, other: TeamStats) -> TeamStats:
        return TeamStats(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    @property
    def record(self) -> str:
        """'W-L-T' as printed in a table."""
        return f"{self.won}-{self.lost}-{self.drawn}"


def _sheets(result: MatchResult, team: str) -> tuple[TeamSheet, TeamSheet] | None:
    if result.home.team == team:
        return result.home, result.away
    if result.away.team == team:
        return result.away, result.home
    return None


def team_line(result: MatchResult, side: str) -> TeamStats:
    """One team's share of a finished match: the row it adds to its totals."""
    mine, theirs = (result.home, result.away) if side == "home" else (result.away, result.home)
    line = TeamStats(played=1, goals_for=mine.score, goals_against=theirs.score)
    if result.winner is None:
        line.drawn = 1
    elif result.winner == side:
        line.won = 1
    else:
        line.lost = 1
    line.assists = sum(player.assists for player in mine.players)
    line.catches = sum(player.catches for player in mine.players)
    line.casualties = sum(len(player.casualties) for player in mine.players)
    line.casualties_suffered = sum(len(player.casualties) for player in theirs.players)
    line.penalty_minutes = sum(player.penalty_minutes for player in mine.players)
    line.injuries = sum(player.injuries for player in mine.players)
    return line


def team_stats(results: Iterable[MatchResult], team: str) -> TeamStats:
    """`team`'s totals over the finished matches in `results` it played in."""
    total = TeamStats()
    for result in results:
        pair = _sheets(result, team)
        if pair is not None:
            total = total + team_line(result, pair[0].side)
    return total


@dataclass(frozen=True)
class Leader:
    """One line of a leaders table."""

    team: str
    number: int
    name: str
    value: int


def leaders(results: Iterable[MatchResult], stat: str, count: int = 10) -> list[Leader]:
    """The top `count` players for `stat` (one of LEADER_STATS) over `results`; ties by name.
    The name shown is the latest one he played under."""
    if stat not in LEADER_STATS:
        raise ValueError(f"stat must be one of {', '.join(LEADER_STATS)}")
    totals: dict[tuple[str, int], PlayerStats] = {}
    names: dict[tuple[str, int], str] = {}
    for result in results:
        for sheet in (result.home, result.away):
            for line in sheet.players:
                key = (sheet.team, line.number)
                totals[key] = totals.get(key, PlayerStats()) + match_stats(line)
                names[key] = line.name
    board = [
        Leader(team, number, names[(team, number)], getattr(stats, stat))
        for (team, number), stats in totals.items()
        if getattr(stats, stat) > 0
    ]
    board.sort(key=lambda leader: (-leader.value, leader.name, leader.team))
    return board[:count]


def star_points(line: PlayerLine, won: bool) -> int:
    """The bot's three-stars count (the seed has none): 3 a goal, 2 an assist, 1 a casualty,
    1 a catch, 1 for being on the winning side; only players who took the track."""
    if not line.on_track:
        return 0
    return 3 * line.goals + 2 * line.assists + len(line.casualties) + line.catches + int(won)


def three_stars(result: MatchResult) -> list[tuple[str, PlayerLine]]:
    """The match's three stars as (side, row), first star first: most star_points, then most
    goals, then the winning side, then the lower uniform number."""
    ranked = []
    for sheet in (result.home, result.away):
        won = result.winner == sheet.side
        for line in sheet.players:
            points = star_points(line, won)
            if points > 0:
                ranked.append((-points, -line.goals, not won, sheet.side, line.number, line))
    ranked.sort(key=lambda entry: entry[:5])
    return [(entry[3], entry[5]) for entry in ranked[:3]]
