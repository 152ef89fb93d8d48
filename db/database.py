"""The database: one surface, `Database`, over two backends.

SQLite (a file, WAL mode, foreign keys on) is the default. `DATABASE_URL=postgresql://...`
selects PostgreSQL through asyncpg (db/postgres.py). Every module in db/ talks to `Database`
only, and writes SQL that both accept:

- `?` placeholders (PostgreSQL's `$1, $2, ...` are made from them in db/postgres.py);
- `INSERT ... RETURNING id` for a new row's id (SQLite has it since 3.35), never `lastrowid`;
- `ON CONFLICT ... DO UPDATE/NOTHING`, `CURRENT_TIMESTAMP`, `COALESCE`, `CASE`;
- rows read by column name (`row["id"]`) or position (`row[0]`);
- one `IntegrityError` for a refused unique key, check, foreign key or NOT NULL.

A write transaction (`transaction()`) is one writer at a time on both backends: SQLite's
BEGIN IMMEDIATE takes the file's write lock, PostgreSQL's transaction takes one advisory lock
(db/postgres.py). So a check-then-write inside a transaction (a team that may play one match at
a time, a rating read and updated) behaves the same on both, also across processes.

Migrations are the numbered SQL files in db/migrations (`001_core.sql`, `002_...`). A file
`NNN_name.postgres.sql` (or `.sqlite.sql`) beside `NNN_name.sql` replaces it on that backend,
only where no portable form exists (e.g. an auto-numbered id column). At start-up every file not
yet recorded in `schema_migrations` runs inside one transaction together with the row that
records it, so a migration that fails half-way leaves neither its changes nor its record; on
PostgreSQL the whole run holds an advisory lock, so processes starting together apply each
migration once.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import aiosqlite
import asyncpg

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+?)(?:\.(sqlite|postgres))?\.sql$")
BACKENDS = ("sqlite", "postgres")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class DatabaseError(Exception):
    """The database cannot be used at all (e.g. a read-only file, a server that cannot be
    reached); the message tells the operator what to fix."""


class MigrationError(DatabaseError):
    """A migration file is misnamed, duplicated or failed to apply."""


class LockTimeout(DatabaseError):
    """`hold()` waited longer than the database allows for a lock another process holds."""


class IntegrityError(sqlite3.IntegrityError):
    """A constraint refused the write (unique key, check, foreign key, NOT NULL), on either
    backend. `constraint` names the constraint when the backend says (PostgreSQL does).

    It is a subclass of sqlite3.IntegrityError, so code written when SQLite was the only
    backend still catches it. On PostgreSQL a failed statement ends its transaction: let the
    error leave the `transaction()` block (or turn it into another exception there)."""

    def __init__(self, message: str, *, constraint: str | None = None) -> None:
        super().__init__(message)
        self.constraint = constraint


# What a backend raises when the database refuses an operation or cannot be reached (the timer
# dispatcher backs off on these and logs them without a traceback).
BACKEND_ERRORS: tuple[type[BaseException], ...] = (
    sqlite3.Error,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    ConnectionError,
)


class Cursor(Protocol):
    """What `Connection.execute` returns (an aiosqlite cursor, or db/postgres.py's)."""

    rowcount: int

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Sequence[Any]: ...


class Connection(Protocol):
    """The connection a `transaction()` yields: statements inside one transaction."""

    async def execute(self, sql: str, parameters: Iterable[object] = ()) -> Cursor: ...

    async def executemany(self, sql: str, rows: Iterable[Iterable[object]]) -> None: ...


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR, backend: str = "sqlite") -> list[Migration]:
    """The migrations for `backend` in version order: each version's `NNN_name.BACKEND.sql` if
    there is one, else its portable `NNN_name.sql`. A gap-free numbering is not required, order
    is; every version must exist for every backend, under one name."""
    if backend not in BACKENDS:
        raise MigrationError(f"unknown database backend {backend!r}")
    files: dict[int, dict[str | None, Path]] = {}
    names: dict[int, str] = {}
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(
                f"migration file {path.name!r} must be named like 001_name.sql"
                " (or 001_name.postgres.sql beside it)"
            )
        version, variant = int(match.group(1)), match.group(3)
        name = f"{match.group(1)}_{match.group(2)}"
        if names.setdefault(version, name) != name:
            raise MigrationError(f"two migrations share the number {version:03d}")
        variants = files.setdefault(version, {})
        if variant in variants:
            raise MigrationError(f"two migrations share the number {version:03d}")
        variants[variant] = path
    migrations = []
    for version in sorted(files):
        variants = files[version]
        path = variants.get(backend) or variants.get(None)
        if path is None:
            raise MigrationError(
                f"migration {names[version]} has no file for {backend}: add"
                f" {names[version]}.sql (portable) or {names[version]}.{backend}.sql"
            )
        migrations.append(Migration(version, names[version], path.read_text(encoding="utf-8")))
    return migrations


