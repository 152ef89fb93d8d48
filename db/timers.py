"""Durable timers: deadlines, reminders and timeouts that survive a restart.

A timer is a row (event name, due time, JSON payload). The dispatcher (cogs/timers.py) sleeps until
the earliest one, runs its handler and only then deletes it, so a crash mid-handler fires it again
on the next start: handlers must be idempotent (check the game's state before acting).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from db.database import Database


@dataclass(frozen=True)
class Timer:
    id: int
    event: str
    due_at: float
    payload: dict[str, Any]


def _timer(row: Any) -> Timer:
    return Timer(row["id"], row["event"], row["due_at"], json.loads(row["payload"]))


async def create_timer(
    db: Database, event: str, due_at: float, payload: dict[str, Any], *, now: float
) -> Timer:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO timers (event, due_at, payload, created_at) VALUES (?, ?, ?, ?)",
            (event, due_at, json.dumps(payload, sort_keys=True), now),
        )
    assert cursor.lastrowid is not None
    return Timer(cursor.lastrowid, event, due_at, payload)


async def next_timer(db: Database) -> Timer | None:
    row = await db.fetch_one("SELECT * FROM timers ORDER BY due_at, id LIMIT 1")
    return None if row is None else _timer(row)


async def delete_timer(db: Database, timer_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM timers WHERE id = ?", (timer_id,))


async def delete_timers_for(db: Database, event: str, **match: Any) -> int:
    """Delete the timers of `event` whose payload has every given key/value (e.g. game_id=3)."""
    rows = await db.fetch_all("SELECT * FROM timers WHERE event = ?", (event,))
    doomed = [
        row["id"]
        for row in rows
        if all(json.loads(row["payload"]).get(k) == v for k, v in match.items())
    ]
    if doomed:
        async with db.transaction() as conn:
            await conn.executemany("DELETE FROM timers WHERE id = ?", [(i,) for i in doomed])
    return len(doomed)


async def list_timers(db: Database, event: str | None = None) -> list[Timer]:
    if event is None:
        rows = await db.fetch_all("SELECT * FROM timers ORDER BY due_at, id")
    else:
        rows = await db.fetch_all(
            "SELECT * FROM timers WHERE event = ? ORDER BY due_at, id", (event,)
        )
    return [_timer(row) for row in rows]
