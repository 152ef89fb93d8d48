"""Rollerball II's seasons: their teams, fixtures and matchdays, the deadline clock of the
current matchday, and what waits for a manager."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from db.database import Database, IntegrityError
from db.rollerball2.teams import OPEN_STATUSES, name_key
from db.timers import TimerSpec, insert_timer
from rules.rollerball2.roster import Roster
from rules.rollerball2.state import roster_to_json

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
    posted_matchday: int = 0  # the last matchday whose results were posted

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
        row["posted_matchday"],
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


async def seasons_unposted(db: Database, guild_id: int | None = None) -> list[int]:
    """The seasons (of one server, or of all) with a matchday settled whose results are not
    posted yet (a crash came between the two, or a missing permission held them back)."""
    rows = await db.fetch_all(
        "SELECT id FROM rollerball2_seasons WHERE posted_matchday < current_matchday - 1"
        + ("" if guild_id is None else " AND guild_id = ?")
        + " ORDER BY id",
        () if guild_id is None else (guild_id,),
    )
    return [row["id"] for row in rows]


async def mark_posted(db: Database, season_id: int, matchday: int) -> None:
    """The matchday's results were posted (once: only ever forward)."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE rollerball2_seasons SET posted_matchday = ?"
            " WHERE id = ? AND posted_matchday < ?",
            (matchday, season_id, matchday),
        )


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
