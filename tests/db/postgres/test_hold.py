"""A match's lock across the processes of a cluster: `bot.game_locks(game_id)` is this
process's asyncio lock plus the database's hold on the same key (db/postgres.py: an advisory
lock), so a click whose read-modify-write spans awaits (load, apply, save, post) waits for a
click on the same match in another process instead of computing from the same old state.

Each "process" here is a Database handle of its own (its own pools and connections) with its
own GameLocks, as two bot processes have."""

from __future__ import annotations

import asyncio
import json

import pytest

from db import games, postgres
from db.connect import open_database
from db.database import Database, LockTimeout
from host.locks import GameLocks
from ui import BUSY, STALE, UserError, user_message_for

pytestmark = pytest.mark.postgres


async def process(url: str) -> tuple[Database, GameLocks]:
    database = await open_database(url)
    await database.migrate()
    locks = GameLocks()
    locks.database = database
    return database, locks


@pytest.fixture
async def processes(postgres_url):
    """Two processes' (database, locks) on one new database, closed after the test."""
    pair = [await process(postgres_url), await process(postgres_url)]
    yield pair
    for database, _ in pair:
        await database.close()


async def click(database: Database, locks: GameLocks, game_id: int, clicker: int) -> int:
    """What the match host does with a click: lock, load, compute (awaiting on the way, as the
    host does while the computer replies), save the next version."""
    async with locks(game_id):
        stored = await games.load_game(database, game_id)
        assert stored is not None
        await asyncio.sleep(0.05)
        moves = json.loads(stored.state)["moves"]
        saved = await games.save_move(
            database,
            stored,
            state=json.dumps({"moves": [*moves, clicker]}),
            actor_id=clicker,
            action="roll",
            events=[f"click of {clicker}"],
        )
        return saved.version


async def test_clicks_on_one_match_in_two_processes_queue_and_all_apply(processes):
    """Without the hold both processes load version 0 and the second save is refused as stale
    (the player would hear "another move was saved first"); with it they take turns."""
    (first_db, first_locks), (second_db, second_locks) = processes
    game_id = await games.create_game(
        first_db,
        game="rocketball",
        guild_id=1,
        channel_id=2,
        players=[10, 20],
        state='{"moves": []}',
        status="active",
    )
    versions = await asyncio.gather(
        *(
            click(*((first_db, first_locks) if n % 2 else (second_db, second_locks)), game_id, n)
            for n in range(10)
        )
    )
    assert sorted(versions) == list(range(1, 11))
    stored = await games.load_game(first_db, game_id)
    assert sorted(json.loads(stored.state)["moves"]) == list(range(10))
    assert [version for version, *_ in await games.list_moves(first_db, game_id)] == list(
        range(1, 11)
    )


async def test_holds_on_different_matches_do_not_wait_for_each_other(processes):
    (_, first_locks), (_, second_locks) = processes
    other_match, same_match = second_locks(2), second_locks(1)
    async with first_locks(1):
        # the other process gets match 2 at once while match 1 is held
        await asyncio.wait_for(other_match.acquire(), 2)
        await other_match.release()
        # and waits for match 1
        waiting = asyncio.create_task(same_match.acquire())
        await asyncio.sleep(0.2)
        assert not waiting.done()
    await asyncio.wait_for(waiting, 2)
    await same_match.release()


async def test_a_cancelled_click_leaves_no_lock_behind(processes):
    """A click cancelled while holding (a shutdown mid-move) or while waiting frees the match."""
    (_, first_locks), (_, second_locks) = processes

    async def hold_forever(locks: GameLocks) -> None:
        async with locks(7):
            await asyncio.sleep(3600)

    holder = asyncio.create_task(hold_forever(first_locks))
    await asyncio.sleep(0.2)
    lock = second_locks(7)
    waiter = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0.2)
    waiter.cancel()
    holder.cancel()
    await asyncio.gather(holder, waiter, return_exceptions=True)
    for locks in (first_locks, second_locks):
        lock = locks(7)
        await asyncio.wait_for(lock.acquire(), 2)
        await lock.release()


async def test_a_hold_that_lasts_too_long_is_a_clear_answer_and_changes_nothing(
    monkeypatch, postgres_url
):
    """Waiting longer than the database's lock_timeout for another process's move ends with a
    message to the player (not an unexpected error) and leaves this process's lock free."""
    import db.postgres

    monkeypatch.setattr(db.postgres, "HOLD_TIMEOUT", "200ms")  # read when a process connects
    (first_db, first_locks), (second_db, second_locks) = (
        await process(postgres_url),
        await process(postgres_url),
    )
    lock = second_locks(9)
    async with first_locks(9):
        with pytest.raises(UserError) as refused:
            await lock.acquire()
    assert str(refused.value) == BUSY
    assert isinstance(refused.value.__cause__, LockTimeout)
    await asyncio.wait_for(lock.acquire(), 2)  # nothing left held
    await lock.release()
    await first_db.close()
    await second_db.close()


def test_a_move_refused_as_stale_is_told_to_the_player():
    assert user_message_for(games.StaleGameError("game 1 is no longer at version 3")) == STALE


async def test_more_clicks_than_hold_connections_queue_instead_of_failing(
    postgres_url, monkeypatch
):
    """Each click on a match holds a connection of the process's hold pool for its whole
    course; clicks on more matches at once than the pool has connections wait for one in turn
    (a queue in this process, not a stalled server) instead of being told the database is
    unavailable once ACQUIRE_TIMEOUT passes."""
    monkeypatch.setattr(postgres, "HOLD_POOL_MAX_SIZE", 2)
    database, _ = await process(postgres_url)
    try:
        course = postgres.ACQUIRE_TIMEOUT + 0.5  # each click holds its match this long

        async def click(game_id: int) -> int:
            async with database.hold(f"lock:{game_id}"):
                await asyncio.sleep(course)
            return game_id

        assert sorted(await asyncio.gather(*(click(n) for n in range(3)))) == [0, 1, 2]
    finally:
        await database.close()
