"""Rollerball II's statistics: the rows a finished match adds to the totals of all time and of
its season, read by key or ranked in SQL."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, fields
from typing import Any

from db.database import Connection, Database
from db.rollerball2.scoresheets import result_from_json
from db.rollerball2.teams import name_key
from rules.rollerball2.scoresheet import Absence, MatchResult
from rules.rollerball2.stats import (
    LEADER_STATS,
    Leader,
    PlayerStats,
    TeamStats,
    player_rows,
    team_line,
)

# --- statistics --------------------------------------------------------------------------------
#
# A finished match adds its rows (rules.rollerball2.stats: player_rows, team_line) and their sums
# to the totals of all time (scope 0) and of its season (scope = the season's id), in the
# transaction that stores its result; every statistics command reads those rows by key or
# ranks the totals in SQL, so none of them grows with the number of finished matches.

ALL_TIME = 0
PLAYER_COUNTS = (
    "matches",
    "goals",
    "assists",
    "points",
    "penalty_minutes",
    "catches",
    "casualties",
    "injuries",
)
TEAM_COUNTS = tuple(f.name for f in fields(TeamStats))
_PLAYER_SUMS = ", ".join(
    f"{name} = rollerball2_player_totals.{name} + excluded.{name}" for name in PLAYER_COUNTS
)
_TEAM_SUMS = ", ".join(
    f"{name} = rollerball2_team_totals.{name} + excluded.{name}" for name in TEAM_COUNTS
)
PLAYER_TOTALS_UPSERT = (
    "INSERT INTO rollerball2_player_totals (guild_id, scope, team_id, number, name, last_at, "
    + ", ".join(PLAYER_COUNTS)
    + ") VALUES ("
    + ", ".join("?" for _ in range(6 + len(PLAYER_COUNTS)))
    + ") ON CONFLICT (guild_id, scope, team_id, number) DO UPDATE SET "
    + "name = CASE WHEN excluded.last_at >= rollerball2_player_totals.last_at"
    " THEN excluded.name ELSE rollerball2_player_totals.name END, "
    + "last_at = CASE WHEN excluded.last_at >= rollerball2_player_totals.last_at"
    " THEN excluded.last_at ELSE rollerball2_player_totals.last_at END, " + _PLAYER_SUMS
)
TEAM_TOTALS_UPSERT = (
    "INSERT INTO rollerball2_team_totals (guild_id, scope, team_id, "
    + ", ".join(TEAM_COUNTS)
    + ") VALUES ("
    + ", ".join("?" for _ in range(3 + len(TEAM_COUNTS)))
    + ") ON CONFLICT (guild_id, scope, team_id) DO UPDATE SET "
    + _TEAM_SUMS
)


@dataclass(frozen=True)
class CountedMatch:
    """What count_match needs of a finished match."""

    game_id: int
    guild_id: int
    season_id: int | None  # the season it counts in (it was that season's fixture), if any
    finished_at: float
    home_team_id: int
    away_team_id: int
    result: MatchResult


def _player_counts(stats: PlayerStats) -> tuple[int, ...]:
    return tuple(getattr(stats, name) for name in PLAYER_COUNTS)


async def count_match(conn: Connection, match: CountedMatch) -> None:
    """Write a finished match's statistics rows and add them to the totals (the caller makes
    sure this happens once per match: record_result, count_old_matches)."""
    scopes = [ALL_TIME] + ([match.season_id] if match.season_id is not None else [])
    sides = (
        ("home", match.home_team_id, match.away_team_id),
        ("away", match.away_team_id, match.home_team_id),
    )
    for side, team_id, opponent_id in sides:
        rows = player_rows(match.result, side)
        await conn.executemany(
            "INSERT INTO rollerball2_player_matches (game_id, team_id, number, guild_id,"
            " season_id, finished_at, name, on_track, goals, assists, penalty_minutes, catches,"
            " casualties, injuries, injury) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    match.game_id,
                    team_id,
                    line.number,
                    match.guild_id,
                    match.season_id,
                    match.finished_at,
                    line.name,
                    stats.matches,
                    stats.goals,
                    stats.assists,
                    stats.penalty_minutes,
                    stats.catches,
                    stats.casualties,
                    stats.injuries,
                    line.injury,
                )
                for line, stats in rows
            ],
        )
        line = team_line(match.result, side)
        counts = tuple(getattr(line, name) for name in TEAM_COUNTS)
        await conn.execute(
            "INSERT INTO rollerball2_team_matches (game_id, team_id, guild_id, season_id,"
            " finished_at, opponent_id, at_home, goals_for, goals_against, won, lost, drawn,"
            " assists, catches, casualties, casualties_suffered, penalty_minutes, injuries)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match.game_id,
                team_id,
                match.guild_id,
                match.season_id,
                match.finished_at,
                opponent_id,
                int(side == "home"),
                line.goals_for,
                line.goals_against,
                line.won,
                line.lost,
                line.drawn,
                line.assists,
                line.catches,
                line.casualties,
                line.casualties_suffered,
                line.penalty_minutes,
                line.injuries,
            ),
        )
        for scope in scopes:
            await conn.executemany(
                PLAYER_TOTALS_UPSERT,
                [
                    (
                        match.guild_id,
                        scope,
                        team_id,
                        player.number,
                        player.name,
                        match.finished_at,
                        *_player_counts(stats),
                    )
                    for player, stats in rows
                ],
            )
            await conn.execute(TEAM_TOTALS_UPSERT, (match.guild_id, scope, team_id, *counts))


def _parse_results(texts: list[str]) -> list[MatchResult]:
    return [result_from_json(text) for text in texts]


async def count_old_matches(db: Database, *, batch: int = 100) -> int:
    """Count the matches that finished before their statistics were rows (migration 012), a
    batch per transaction, each match once even when two processes do this at once (its
    `counted` flag is claimed in the transaction that writes its rows). Returns how many this
    call counted. The scoresheets are read off the event loop."""
    done = 0
    while True:
        rows = await db.fetch_all(
            "SELECT m.game_id, m.guild_id, m.home_team_id, m.away_team_id, m.result,"
            " m.finished_at, f.season_id FROM rollerball2_matches m"
            " LEFT JOIN rollerball2_fixtures f ON f.id = m.fixture_id AND f.game_id = m.game_id"
            " WHERE m.counted = 0 AND m.result IS NOT NULL ORDER BY m.game_id LIMIT ?",
            (batch,),
        )
        if not rows:
            return done
        results = await asyncio.to_thread(_parse_results, [row["result"] for row in rows])
        async with db.transaction() as conn:
            for row, result in zip(rows, results, strict=True):
                claimed = await conn.execute(
                    "UPDATE rollerball2_matches SET counted = 1 WHERE game_id = ? AND counted = 0",
                    (row["game_id"],),
                )
                if claimed.rowcount != 1:
                    continue
                await count_match(
                    conn,
                    CountedMatch(
                        row["game_id"],
                        row["guild_id"],
                        row["season_id"],
                        row["finished_at"] or 0.0,
                        row["home_team_id"],
                        row["away_team_id"],
                        result,
                    ),
                )
                done += 1


def _player_stats(row: Any, matches: str = "matches") -> PlayerStats:
    return PlayerStats(
        matches=row[matches],
        goals=row["goals"],
        assists=row["assists"],
        penalty_minutes=row["penalty_minutes"],
        catches=row["catches"],
        casualties=row["casualties"],
        injuries=row["injuries"],
    )


async def player_totals(
    db: Database, guild_id: int, team_id: int, number: int, scope: int = ALL_TIME
) -> PlayerStats:
    """A player's sums over all time or a season (zeros if he has not appeared in it)."""
    row = await db.fetch_one(
        "SELECT * FROM rollerball2_player_totals WHERE guild_id = ? AND scope = ?"
        " AND team_id = ? AND number = ?",
        (guild_id, scope, team_id, number),
    )
    return PlayerStats() if row is None else _player_stats(row)


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match as one team or player lists it: who played where, the score, and
    that team's or player's line."""

    game_id: int
    finished_at: float
    season_id: int | None
    at_home: bool
    home: str  # the teams' names now (a renamed team keeps its past)
    away: str
    home_goals: int
    away_goals: int
    won: bool
    lost: bool

    @property
    def opponent(self) -> str:
        return self.away if self.at_home else self.home


@dataclass(frozen=True)
class PlayerMatch:
    match: PlayedMatch
    stats: PlayerStats
    injury: str


_PLAYED_COLUMNS = (
    "m.game_id, m.finished_at, m.home_goals, m.away_goals, m.winner, h.name AS home_name,"
    " a.name AS away_name"
)
_PLAYED_JOINS = (
    " JOIN rollerball2_matches m ON m.game_id = x.game_id"
    " JOIN rollerball2_teams h ON h.id = m.home_team_id"
    " JOIN rollerball2_teams a ON a.id = m.away_team_id"
)


def _played(row: Any, team_id: int) -> PlayedMatch:
    at_home = row["home_team_id"] == team_id
    winner = row["winner"]
    return PlayedMatch(
        game_id=row["game_id"],
        finished_at=row["finished_at"],
        season_id=row["season_id"],
        at_home=at_home,
        home=row["home_name"],
        away=row["away_name"],
        home_goals=row["home_goals"],
        away_goals=row["away_goals"],
        won=winner == ("home" if at_home else "away"),
        lost=winner == ("away" if at_home else "home"),
    )


async def player_matches(
    db: Database, team_id: int, number: int, season_id: int | None = None, limit: int = 10
) -> list[PlayerMatch]:
    """A player's latest finished matches (of a season), newest first."""
    where = "x.team_id = ? AND x.number = ?"
    parameters: tuple[object, ...] = (team_id, number)
    if season_id is not None:
        where = "x.season_id = ? AND " + where
        parameters = (season_id, *parameters)
    rows = await db.fetch_all(
        f"SELECT x.*, m.home_team_id, {_PLAYED_COLUMNS} FROM rollerball2_player_matches x"
        f"{_PLAYED_JOINS} WHERE {where} ORDER BY x.finished_at DESC, x.game_id DESC LIMIT ?",
        (*parameters, limit),
    )
    return [
        PlayerMatch(
            _played(row, team_id),
            _player_stats(row, matches="on_track"),
            row["injury"],
        )
        for row in rows
    ]


