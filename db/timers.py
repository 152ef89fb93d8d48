"""Durable timers: deadlines, reminders and timeouts that survive a restart.

A timer is a row (event name, due time, JSON payload, and the match it belongs to, if any). The
dispatcher (host/timers.py) claims the earliest due one, runs its handler, then deletes it. The
claim is written before the handler runs, so a timer's effect happens at most once per due time
even when the database refuses the delete afterwards.

A claim names the process that made it (`Database.owner`). With several processes on one
PostgreSQL database (shards), each dispatcher may see the same timer due; the claim is one
conditional UPDATE inside a write transaction (one writer at a time, db/postgres.py), so exactly
one of them wins and fires it, the others see it taken. A claim whose process has stopped (it
died mid-handler) may be taken again by any process (`Database.abandoned`), at once and not only
at the next start-up; handlers check the game's version, so firing again is safe.

A process claims due timers in batches (`claim_due`: one UPDATE ... RETURNING of up to
CLAIM_BATCH rows), fires them one by one (or, for an event with a batch handler such as a
match's reminder, every neighbouring timer of that event in one call), each only if it is still
there and still its own (an earlier handler of the batch that wrote to the database may have
replaced a match's timers: the rest of the batch is then looked at again, in one query), and
deletes the fired ones in batches too (`delete_timers`): ten thousand due timers take a few
hundred statements, not thirty thousand (bench/database_backends.py). It claims nothing unless it is known to be
running (`Database.ensure_alive`: on PostgreSQL it holds its alive lock), so no other process
can take a claim it made as abandoned.

A match's timers are written in the same transaction as the move they follow (`replace_for_game`
inside db.games.save_move), so a crash can never leave a move without its reminder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from db.database import Connection, Database, Statement


@dataclass(frozen=True)
class Timer:
    id: int
    event: str
    due_at: float
    payload: dict[str, Any]
    game_id: int | None = None
    # When it was written (the position it waits on began), read with the claim: a handler
    # that needs it asks no query of its own.
    created_at: float | None = None


@dataclass(frozen=True)
class TimerSpec:
    """A timer to write: what fires, when (seconds since the epoch), with what payload."""

    event: str
    due_at: float
    payload: dict[str, Any]


def _timer(row: Any) -> Timer:
    return Timer(
        row["id"],
        row["event"],
        row["due_at"],
        json.loads(row["payload"]),
        row["game_id"],
        row["created_at"],
    )


INSERT = "INSERT INTO timers (event, due_at, payload, created_at, game_id) VALUES (?, ?, ?, ?, ?)"


def _row(spec: TimerSpec, now: float, game_id: int | None) -> tuple[object, ...]:
    """INSERT's values for a timer."""
    return (spec.event, spec.due_at, json.dumps(spec.payload, sort_keys=True), now, game_id)


async def insert_timer(
    conn: Connection, spec: TimerSpec, *, now: float, game_id: int | None = None
) -> int:
    """Every timer is written here, in `insert_timers` or by `replacing`'s statements (or
    moved by `move_timer`): the transaction notes its due time, and once it commits a dispatcher that would sleep past it
    wakes (host/timers.py)."""
    cursor = await conn.execute(f"{INSERT} RETURNING id", _row(spec, now, game_id))
    conn.timer_written(spec.due_at)
    return (await cursor.fetchone())["id"]


async def insert_timers(
    conn: Connection, timers: list[tuple[int | None, TimerSpec]], *, now: float
) -> None:
    """Many timers (game id, spec) in one statement, noted as `insert_timer` notes one."""
    await conn.executemany(INSERT, [_row(spec, now, game_id) for game_id, spec in timers])
    for _, spec in timers:
        conn.timer_written(spec.due_at)


async def move_timer(conn: Connection, timer_id: int, due_at: float) -> bool:
    """Move an unclaimed timer to `due_at`, noted as a new one."""
    cursor = await conn.execute(
        "UPDATE timers SET due_at = ? WHERE id = ? AND claimed_at IS NULL", (due_at, timer_id)
    )
    if cursor.rowcount == 1:
        conn.timer_written(due_at)
    return cursor.rowcount == 1


async def replace_for_game(
    conn: Connection, game_id: int, specs: list[TimerSpec], *, now: float
) -> None:
    """Inside the caller's transaction: the game's timers become exactly `specs`."""
    await conn.execute_all(replacing(game_id, specs, now=now))
    for spec in specs:
        conn.timer_written(spec.due_at)


def replacing(game_id: int, specs: list[TimerSpec], *, now: float) -> list[Statement]:
    """The statements that make a game's timers exactly `specs`, for a caller that runs them
    with its own (`Connection.execute_all`) and notes each spec's due time
    (`Connection.timer_written`), as `replace_for_game` does."""
    return [
        Statement("DELETE FROM timers WHERE game_id = ?", (game_id,)),
        *(Statement(INSERT, _row(spec, now, game_id)) for spec in specs),
    ]


