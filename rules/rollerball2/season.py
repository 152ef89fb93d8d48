"""A season without a database: the double round-robin schedule and the standings from results.

The seed has no league rules; these are the bot's (docs/rules/rollerball2.md, "Seasons"): every
team meets every other twice, once at home and once away; a win is worth 2 points, a draw 1
(overtime is played before a match is a draw, so draws are rare); ties in the table are broken by
goal difference, then goals scored, then the name.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import schedule
from rules.rollerball2.errors import RollerballError

WIN_POINTS = 2
DRAW_POINTS = 1
MIN_TEAMS = 2
MAX_TEAMS = 20

Fixture = tuple[str, str]  # (home team, away team)


def double_round_robin(teams: list[str]) -> list[list[Fixture]]:
    """Matchdays of fixtures: every pair meets twice, home and away, each team at most once a
    matchday (an odd number of teams: one rests each matchday). The league schedule both
    leagues play (rules/schedule.py): the same list of teams always gives the same schedule,
    home and away alternate, and the second half repeats the first with home and away swapped."""
    names = list(teams)
    if len(set(names)) != len(names):
        raise RollerballError("A team can be in a season only once.")
    if not MIN_TEAMS <= len(names) <= MAX_TEAMS:
        raise RollerballError(f"A season has {MIN_TEAMS} to {MAX_TEAMS} teams, not {len(names)}.")
    return schedule.double_round_robin(names)


@dataclass(frozen=True)
class GameScore:
    """One played match of a season: who was home and away and the final score."""

    home: str
    away: str
    home_goals: int
    away_goals: int


@dataclass
class StandingRow:
    """One team's line in the table."""

    team: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    goals_for: int = 0
    goals_against: int = 0

    @property
    def points(self) -> int:
        return WIN_POINTS * self.won + DRAW_POINTS * self.drawn

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against


def standings(teams: list[str], results: list[GameScore]) -> list[StandingRow]:
    """The table, best first: points, then goal difference, then goals for, then name. Teams
    that have not played yet are listed with zeros. A result naming a team not in `teams`
    raises RollerballError."""
    rows = {team: StandingRow(team) for team in teams}
    for game in results:
        for team in (game.home, game.away):
            if team not in rows:
                raise RollerballError(f"{team} is not in this season.")
        home, away = rows[game.home], rows[game.away]
        for row, scored, conceded in (
            (home, game.home_goals, game.away_goals),
            (away, game.away_goals, game.home_goals),
        ):
            row.played += 1
            row.goals_for += scored
            row.goals_against += conceded
            if scored > conceded:
                row.won += 1
            elif scored < conceded:
                row.lost += 1
            else:
                row.drawn += 1
    return sorted(
        rows.values(),
        key=lambda row: (-row.points, -row.goal_difference, -row.goals_for, row.team),
    )
