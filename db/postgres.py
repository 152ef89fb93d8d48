"""PostgreSQL behind the same surface as SQLite (db/database.py), through asyncpg.

What differs from SQLite is here and nowhere else:

- `?` placeholders become `$1, $2, ...` (outside string literals, quoted names and comments);
- a pool of connections: reads run side by side, each `transaction()` has its own connection;
- one writer at a time, as with SQLite's BEGIN IMMEDIATE: every `transaction()` starts by
  taking the advisory lock WRITE_LOCK (released at COMMIT or ROLLBACK), so a check-then-write
  inside a transaction sees every earlier write and no other transaction writes in between,
  whichever process it runs in;
- `migrate()` holds the session advisory lock MIGRATION_LOCK, so processes starting at once
  apply each migration once;
- `hold(key)` is a session advisory lock on (HOLD_LOCK_SPACE, crc32(key)) taken on a connection
  of a second, small pool, held while a move spans awaits (load, apply, save, post): a row lock
  (SELECT ... FOR UPDATE) would block the move's own save, which runs on another connection,
  and would keep a transaction open while Discord answers; the advisory lock does neither, and
  PostgreSQL drops it with the connection if the process dies;
- a process is alive while it holds the advisory lock named by its `owner` number (on a
  connection of its own, for its whole life): what a stopped process claimed (a timer) may be
  taken by another, what a running one claimed may not;
- asyncpg's integrity violations become db.database.IntegrityError;
- a statement's `rowcount` comes from the server's status ("UPDATE 1").

Rows are asyncpg Records: readable by column name and by position, like aiosqlite.Row.
"""

from __future__ import annotations

import functools
import re
import secrets
import zlib
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager

import asyncpg

from db.database import Database, DatabaseError, IntegrityError, LockTimeout, redacted

# Advisory lock keys (64-bit, in the database's own lock space): any fixed numbers no other
# application on the same database uses. "BALLCORT" and "MIGRATE" in ASCII.
WRITE_LOCK = 0x42414C4C434F5254
MIGRATION_LOCK = 0x4D494752415445
# `hold()` locks use the two-key form: (HOLD_LOCK_SPACE, crc32 of the key as a signed int4).
HOLD_LOCK_SPACE = 0x484F4C44  # "HOLD"
HOLD_TIMEOUT = "60s"  # how long a click waits for another process's move on the same match
POOL_MAX_SIZE = 10
HOLD_POOL_MAX_SIZE = 20

RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|EXPLAIN|SHOW|TABLE)\b", re.IGNORECASE)
RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


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


class PostgresCursor:
    """What `execute` returns: the rows a statement gave (if any) and how many it touched."""

    def __init__(self, rows: Sequence[asyncpg.Record], count: int) -> None:
        self._rows = list(rows)
        self.rowcount = count

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows.pop(0) if self._rows else None

    async def fetchall(self) -> list[asyncpg.Record]:
        rows, self._rows = self._rows, []
        return rows

    def __aiter__(self) -> AsyncIterator[asyncpg.Record]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[asyncpg.Record]:
        while self._rows:
            yield self._rows.pop(0)


class PostgresConnection:
    """One pooled connection inside a transaction."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.raw = connection

    async def execute(self, sql: str, parameters: Iterable[object] = ()) -> PostgresCursor:
        query, args = translate_placeholders(sql), tuple(parameters)
        try:
            if RETURNS_ROWS.match(query) or RETURNING.search(query):
                rows = await self.raw.fetch(query, *args)
                return PostgresCursor(rows, len(rows))
            status = await self.raw.execute(query, *args)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error
        return PostgresCursor([], rowcount(status))

    async def executemany(self, sql: str, rows: Iterable[Iterable[object]]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        try:
            await self.raw.executemany(translate_placeholders(sql), batch)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error


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
        self._alive = alive  # holds the advisory lock `owner` while this process runs
        # hold() locks wait on connections of their own: a holder's save never waits for a
        # connection that a click queued behind it occupies
        self._holds = holds

    @classmethod
    async def connect(cls, url: str, *, max_size: int = POOL_MAX_SIZE) -> PostgresDatabase:
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max_size,
                server_settings={"application_name": "ballcourt"},
            )
            alive = await asyncpg.connect(url, server_settings={"application_name": "ballcourt"})
            holds = await asyncpg.create_pool(
                url,
                min_size=0,
                max_size=HOLD_POOL_MAX_SIZE,
                server_settings={"application_name": "ballcourt", "lock_timeout": HOLD_TIMEOUT},
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise DatabaseError(
                f"The PostgreSQL database {redacted(url)} cannot be used ({error}). Check that "
                "the server runs and DATABASE_URL names its host, port, user, password and "
                "database (postgresql://user:password@host:5432/name)."
            ) from error
        owner = secrets.randbelow(2**31 - 1) + 1
        await alive.execute("SELECT pg_advisory_lock($1)", owner)
        return cls(pool, url, owner, alive, holds)

    def describe(self) -> str:
        return f"PostgreSQL {redacted(self.url)}"

    async def close(self) -> None:
        await self.pool.close()
        await self._holds.close()
        await self._alive.close()

    def abandoned(self, owner_column: str) -> str:
        # An advisory lock on one bigint key shows in pg_locks as classid (high 32 bits) and
        # objid (low 32 bits); owners are below 2**31.
        return (
            "NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.objsubid = 1"  # the one-key form (hold() locks use the two-key form)
            f" AND l.classid::bigint = 0 AND l.objid::bigint::text = {owner_column})"
        )

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        """The cluster-wide lock on `key` (see the module's docstring); LockTimeout after
        HOLD_TIMEOUT of waiting. Returning the connection to the pool unlocks it in any case
        (asyncpg's reset runs pg_advisory_unlock_all), also when the block is cancelled."""
        number = zlib.crc32(key.encode()) - 2**31
        async with self._holds.acquire() as connection:
            try:
                await connection.execute("SELECT pg_advisory_lock($1, $2)", HOLD_LOCK_SPACE, number)
            except asyncpg.LockNotAvailableError as error:
                raise LockTimeout(f"{key} stayed locked for {HOLD_TIMEOUT}") from error
            try:
                yield
            finally:
                await connection.execute(
                    "SELECT pg_advisory_unlock($1, $2)", HOLD_LOCK_SPACE, number
                )

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresConnection]:
        """BEGIN, the write lock, the block, COMMIT; ROLLBACK if the block raises."""
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
            yield PostgresConnection(connection)

    async def fetch_one(self, sql: str, parameters: Iterable[object] = ()) -> asyncpg.Record | None:
        try:
            return await self.pool.fetchrow(translate_placeholders(sql), *tuple(parameters))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error

    async def fetch_all(self, sql: str, parameters: Iterable[object] = ()) -> list[asyncpg.Record]:
        try:
            return list(await self.pool.fetch(translate_placeholders(sql), *tuple(parameters)))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error

    async def size(self) -> int:
        row = await self.pool.fetchrow("SELECT pg_database_size(current_database())")
        assert row is not None
        return int(row[0])

    @asynccontextmanager
    async def _migration_lock(self) -> AsyncIterator[None]:
        async with self.pool.acquire() as connection:
            await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                yield
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