def _team_stats(row: Any) -> TeamStats:
    return TeamStats(**{name: row[name] for name in TEAM_COUNTS})


async def team_totals(
    db: Database, guild_id: int, team_id: int, scope: int = ALL_TIME
) -> TeamStats:
    """A team's sums over all time or a season (zeros before its first finished match)."""
    row = await db.fetch_one(
        "SELECT * FROM rollerball2_team_totals WHERE guild_id = ? AND scope = ? AND team_id = ?",
        (guild_id, scope, team_id),
    )
    return TeamStats() if row is None else _team_stats(row)


async def team_matches(
    db: Database, team_id: int, season_id: int | None = None, limit: int = 20
) -> list[PlayedMatch]:
    """A team's latest finished matches (of a season), newest first."""
    where = "x.team_id = ?"
    parameters: tuple[object, ...] = (team_id,)
    if season_id is not None:
        where = "x.season_id = ? AND " + where
        parameters = (season_id, *parameters)
    rows = await db.fetch_all(
        f"SELECT x.season_id, m.home_team_id, {_PLAYED_COLUMNS} FROM rollerball2_team_matches x"
        f"{_PLAYED_JOINS} WHERE {where} ORDER BY x.finished_at DESC, x.game_id DESC LIMIT ?",
        (*parameters, limit),
    )
    return [_played(row, team_id) for row in rows]