async def replace_timer(
    conn: Connection, event: str, payload: dict[str, Any], due_at: float | None, *, now: float
) -> None:
    """Inside the caller's transaction: the one timer of `event` with exactly this payload (a
    user's digest: a unique index allows one) becomes one due at `due_at`, or none (None)."""
    text = json.dumps(payload, sort_keys=True)
    await conn.execute("DELETE FROM timers WHERE event = ? AND payload = ?", (event, text))
    if due_at is not None:
        await insert_timer(conn, TimerSpec(event, due_at, payload), now=now)


async def create_timer(
    db: Database,
    event: str,
    due_at: float,
    payload: dict[str, Any],
    *,
    now: float,
    game_id: int | None = None,
) -> Timer:
    async with db.transaction() as conn:
        timer_id = await insert_timer(
            conn, TimerSpec(event, due_at, payload), now=now, game_id=game_id
        )
    return Timer(timer_id, event, due_at, payload, game_id, now)


def _free(db: Database) -> str:
    """Unclaimed, or claimed by a process that has stopped."""
    return f"(claimed_at IS NULL OR {db.abandoned('claimed_by')})"


async def next_timer(db: Database) -> Timer | None:
    """The earliest timer no running process has claimed."""
    row = await db.fetch_one(f"SELECT * FROM timers WHERE {_free(db)} ORDER BY due_at, id LIMIT 1")
    return None if row is None else _timer(row)


CLAIM_BATCH = 200


async def claim_due(db: Database, *, now: float, limit: int | None = None) -> list[Timer]:
    """Claim for this process up to `limit` timers due at `now` that no running process has
    claimed, earliest first, in one statement."""
    await db.ensure_alive()
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE timers SET claimed_at = ?, claimed_by = ? WHERE id IN ("
            f" SELECT id FROM timers WHERE due_at <= ? AND {_free(db)}"
            " ORDER BY due_at, id LIMIT ?) RETURNING *",
            (now, db.owner, now, CLAIM_BATCH if limit is None else limit),
        )
        rows = await cursor.fetchall()
    return sorted((_timer(row) for row in rows), key=lambda timer: (timer.due_at, timer.id))


async def still_claimed(db: Database, timer_ids: list[int]) -> set[int]:
    """Which of these timers are still there and still claimed by this process (a handler
    fired before them in the same batch may have replaced their match's timers)."""
    if not timer_ids:
        return set()
    marks = ", ".join("?" for _ in timer_ids)
    rows = await db.fetch_all(
        f"SELECT id FROM timers WHERE id IN ({marks}) AND claimed_by = ?", (*timer_ids, db.owner)
    )
    return {row["id"] for row in rows}


async def delete_timers(db: Database, timer_ids: list[int]) -> None:
    """Delete fired timers, in one transaction: only rows this process still claims, since a
    handler may have replaced its match's timers and SQLite may have given a new, unclaimed
    timer the id of the one that fired."""
    if not timer_ids:
        return
    async with db.transaction() as conn:
        for start in range(0, len(timer_ids), 500):
            chunk = timer_ids[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            await conn.execute(
                f"DELETE FROM timers WHERE id IN ({marks}) AND claimed_by = ?", (*chunk, db.owner)
            )


async def unclaim_timers(db: Database, timer_ids: list[int]) -> None:
    """Give back claims this process took and will not fire (it is stopping): any process,
    this one's next start included, takes them again."""
    if not timer_ids:
        return
    marks = ", ".join("?" for _ in timer_ids)
    async with db.transaction() as conn:
        await conn.execute(
            f"UPDATE timers SET claimed_at = NULL, claimed_by = NULL"
            f" WHERE id IN ({marks}) AND claimed_by = ?",
            (*timer_ids, db.owner),
        )


async def claim_timer(db: Database, timer_id: int, *, now: float) -> bool:
    """Mark the timer as being fired by this process; False when another running process
    claimed it, or someone deleted it, first."""
    await db.ensure_alive()
    async with db.transaction() as conn:
        cursor = await conn.execute(
            f"UPDATE timers SET claimed_at = ?, claimed_by = ? WHERE id = ? AND {_free(db)}",
            (now, db.owner, timer_id),
        )
    return cursor.rowcount == 1


async def release_claims(db: Database) -> int:
    """At start-up: claims left by processes that stopped mid-handler are cleared (they would
    be taken again anyway; handlers are idempotent: they check the game's version). Claims of
    running processes stay."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE timers SET claimed_at = NULL, claimed_by = NULL"
            f" WHERE claimed_at IS NOT NULL AND {db.abandoned('claimed_by')}"
        )
    return cursor.rowcount


async def delete_timers_for(db: Database, event: str, **match: Any) -> int:
    """Delete the timers of `event` whose payload has every given key/value (e.g. team=3). For a
    match's timers use the game_id column instead (replace_for_game)."""
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


async def timers_for_game(db: Database, game_id: int) -> list[Timer]:
    rows = await db.fetch_all(
        "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, id", (game_id,)
    )
    return [_timer(row) for row in rows]


async def list_timers(db: Database, event: str | None = None) -> list[Timer]:
    if event is None:
        rows = await db.fetch_all("SELECT * FROM timers ORDER BY due_at, id")
    else:
        rows = await db.fetch_all(
            "SELECT * FROM timers WHERE event = ? ORDER BY due_at, id", (event,)
        )
    return [_timer(row) for row in rows]
