"""PostgreSQL behind the same surface as SQLite (db/database.py), through asyncpg.

What differs from SQLite is here and nowhere else:

- `?` placeholders become `$1, $2, ...` (outside string literals, quoted names and comments);
- a pool of connections: reads run side by side, each `transaction()` has its own connection;
- one writer at a time, as with SQLite's BEGIN IMMEDIATE, for what several matches share: a
  `transaction()` starts by taking the advisory lock WRITE_LOCK (released at COMMIT or
  ROLLBACK), so a check-then-write inside a transaction sees every earlier write and no other
  transaction writes in between, whichever process it runs in. A transaction that writes only
  one match's own rows (`transaction(key="game:<id>")`: a move, its timers, its card noted)
  takes WRITE_LOCK shared and the key's own lock (WRITE_KEY_SPACE, crc32(key)) exclusively:
  it waits for the same match's writes and for the unkeyed ones, which wait for it, and
  commits beside other matches' moves (one lock for the whole cluster made every move queue
  behind every other; docs/scaling.md). Both are taken in that order, so they never deadlock;
- `migrate()` holds the session advisory lock MIGRATION_LOCK, so processes starting at once
  apply each migration once;
- `hold(key)` is a session advisory lock on (HOLD_LOCK_SPACE, crc32(key)) taken on a connection
  of a second, small pool, held while a move spans awaits (load, apply, save, post): a row lock
  (SELECT ... FOR UPDATE) would block the move's own save, which runs on another connection,
  and would keep a transaction open while Discord answers; the advisory lock does neither, and
  PostgreSQL drops it with the connection if the process dies;
- a process is alive while it holds the advisory lock named by its `owner` number (on a
  connection of its own): what a stopped process claimed (a timer) may be taken by another,
  what a running one claimed may not. That connection is pinged every ALIVE_CHECK_SECONDS and
  taken again, with its lock, whenever it closes (a restarted server drops every session and
  so every lock); a process claims nothing while it does not hold its lock, and for
  ALIVE_GRACE_SECONDS after taking it again it takes no other process's claim either, so the
  processes of a cluster have time to take theirs back after a restart;
- timeouts: a statement gets COMMAND_TIMEOUT seconds and a pooled connection ACQUIRE_TIMEOUT,
  so a stalled or half-open server fails an operation in about two seconds (a click is then
  answered within Discord's three) instead of holding a match's lock forever; migrations and
  the waits for another process's lock have their own, longer ones;
- asyncpg's integrity violations become db.database.IntegrityError, and a server that is down,
  restarting, stalled or out of resources DatabaseUnavailable;
- a statement's `rowcount` comes from the server's status ("UPDATE 1").

Rows are asyncpg Records: readable by column name and by position, like aiosqlite.Row.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
import time
import zlib
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, NoReturn, cast

import asyncpg

from db.database import (
    SLOW_TIMEOUT,
    CommitUnknown,
    Database,
    DatabaseError,
    DatabaseUnavailable,
    FetchedCursor,
    IntegrityError,
    LockTimeout,
    Statement,
    TimerWrites,
    redacted,
    unavailable_cause,
)

log = logging.getLogger(__name__)

# Advisory lock keys (64-bit, in the database's own lock space): any fixed numbers no other
# application on the same database uses. "BALLCORT" and "MIGRATE" in ASCII.
WRITE_LOCK = 0x42414C4C434F5254
MIGRATION_LOCK = 0x4D494752415445
BEGIN_WRITE = f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})"
# A keyed transaction's own lock: the two-key form (WRITE_KEY_SPACE, crc32 of the key).
WRITE_KEY_SPACE = 0x57524954  # "WRIT"
# `hold()` locks use the two-key form: (HOLD_LOCK_SPACE, crc32 of the key as a signed int4).
HOLD_LOCK_SPACE = 0x484F4C44  # "HOLD"
HOLD_TIMEOUT = "60s"  # how long a click waits for another process's move on the same match
HOLD_WAIT_SECONDS = 65.0  # the client's limit on that wait: the server's lock_timeout answers first
POOL_MAX_SIZE = 10
HOLD_POOL_MAX_SIZE = 20
# A click must be answered within Discord's 3 s: one statement, or getting a connection, that
# takes longer than this fails (DatabaseUnavailable) and the player is told so.
COMMAND_TIMEOUT = 1.5
ACQUIRE_TIMEOUT = 1.5
# start-up, and the alive connection taken again (an int: asyncpg.connect's timeout is typed by
# its default, 60, though it takes seconds as a float)
CONNECT_TIMEOUT = 5
ALIVE_CHECK_SECONDS = 1.0
ALIVE_GRACE_SECONDS = 5.0
# Errors that mean the server is not there yet (start-up waits for it, up to wait_seconds).
NOT_YET = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.CannotConnectNowError,
    asyncpg.PostgresConnectionError,
)

RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|EXPLAIN|SHOW|TABLE)\b", re.IGNORECASE)
RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


def lock_number(key: str) -> int:
    """A key as the second int4 of a two-key advisory lock."""
    return zlib.crc32(key.encode()) - 2**31


def begin_write(key: str | None) -> str:
    """What opens a write transaction: BEGIN and its locks (the module's docstring). The key's
    lock number is an int computed here, never text from outside."""
    if key is None:
        return BEGIN_WRITE
    return (
        f"BEGIN; SELECT pg_advisory_xact_lock_shared({WRITE_LOCK});"
        f" SELECT pg_advisory_xact_lock({WRITE_KEY_SPACE}, {lock_number(key)})"
    )


@functools.lru_cache(maxsize=2048)
def translate_placeholders(sql: str) -> str:
    """`?` -> `$1, $2, ...`, leaving string literals ('it''s?'), quoted names ("a?") and
    comments (-- why?) alone."""
    out: list[str] = []
    number = 0
    i = 0
    while i < len(sql):
        char = sql[i]
        if char in ("'", '"'):
            end = i + 1
            while end < len(sql):
                if sql[end] == char:
                    if end + 1 < len(sql) and sql[end + 1] == char:  # '' inside a literal
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = len(sql) if end == -1 else end
            out.append(sql[i:end])
            i = end
        elif char == "?":
            number += 1
            out.append(f"${number}")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


def rowcount(status: str | None) -> int:
    """The number of rows a statement touched, from its status ("INSERT 0 3", "UPDATE 1")."""
    if not status:
        return -1
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


def _integrity(error: asyncpg.IntegrityConstraintViolationError) -> IntegrityError:
    return IntegrityError(str(error), constraint=getattr(error, "constraint_name", None))


class PostgresConnection(TimerWrites):
    """One pooled connection inside a transaction."""

    def __init__(
        self, connection: asyncpg.Connection, database: PostgresDatabase, timeout: float
    ) -> None:
        self.raw = connection
        self._database = database
        self._timeout = timeout

    async def execute(self, sql: str, parameters: Iterable[object] = ()) -> FetchedCursor:
        query, args = translate_placeholders(sql), tuple(parameters)
        try:
            if RETURNS_ROWS.match(query) or RETURNING.search(query):
                rows = await self.raw.fetch(query, *args, timeout=self._timeout)
                return FetchedCursor(rows, len(rows))
            status = await self.raw.execute(query, *args, timeout=self._timeout)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error
        except Exception as error:
            self._database.reraise(error)
        return FetchedCursor([], rowcount(status))

    async def execute_all(self, statements: Sequence[Statement]) -> list[FetchedCursor]:
        results = []
        for statement in statements:
            results.append(await self.execute(statement.sql, statement.parameters))
            if statement.changes and results[-1].rowcount == 0:
                break
        return results

    async def executemany(self, sql: str, rows: Iterable[Iterable[object]]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        try:
            await self.raw.executemany(translate_placeholders(sql), batch, timeout=self._timeout)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error
        except Exception as error:
            self._database.reraise(error)


def _close_cut_short(connection: asyncpg.Connection) -> None:
    """A transaction cut short in its BEGIN (waiting for a lock) or its COMMIT, by a task
    cancelled as the bot stops: its connection is closed, so the server rolls back whatever
    began. Given back to the pool mid-statement, asyncpg would wait for the statement to be
    cancelled, then roll back by logging "Resetting connection with an active transaction"
    at ERROR, which an operator reads as a fault."""
    connection.terminate()


class PostgresDatabase(Database):
    """A pool of asyncpg connections to one PostgreSQL database."""

    backend = "postgres"

    def __init__(
        self,
        pool: asyncpg.Pool,
        url: str,
        owner: int,
        alive: asyncpg.Connection,
        holds: asyncpg.Pool,
    ) -> None:
        self.pool = pool
        self.url = url
        self.owner = str(owner)
        self._owner = owner
        self._alive: asyncpg.Connection | None = alive  # holds the advisory lock `owner`
        self._alive_guard = asyncio.Lock()
        self._alive_lost = asyncio.Event()
        alive.add_termination_listener(self._on_alive_closed)
        # No other process's claim is taken before this (monotonic) time: see the module.
        self._take_others_after = 0.0
        # hold() locks wait on connections of their own: a holder's save never waits for a
        # connection that a click queued behind it occupies
        self._holds = holds
        # A click holds its hold connection for its whole course: clicks beyond the pool's
        # size queue here, in this process, for as long as a click may wait for another's
        # move (HOLD_WAIT_SECONDS); the pool's ACQUIRE_TIMEOUT then only measures the server
        # (a new connection), so a queue is not mistaken for a stalled server.
        self._hold_turns = asyncio.Semaphore(holds.get_max_size())
        self._on_available = []
        self._on_timer = []
        self._watchdog = asyncio.create_task(self._watch_alive(), name="database-alive")

    @staticmethod
    def _server_settings(extra: dict[str, str] | None = None) -> dict[str, str]:
        return {"application_name": "ballcourt", **(extra or {})}

    @classmethod
    async def connect(
        cls, url: str, *, max_size: int = POOL_MAX_SIZE, wait_seconds: float = 0.0
    ) -> PostgresDatabase:
        """Connect, waiting up to `wait_seconds` for a server that refuses connections or is
        still starting (Compose starts the bot and the database together); a wrong password,
        user or database name fails at once."""
        deadline = time.monotonic() + wait_seconds
        told = False
        while True:
            try:
                return await cls._connect_once(url, max_size)
            except NOT_YET as error:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise cls._cannot_use(url, error) from error
                if not told:
                    log.warning(
                        "waiting up to %.0f s for PostgreSQL at %s (%s)",
                        left,
                        redacted(url),
                        unavailable_cause(error) or error,
                    )
                    told = True
                await asyncio.sleep(min(1.0, left))
            except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
                raise cls._cannot_use(url, error) from error

    @staticmethod
    def _cannot_use(url: str, error: BaseException) -> DatabaseError:
        what = unavailable_cause(error) or f"{type(error).__name__}: {error}"
        return DatabaseError(
            f"The PostgreSQL database {redacted(url)} cannot be used ({what}). Check that "
            "the server runs and DATABASE_URL names its host, port, user, password and "
            "database (postgresql://user:password@host:5432/name)."
        )

    @classmethod
    async def _connect_once(cls, url: str, max_size: int) -> PostgresDatabase:
        pool = holds = alive = None
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max_size,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                server_settings=cls._server_settings(),
            )
            alive = await asyncpg.connect(
                url, timeout=CONNECT_TIMEOUT, server_settings=cls._server_settings()
            )
            holds = await asyncpg.create_pool(
                url,
                min_size=0,
                max_size=HOLD_POOL_MAX_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                server_settings=cls._server_settings({"lock_timeout": HOLD_TIMEOUT}),
            )
            owner = secrets.randbelow(2**31 - 1) + 1
            await alive.execute("SELECT pg_advisory_lock($1)", owner, timeout=CONNECT_TIMEOUT)
        except BaseException:
            for closable in (pool, holds):
                if closable is not None:
                    closable.terminate()
            if alive is not None:
                alive.terminate()
            raise
        return cls(pool, url, owner, alive, holds)

    def describe(self) -> str:
        return f"PostgreSQL {redacted(self.url)}"

    async def close(self) -> None:
        self._watchdog.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._watchdog
        for pool in (self.pool, self._holds):
            try:
                await asyncio.wait_for(pool.close(), ACQUIRE_TIMEOUT)
            except Exception:  # a stalled or vanished server: drop the connections
                pool.terminate()
        if self._alive is not None:
            try:
                await asyncio.wait_for(self._alive.close(), ACQUIRE_TIMEOUT)
            except Exception:
                self._alive.terminate()

    def reraise(self, error: BaseException) -> NoReturn:
        """Raise DatabaseUnavailable for an error that means the server cannot serve now (the
        outage is logged once), otherwise `error` itself."""
        cause = unavailable_cause(error)
        if cause is None:
            raise error
        raise self.unavailable(DatabaseUnavailable(f"{self.describe()}: {cause}")) from error

    # ---- the alive lock ----------------------------------------------------------------------

    def _on_alive_closed(self, connection: asyncpg.Connection) -> None:
        self._alive_lost.set()

    async def _watch_alive(self) -> None:
        """Ping the alive connection; take it (and the lock) again when it has closed."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._alive_lost.wait(), ALIVE_CHECK_SECONDS)
            try:
                if self._alive is not None and not self._alive.is_closed():
                    # a stalled server times out here, and keeps our session and lock; a
                    # restarted one answers with a closed connection
                    await self._alive.execute("SELECT 1", timeout=COMMAND_TIMEOUT)
                await self.ensure_alive()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.debug("the alive connection is not back yet: %s", error)
                await asyncio.sleep(0.2)

    async def ensure_alive(self) -> None:
        """This process holds its alive lock (taken again on a new connection if the old one
        closed), or DatabaseUnavailable. Called before claiming anything."""
        if self._alive is not None and not self._alive.is_closed():
            return
        async with self._alive_guard:
            if self._alive is not None and not self._alive.is_closed():
                return
            self._alive_lost.clear()
            try:
                alive = await asyncpg.connect(
                    self.url, timeout=CONNECT_TIMEOUT, server_settings=self._server_settings()
                )
            except Exception as error:
                self.reraise(error if unavailable_cause(error) else ConnectionError(str(error)))
            try:
                # the old session's lock is gone with it (a restarted server), or goes as soon
                # as the server notices the old socket closed: wait for it a little
                await alive.execute(
                    "SELECT pg_advisory_lock($1)", self._owner, timeout=CONNECT_TIMEOUT
                )
            except BaseException as error:
                alive.terminate()
                if isinstance(error, Exception):
                    self.reraise(error)
                raise
            alive.add_termination_listener(self._on_alive_closed)
            self._alive = alive
            self._take_others_after = time.monotonic() + ALIVE_GRACE_SECONDS
            log.info("took this process's database lock again (owner %s)", self.owner)
            self.available()

    def abandoned(self, owner_column: str) -> str:
        # An advisory lock on one bigint key shows in pg_locks as classid (high 32 bits) and
        # objid (low 32 bits); owners are below 2**31. Just after this process took its own
        # lock again (a restarted server), the others may not have theirs back yet: take none.
        if time.monotonic() < self._take_others_after:
            return "1 = 0"
        return (
            "NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.objsubid = 1"  # the one-key form (hold() locks use the two-key form)
            f" AND l.classid::bigint = 0 AND l.objid::bigint::text = {owner_column})"
        )

    # ---- locks, transactions, reads --------------------------------------------------------

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        """The cluster-wide lock on `key` (see the module's docstring); LockTimeout after
        HOLD_TIMEOUT of waiting. Returning the connection to the pool unlocks it in any case
        (asyncpg's reset runs pg_advisory_unlock_all), also when the block is cancelled.

        A free lock is taken with a try (answered at once, or the server is stalled and the
        click is told within COMMAND_TIMEOUT); only a lock another process holds is waited for,
        up to HOLD_TIMEOUT. Clicks beyond the hold pool's size wait for a turn first (a queue
        in this process, `_hold_turns`), so ACQUIRE_TIMEOUT only ever times the server."""
        number = lock_number(key)
        try:
            await asyncio.wait_for(self._hold_turns.acquire(), HOLD_WAIT_SECONDS)
        except TimeoutError:
            raise LockTimeout(
                f"{key}: no hold connection came free in {HOLD_WAIT_SECONDS:.0f} s"
            ) from None
        try:
            connection = await self._acquire(self._holds)
            try:
                try:
                    taken = await connection.fetchval(
                        "SELECT pg_try_advisory_lock($1, $2)", HOLD_LOCK_SPACE, number
                    )
                    if not taken:
                        await connection.execute(
                            "SELECT pg_advisory_lock($1, $2)",
                            HOLD_LOCK_SPACE,
                            number,
                            timeout=HOLD_WAIT_SECONDS,
                        )
                except asyncpg.LockNotAvailableError as error:
                    raise LockTimeout(f"{key} stayed locked for {HOLD_TIMEOUT}") from error
                except Exception as error:
                    self._drop_if_unavailable(connection, error)
                    self.reraise(error)
                try:
                    yield
                finally:
                    try:
                        await connection.execute(
                            "SELECT pg_advisory_unlock($1, $2)", HOLD_LOCK_SPACE, number
                        )
                    except Exception:  # dropping the connection unlocks it too
                        with contextlib.suppress(Exception):
                            connection.terminate()
            finally:
                await self._release(self._holds, connection)
        finally:
            self._hold_turns.release()

    @asynccontextmanager
    async def transaction(
        self, *, timeout: float | None = None, key: str | None = None
    ) -> AsyncIterator[PostgresConnection]:
        """BEGIN, the write lock (shared and the key's lock with a `key`: the module's
        docstring), the block, COMMIT; ROLLBACK if the block raises. Each
        statement gets `timeout` seconds (COMMAND_TIMEOUT unless given: migrations pass a long
        one). A connection that failed for want of the server is dropped, not rolled back and
        reset (which would wait for the server again)."""
        timeout = COMMAND_TIMEOUT if timeout is None else timeout
        connection = await self._acquire(self.pool)
        try:
            try:
                # BEGIN and the locks in one round trip (the simple protocol takes them all)
                await connection.execute(begin_write(key), timeout=timeout)
            except asyncio.CancelledError:
                _close_cut_short(connection)
                raise
            except Exception as error:
                self._drop_if_unavailable(connection, error)
                self.reraise(error)
            wrapped = PostgresConnection(connection, self, timeout)
            try:
                yield wrapped
            except BaseException as error:
                if not self._drop_if_unavailable(connection, error):
                    with contextlib.suppress(Exception):
                        await connection.execute("ROLLBACK")
                raise
            try:
                await connection.execute("COMMIT", timeout=timeout)
            except asyncio.CancelledError:
                _close_cut_short(connection)
                raise
            except Exception as error:
                self._drop_if_unavailable(connection, error)
                cause = unavailable_cause(error)
                if cause is not None:  # sent, unanswered: it may have been done
                    unknown = CommitUnknown(f"{self.describe()}: {cause}")
                    raise self.unavailable(unknown) from error
                raise
        finally:
            await self._release(self.pool, connection)
        self.committed(wrapped)

    async def _acquire(self, pool: asyncpg.Pool) -> asyncpg.Connection:
        try:
            # A pooled connection is a proxy that forwards every Connection method; asyncpg
            # documents it as a Connection but types it as its proxy class.
            return cast(asyncpg.Connection, await pool.acquire(timeout=ACQUIRE_TIMEOUT))
        except Exception as error:
            self.reraise(error)

    @staticmethod
    async def _release(pool: asyncpg.Pool, connection: asyncpg.Connection) -> None:
        try:
            await pool.release(connection, timeout=ACQUIRE_TIMEOUT)
        except Exception:
            with contextlib.suppress(Exception):
                connection.terminate()
                await pool.release(connection)

    @staticmethod
    def _drop_if_unavailable(connection: asyncpg.Connection, error: BaseException) -> bool:
        """A connection whose operation failed for want of the server (timed out, broken) is
        closed at once; True if it was."""
        if isinstance(error, DatabaseUnavailable) or unavailable_cause(error) is not None:
            with contextlib.suppress(Exception):  # already closed and given back
                connection.terminate()
            return True
        return False

    async def _read(self, method: str, sql: str, parameters: Iterable[object]) -> Any:
        connection = await self._acquire(self.pool)
        try:
            return await getattr(connection, method)(
                translate_placeholders(sql), *tuple(parameters)
            )
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error
        except Exception as error:
            self._drop_if_unavailable(connection, error)
            self.reraise(error)
        finally:
            await self._release(self.pool, connection)

    async def fetch_one(self, sql: str, parameters: Iterable[object] = ()) -> asyncpg.Record | None:
        return await self._read("fetchrow", sql, parameters)

    async def fetch_all(self, sql: str, parameters: Iterable[object] = ()) -> list[asyncpg.Record]:
        return list(await self._read("fetch", sql, parameters))

    async def size(self) -> int:
        row = await self.fetch_one("SELECT pg_database_size(current_database())")
        assert row is not None
        return int(row[0])

    @asynccontextmanager
    async def _migration_lock(self) -> AsyncIterator[None]:
        async with self.pool.acquire(timeout=SLOW_TIMEOUT) as connection:
            await connection.execute(
                "SELECT pg_advisory_lock($1)", MIGRATION_LOCK, timeout=SLOW_TIMEOUT
            )
            try:
                yield
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
