"""A Rollerball II cup's teams (db/migrations/025_tournament_podium_and_teams.sql, 029): the
team each coach entered the tournament with (stored with his entry: db/tournaments.py
`join`)."""

from __future__ import annotations

from db.database import Connection, Database


async def teams(db: Database, tournament_id: int) -> dict[int, int]:
    """Each coach's team: user id -> team id."""
    rows = await db.fetch_all(
        "SELECT user_id, team_id FROM tournament_teams WHERE tournament_id = ?",
        (tournament_id,),
    )
    return {row["user_id"]: row["team_id"] for row in rows}


async def team_names(db: Database, tournament_id: int) -> dict[int, str]:
    """Each coach's team's name: user id -> name (user text: shown as text)."""
    rows = await db.fetch_all(
        "SELECT e.user_id, t.name FROM tournament_teams e"
        " JOIN rollerball2_teams t ON t.id = e.team_id WHERE e.tournament_id = ?",
        (tournament_id,),
    )
    return {row["user_id"]: row["name"] for row in rows}


async def forget_user(conn: Connection, user_id: int) -> None:
    """/privacy: the user's entries leave every cup (their team is forgotten with them)."""
    await conn.execute("DELETE FROM tournament_teams WHERE user_id = ?", (user_id,))
