"""Whether a finished tournament's podium was posted (db/migrations/025_tournament_podium_and_teams.sql):
the mark written after the post, read by the start-up repair (host/podium.py)."""

from __future__ import annotations

import time

from db.database import Database


async def unposted(db: Database, guild_id: int | None = None) -> list[int]:
    """The finished tournaments (of one server, or of all) whose podium is not out, oldest
    first."""
    rows = await db.fetch_all(
        "SELECT id FROM tournaments WHERE status = 'finished' AND podium_posted_at IS NULL"
        + ("" if guild_id is None else " AND guild_id = ?")
        + " ORDER BY id",
        () if guild_id is None else (guild_id,),
    )
    return [row["id"] for row in rows]


async def is_posted(db: Database, tournament_id: int) -> bool:
    row = await db.fetch_one(
        "SELECT podium_posted_at FROM tournaments WHERE id = ?", (tournament_id,)
    )
    return row is None or row["podium_posted_at"] is not None


async def mark_posted(db: Database, tournament_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournaments SET podium_posted_at = ? WHERE id = ?", (time.time(), tournament_id)
        )
