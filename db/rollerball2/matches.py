"""Rollerball II's matches: the teams written in the transaction that creates a match, the
result, the rosters' carry-over and the statistics rows in the one that saves its last move,
and a finished match's stored scoresheet."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

from db.database import Connection, Database
from db.rollerball2.scoresheets import result_from_json, result_to_json
from db.rollerball2.stats import CountedMatch, count_match
from db.rollerball2.teams import OPEN_STATUSES, FixtureTaken, TeamBusy
from rules.rollerball2.roster import Roster
from rules.rollerball2.scoresheet import MatchResult
from rules.rollerball2.state import roster_from_json, roster_to_json

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
    open match (the transaction holds the write lock, so two of these cannot both pass);
    FixtureTaken if the season fixture it is to be (`fixture_id`) has its result already or
    another open match is it. The caller holds the fixture's season's lock, under which a
    deadline settles the fixture: the fixture read under that lock is still the fixture here."""
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
    if fixture_id is not None:
        cursor = await conn.execute(
            "SELECT f.how, (SELECT m.game_id FROM rollerball2_matches m JOIN games g"
            " ON g.id = m.game_id WHERE m.fixture_id = f.id AND g.status IN (?, ?)"
            " AND m.game_id != ? LIMIT 1) AS open_game FROM rollerball2_fixtures f WHERE f.id = ?",
            (*OPEN_STATUSES, game_id, fixture_id),
        )
        row = await cursor.fetchone()
        if row is None or row["how"] is not None or row["open_game"] is not None:
            raise FixtureTaken(fixture_id)
    await conn.execute(
        "INSERT INTO rollerball2_matches (game_id, guild_id, home_team_id, away_team_id, mode,"
        " fixture_id) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, guild_id, home_team_id, away_team_id, mode, fixture_id),
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
