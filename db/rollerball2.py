"""Rollerball II's own tables: teams, the matches they play, seasons and their fixtures.

Every change to a team checks and bumps its version, so two commands at once never lose one
of their changes. A match's teams are written in the transaction that creates the match (and a
team already in an open match refuses it there, not in a check before); its result, the rosters'
carry-over, a season fixture's score and the match's statistics rows in the transaction that
saves its last move.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict, dataclass, fields
from typing import Any

from db.database import Connection, Database, IntegrityError
from db.timers import TimerSpec, insert_timer
from rules.rollerball2.roster import Roster
from rules.rollerball2.scoresheet import Absence, MatchResult, Moment, PlayerLine, TeamSheet
from rules.rollerball2.state import roster_from_json, roster_to_json
from rules.rollerball2.stats import (
    LEADER_STATS,
    Leader,
    PlayerStats,
    TeamStats,
    player_rows,
    team_line,
)

OPEN_STATUSES = ("pending", "active")


class TeamNameTaken(Exception):
    """A team of that name exists in the server (the unique index said so)."""


class StaleTeam(Exception):
    """The team changed since it was read: the change was computed from an old roster."""


class TeamBusy(Exception):
    """A team is already playing an open match (`game_id`)."""

    def __init__(self, team_id: int, game_id: int) -> None:
        super().__init__(f"team {team_id} is in match {game_id}")
        self.team_id, self.game_id = team_id, game_id


def name_key(name: str) -> str:
    """Team and season names are unique per server whatever their case."""
    return " ".join(name.split()).casefold()


# --- teams -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Team:
    id: int
    guild_id: int
    owner_id: int
    name: str
    colour: str
    colour2: str
    seed: str
    roster: Roster
    lineup: dict[str, int | None] | None  # the saved line-up; None: the default one
    version: int


def _team(row: Any) -> Team:
    return Team(
        id=row["id"],
        guild_id=row["guild_id"],
        owner_id=row["owner_id"],
        name=row["name"],
        colour=row["colour"],
        colour2=row["colour2"],
        seed=row["seed"],
        roster=roster_from_json(json.loads(row["roster"])),
        lineup=None if row["lineup"] is None else json.loads(row["lineup"]),
        version=row["version"],
    )


async def create_team(
    db: Database,
    *,
    guild_id: int,
    owner_id: int,
    roster: Roster,
    colour: str,
    colour2: str,
    seed: str,
) -> Team:
    """Store a new team; TeamNameTaken when its name is used in the server already."""
    try:
        async with db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO rollerball2_teams (guild_id, owner_id, name, name_key, colour,"
                " colour2, seed, roster, lineup, version, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                " RETURNING id",
                (
                    guild_id,
                    owner_id,
                    roster.team,
                    name_key(roster.team),
                    colour,
                    colour2,
                    seed,
                    json.dumps(roster_to_json(roster)),
                ),
            )
            team_id = (await cursor.fetchone())["id"]
    except IntegrityError as error:
        raise TeamNameTaken(roster.team) from error
    team = await load_team(db, team_id)
    assert team is not None
    return team


async def load_team(db: Database, team_id: int) -> Team | None:
    row = await db.fetch_one("SELECT * FROM rollerball2_teams WHERE id = ?", (team_id,))
    return None if row is None else _team(row)


async def team_by_name(db: Database, guild_id: int, name: str) -> Team | None:
    row = await db.fetch_one(
        "SELECT * FROM rollerball2_teams WHERE guild_id = ? AND name_key = ?",
        (guild_id, name_key(name)),
    )
    return None if row is None else _team(row)


async def team_names(db: Database, guild_id: int) -> list[tuple[int, str, int]]:
    """(id, name, owner id) of every team in a server, by name (autocomplete, season lists)."""
    rows = await db.fetch_all(
        "SELECT id, name, owner_id FROM rollerball2_teams WHERE guild_id = ? ORDER BY name_key",
        (guild_id,),
    )
    return [(row["id"], row["name"], row["owner_id"]) for row in rows]


async def teams_in_guild(db: Database, guild_id: int) -> list[Team]:
    rows = await db.fetch_all(
        "SELECT * FROM rollerball2_teams WHERE guild_id = ? ORDER BY name_key", (guild_id,)
    )
    return [_team(row) for row in rows]


async def update_team(
    db: Database,
    team: Team,
    *,
    roster: Roster | None = None,
    lineup: dict[str, int | None] | str | None = "keep",
) -> Team:
    """Write a new roster and/or line-up ("keep" leaves it; None is the default line-up) if
    nobody changed the team since `team` was read (else StaleTeam); a new team name must be
    free (else TeamNameTaken)."""
    roster = roster if roster is not None else team.roster
    new_lineup = team.lineup if lineup == "keep" else lineup
    try:
        async with db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE rollerball2_teams SET name = ?, name_key = ?, roster = ?, lineup = ?,"
                " version = version + 1, updated_at = CURRENT_TIMESTAMP"
                " WHERE id = ? AND version = ?",
                (
                    roster.team,
                    name_key(roster.team),
                    json.dumps(roster_to_json(roster)),
                    None if new_lineup is None else json.dumps(new_lineup),
                    team.id,
                    team.version,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleTeam(team.name)
    except IntegrityError as error:
        raise TeamNameTaken(roster.team) from error
    updated = await load_team(db, team.id)
    assert updated is not None
    return updated


async def open_match_of(db: Database, team_id: int) -> int | None:
    """The open (pending or active) match a team is in, if any."""
    row = await db.fetch_one(
        "SELECT m.game_id FROM rollerball2_matches m JOIN games g ON g.id = m.game_id"
        " WHERE (m.home_team_id = ? OR m.away_team_id = ?) AND g.status IN (?, ?)",
        (team_id, team_id, *OPEN_STATUSES),
    )
    return None if row is None else row["game_id"]


async def forget_owner(conn: Connection, user_id: int, anonymous: int) -> None:
    """/privacy: the user's teams stay (seasons and other teams' histories name them) but no
    longer name their owner; a server admin may manage them."""
    await conn.execute(
        "UPDATE rollerball2_teams SET owner_id = ? WHERE owner_id = ?", (anonymous, user_id)
    )


async def teams_owned(db: Database, user_id: int) -> int:
    row = await db.fetch_one(
        "SELECT COUNT(*) AS n FROM rollerball2_teams WHERE owner_id = ?", (user_id,)
    )
    return 0 if row is None else row["n"]


# --- matches -----------------------------------------------------------------------------------


async def add_match(
    conn: Connection,
    *,
    game_id: int,
    guild_id: int,
    home_team_id: int,
    away_team_id: int,
    mode: str,
    fixture_id: int | None,
) -> None:
    """Inside the transaction that creates the match: TeamBusy if either team is already in an
    open match (the transaction holds the write lock, so two of these cannot both pass)."""
    cursor = await conn.execute(
        "SELECT m.game_id, m.home_team_id, m.away_team_id FROM rollerball2_matches m"
        " JOIN games g ON g.id = m.game_id WHERE g.status IN (?, ?) AND m.game_id != ?"
        " AND (m.home_team_id IN (?, ?) OR m.away_team_id IN (?, ?))",
        (*OPEN_STATUSES, game_id, home_team_id, away_team_id, home_team_id, away_team_id),
    )
    row = await cursor.fetchone()
    if row is not None:
        busy = home_team_id if home_team_id in (row[1], row[2]) else away_team_id
        raise TeamBusy(busy, row[0])
    await conn.execute(
        "INSERT INTO rollerball2_matches (game_id, guild_id, home_team_id, away_team_id, mode,"
        " fixture_id) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, guild_id, home_team_id, away_team_id, mode, fixture_id),
    )


def result_to_json(result: MatchResult) -> str:
    return json.dumps(asdict(result), separators=(",", ":"))


def _sheet(data: dict) -> TeamSheet:
    return TeamSheet(
        team=data["team"],
        side=data["side"],
        players=[PlayerLine(**line) for line in data["players"]],
        score_by_period=list(data["score_by_period"]),
    )


def result_from_json(text: str) -> MatchResult:
    data = json.loads(text)
    return MatchResult(
        home=_sheet(data["home"]),
        away=_sheet(data["away"]),
        winner=data["winner"],
        overtime=data["overtime"],
        facs_played=data["facs_played"],
        carry_over={
            side: [Absence(**absence) for absence in absences]
            for side, absences in data["carry_over"].items()
        },
        moments=[Moment(**moment) for moment in data.get("moments", [])],
    )


async def record_result(
    conn: Connection,
    game_id: int,
    result: MatchResult,
    rosters: dict[int, Roster],
    *,
    how: str,
) -> None:
    """Inside the transaction that saves the match's last move: the result, the teams' rosters
    after it (`rosters`: team id -> roster with the carry-over), the season fixture's score if
    the match was one (only if the fixture has no result yet: a fixture counts once), and the
    match's statistics rows and their totals (count_match), once."""
    finished_at = time.time()
    cursor = await conn.execute(
        "UPDATE rollerball2_matches SET home_goals = ?, away_goals = ?, winner = ?, result = ?,"
        " finished_at = ?, counted = 1 WHERE game_id = ? AND result IS NULL",
        (
            result.home_score,
            result.away_score,
            result.winner or "draw",
            result_to_json(result),
            finished_at,
            game_id,
        ),
    )
    first_time = cursor.rowcount == 1
    for team_id, roster in rosters.items():
        await conn.execute(
            "UPDATE rollerball2_teams SET roster = ?, version = version + 1,"
            " updated_at = CURRENT_TIMESTAMP WHERE id = ?",
            (json.dumps(roster_to_json(roster)), team_id),
        )
    cursor = await conn.execute(
        "UPDATE rollerball2_fixtures SET game_id = ?, home_goals = ?, away_goals = ?, how = ?"
        " WHERE how IS NULL AND id = (SELECT fixture_id FROM rollerball2_matches WHERE game_id = ?)",
        (game_id, result.home_score, result.away_score, how, game_id),
    )
    if not first_time:
        return
    season_id = None
    if cursor.rowcount == 1:  # the match is the fixture's result: it counts in its season
        found = await conn.execute(
            "SELECT f.season_id FROM rollerball2_fixtures f JOIN rollerball2_matches m"
            " ON m.fixture_id = f.id WHERE m.game_id = ?",
            (game_id,),
        )
        row = await found.fetchone()
        season_id = None if row is None else row[0]
    found = await conn.execute(
        "SELECT guild_id, home_team_id, away_team_id FROM rollerball2_matches WHERE game_id = ?",
        (game_id,),
    )
    row = await found.fetchone()
    if row is not None:
        await count_match(
            conn,
            CountedMatch(game_id, row[0], season_id, finished_at, row[1], row[2], result),
        )