def split_statements(sql: str) -> list[str]:
    """Split a script into statements (executescript would COMMIT, breaking atomicity)."""
    statements: list[str] = []
    current = ""
    for line in sql.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip() and not current.strip().startswith("--"):
        raise MigrationError(f"incomplete SQL statement at the end: {current.strip()[:60]!r}")
    return statements


def redacted(url: str) -> str:
    """A database URL with its password hidden, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Database:
    """What every db/ module uses: `transaction()`, `fetch_one`, `fetch_all`, `migrate`,
    `close`, `size()`. `Database.open(target)` opens SQLite for a path, PostgreSQL for a
    `postgresql://` URL."""

    backend = "sqlite"
    # Who this process is to the rows it claims (timers): a random number, new at every start.
    owner: str
    # The shards this process runs, (SHARD_COUNT, SHARD_IDS), set by bot.py; None: all of them.
    shards: tuple[int, tuple[int, ...]] | None = None

    @classmethod
    async def open(cls, target: Path | str) -> Database:
        if is_postgres_url(target):
            from db.postgres import PostgresDatabase

            return await PostgresDatabase.connect(str(target))
        return await SqliteDatabase.connect(Path(target))

    def describe(self) -> str:
        """Where the data is, for the log (never a password)."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def transaction(self) -> Any:
        """`async with db.transaction() as conn:` one write transaction; COMMIT at the end,
        ROLLBACK if the block raises."""
        raise NotImplementedError

    async def fetch_one(self, sql: str, parameters: Iterable[object] = ()) -> Any | None:
        raise NotImplementedError

    async def fetch_all(self, sql: str, parameters: Iterable[object] = ()) -> list[Any]:
        raise NotImplementedError

    async def size(self) -> int:
        """Bytes the data takes where it is kept (/about)."""
        raise NotImplementedError

    def on_own_shards(self, guild_column: str) -> tuple[str, tuple[int, ...]]:
        """An SQL condition and its parameters: the row's server is on one of this process's
        shards, `(guild_id >> 22) % SHARD_COUNT` as Discord counts, and a row of no server (a
        DM) is shard 0's. What a process does for the servers it serves (start-up repair) it
        does for these rows only, so that two processes do not both do it."""
        if self.shards is None:
            return "1 = 1", ()
        count, ids = self.shards
        marks = ", ".join("?" for _ in ids)
        direct = "1 = 1" if 0 in ids else "1 = 0"
        return (
            f"(({guild_column} IS NULL AND {direct}) OR ({guild_column} >> 22) % ? IN ({marks}))",
            (count, *ids),
        )

    def abandoned(self, owner_column: str) -> str:
        """An SQL condition: the process named in `owner_column` (an `owner`) has stopped, so
        what it claimed may be taken (db/timers.py). SQLite serves one process: every owner
        but this one has stopped."""
        return f"({owner_column} IS NULL OR {owner_column} <> '{self.owner}')"

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        """Held by one process of the cluster at a time: a read-modify-write that spans awaits
        (load a match, apply a move, save it, post it) runs inside it, so another process's click
        on the same match waits instead of computing from the same old state. SQLite serves one
        process, whose in-process lock (cogs/common.GameLocks) is already the whole guard."""
        yield

    @asynccontextmanager
    async def _migration_lock(self) -> AsyncIterator[None]:
        """Held while migrating (PostgreSQL: an advisory lock shared by every process)."""
        yield

    async def applied_migrations(self) -> set[int]:
        async with self.transaction() as conn:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        rows = await self.fetch_all("SELECT version FROM schema_migrations")
        return {row["version"] for row in rows}

    async def migrate(self, migrations: list[Migration] | None = None) -> list[str]:
        """Apply the pending migrations in order; return the names applied (by this process:
        one started at the same time may have applied some)."""
        migrations = load_migrations(backend=self.backend) if migrations is None else migrations
        applied: list[str] = []
        async with self._migration_lock():
            done = await self.applied_migrations()
            for migration in migrations:
                if migration.version in done:
                    continue
                if await self._apply(migration):
                    log.info("applied migration %s", migration.name)
                    applied.append(migration.name)
        return applied

    async def _apply(self, migration: Migration) -> bool:
        try:
            async with self.transaction() as conn:
                cursor = await conn.execute(
                    "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
                )
                if await cursor.fetchone() is not None:
                    return False  # another process applied it meanwhile
                for statement in split_statements(migration.sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at)"
                    " VALUES (?, ?, CURRENT_TIMESTAMP)",
                    (migration.version, migration.name),
                )
        except BACKEND_ERRORS as error:
            raise MigrationError(f"migration {migration.name} failed: {error}") from error
        return True


