"""The database layer with a PostgreSQL server that misbehaves: restarted, stopped, stalled
(every process of it frozen with SIGSTOP). Each test runs a server of its own
(tests/support/postgres_server.py), so the suite's shared server is never touched."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest

from config import ConfigError, load_config
from db import games as game_store
from db import timers as timer_store
from db.connect import open_database
from db.database import Database, DatabaseUnavailable, redacted
from host import recovery
from host.locks import GameLocks
from host.timers import TimerService
from tests.conftest import POSTGRES_MISSING
from tests.support.postgres_server import PostgresServer, find_binaries

pytestmark = pytest.mark.postgres


@pytest.fixture
def server() -> Iterator[PostgresServer]:
    binaries = find_binaries()
    if binaries is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{POSTGRES_MISSING}; under CI the PostgreSQL tests must run", False)
        pytest.skip(POSTGRES_MISSING)
    own = PostgresServer(binaries)
    own.start()
    yield own
    own.stop()


async def opened(server: PostgresServer, count: int = 1) -> list[Database]:
    url = server.create_database()
    databases = [await open_database(url) for _ in range(count)]
    await databases[0].migrate()
    return databases


async def wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.1)


async def writes(db: Database) -> bool:
    try:
        async with db.transaction() as conn:
            await conn.execute("UPDATE timers SET payload = payload WHERE id = 0")
    except Exception:
        return False
    return True


async def test_after_a_restart_every_process_is_alive_again_and_timers_fire_once(server):
    """Two processes, the server restarted, then due timers: each fired once
    (5 of 6 reminders were posted twice: the alive locks died with the restart and were never
    taken again, so every claim looked abandoned to the other process)."""
    first, second = await opened(server, 2)
    server.shut_down("fast")  # a restart ends every session, and so every session lock
    server.start_again()
    for db in (first, second):
        await wait_until(lambda db=db: writes(db), 10, "the database works again")
    await asyncio.sleep(1.5)  # both have noticed and taken their locks again
    now = time.time()
    for n in range(6):
        await timer_store.create_timer(first, "remind", now + 0.3, {"n": n}, now=now)
    fired: list[tuple[int, str]] = []
    dispatchers = []
    for db in (first, second):

        async def handler(timer, db=db):
            await asyncio.sleep(0.3)  # a reminder takes a while to post
            fired.append((timer.payload["n"], db.owner))

        dispatcher = TimerService(db)
        dispatcher.register("remind", handler)
        dispatcher.start()
        dispatchers.append(dispatcher)
    deadline = time.monotonic() + 15
    while len(fired) < 6 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.5)  # a second firing would come now
    for dispatcher in dispatchers:
        await dispatcher.stop()
    assert sorted(n for n, _ in fired) == list(range(6)), fired
    for db in (first, second):
        await db.close()


async def test_a_stalled_server_fails_every_operation_within_three_seconds(server, caplog):
    """With the server stalled, clicks got no answer at all and a half-open
    connection could hold a match's lock forever. Reads, writes and the match lock now fail
    with DatabaseUnavailable in about two seconds (a click is answered within Discord's 3 s),
    the outage is logged once, and the same Database works again once the server answers."""
    (db,) = await opened(server)
    game_id = await game_store.create_game(
        db, game="rocketball", guild_id=1, channel_id=1, players=[1, 2], state="{}"
    )

    async def insert():
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ('k', 'v') ON CONFLICT (key) DO NOTHING"
            )

    async def lock():
        async with db.hold(f"lock:{game_id}"):
            pass

    operations = {
        "read": lambda: game_store.load_game(db, game_id),
        "write": insert,
        "match lock": lock,
    }
    frozen = server.stall()
    try:
        for name, operation in operations.items():
            started = time.monotonic()
            with pytest.raises(DatabaseUnavailable):
                await asyncio.wait_for(operation(), 10)
            assert time.monotonic() - started < 3.0, name
    finally:
        server.resume(frozen)
    await wait_until(lambda: writes(db), 10, "the database works again")
    for operation in operations.values():
        await operation()
    outage = [r for r in caplog.records if "the database is unavailable" in r.getMessage()]
    assert len(outage) == 1 and outage[0].exc_info is None
    started = time.monotonic()
    await db.close()
    assert time.monotonic() - started < 3.0


async def test_start_up_repair_waits_for_a_database_that_is_down(server, monkeypatch, caplog):
    """The database down when the bot became ready killed the repair (seen
    only as "Task exception was never retrieved"); the lost timers stayed lost until the next
    restart. The repair is now tried again until the database answers."""
    (db,) = await opened(server)
    game_id = await game_store.create_game(
        db,
        game="rocketball",
        guild_id=1,
        channel_id=1,
        players=[1, 2],
        state="{}",
        status="active",
    )
    monkeypatch.setattr(recovery.Match, "from_json", staticmethod(lambda adapter, state: None))

    async def ready():
        return None

    host: Any = SimpleNamespace(
        bot=SimpleNamespace(
            db=db,
            wait_until_ready=ready,
            timers=SimpleNamespace(wake=lambda: None),
            game_locks=GameLocks(),
        ),
        adapters={"rocketball": object()},
        computers_to_act=lambda adapter, match: False,
        timers_for=lambda stored, match, version: [
            timer_store.TimerSpec("match_remind", time.time() + 3600, {"game_id": stored.id})
        ],
    )
    server.shut_down("fast")
    repair = asyncio.create_task(recovery.recover(host))
    await asyncio.sleep(1.5)
    server.start_again()
    await asyncio.wait_for(repair, 20)
    assert [t.event for t in await timer_store.timers_for_game(db, game_id)] == ["match_remind"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    await db.close()


async def test_a_timer_due_during_an_outage_fires_as_soon_as_it_ends(server):
    """The dispatcher's back-off (doubling to five minutes) was not woken
    when the database came back: reminders ran 2-12 s late after 12-30 s outages. A timer
    that fell due during an 8 s outage now fires within two seconds of its end."""
    (db,) = await opened(server)
    fired: list[float] = []
    dispatcher = TimerService(db)

    async def handler(timer):
        fired.append(time.monotonic())

    dispatcher.register("remind", handler)
    dispatcher.start()
    await timer_store.create_timer(db, "remind", time.time() + 1, {}, now=time.time())
    dispatcher.wake()
    server.shut_down("fast")
    await asyncio.sleep(8)
    assert fired == []
    server.start_again()
    back = time.monotonic()
    deadline = back + 20
    while not fired and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await dispatcher.stop()
    await db.close()
    assert fired, "the timer fired"
    assert fired[0] - back < 2.0, f"{fired[0] - back:.1f} s after the database came back"


PASSWORD = "Zq/8@Xy#K?:w%2 v"  # what `openssl rand -base64` and people make: / @ # ? : % space


async def test_any_password_is_accepted_by_pgpassword_or_encoded_and_never_shown(
    server, monkeypatch, caplog
):
    """A password with '/' crashed start-up (ValueError: invalid literal for
    int()), one with '@' leaked part of itself in the log line meant to hide it. Compose now
    gives the password as PGPASSWORD, outside the URL; a percent-encoded password in the URL
    works too; a raw one that cannot be read is refused with a message that quotes none of it."""
    url = server.create_database()
    user_url = url.replace("postgres@", "ballcourt@")
    admin = await asyncpg.connect(url)
    await admin.execute("CREATE ROLE ballcourt LOGIN PASSWORD " + "'" + PASSWORD + "'")
    await admin.execute(f"GRANT ALL ON DATABASE {url.rsplit('/', 1)[1]} TO ballcourt")
    await admin.execute(f"ALTER DATABASE {url.rsplit('/', 1)[1]} OWNER TO ballcourt")
    await admin.close()
    hba = server.data / "pg_hba.conf"
    hba.write_text("host all ballcourt 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
    server._run("pg_ctl", "-D", str(server.data), "reload")
    await asyncio.sleep(0.5)

    with pytest.raises(Exception, match="password authentication failed"):
        await open_database(user_url)  # the server does ask for the password
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    db = await open_database(user_url)  # docker-compose.yml's way
    await db.migrate()
    await db.close()
    monkeypatch.delenv("PGPASSWORD")
    from urllib.parse import quote

    encoded = user_url.replace("ballcourt@", f"ballcourt:{quote(PASSWORD, safe='')}@")
    db = await open_database(encoded)
    assert await db.fetch_one("SELECT 1") is not None
    assert PASSWORD not in db.describe()
    await db.close()

    raw = user_url.replace("ballcourt@", f"ballcourt:{PASSWORD}@")
    environ = {"DISCORD_TOKEN": "t", "DATABASE_URL": raw}
    with pytest.raises(ConfigError) as refused:
        load_config(environ, base_dir=server.folder)
    shown = str(refused.value) + redacted(raw) + caplog.text
    assert "percent-encoded" in str(refused.value) and "PGPASSWORD" in str(refused.value)
    for start in range(len(PASSWORD) - 2):
        assert PASSWORD[start : start + 3] not in shown, PASSWORD[start : start + 3]


def lose_the_answer_to_commit(monkeypatch) -> None:
    """The next COMMIT reaches the server and is done, but its answer never comes back (the
    server was killed just after): the client sees its connection break."""
    original = asyncpg.connection.Connection.execute
    armed = [True]

    async def execute(self, query, *args, **kwargs):
        result = await original(self, query, *args, **kwargs)
        if query == "COMMIT" and armed[0]:
            armed[0] = False
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle")
        return result

    monkeypatch.setattr(asyncpg.connection.Connection, "execute", execute)


async def test_a_move_whose_commit_answer_was_lost_is_read_back_and_told_as_it_is(
    server, monkeypatch
):
    """PostgreSQL killed during a move's commit: the move was stored, yet the player was told
    that nothing was changed. The move is read back: stored, it counts as saved; unreadable,
    the player hears that it may have been saved (never "nothing was changed")."""
    from ui.replies import UNAVAILABLE, user_message_for

    (db,) = await opened(server)
    game_id = await game_store.create_game(
        db, game="rocketball", guild_id=1, channel_id=2, players=[5, 6], state="{}", status="active"
    )
    stored = await game_store.load_game(db, game_id)
    assert stored is not None
    lose_the_answer_to_commit(monkeypatch)
    saved = await game_store.save_move(
        db, stored, state='{"n": 1}', actor_id=5, action="roll", events=["rolls"]
    )
    assert saved.version == stored.version + 1
    assert (await game_store.load_game(db, game_id)).version == saved.version

    # the answer lost again, and the server gone before the move could be read back
    lose_the_answer_to_commit(monkeypatch)

    async def down(*args, **kwargs):
        raise DatabaseUnavailable("the server is gone")

    monkeypatch.setattr(db, "fetch_one", down)
    with pytest.raises(DatabaseUnavailable) as caught:
        await game_store.save_move(
            db, saved, state='{"n": 2}', actor_id=6, action="move", events=["moves"]
        )
    told = user_message_for(caught.value) or ""
    assert told != UNAVAILABLE and "nothing was changed" not in told.lower()
    assert "may have been saved" in told
    await db.close()


async def test_a_match_whose_commit_went_unanswered_is_shown_once_the_database_answers(
    server, monkeypatch
):
    """After a move's commit without an answer that could not be read back either, the card
    kept its old buttons until `/rocketball board` or a restart. Once the database answers, the
    match is shown as it is stored: the move, which was saved, is drawn."""
    from cogs.rocketball.options import match_settings
    from cogs.rocketball.presenter import RocketballAdapter
    from db.database import CommitUnknown
    from host.core import MatchCore
    from host.match import Match

    adapter = RocketballAdapter()
    state, _ = adapter.engine.new_state(7, {"settings": match_settings("", 2, 10, 7)})
    match = Match(engine=state, names=["Ann", "Bo"], salt="s", commitment="c")
    (db,) = await opened(server)
    game_id = await game_store.create_game(
        db,
        game="rocketball",
        guild_id=1,
        channel_id=2,
        players=[5, 6],
        state=match.to_json(adapter),
        status="active",
    )
    stored = await game_store.load_game(db, game_id)
    assert stored is not None
    posted: list[int] = []

    async def post(adapter, stored, match, steps, **options):
        posted.append(stored.version)
        return True

    host: Any = SimpleNamespace(
        bot=SimpleNamespace(db=db, game_locks=GameLocks()),
        adapters={"rocketball": adapter},
        computers_to_act=lambda adapter, match: False,
        timers_for=lambda stored, match, version: [],
        post=post,
        _after_lost_commits={},
    )
    host.show_when_available = functools.partial(MatchCore.show_when_available, host)
    lose_the_answer_to_commit(monkeypatch)
    reads = db.fetch_one

    async def down(*args, **kwargs):
        raise DatabaseUnavailable("the server is gone")

    monkeypatch.setattr(db, "fetch_one", down)
    with pytest.raises(CommitUnknown):
        await MatchCore.save(host, adapter, stored, match, 5, "roll", [])
    assert posted == []
    monkeypatch.setattr(db, "fetch_one", reads)  # the server answers again
    db.available()

    async def shown() -> bool:
        return bool(posted)

    await wait_until(shown, 10, "the match was shown")
    assert posted == [stored.version + 1]
    await db.close()