async def roster_in(conn: Connection, team_id: int) -> Roster | None:
    """A team's current roster, read inside the caller's transaction."""
    cursor = await conn.execute("SELECT roster FROM rollerball2_teams WHERE id = ?", (team_id,))
    row = await cursor.fetchone()
    return None if row is None else roster_from_json(json.loads(row[0]))


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


@dataclass(frozen=True)
class StoredResult:
    game_id: int
    home_team_id: int
    away_team_id: int
    result: MatchResult  # sheets carry the teams' current names (a renamed team keeps its past)
    finished_at: float
    fixture_id: int | None


async def stored_result(db: Database, guild_id: int, game_id: int) -> StoredResult | None:
    """One finished match of a server with its scoresheet (the box score)."""
    row = await db.fetch_one(
        "SELECT m.*, h.name AS home_name, a.name AS away_name FROM rollerball2_matches m"
        " JOIN rollerball2_teams h ON h.id = m.home_team_id"
        " JOIN rollerball2_teams a ON a.id = m.away_team_id"
        " WHERE m.game_id = ? AND m.guild_id = ? AND m.result IS NOT NULL",
        (game_id, guild_id),
    )
    if row is None:
        return None
    result = await asyncio.to_thread(result_from_json, row["result"])
    result.home.team, result.away.team = row["home_name"], row["away_name"]
    return StoredResult(
        row["game_id"],
        row["home_team_id"],
        row["away_team_id"],
        result,
        row["finished_at"],
        row["fixture_id"],
    )


