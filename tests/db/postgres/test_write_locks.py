"""PostgreSQL's write locks (db/postgres.py): a match's own writes (`transaction(key=...)`,
db/games.py `match_key`) wait only for the same match's and for the writes several matches
share, so a slow move on one match never holds up a move on another; what they share keeps
one writer at a time.

Each "process" is a Database handle of its own (its own pools and connections), as two shard
processes of a cluster have."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from db import games
from db.connect import open_database
from db.database import Database
from db.games import StaleGameError, match_key

pytestmark = pytest.mark.postgres

# Long enough that a write waiting behind it would be seen waiting, short against the test.
HELD_SECONDS = 1.0


@pytest.fixture
async def pair(postgres_url):
    """Two processes' databases on one new database, closed after the test."""
    first = await open_database(postgres_url)
    await first.migrate()
    second = await open_database(postgres_url)
    yield first, second
    await first.close()
    await second.close()


async def new_match(db: Database) -> games.StoredGame:
    game_id = await games.create_game(
        db,
        game="rocketball",
        guild_id=1,
        channel_id=2,
        players=[10, 20],
        state='{"moves": []}',
        status="active",
    )
    stored = await games.load_game(db, game_id)
    assert stored is not None
    return stored


async def move(db: Database, stored: games.StoredGame, clicker: int) -> games.StoredGame:
    moves = json.loads(stored.state)["moves"]
    return await games.save_move(
        db,
        stored,
        state=json.dumps({"moves": [*moves, clicker]}),
        actor_id=clicker,
        action="roll",
        events=[f"click of {clicker}"],
    )


async def test_a_long_write_to_one_match_does_not_hold_up_a_move_on_another(pair):
    """Before, every write transaction of the cluster took one lock: match B's move waited
    for match A's whole transaction (at 50 clicks at once, past the statement timeout)."""
    first, second = pair
    match_a, match_b = await new_match(first), await new_match(first)
    started = asyncio.Event()

    async def move_b() -> games.StoredGame:
        await started.wait()
        return await move(second, match_b, 20)

    other = asyncio.ensure_future(move_b())

    async def hold_a() -> bool:
        async with first.transaction(key=match_key(match_a.id)) as conn:
            await conn.execute(
                "UPDATE games SET updated_at = CURRENT_TIMESTAMP WHERE id = ?", (match_a.id,)
            )
            started.set()
            done, _ = await asyncio.wait({other}, timeout=HELD_SECONDS)
        return bool(done)

    assert await hold_a(), "match B's move waited for match A's transaction"
    assert (await other).version == 1


async def test_writes_to_one_match_and_shared_writes_still_take_turns(pair):
    """The same match's writes wait for each other, and a transaction without a key (what
    matches share: results, ratings, timers claimed) waits for a match's and is waited for."""
    first, second = pair
    match = await new_match(first)
    for held, waiting in (
        (match_key(match.id), match_key(match.id)),
        (match_key(match.id), None),
        (None, match_key(match.id)),
    ):
        started = asyncio.Event()

        async def write(key: str | None = waiting, ready: asyncio.Event = started) -> None:
            await ready.wait()
            async with second.transaction(key=key) as conn:
                await conn.execute("SELECT 1")

        other = asyncio.ensure_future(write())

        async def hold(
            writing: asyncio.Future, key: str | None = held, ready: asyncio.Event = started
        ) -> bool:
            async with first.transaction(key=key) as conn:
                await conn.execute("SELECT 1")
                ready.set()
                done, _ = await asyncio.wait({writing}, timeout=0.3)
            return bool(done)

        assert not await hold(other), f"{waiting!r} did not wait for {held!r}"
        await other  # and it runs once the first is done


async def test_two_processes_saving_one_version_of_a_match_apply_once(pair):
    """Without the match's hold (host/locks.py) as a second guard: two processes that both
    read version 0 and save a move on it store one; the other is told it was stale."""
    first, second = pair
    stored = await new_match(first)
    results = await asyncio.gather(
        move(first, stored, 10), move(second, stored, 20), return_exceptions=True
    )
    saved = [r for r in results if isinstance(r, games.StoredGame)]
    stale = [r for r in results if isinstance(r, StaleGameError)]
    assert len(saved) == 1 and len(stale) == 1, results
    rows = await first.fetch_all("SELECT version FROM game_moves WHERE game_id = ?", (stored.id,))
    assert [row["version"] for row in rows] == [1]


@pytest.mark.parametrize("where", ["in the block", "at its statement", "waiting for its lock"])
async def test_a_transaction_cancelled_by_a_stop_ends_without_an_error_logged(pair, caplog, where):
    """A bot stopped while a task was inside a write transaction (seen in a CI run: a podium
    being posted at a SIGTERM) gave its connection back still in the transaction; asyncpg
    rolled it back on reuse, logging "Resetting connection with an active transaction" at
    ERROR, which an operator reads as a fault. The connection of a transaction cut short is
    closed (the server rolls back) and nothing is written or logged."""
    db, _ = pair
    stored = await new_match(db)
    began = asyncio.Event()

    async def cut_short() -> None:
        async with db.transaction(key=match_key(stored.id)) as conn:
            await conn.execute("UPDATE games SET version = 99 WHERE id = ?", (stored.id,))
            began.set()
            if where == "in the block":
                await asyncio.sleep(3600)
            await conn.execute("SELECT pg_sleep(3600)")

    async def hold_the_match() -> None:
        async with db.transaction(key=match_key(stored.id)) as conn:
            await conn.execute("SELECT 1")
            began.set()
            await asyncio.sleep(3600)

    holder = None
    if where == "waiting for its lock":  # its BEGIN is in, its lock still to come
        holder = asyncio.create_task(hold_the_match())
        await began.wait()
        began.clear()
    task = asyncio.create_task(cut_short())
    if holder is None:
        await began.wait()
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    if holder is not None:
        holder.cancel()
        with pytest.raises(asyncio.CancelledError):
            await holder
    for _ in range(3):  # the pool's connections in use again: nothing was written
        again = await games.load_game(db, stored.id)
        assert again is not None and again.version == 0
    await asyncio.sleep(0.1)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
