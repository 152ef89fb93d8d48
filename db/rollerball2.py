"""Rollerball II's own tables: teams, the matches they play, seasons and their fixtures.

Every change to a team checks and bumps its version, so two commands at once never lose one
of their changes. A match's teams are written in the transaction that creates the match (and a
team already in an open match refuses it there, not in a check before); its result, the rosters'
carry-over and a season fixture's score in the transaction that saves its last move.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from typing import Any

from db.database import Connection, Database, IntegrityError
from db.timers import TimerSpec, insert_timer
from rules.rollerball2 import Absence, MatchResult, PlayerLine, Roster, TeamSheet
from rules.rollerball2.scoresheet import Moment
from rules.rollerball2.state import roster_from_json, roster_to_json

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


@dataclass(frozen=True)
class MatchTeams:
    game_id: int
    home_team_id: int
    away_team_id: int
    mode: str
    fixture_id: int | None


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


async def match_teams(db: Database, game_id: int) -> MatchTeams | None:
    row = await db.fetch_one("SELECT * FROM rollerball2_matches WHERE game_id = ?", (game_id,))
    if row is None:
        return None
    return MatchTeams(
        row["game_id"], row["home_team_id"], row["away_team_id"], row["mode"], row["fixture_id"]
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
    after it (`rosters`: team id -> roster with the carry-over), and the season fixture's score
    if the match was one (only if the fixture has no result yet: a fixture counts once)."""
    winner = result.winner or "draw"
    await conn.execute(
        "UPDATE rollerball2_matches SET home_goals = ?, away_goals = ?, winner = ?, result = ?,"
        " finished_at = ? WHERE game_id = ? AND result IS NULL",
        (
            result.home_score,
            result.away_score,
            winner,
            result_to_json(result),
            time.time(),
            game_id,
        ),
    )
    for team_id, roster in rosters.items():
        await conn.execute(
            "UPDATE rollerball2_teams SET roster = ?, version = version + 1,"
            " updated_at = CURRENT_TIMESTAMP WHERE id = ?",
            (json.dumps(roster_to_json(roster)), team_id),
        )
    await conn.execute(
        "UPDATE rollerball2_fixtures SET game_id = ?, home_goals = ?, away_goals = ?, how = ?"
        " WHERE how IS NULL AND id = (SELECT fixture_id FROM rollerball2_matches WHERE game_id = ?)",
        (game_id, result.home_score, result.away_score, how, game_id),
    )


async def roster_in(conn: Connection, team_id: int) -> Roster | None:
    """A team's current roster, read inside the caller's transaction."""
    cursor = await conn.execute("SELECT roster FROM rollerball2_teams WHERE id = ?", (team_id,))
    row = await cursor.fetchone()
    return None if row is None else roster_from_json(json.loads(row[0]))


@dataclass(frozen=True)
class StoredResult:
    game_id: int
    home_team_id: int
    away_team_id: int
    result: MatchResult  # sheets carry the teams' current names (a renamed team keeps its past)
    finished_at: float
    fixture_id: int | None


async def results(db: Database, *, guild_id: int, team_id: int | None = None) -> list[StoredResult]:
    """Finished matches of a server (or of one team), oldest first."""
    sql = (
        "SELECT m.*, h.name AS home_name, a.name AS away_name FROM rollerball2_matches m"
        " JOIN rollerball2_teams h ON h.id = m.home_team_id"
        " JOIN rollerball2_teams a ON a.id = m.away_team_id"
        " WHERE m.guild_id = ? AND m.result IS NOT NULL"
    )
    parameters: tuple[object, ...] = (guild_id,)
    if team_id is not None:
        sql += " AND (m.home_team_id = ? OR m.away_team_id = ?)"
        parameters += (team_id, team_id)
    rows = await db.fetch_all(sql + " ORDER BY m.finished_at, m.game_id", parameters)
    found = []
    for row in rows:
        result = result_from_json(row["result"])
        result.home.team, result.away.team = row["home_name"], row["away_name"]
        found.append(
            StoredResult(
                row["game_id"],
                row["home_team_id"],
                row["away_team_id"],
                result,
                row["finished_at"],
                row["fixture_id"],
            )
        )
    return found


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

    def deadline(self, matchday: int) -> float:
        return self.starts_at + matchday * self.hours * 3600


@dataclass(frozen=True)
class Fixture:
    id: int
    season_id: int
    matchday: int
    home_team_id: int
    away_team_id: int
    deadline: float
    game_id: int | None
    home_goals: int | None
    away_goals: int | None
    how: str | None  # None until played; "played" or "simulated"


def _season(row: Any) -> Season:
    return Season(
        row["id"],
        row["guild_id"],
        row["channel_id"],
        row["name"],
        row["starts_at"],
        row["hours"],
        row["matchdays"],
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
) -> Season:
    """Store a season, its fixtures (matchdays of (home id, away id)), a deadline timer per
    matchday and its teams' rosters for the new season, in one transaction. TeamInSeason if a
    team still has fixtures to play elsewhere; SeasonNameTaken for a name already used."""
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
                " created_by, starts_at, hours, matchdays, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    name,
                    name_key(name),
                    created_by,
                    starts_at,
                    hours,
                    len(schedule),
                ),
            )
            season_id = (await cursor.fetchone())["id"]
            season = Season(season_id, guild_id, channel_id, name, starts_at, hours, len(schedule))
            for matchday, fixtures in enumerate(schedule, start=1):
                deadline = season.deadline(matchday)
                await conn.executemany(
                    "INSERT INTO rollerball2_fixtures (season_id, matchday, home_team_id,"
                    " away_team_id, deadline) VALUES (?, ?, ?, ?, ?)",
                    [(season_id, matchday, home, away, deadline) for home, away in fixtures],
                )
                await insert_timer(
                    conn,
                    TimerSpec(timer_event, deadline, {"season": season_id, "matchday": matchday}),
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


async def fixtures_of(db: Database, season_id: int, matchday: int | None = None) -> list[Fixture]:
    sql = "SELECT * FROM rollerball2_fixtures WHERE season_id = ?"
    parameters: tuple[object, ...] = (season_id,)
    if matchday is not None:
        sql += " AND matchday = ?"
        parameters += (matchday,)
    rows = await db.fetch_all(sql + " ORDER BY matchday, id", parameters)
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
        "SELECT * FROM rollerball2_fixtures WHERE home_team_id = ? AND away_team_id = ?"
        " AND how IS NULL ORDER BY deadline, id LIMIT 1",
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
