"""Player and team statistics from match results, without a database.

Seed clause: the workbook's "ScoreSheet" (goals, assists, penalty minutes, catches, casualties,
nature of injury), summed over matches. A player is known by his team and uniform number (a
rename does not start a new career).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from rules.rollerball2.scoresheet import MatchResult, PlayerLine, TeamSheet

LEADER_STATS = ("goals", "assists", "penalty_minutes", "casualties")


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
    """A team's record over matches: W-L-T, goals for and against, casualties inflicted and
    suffered, penalty minutes."""

    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    goals_for: int = 0
    goals_against: int = 0
    casualties: int = 0  # opponents its players knocked out
    casualties_suffered: int = 0
    penalty_minutes: int = 0

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


def team_stats(results: Iterable[MatchResult], team: str) -> TeamStats:
    """`team`'s totals over the finished matches in `results` it played in."""
    total = TeamStats()
    for result in results:
        pair = _sheets(result, team)
        if pair is None:
            continue
        mine, theirs = pair
        total.played += 1
        total.goals_for += mine.score
        total.goals_against += theirs.score
        if result.winner is None:
            total.drawn += 1
        elif result.winner == mine.side:
            total.won += 1
        else:
            total.lost += 1
        total.casualties += sum(len(line.casualties) for line in mine.players)
        total.casualties_suffered += sum(len(line.casualties) for line in theirs.players)
        total.penalty_minutes += sum(line.penalty_minutes for line in mine.players)
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
