"""A Volleyball league's played matches' records (db/migrations/027_volleyball_records.sql):
written with the round that played them, read by their replays (cogs/volleyball/replays.py)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from db.database import Connection, Database


@dataclass(frozen=True)
class NewRecord:
    """A played match's record to write with its round."""

    match_number: int
    home: str
    away: str
    record: str


@dataclass(frozen=True)
class StoredRecord:
    id: int
    league_id: int
    season: int
    round_number: int
    match_number: int
    home: str
    away: str
    record: str
    created_at: float


def _stored(row: Any) -> StoredRecord:
    return StoredRecord(
        id=row["id"],
        league_id=row["league_id"],
        season=row["season"],
        round_number=row["round_number"],
        match_number=row["match_number"],
        home=row["home"],
        away=row["away"],
        record=row["record"],
        created_at=float(row["created_at"]),
    )


async def write_records(
    conn: Connection, league_id: int, season: int, round_number: int, rows: Sequence[NewRecord]
) -> None:
    """The round's records, in the transaction that saves the round."""
    now = repr(time.time())  # seconds since the epoch, as text (the column is the dialects' TEXT)
    await conn.executemany(
        "INSERT INTO volleyball_records (league_id, season, round_number, match_number, home,"
        " away, record, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (league_id, season, round_number, r.match_number, r.home, r.away, r.record, now)
            for r in rows
        ],
    )


async def record(db: Database, record_id: int) -> StoredRecord | None:
    row = await db.fetch_one("SELECT * FROM volleyball_records WHERE id = ?", (record_id,))
    return None if row is None else _stored(row)


async def records_of_teams(
    db: Database, league_id: int, teams: Sequence[str], limit: int
) -> list[StoredRecord]:
    """The latest records of matches `teams` (names as they played) played in, newest first."""
    if not teams:
        return []
    marks = ", ".join("?" for _ in teams)
    rows = await db.fetch_all(
        f"SELECT * FROM volleyball_records WHERE league_id = ? AND (home IN ({marks})"
        f" OR away IN ({marks})) ORDER BY id DESC LIMIT ?",
        (league_id, *teams, *teams, limit),
    )
    return [_stored(row) for row in rows]