# --- seasons -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    channel_id: int
    name: str
    starts_at: float
    hours: int
    matchdays: int
    vacation_pauses: bool = False  # a coach's vacation puts off their matchday's deadline
    current_matchday: int = 1  # whose deadline runs now; matchdays + 1 once over
    paused_at: float | None = None  # while an admin has paused it
    resumed_at: float | None = None  # the last resume

    def planned_deadline(self, matchday: int) -> float:
        """The deadline the season's length gives a matchday (before extensions, pauses and
        vacations): its set deadline when the season is made."""
        return self.starts_at + matchday * self.hours * 3600

    @property
    def over(self) -> bool:
        return self.current_matchday > self.matchdays


@dataclass(frozen=True)
class Fixture:
    id: int
    season_id: int
    matchday: int
    home_team_id: int
    away_team_id: int
    deadline: float  # in force (its matchday's; when played early by an admin, that moment)
    game_id: int | None
    home_goals: int | None
    away_goals: int | None
    how: str | None  # None until played; "played" or "simulated"
    set_deadline: float | None = None  # before vacations and the half-matchday rule
    played_at: float | None = None  # when its match ended


def _season(row: Any) -> Season:
    return Season(
        row["id"],
        row["guild_id"],
        row["channel_id"],
        row["name"],
        row["starts_at"],
        row["hours"],
        row["matchdays"],
        bool(row["vacation_pauses"]),
        row["current_matchday"],
        row["paused_at"],
        row["resumed_at"],
    )