async def matches_counted(db: Database, guild_id: int, scope: int = ALL_TIME) -> int:
    """How many finished matches a server's statistics hold (all time or one season)."""
    row = await db.fetch_one(
        "SELECT COALESCE(SUM(played), 0) AS n FROM rollerball2_team_totals"
        " WHERE guild_id = ? AND scope = ?",
        (guild_id, scope),
    )
    return 0 if row is None else int(row["n"]) // 2


def _leaders_sql(stat: str) -> str:
    return (
        f"SELECT * FROM (SELECT '{stat}' AS stat, p.number, p.name, p.{stat} AS value,"
        " t.name AS team FROM rollerball2_player_totals p"
        " JOIN rollerball2_teams t ON t.id = p.team_id"
        f" WHERE p.guild_id = ? AND p.scope = ? AND p.{stat} > 0"
        f" ORDER BY p.{stat} DESC, p.name, t.name_key, p.number LIMIT ?) AS {stat}_leaders"
    )


async def leaders(
    db: Database, guild_id: int, stat: str, scope: int = ALL_TIME, count: int = 5
) -> list[Leader]:
    """The top `count` players of a server for `stat` (one of LEADER_STATS) over all time or
    a season; ties by name, then team. The name is the one he last played under."""
    return (await leader_tables(db, guild_id, (stat,), scope, count))[stat]


async def leader_tables(
    db: Database,
    guild_id: int,
    stats: tuple[str, ...] = LEADER_STATS,
    scope: int = ALL_TIME,
    count: int = 5,
) -> dict[str, list[Leader]]:
    """leaders() for several stats in one query (one round trip to the database)."""
    for stat in stats:
        if stat not in LEADER_STATS:
            raise ValueError(f"stat must be one of {', '.join(LEADER_STATS)}")
    rows = await db.fetch_all(
        " UNION ALL ".join(_leaders_sql(stat) for stat in stats),
        tuple(value for _ in stats for value in (guild_id, scope, count)),
    )
    tables: dict[str, list[Leader]] = {stat: [] for stat in stats}
    for row in rows:
        tables[row["stat"]].append(Leader(row["team"], row["number"], row["name"], row["value"]))
    for board in tables.values():  # SQL does not promise UNION ALL keeps each part's order
        board.sort(
            key=lambda leader: (-leader.value, leader.name, name_key(leader.team), leader.number)
        )
    return tables


@dataclass(frozen=True)
class Out:
    """A player who misses matches, for the injury report."""

    number: int
    name: str
    position: str
    absence: Absence


async def players_out(db: Database, guild_id: int) -> list[tuple[int, str, list[Out]]]:
    """(team id, name, its absent players) for every team of a server, by name: read from the
    stored rosters' JSON without building every card (it was checked when stored)."""
    rows = await db.fetch_all(
        "SELECT id, name, roster FROM rollerball2_teams WHERE guild_id = ? ORDER BY name_key",
        (guild_id,),
    )
    teams = []
    for row in rows:
        data = json.loads(row["roster"])
        cards = {card["number"]: card for card in data["players"]}
        out = [
            Out(absence["number"], card["name"], card["position"], Absence(**absence))
            for absence in data.get("absences", [])
            if (card := cards.get(absence["number"])) is not None
        ]
        teams.append((row["id"], row["name"], out))
    return teams
