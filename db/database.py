"""The SQLite connection: opening it (WAL, foreign keys), transactions, and schema migrations.

Migrations are the numbered SQL files in db/migrations (`001_core.sql`, `002_...`). At start-up
every file not yet recorded in `schema_migrations` runs inside one transaction together with the
row that records it, so a migration that fails half-way leaves neither its changes nor its record.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


class DatabaseError(Exception):
    """The database cannot be used at all (e.g. a read-only file); the message tells the
    operator what to fix."""


class MigrationError(DatabaseError):
    """A migration file is misnamed, duplicated or failed to apply."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files in version order; a gap-free numbering is not required, order is."""
    migrations: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name!r} must be named like 001_name.sql")
        version = int(match.group(1))
        if version in migrations:
            raise MigrationError(f"two migrations share the number {version:03d}")
        migrations[version] = Migration(version, path.stem, path.read_text(encoding="utf-8"))
    return [migrations[v] for v in sorted(migrations)]


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


class Database:
    """One aiosqlite connection in autocommit mode; writes go through `transaction()`.

    A single connection cannot hold two transactions at once, so `transaction()` serialises them
    with a lock: concurrent moves queue for a few milliseconds instead of failing.
    """

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        path = Path(path)
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

    async def close(self) -> None:
        await self.connection.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises."""
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
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

    async def applied_migrations(self) -> set[int]:
        await self.connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        rows = await self.fetch_all("SELECT version FROM schema_migrations")
        return {row["version"] for row in rows}

    async def migrate(self, migrations: list[Migration] | None = None) -> list[str]:
        """Apply the pending migrations in order; return the names applied."""
        migrations = load_migrations() if migrations is None else migrations
        done = await self.applied_migrations()
        applied: list[str] = []
        for migration in migrations:
            if migration.version in done:
                continue
            try:
                async with self.transaction() as conn:
                    for statement in split_statements(migration.sql):
                        await conn.execute(statement)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at)"
                        " VALUES (?, ?, CURRENT_TIMESTAMP)",
                        (migration.version, migration.name),
                    )
            except sqlite3.Error as error:
                raise MigrationError(f"migration {migration.name} failed: {error}") from error
            log.info("applied migration %s", migration.name)
            applied.append(migration.name)
        return applied

    def size_bytes(self) -> int:
        """The database file plus its write-ahead log, as an operator sees it on disk."""
        total = 0
        for suffix in ("", "-wal"):
            candidate = Path(f"{self.path}{suffix}")
            if candidate.exists():
                total += candidate.stat().st_size
        return total
