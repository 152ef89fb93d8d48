"""The Volleyball orders editor's drafts (db/migrations/008_volleyball_drafts.sql): the
line-ups a manager builds with `/volleyball orders edit`, kept between clicks and across
restarts. A draft is never orders: rounds read only volleyball_orders (db/volleyball.py), and
a draft becomes orders only through the league service's submit, like any other orders.
"""

from __future__ import annotations

from dataclasses import dataclass

from db.database import Connection, Database


@dataclass(frozen=True)
class StoredDraft:
    team: str
    season: int
    round_number: int
    draft: str  # JSON, cogs/volleyball/editor.py's Draft


async def load_draft(db: Database, league_id: int, user_id: int) -> StoredDraft | None:
    row = await db.fetch_one(
        "SELECT team, season, round_number, draft FROM volleyball_drafts"
        " WHERE league_id = ? AND user_id = ?",
        (league_id, user_id),
    )
    if row is None:
        return None
    return StoredDraft(row["team"], int(row["season"]), int(row["round_number"]), row["draft"])


async def save_draft(
    db: Database,
    league_id: int,
    user_id: int,
    *,
    team: str,
    season: int,
    round_number: int,
    draft: str,
) -> None:
    """Store (replace) the manager's draft in the league."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO volleyball_drafts (league_id, user_id, team, season, round_number,"
            " draft, updated_at) VALUES (?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)"
            " ON CONFLICT (league_id, user_id) DO UPDATE SET team = excluded.team,"
            " season = excluded.season, round_number = excluded.round_number,"
            " draft = excluded.draft, updated_at = excluded.updated_at",
            (league_id, user_id, team, season, round_number, draft),
        )


async def delete_draft(db: Database, league_id: int, user_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM volleyball_drafts WHERE league_id = ? AND user_id = ?",
            (league_id, user_id),
        )


async def drafts_of_user(db: Database, user_id: int) -> int:
    """How many drafts the user has (/privacy says so)."""
    row = await db.fetch_one(
        "SELECT COUNT(*) AS drafts FROM volleyball_drafts WHERE user_id = ?", (user_id,)
    )
    return int(row["drafts"]) if row is not None else 0


async def forget_user(conn: Connection, user_id: int) -> None:
    """/privacy, inside its transaction: the user's drafts go."""
    await conn.execute("DELETE FROM volleyball_drafts WHERE user_id = ?", (user_id,))
