"""Rollerball II's teams: a team's roster, owner and version, its name unique per server
(whatever its case), and which open match it plays."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from db.database import Connection, Database, IntegrityError
from rules.rollerball2.roster import Roster
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


class FixtureTaken(Exception):
    """A season fixture has its result already, or another open match is it."""

    def __init__(self, fixture_id: int) -> None:
        super().__init__(f"fixture {fixture_id} is settled or being played")
        self.fixture_id = fixture_id


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
