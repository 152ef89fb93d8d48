"""Key/value facts the bot keeps about itself."""

from __future__ import annotations

from db.database import Database


async def get_value(db: Database, key: str) -> str | None:
    row = await db.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
    return None if row is None else row["value"]


async def set_value(db: Database, key: str, value: str) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