class SqliteConnection:
    """The aiosqlite connection inside a transaction, with the backend-neutral IntegrityError."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, parameters: Iterable[object] = ()) -> aiosqlite.Cursor:
        try:
            return await self._connection.execute(sql, tuple(parameters))
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def executemany(self, sql: str, rows: Iterable[Iterable[object]]) -> None:
        try:
            await self._connection.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error


class SqliteDatabase(Database):
    """One aiosqlite connection in autocommit mode; writes go through `transaction()`.

    A single connection cannot hold two transactions at once, so `transaction()` serialises them
    with a lock: concurrent moves queue for a few milliseconds instead of failing.
    """

    backend = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self.owner = str(secrets.randbelow(2**31 - 1) + 1)
        self._write_lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: Path) -> SqliteDatabase:
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        try:
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute("PRAGMA busy_timeout = 5000")
            # Fail at start-up, with a clear message, rather than at the first move.
            await connection.execute("BEGIN IMMEDIATE")
            await connection.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            await connection.close()
            raise DatabaseError(
                f"The database {path} cannot be written ({error}). Give the bot's user write "
                "permission on the file and its folder (SQLite writes a -wal file beside it), "
                "or set DATABASE_PATH to a writable place."
            ) from error
        return cls(connection, path)

    def describe(self) -> str:
        return f"SQLite {self.path}"

    async def close(self) -> None:
        await self.connection.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises."""
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteConnection(self.connection)
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            else:
                await self.connection.execute("COMMIT")

    async def fetch_one(self, sql: str, parameters: Iterable[object] = ()) -> aiosqlite.Row | None:
        async with self.connection.execute(sql, tuple(parameters)) as cursor:
            return await cursor.fetchone()

    async def fetch_all(self, sql: str, parameters: Iterable[object] = ()) -> list[aiosqlite.Row]:
        async with self.connection.execute(sql, tuple(parameters)) as cursor:
            return list(await cursor.fetchall())

    def size_bytes(self) -> int:
        """The database file plus its write-ahead log, as an operator sees it on disk."""
        total = 0
        for suffix in ("", "-wal"):
            candidate = Path(f"{self.path}{suffix}")
            if candidate.exists():
                total += candidate.stat().st_size
        return total

    async def size(self) -> int:
        return self.size_bytes()