def _fixture(row: Any) -> Fixture:
    return Fixture(
        row["id"],
        row["season_id"],
        row["matchday"],
        row["home_team_id"],
        row["away_team_id"],
        row["deadline"],
        row["game_id"],
        row["home_goals"],
        row["away_goals"],
        row["how"],
        row["set_deadline"],
        row["played_at"],
    )


class SeasonNameTaken(Exception):
    """A season of that name exists in the server."""


class TeamInSeason(Exception):
    """A team still has fixtures to play in another season (`season`)."""

    def __init__(self, team_id: int, season: str) -> None:
        super().__init__(f"team {team_id} plays in {season}")
        self.team_id, self.season = team_id, season


async def create_season(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    name: str,
    created_by: int,
    starts_at: float,
    hours: int,
    schedule: list[list[tuple[int, int]]],
    rosters: dict[int, Roster],
    timer_event: str,
    vacation_pauses: bool = False,
) -> Season:
    """Store a season, its fixtures (matchdays of (home id, away id)) with their deadlines, the
    timer of its first deadline and its teams' rosters for the new season, in one transaction.
    TeamInSeason if a team still has fixtures to play elsewhere; SeasonNameTaken for a name
    already used."""
    team_ids = sorted(rosters)
    try:
        async with db.transaction() as conn:
            marks = ", ".join("?" for _ in team_ids)
            cursor = await conn.execute(
                "SELECT f.home_team_id, f.away_team_id, s.name FROM rollerball2_fixtures f"
                " JOIN rollerball2_seasons s ON s.id = f.season_id WHERE f.how IS NULL AND"
                f" (f.home_team_id IN ({marks}) OR f.away_team_id IN ({marks})) LIMIT 1",
                (*team_ids, *team_ids),
            )
            row = await cursor.fetchone()
            if row is not None:
                busy = row[0] if row[0] in team_ids else row[1]
                raise TeamInSeason(busy, row[2])
            cursor = await conn.execute(
                "INSERT INTO rollerball2_seasons (guild_id, channel_id, name, name_key,"
                " created_by, starts_at, hours, matchdays, vacation_pauses, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    name,
                    name_key(name),
                    created_by,
                    starts_at,
                    hours,
                    len(schedule),
                    int(vacation_pauses),
                ),
            )
            season_id = (await cursor.fetchone())["id"]
            season = Season(
                season_id,
                guild_id,
                channel_id,
                name,
                starts_at,
                hours,
                len(schedule),
                vacation_pauses,
            )
            for matchday, fixtures in enumerate(schedule, start=1):
                deadline = season.planned_deadline(matchday)
                await conn.executemany(
                    "INSERT INTO rollerball2_fixtures (season_id, matchday, home_team_id,"
                    " away_team_id, deadline, set_deadline) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (season_id, matchday, home, away, deadline, deadline)
                        for home, away in fixtures
                    ],
                )
            await insert_timer(
                conn,
                TimerSpec(
                    timer_event, season.planned_deadline(1), {"season": season_id, "matchday": 1}
                ),
                now=time.time(),
            )
            for team_id, roster in rosters.items():
                await conn.execute(
                    "UPDATE rollerball2_teams SET roster = ?, version = version + 1,"
                    " updated_at = CURRENT_TIMESTAMP WHERE id = ?",
                    (json.dumps(roster_to_json(roster)), team_id),
                )
    except IntegrityError as error:
        raise SeasonNameTaken(name) from error
    return season


