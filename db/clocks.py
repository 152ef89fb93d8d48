"""Vacations (the time a user has banked, and the vacations taken) and the timer rows a paused
clock moves (docs/async-play.md). The arithmetic is host/clocks.py's; this module stores."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from db import timers as timer_store
from db.database import Connection, Database

Period = tuple[float, float]  # (start, end), seconds since the epoch


@dataclass(frozen=True)
class Balance:
    seconds: float  # banked, as of `as_of`
    as_of: float
    stored: bool = True


async def balance(db: Database, user_id: int) -> Balance | None:
    row = await db.fetch_one(
        "SELECT seconds, as_of FROM vacation_balances WHERE user_id = ?", (user_id,)
    )
    return None if row is None else Balance(row["seconds"], row["as_of"])


async def vacations(db: Database, user_id: int, *, since: float = 0.0) -> list[Period]:
    """The user's vacations that end after `since`, oldest first (indexed by user and end)."""
    rows = await db.fetch_all(
        "SELECT started_at, ends_at FROM vacations WHERE user_id = ? AND ends_at > ?"
        " ORDER BY started_at",
        (user_id, since),
    )
    return [(row["started_at"], row["ends_at"]) for row in rows]


async def vacations_of(
    db: Database, user_ids: list[int], *, since: float
) -> dict[int, list[Period]]:
    """Several users' vacations ending after `since` (one query), by user."""
    wanted = sorted(set(user_ids))
    found: dict[int, list[Period]] = {user_id: [] for user_id in wanted}
    if not wanted:
        return found
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetch_all(
        f"SELECT user_id, started_at, ends_at FROM vacations WHERE user_id IN ({marks})"
        " AND ends_at > ? ORDER BY started_at",
        (*wanted, since),
    )
    for row in rows:
        found[row["user_id"]].append((row["started_at"], row["ends_at"]))
    return found


async def current_vacation(db: Database, user_id: int, now: float) -> tuple[int, Period] | None:
    row = await db.fetch_one(
        "SELECT id, started_at, ends_at FROM vacations WHERE user_id = ? AND ends_at > ?"
        " AND started_at <= ? ORDER BY started_at DESC LIMIT 1",
        (user_id, now, now),
    )
    return None if row is None else (row["id"], (row["started_at"], row["ends_at"]))


async def start_vacation(
    db: Database, user_id: int, *, now: float, ends_at: float, balance_after: float
) -> bool:
    """Record a vacation from `now` to `ends_at` and the balance left, in one transaction; False
    (nothing written) if one is running already (two clicks at once start one)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "SELECT 1 FROM vacations WHERE user_id = ? AND ends_at > ? AND started_at <= ?",
            (user_id, now, now),
        )
        if await cursor.fetchone() is not None:
            return False
        await conn.execute(
            "INSERT INTO vacations (user_id, started_at, ends_at) VALUES (?, ?, ?)",
            (user_id, now, ends_at),
        )
        await _set_balance(conn, user_id, balance_after, now)
    return True


async def end_vacation(
    db: Database, user_id: int, vacation_id: int, *, now: float, balance_after: float
) -> bool:
    """End a running vacation now and return what was not used to the balance; False if it had
    ended meanwhile."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE vacations SET ends_at = ? WHERE id = ? AND user_id = ? AND ends_at > ?",
            (now, vacation_id, user_id, now),
        )
        if cursor.rowcount != 1:
            return False
        await _set_balance(conn, user_id, balance_after, now)
    return True


async def _set_balance(conn: Connection, user_id: int, seconds: float, as_of: float) -> None:
    await conn.execute(
        "INSERT INTO vacation_balances (user_id, seconds, as_of) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET seconds = excluded.seconds, as_of = excluded.as_of",
        (user_id, seconds, as_of),
    )


async def forget_user(conn: Connection, user_id: int) -> None:
    """Inside the caller's transaction (/privacy): the user's vacations and balance go."""
    await conn.execute("DELETE FROM vacations WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM vacation_balances WHERE user_id = ?", (user_id,))


# --- the timers a vacation moves ------------------------------------------------------------------


@dataclass(frozen=True)
class TimerRow:
    id: int
    event: str
    due_at: float
    created_at: float
    payload: dict[str, Any]
    game_id: int | None


def _timer_row(row: Any) -> TimerRow:
    return TimerRow(
        row["id"],
        row["event"],
        row["due_at"],
        row["created_at"],
        json.loads(row["payload"]),
        row["game_id"],
    )


async def timer_row(db: Database, timer_id: int) -> TimerRow | None:
    """A timer with its creation time (when the position it waits on began)."""
    row = await db.fetch_one("SELECT * FROM timers WHERE id = ?", (timer_id,))
    return None if row is None else _timer_row(row)


async def timers_of_games(db: Database, game_ids: list[int]) -> list[TimerRow]:
    """Every timer of these matches, earliest first (indexed by game)."""
    wanted = sorted(set(game_ids))
    if not wanted:
        return []
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetch_all(
        f"SELECT * FROM timers WHERE game_id IN ({marks}) ORDER BY due_at, id", wanted
    )
    return [_timer_row(row) for row in rows]


async def add_game_timer(
    db: Database, game_id: int, event: str, due_at: float, payload: dict[str, Any]
) -> None:
    """A timer of a match written outside a move (a postponed reminder or timeout): the match's
    next move replaces it with the timers of its new position, like any of its timers."""
    async with db.transaction() as conn:
        await timer_store.insert_timer(
            conn, timer_store.TimerSpec(event, due_at, payload), now=time.time(), game_id=game_id
        )


async def move_timer(db: Database, timer_id: int, due_at: float) -> bool:
    """Move an unclaimed timer to `due_at` (a vacation ended early)."""
    async with db.transaction() as conn:
        return await timer_store.move_timer(conn, timer_id, due_at)
