"""The timer dispatcher: overdue timers fire at start-up exactly once, later ones at their time,
and a timer survives a handler that crashes no further than being fired once; on both backends
(the `database_target` parameter, tests/conftest.py)."""

import asyncio
import logging
import time

import pytest

from db import timers as timer_store
from db.connect import open_database
from db.database import DatabaseUnavailable
from host.locks import SHUTTING_DOWN, ShuttingDown
from host.timers import STOP_SECONDS, TimerService


async def wait_until(predicate, timeout=3.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


async def test_overdue_timers_fire_once_at_start_and_are_deleted(db):
    now = time.time()
    await timer_store.create_timer(db, "ping", now - 60, {"n": 1}, now=now - 120)
    await timer_store.create_timer(db, "ping", now - 30, {"n": 2}, now=now - 120)
    fired = []
    dispatcher = TimerService(db)

    async def handler(timer):
        fired.append(timer.payload["n"])

    dispatcher.register("ping", handler)
    dispatcher.start()
    await wait_until(lambda: len(fired) == 2)
    await asyncio.sleep(0.1)
    await dispatcher.stop()
    assert fired == [1, 2]
    assert await timer_store.list_timers(db) == []


async def test_due_timers_of_a_batch_event_reach_its_handler_together_in_due_order(db):
    now = time.time()
    for n, event in enumerate(["many", "many", "one", "many", "many"]):
        await timer_store.create_timer(db, event, now - 60 + n, {"n": n}, now=now - 120)
    calls = []
    dispatcher = TimerService(db)

    async def batch(timers):
        calls.append([t.payload["n"] for t in timers])
        assert all(t.created_at == pytest.approx(now - 120) for t in timers)

    async def single(timer):
        calls.append(timer.payload["n"])

    dispatcher.register_batch("many", batch)
    dispatcher.register("one", single)
    dispatcher.start()
    await wait_until(lambda: len(calls) == 3)
    await asyncio.sleep(0.1)
    await dispatcher.stop()
    # the run before the other event's timer, that timer, then the run after it: due order
    assert calls == [[0, 1], 2, [3, 4]]
    assert await timer_store.list_timers(db) == []


async def test_a_timer_scheduled_later_wakes_the_dispatcher_at_its_time(db):
    fired = []
    dispatcher = TimerService(db)

    async def handler(timer):
        fired.append(time.monotonic())

    dispatcher.register("soon", handler)
    dispatcher.start()
    started = time.monotonic()
    await asyncio.sleep(0.05)  # the dispatcher is asleep with nothing to do
    await dispatcher.schedule("soon", 0.2, {})
    await wait_until(lambda: fired)
    await dispatcher.stop()
    assert 0.2 <= fired[0] - started < 1.5


async def test_a_timer_written_in_any_transaction_wakes_the_sleeping_dispatcher(db):
    """A move writes its timers in its own transaction (db/games.py save_move), not through
    `schedule`: a timer due sooner than the dispatcher's next look still fires at its time,
    and one due later does not wake it."""
    fired = []
    dispatcher = TimerService(db, recheck_seconds=3600)

    async def handler(timer):
        fired.append((timer.event, time.monotonic()))

    dispatcher.register("soon", handler)
    dispatcher.register("later", handler)
    now = time.time()
    await timer_store.create_timer(db, "later", now + 3000, {}, now=now)
    dispatcher.start()
    await asyncio.sleep(0.2)  # asleep until the later timer, 50 minutes away
    async with db.transaction() as conn:
        written = time.time()
        await timer_store.insert_timer(
            conn, timer_store.TimerSpec("soon", written + 0.3, {}), now=written
        )
    started = time.monotonic()
    await wait_until(lambda: fired, timeout=3.0)
    await dispatcher.stop()
    assert fired[0][0] == "soon" and 0.2 <= fired[0][1] - started < 1.5


async def test_a_crashing_handler_is_logged_and_the_timer_not_retried_forever(db, caplog):
    dispatcher = TimerService(db)
    calls = []

    async def handler(timer):
        calls.append(timer.id)
        raise RuntimeError("boom")

    dispatcher.register("bad", handler)
    dispatcher.start()
    await dispatcher.schedule("bad", 0, {})
    await wait_until(lambda: calls)
    await asyncio.sleep(0.1)
    await dispatcher.stop()
    assert len(calls) == 1
    assert "handler failed" in caplog.text
    assert await timer_store.list_timers(db) == []


async def test_a_handler_that_meets_a_database_outage_fires_again_once_it_answers(db, caplog):
    """Seen in the 45-minute chaos run: a season's deadline met PostgreSQL shutting down halfway
    through its handler; the dispatcher logged "handler failed" with a traceback and deleted the
    timer as fired, so the matchday waited for the next start. An outage is no failure of the
    handler: its timer, and the rest of its batch, fire again once the database answers (the
    handlers are idempotent, as for a crash), and the log says so in a line."""
    outage = [1]
    calls: list[int] = []

    async def handler(timer):
        calls.append(timer.payload["n"])
        if timer.payload["n"] == 1 and outage[0]:
            outage[0] -= 1
            raise DatabaseUnavailable("PostgreSQL: the database system is shutting down")

    now = time.time()
    for n in (1, 2):
        await timer_store.create_timer(db, "deadline", now - 10 + n, {"n": n}, now=now - 60)
    dispatcher = TimerService(db)
    dispatcher.register("deadline", handler)
    with caplog.at_level(logging.INFO):
        dispatcher.start()
        await wait_until(lambda: calls.count(1) == 2 and 2 in calls, timeout=5.0)
        await asyncio.sleep(0.3)
        await dispatcher.stop()
    assert calls == [1, 1, 2]
    assert await timer_store.list_timers(db) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text
    assert "shutting down" in caplog.text


async def test_a_timer_fires_once_while_the_database_refuses_writes(db, monkeypatch, caplog):
    """With a locked or read-only database the dispatcher posted the same
    reminder every few seconds, because the handler ran before a delete that kept failing.
    Now a timer is claimed before its handler runs; while the claim cannot be written nothing
    fires, the dispatcher backs off and says once what is wrong."""
    import sqlite3

    import asyncpg

    dispatcher = TimerService(db)
    calls = []

    async def handler(timer):
        calls.append(timer.id)

    async def refuse(*args, **kwargs):
        if db.backend == "postgres":
            raise asyncpg.ReadOnlySQLTransactionError("readonly database: in recovery")
        raise sqlite3.OperationalError("attempt to write a readonly database")

    dispatcher.register("remind", handler)
    await timer_store.create_timer(db, "remind", time.time() - 1, {}, now=time.time())
    monkeypatch.setattr(timer_store, "delete_timers", refuse)
    monkeypatch.setattr(timer_store, "claim_due", refuse)
    dispatcher.start()
    await asyncio.sleep(6.5)
    await dispatcher.stop()
    assert len(calls) <= 1
    assert caplog.text.count("readonly database") == 1


@pytest.mark.postgres
async def test_two_processes_fire_every_due_timer_exactly_once(postgres_url, monkeypatch):
    """Two bot processes (shards) on one PostgreSQL database, each with its own timer
    dispatcher, both see the same 30 timers due; every timer fires once in all. (Small claim
    batches, so that both take part.)"""
    monkeypatch.setattr(timer_store, "CLAIM_BATCH", 3)
    first, second = await open_database(postgres_url), await open_database(postgres_url)
    await first.migrate()
    now = time.time()
    for n in range(30):
        await timer_store.create_timer(first, "ping", now - 30 + n, {"n": n}, now=now - 60)
    fired = []
    dispatchers = []
    for db in (first, second):
        dispatcher = TimerService(db)

        async def handler(timer, db=db):
            await asyncio.sleep(0.01)  # the other process has time to look at the same timer
            fired.append((timer.payload["n"], db.owner))

        dispatcher.register("ping", handler)
        dispatcher.start()
        dispatchers.append(dispatcher)
    await wait_until(lambda: len(fired) >= 30, timeout=15)
    await asyncio.sleep(0.3)
    for dispatcher in dispatchers:
        await dispatcher.stop()
    assert sorted(n for n, _ in fired) == list(range(30))
    assert {owner for _, owner in fired} == {first.owner, second.owner}  # both took part
    assert await timer_store.list_timers(first) == []
    await first.close()
    await second.close()


async def test_a_running_processs_claim_stays_and_a_stopped_ones_is_taken(database_target):
    """A timer claimed by a process that died mid-handler fires again (at once on PostgreSQL,
    where another process may be running; at the next start on SQLite, which serves one
    process), while a claim of a process that still runs is never taken."""
    first = await open_database(database_target)
    await first.migrate()
    now = time.time()
    timer = await timer_store.create_timer(first, "ping", now - 1, {}, now=now - 1)
    assert await timer_store.claim_timer(first, timer.id, now=now)
    if first.backend == "postgres":
        second = await open_database(database_target)
        assert await timer_store.next_timer(second) is None  # the first process runs
        assert not await timer_store.claim_timer(second, timer.id, now=now)
        assert await timer_store.release_claims(second) == 0
        await first.close()  # it stops (its connections close, as when it is killed)
        await asyncio.sleep(0.2)
        assert (await timer_store.next_timer(second)).id == timer.id
        assert await timer_store.claim_timer(second, timer.id, now=now)
    else:
        await first.close()
        second = await open_database(database_target)  # the bot started again
        assert await timer_store.release_claims(second) == 1
        assert await timer_store.claim_timer(second, timer.id, now=now)
    await second.close()


async def test_a_timer_replaced_by_an_earlier_handler_of_its_batch_does_not_fire(db):
    """Due timers are claimed in batches (db/timers.py): when a handler's move replaces its
    match's timers, a timer of the same batch that it deleted must not fire afterwards."""
    now = time.time()
    first = await timer_store.create_timer(db, "ping", now - 2, {"n": 1}, now=now - 3)
    await timer_store.create_timer(db, "ping", now - 1, {"n": 2}, now=now - 3)
    fired = []
    dispatcher = TimerService(db)

    async def handler(timer):
        fired.append(timer.payload["n"])
        if timer.id == first.id:  # a move: the match's other timer goes
            async with db.transaction() as conn:
                await conn.execute("DELETE FROM timers WHERE id <> ?", (first.id,))

    dispatcher.register("ping", handler)
    dispatcher.start()
    await wait_until(lambda: fired)
    await asyncio.sleep(0.3)
    await dispatcher.stop()
    assert fired == [1]
    assert await timer_store.list_timers(db) == []


async def test_the_timers_a_handler_writes_outlive_the_timer_that_fired(db):
    """A handler's move replaces its match's timers (db/timers.py replace_for_game) in the
    transaction that saves it; SQLite may give a new timer the id of the one that just fired.
    Deleting the fired timer afterwards must not take the new one with it: the match would
    wait for a reminder or a deadline that never comes."""
    now = time.time()
    await timer_store.create_timer(db, "ping", now + 3600, {"n": 0}, now=now, game_id=7)
    fired_timer = await timer_store.create_timer(db, "ping", now - 1, {"n": 1}, now=now, game_id=7)
    fired = []
    dispatcher = TimerService(db)

    async def handler(timer):
        fired.append(timer.payload["n"])
        async with db.transaction() as conn:
            await timer_store.replace_for_game(
                conn,
                7,
                [
                    timer_store.TimerSpec("ping", now + 3600, {"n": 2}),
                    timer_store.TimerSpec("ping", now + 7200, {"n": 3}),
                ],
                now=time.time(),
            )

    dispatcher.register("ping", handler)
    dispatcher.start()
    await wait_until(lambda: fired)
    await asyncio.sleep(0.4)  # the fired batch is deleted
    await dispatcher.stop()
    assert fired == [1]
    left = await timer_store.list_timers(db)
    assert sorted(t.payload["n"] for t in left) == [2, 3], (fired_timer.id, left)


async def test_the_dispatcher_survives_an_error_before_its_first_batch(db, monkeypatch):
    """Whatever fails when the dispatcher starts (releasing a previous run's claims on a
    connection the server just dropped) is retried: the dispatcher never stops by itself."""
    real = timer_store.release_claims
    calls = []

    async def flaky(database):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("cannot switch to state 15; another operation is in progress")
        return await real(database)

    monkeypatch.setattr(timer_store, "release_claims", flaky)
    monkeypatch.setattr("host.timers.FIRST_BACKOFF", 0.05)
    now = time.time()
    await timer_store.create_timer(db, "ping", now - 1, {"n": 1}, now=now - 2)
    fired = []
    dispatcher = TimerService(db)

    async def handler(timer):
        fired.append(timer.payload["n"])

    dispatcher.register("ping", handler)
    dispatcher.start()
    await wait_until(lambda: fired)
    await dispatcher.stop()
    assert fired == [1] and len(calls) == 2


async def test_a_timer_that_meets_the_shutdown_is_kept_for_the_next_start(db, caplog):
    """A timer due during the drain of a restart finds the match locks closed: it is not an
    error and not fired, so the next start (which releases this run's claims) fires it."""
    now = time.time()
    await timer_store.create_timer(db, "clock", now - 1, {"game": 7}, now=now - 60)
    tries = []
    dispatcher = TimerService(db)

    async def handler(timer):
        tries.append(timer.payload["game"])
        raise ShuttingDown(SHUTTING_DOWN)

    dispatcher.register("clock", handler)
    dispatcher.start()
    await wait_until(lambda: tries)
    await asyncio.sleep(0.1)
    await dispatcher.stop()
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    kept = await timer_store.list_timers(db)
    assert [t.payload for t in kept] == [{"game": 7}]

    again = TimerService(db)
    again.register("clock", lambda timer: _record(tries, timer))
    again.start()
    await wait_until(lambda: len(tries) == 2)
    await again.stop()
    assert tries == [7, 7]


async def _record(tries, timer):
    tries.append(timer.payload["game"])


async def test_stop_returns_in_time_though_a_handler_will_not_be_cancelled(db):
    """A SIGTERM while the database is gone: a handler stuck in a call that swallows its
    cancellation (a driver waiting on a dead server) must not hold the shutdown past Docker's
    10 s grace; the dispatcher gives up on it and the next start fires the timer again."""
    started = asyncio.Event()
    stubborn_for = [True]  # until the test has its figure: then the handler lets itself end

    async def stubborn(timer):
        started.set()
        while True:
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                if not stubborn_for[0]:
                    raise
                # as a driver that ignores the cancellation would

    dispatcher = TimerService(db)
    dispatcher.register("stuck", stubborn)
    dispatcher.start()
    await dispatcher.schedule("stuck", 0, {})
    await asyncio.wait_for(started.wait(), 5)
    running = dispatcher._task
    assert running is not None
    begun = time.monotonic()
    await dispatcher.stop()
    took = time.monotonic() - begun
    stubborn_for[0] = False  # no task of this test outlives it
    running.cancel()
    await asyncio.wait({running}, timeout=5)
    assert running.done()
    assert took < STOP_SECONDS + 1.5