async def load_season(db: Database, season_id: int) -> Season | None:
    row = await db.fetch_one("SELECT * FROM rollerball2_seasons WHERE id = ?", (season_id,))
    return None if row is None else _season(row)


async def seasons_in(db: Database, guild_id: int) -> list[Season]:
    """A server's seasons, newest first."""
    rows = await db.fetch_all(
        "SELECT * FROM rollerball2_seasons WHERE guild_id = ? ORDER BY id DESC", (guild_id,)
    )
    return [_season(row) for row in rows]


async def season_by_name(db: Database, guild_id: int, name: str) -> Season | None:
    row = await db.fetch_one(
        "SELECT * FROM rollerball2_seasons WHERE guild_id = ? AND name_key = ?",
        (guild_id, name_key(name)),
    )
    return None if row is None else _season(row)


_FIXTURES = (
    "SELECT f.*, m.finished_at AS played_at FROM rollerball2_fixtures f"
    " LEFT JOIN rollerball2_matches m ON m.game_id = f.game_id"
)


async def fixtures_of(db: Database, season_id: int, matchday: int | None = None) -> list[Fixture]:
    sql = _FIXTURES + " WHERE f.season_id = ?"
    parameters: tuple[object, ...] = (season_id,)
    if matchday is not None:
        sql += " AND f.matchday = ?"
        parameters += (matchday,)
    rows = await db.fetch_all(sql + " ORDER BY f.matchday, f.id", parameters)
    return [_fixture(row) for row in rows]


async def season_team_ids(db: Database, season_id: int) -> list[int]:
    rows = await db.fetch_all(
        "SELECT home_team_id AS t FROM rollerball2_fixtures WHERE season_id = ?"
        " UNION SELECT away_team_id FROM rollerball2_fixtures WHERE season_id = ?",
        (season_id, season_id),
    )
    return sorted(row["t"] for row in rows)


async def open_fixture(db: Database, home_team_id: int, away_team_id: int) -> Fixture | None:
    """The earliest unplayed season fixture with this home and away team, if any."""
    row = await db.fetch_one(
        _FIXTURES + " WHERE f.home_team_id = ? AND f.away_team_id = ?"
        " AND f.how IS NULL ORDER BY f.matchday, f.id LIMIT 1",
        (home_team_id, away_team_id),
    )
    return None if row is None else _fixture(row)


async def open_game_of_fixture(db: Database, fixture_id: int) -> tuple[int, str] | None:
    """(game id, status) of the open match being played for a fixture, if any."""
    row = await db.fetch_one(
        "SELECT g.id, g.status FROM rollerball2_matches m JOIN games g ON g.id = m.game_id"
        " WHERE m.fixture_id = ? AND g.status IN (?, ?)",
        (fixture_id, *OPEN_STATUSES),
    )
    return None if row is None else (row["id"], row["status"])


async def save_season_time(
    db: Database,
    season: Season,
    *,
    current_matchday: int,
    deadlines: dict[int, tuple[float, float]],
    paused_at: float | None,
    resumed_at: float | None,
    timer_event: str,
    due_at: float | None,
) -> Season:
    """A season's time in one transaction: the matchday whose deadline runs, each of
    `deadlines` (matchday -> (set deadline, deadline in force)), the pause, and its one
    deadline timer (`timer_event` at `due_at` for the current matchday; None while paused or
    over). The new timer is written before the season's old ones go (a timer firing now keeps
    its row until then, so the new one never takes its id); every other timer of the season
    goes, those of seasons made before one timer a season too. The caller holds the season's
    lock."""
    now = time.time()
    async with db.transaction() as conn:
        new_id = None
        if due_at is not None:
            payload = {"season": season.id, "matchday": current_matchday}
            new_id = await insert_timer(conn, TimerSpec(timer_event, due_at, payload), now=now)
        cursor = await conn.execute(
            "SELECT id, payload FROM timers WHERE event = ?", (timer_event,)
        )
        old = [
            (row["id"],)
            for row in await cursor.fetchall()
            if row["id"] != new_id and json.loads(row["payload"]).get("season") == season.id
        ]
        if old:
            await conn.executemany("DELETE FROM timers WHERE id = ?", old)
        await conn.execute(
            "UPDATE rollerball2_seasons SET current_matchday = ?, paused_at = ?, resumed_at = ?"
            " WHERE id = ?",
            (current_matchday, paused_at, resumed_at, season.id),
        )
        await conn.executemany(
            "UPDATE rollerball2_fixtures SET set_deadline = ?, deadline = ?"
            " WHERE season_id = ? AND matchday = ?",
            [
                (set_deadline, deadline, season.id, matchday)
                for matchday, (set_deadline, deadline) in sorted(deadlines.items())
            ],
        )
    fresh = await load_season(db, season.id)
    assert fresh is not None
    return fresh


@dataclass(frozen=True)
class WaitingFixture:
    """A fixture of the current matchday that a coach's team has still to play (/games)."""

    season: Season
    fixture: Fixture
    home: str
    away: str


async def fixtures_to_play(db: Database, user_id: int) -> list[WaitingFixture]:
    """The current matchday's fixtures of the teams `user_id` coaches that nobody has started
    or played yet, in running seasons (a fixture being played is a match of its own)."""
    rows = await db.fetch_all(
        "SELECT s.id AS season_key, f.*, NULL AS played_at, h.name AS home_name,"
        " a.name AS away_name FROM rollerball2_seasons s"
        " JOIN rollerball2_fixtures f ON f.season_id = s.id AND f.matchday = s.current_matchday"
        " JOIN rollerball2_teams h ON h.id = f.home_team_id"
        " JOIN rollerball2_teams a ON a.id = f.away_team_id"
        " WHERE (h.owner_id = ? OR a.owner_id = ?) AND f.how IS NULL AND f.game_id IS NULL"
        " ORDER BY f.deadline, f.id",
        (user_id, user_id),
    )
    found = []
    for row in rows:
        season = await load_season(db, row["season_key"])
        if season is None or season.over:
            continue
        found.append(
            WaitingFixture(
                season,
                _fixture(row),
                row["home_name"],
                row["away_name"],
            )
        )
    return found


async def seasons_waiting_for(db: Database, user_id: int) -> list[int]:
    """The running seasons that let vacations put their deadline off and whose current
    matchday has a fixture of a team the user coaches (their vacation may move its deadline)."""
    rows = await db.fetch_all(
        "SELECT DISTINCT s.id FROM rollerball2_seasons s"
        " JOIN rollerball2_fixtures f ON f.season_id = s.id AND f.matchday = s.current_matchday"
        " JOIN rollerball2_teams t ON t.id = f.home_team_id OR t.id = f.away_team_id"
        " WHERE t.owner_id = ? AND s.vacation_pauses = 1 AND s.paused_at IS NULL"
        " ORDER BY s.id",
        (user_id,),
    )
    return [row["id"] for row in rows]
