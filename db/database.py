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

Migrations are the numbered SQL files in db/migrations (`001_core.sql`, `002_...`), one source
each: the loader expands the few dialect differences (an auto-numbered id, `AUTO_ID`). At start-up every file not
yet recorded in `schema_migrations` runs inside one transaction together with the row that
records it, so a migration that fails half-way leaves neither its changes nor its record; on
PostgreSQL the whole run holds an advisory lock, so processes starting together apply each
migration once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, Protocol
from urllib.parse import parse_qsl, urlsplit

import aiosqlite
import asyncpg

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
BACKENDS = ("sqlite", "postgres")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Seconds a statement may take where slowness is expected (a migration, filling a benchmark).
SLOW_TIMEOUT = 3600.0


class DatabaseError(Exception):
    """The database cannot be used at all (e.g. a read-only file, a server that cannot be
    reached); the message tells the operator what to fix."""


class MigrationError(DatabaseError):
    """A migration file is misnamed, duplicated or failed to apply."""


class LockTimeout(DatabaseError):
    """`hold()` waited longer than the database allows for a lock another process holds."""


class DatabaseUnavailable(DatabaseError):
    """The database cannot be reached or written right now: a PostgreSQL server that is down,
    restarting or too slow to answer (a timeout), a SQLite file deleted or replaced while the
    bot runs, a full or read-only disk. Nothing was written; the same operation may work again
    shortly, and the player is told so (ui/replies.py)."""


class CommitUnknown(DatabaseUnavailable):
    """The COMMIT was sent but its answer never came (the server went away meanwhile): what the
    transaction wrote may or may not be stored. A caller that can tell reads it back
    (db/games.py save_move); otherwise the player hears that it may have been saved."""


# SQLite's primary result codes that mean "not now" rather than a bug in the SQL: BUSY, LOCKED,
# NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB.
SQLITE_UNAVAILABLE = {5, 6, 7, 8, 10, 11, 13, 14, 15, 26}


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
    DatabaseUnavailable,
    sqlite3.Error,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    ConnectionError,
)

# PostgreSQL errors that mean the server cannot serve us now (class 08 connection exceptions,
# 53 insufficient resources, 57 operator intervention: shutting down, starting up, crashed;
# 25006 a read-only standby), as opposed to a refused statement.
_POSTGRES_UNAVAILABLE: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.InsufficientResourcesError,
    asyncpg.OperatorInterventionError,
    asyncpg.ReadOnlySQLTransactionError,
)


def unavailable_cause(error: BaseException) -> str | None:
    """Why `error` means the database cannot serve us right now (a short text for the log), or
    None when it is something else (a bug in a statement, a refused constraint)."""
    if isinstance(error, DatabaseUnavailable):
        return str(error)
    if isinstance(error, sqlite3.IntegrityError):
        return None
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in SQLITE_UNAVAILABLE:
            return f"SQLite: {error}"
        if isinstance(error, sqlite3.ProgrammingError) and "closed" in str(error):
            return "the database connection is closed"
        return None
    if isinstance(error, TimeoutError):
        return "the database did not answer in time"
    if isinstance(error, _POSTGRES_UNAVAILABLE):
        return f"PostgreSQL: {type(error).__name__}: {error}"
    if isinstance(error, asyncpg.InterfaceError) and (
        "closed" in str(error) or "connection" in str(error).lower()
    ):
        return f"PostgreSQL: {error}"
    if isinstance(error, asyncpg.InternalClientError):
        # a connection left mid-operation by a server that went away ("cannot switch to
        # state 15; another operation is in progress"): dropped, and the next one is new
        return f"PostgreSQL: a broken connection ({error})"
    if isinstance(error, OSError):
        return f"{type(error).__name__}: {error}"
    return None


def is_unavailable(error: BaseException) -> bool:
    """`error` (or the error a command or a view wrapped it in, or raised it from) is a
    DatabaseUnavailable: the backends turn every such failure into one."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DatabaseUnavailable):
            return True
        current = getattr(current, "original", None) or current.__cause__
    return False


class Cursor(Protocol):
    """What `Connection.execute` returns (`FetchedCursor` on both backends)."""

    rowcount: int

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Sequence[Any]: ...


class FetchedCursor:
    """What `Connection.execute` returns on both backends: the rows a statement gave (if any,
    all read as it ran) and how many it touched."""

    def __init__(self, rows: Sequence[Any], count: int) -> None:
        self._rows = list(rows)
        self.rowcount = count

    async def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    async def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows, []
        return rows

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Any]:
        while self._rows:
            yield self._rows.pop(0)


@dataclass(frozen=True)
class Statement:
    """One statement of a batch (`Connection.execute_all`). `changes`: the batch stops after
    it unless it changed a row (a write that is only right at the version it was read at)."""

    sql: str
    parameters: tuple[object, ...] = ()
    changes: bool = False


class Connection(Protocol):
    """The connection a `transaction()` yields: statements inside one transaction."""

    async def execute(self, sql: str, parameters: Iterable[object] = ()) -> Cursor: ...

    async def execute_all(self, statements: Sequence[Statement]) -> list[FetchedCursor]:
        """The statements run in order, as many as a single `execute` of each would, in one
        hand-over to SQLite's thread (each is one then: a match's save is several); what each
        gave, up to one marked `changes` that changed nothing (the rest not run)."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Iterable[object]]) -> None: ...

    def timer_written(self, due_at: float) -> None:
        """A timer due at `due_at` was written in this transaction (db/timers.py): once it
        commits, the database tells its timer listeners (`Database.when_timer_written`)."""
        ...


class TimerWrites:
    """What a transaction's connection remembers of the timers it wrote: the earliest due."""

    earliest_timer: float | None = None

    def timer_written(self, due_at: float) -> None:
        if self.earliest_timer is None or due_at < self.earliest_timer:
            self.earliest_timer = due_at


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


# The few places SQLite and PostgreSQL spell a column differently, written once in a migration
# and expanded here. SQLite's auto-numbered id must be spelled exactly INTEGER PRIMARY KEY (an
# alias of the rowid); BIGINT and DOUBLE PRECISION take SQLite's INTEGER and REAL affinity.
DIALECT = {
    "sqlite": (
        (re.compile(r"\bAUTO_ID\b"), "INTEGER PRIMARY KEY"),
        (re.compile(r"\bBIGINT(?=\s+PRIMARY KEY)"), "INTEGER"),
    ),
    "postgres": (
        (re.compile(r"\bAUTO_ID\b"), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    ),
}


def expand(sql: str, backend: str) -> str:
    """A migration's one source in `backend`'s dialect."""
    for pattern, spelling in DIALECT[backend]:
        sql = pattern.sub(spelling, sql)
    return sql


def load_migrations(directory: Path = MIGRATIONS_DIR, backend: str = "sqlite") -> list[Migration]:
    """The migrations in version order, each one file (`NNN_name.sql`) expanded for `backend`.
    A gap-free numbering is not required, order is."""
    if backend not in BACKENDS:
        raise MigrationError(f"unknown database backend {backend!r}")
    migrations: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name!r} must be named like 001_name.sql")
        version = int(match.group(1))
        if version in migrations:
            raise MigrationError(f"two migrations share the number {version:03d}")
        migrations[version] = Migration(
            version, path.stem, expand(path.read_text(encoding="utf-8"), backend)
        )
    return [migrations[version] for version in sorted(migrations)]


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
    """A database URL with its password hidden, for logs and messages: everything between the
    user name and the last `@` (a password may hold `@`, `/`, `#`) and any `password=` in the
    query become ***, also when the URL cannot be read."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return "***"
    userinfo, at, hostpart = rest.rpartition("@")
    if at:
        user, colon, _ = userinfo.partition(":")
        rest = f"{user}{':***' if colon else ''}@{hostpart}"
    base, question, query = rest.partition("?")
    if question:
        hidden = [
            f"{key}=***" if key.lower() in ("password", "passfile") else f"{key}={value}"
            for key, value in parse_qsl(query, keep_blank_values=True)
        ]
        rest = f"{base}?{'&'.join(hidden)}"
    return f"{scheme}://{rest}"


URL_ESCAPES = "/ is %2F, @ is %40, # is %23, ? is %3F, : is %3A, % is %25, a space is %20"


def url_problem(url: str) -> str | None:
    """Why a postgresql:// URL cannot be read unambiguously (None: it can). A password holding
    `/`, `@`, `#`, `?` or `:` must be percent-encoded, or the URL means something else: a `/`
    starts the database name, a `#` a fragment. Never quotes the URL's password."""
    if "#" in url.partition("://")[2]:
        return "it has a '#', which ends a URL: a '#' in the password must be written %23"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return (
            "its host and port cannot be read (a password holding '/' or ':' must be "
            "percent-encoded)"
        )
    if parts.netloc.count("@") > 1 or "@" in parts.path or "@" in parts.query:
        return "it has more than one '@' (an '@' in the password must be written %40)"
    return None


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Database:
    """What every db/ module uses: `transaction()`, `fetch_one`, `fetch_all`, `migrate`,
    `close`, `size()`. `db.connect.open_database(target)` opens SQLite for a path, PostgreSQL
    for a `postgresql://` URL."""

    backend = "sqlite"
    # Who this process is to the rows it claims (timers): a random number, new at every start.
    owner: str
    # The shards this process runs, (SHARD_COUNT, SHARD_IDS), set by bot.py; None: all of them.
    shards: tuple[int, tuple[int, ...]] | None = None
    # What is wrong while the database is unavailable (None: it works), and who is told when it
    # works again (the timer dispatcher looks at its timers at once).
    outage: str | None = None
    _on_available: list[Callable[[], None]]
    # Who is told, after a commit, the earliest timer the transaction wrote (the timer
    # dispatcher wakes if it falls due before it would look again).
    _on_timer: list[Callable[[float], None]]
    # Write transactions committed by this process (the timer dispatcher re-checks its claimed
    # batch only after a handler wrote something).
    commits = 0

    def when_available(self, callback: Callable[[], None]) -> None:
        """Call `callback` each time the database works again after an outage."""
        self._on_available.append(callback)

    def forget_available(self, callback: Callable[[], None]) -> None:
        """Stop calling `callback` (given to when_available) after an outage."""
        with contextlib.suppress(ValueError):
            self._on_available.remove(callback)

    def when_timer_written(self, callback: Callable[[float], None]) -> None:
        """Call `callback(due_at)` after each commit that wrote timers, with the earliest."""
        self._on_timer.append(callback)

    def committed(self, writes: TimerWrites) -> None:
        """A write transaction committed: an outage is over, and the timers it wrote are told."""
        self.available()
        if writes.earliest_timer is not None:
            for callback in list(self._on_timer):
                callback(writes.earliest_timer)

    def unavailable(self, error: BaseException) -> DatabaseUnavailable:
        """The DatabaseUnavailable to raise for a backend's `error` (already one: as it is).
        The first failure of an outage is logged once, as an error without a traceback; each
        click during it is answered, not logged again (ui/replies.py)."""
        if isinstance(error, DatabaseUnavailable):
            problem, wrapped = str(error), error
        else:
            problem = unavailable_cause(error) or f"{type(error).__name__}: {error}"
            wrapped = DatabaseUnavailable(f"{self.describe()}: {problem}")
        if self.outage is None:
            log.error(
                "the database is unavailable (%s); nothing is saved until it answers again",
                wrapped,
            )
        self.outage = problem
        return wrapped

    def available(self) -> None:
        """A write worked: if an outage was going on, it is over. (Reads may work while writes
        fail, as on a read-only disk: only a write ends an outage.)"""
        self.commits += 1
        if self.outage is None:
            return
        self.outage = None
        log.info("the database answers again (%s)", self.describe())
        for callback in list(self._on_available):
            callback()

    async def ping(self) -> None:
        """One trivial read (the health check); DatabaseUnavailable if it fails."""
        await self.fetch_one("SELECT 1")

    def describe(self) -> str:
        """Where the data is, for the log (never a password)."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def transaction(self, *, timeout: float | None = None, key: str | None = None) -> Any:
        """`async with db.transaction() as conn:` one write transaction; COMMIT at the end,
        ROLLBACK if the block raises. `timeout`: seconds a statement may take (PostgreSQL;
        None: a click's budget, db/postgres.py), for the few writes allowed to be slow.

        `key` (PostgreSQL; SQLite has one writer in any case): the transaction reads and writes
        only what belongs to `key` (a match's own rows: "game:<id>"), so it waits only for
        other transactions of the same key and for unkeyed ones, and runs beside transactions
        of other keys. Without it, no other write transaction runs at the same time."""
        raise NotImplementedError

    async def ensure_alive(self) -> None:
        """Before claiming rows for this process: it is known to the cluster as running
        (PostgreSQL: holds its alive lock). One process on SQLite: always."""

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
            async with self.transaction(timeout=SLOW_TIMEOUT) as conn:
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


@dataclass(frozen=True)
class _Refused:
    """What SQLite's thread answers instead of running a statement on a file it must not use."""

    problem: str


def _ready(
    database: SqliteDatabase | None, connection: sqlite3.Connection, begin: bool
) -> _Refused | None:
    """In SQLite's thread, before a statement: the file checked (with `database`), then the
    transaction begun (`begin`); what refuses the file, if anything."""
    if database is not None:
        problem = database.file_problem()
        if problem is not None:
            return _Refused(problem)
    if begin:
        connection.execute("BEGIN IMMEDIATE")
    return None


def _query(
    database: SqliteDatabase | None,
    connection: sqlite3.Connection,
    sql: str,
    parameters: tuple[object, ...],
    fetch: Callable[[sqlite3.Cursor], Any],
    begin: bool = False,
) -> Any:
    """A statement run, what `fetch` reads of its cursor, the cursor closed: in SQLite's
    thread. With `database`, its file is checked first (SqliteDatabase.file_problem), in the
    same thread: the check's system calls would otherwise each give up the interpreter lock on
    the event loop and wait to take it back from a thread drawing a turn. `begin`: a
    transaction is begun first (BEGIN IMMEDIATE), in the same hand-over."""
    refused = _ready(database, connection, begin)
    if refused is not None:
        return refused
    cursor = connection.execute(sql, parameters)
    try:
        return fetch(cursor)
    finally:
        cursor.close()


def _fetched(cursor: sqlite3.Cursor) -> FetchedCursor:
    return FetchedCursor(cursor.fetchall(), cursor.rowcount)


def _all(
    database: SqliteDatabase | None,
    connection: sqlite3.Connection,
    statements: Sequence[Statement],
    begin: bool,
) -> list[FetchedCursor] | _Refused:
    """`Connection.execute_all` in SQLite's thread, the file checked first as `_query` does."""
    refused = _ready(database, connection, begin)
    if refused is not None:
        return refused
    results = []
    for statement in statements:
        cursor = connection.execute(statement.sql, statement.parameters)
        try:
            results.append(_fetched(cursor))
        finally:
            cursor.close()
        if statement.changes and results[-1].rowcount == 0:
            break
    return results


def _nothing(cursor: sqlite3.Cursor) -> None:
    return None


class SqliteConnection(TimerWrites):
    """The aiosqlite connection inside a transaction, with the backend-neutral IntegrityError
    and DatabaseUnavailable. The transaction is begun with its first statement, in the same
    hand-over to SQLite's thread (`begun`): one hand-over fewer for every write."""

    def __init__(self, connection: aiosqlite.Connection, database: SqliteDatabase) -> None:
        self._connection = connection
        self._database = database
        self.begun = False

    async def execute(self, sql: str, parameters: Iterable[object] = ()) -> FetchedCursor:
        """The statement run and its rows read in one hand-over to aiosqlite's thread (an
        aiosqlite cursor's execute and fetch are one each; a move's save is several
        statements); the first one begins the transaction, the file checked first."""
        first, self.begun = not self.begun, True
        try:
            return await self._database._in_thread(
                sql, tuple(parameters), _fetched, checked=first, begin=first
            )
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error
        except (sqlite3.Error, ValueError) as error:
            self._database._reraise(error)

    async def execute_all(self, statements: Sequence[Statement]) -> list[FetchedCursor]:
        first, self.begun = not self.begun, True
        database = self._database
        try:
            result = await self._connection._execute(
                _all, database if first else None, self._connection._conn, statements, first
            )
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error
        except (sqlite3.Error, ValueError) as error:
            database._reraise(error)
        if isinstance(result, _Refused):
            raise database.unavailable(DatabaseUnavailable(result.problem))
        return result

    async def executemany(self, sql: str, rows: Iterable[Iterable[object]]) -> None:
        try:
            if not self.begun:
                self.begun = True
                await self._database._in_thread("BEGIN IMMEDIATE", (), _nothing)
            await self._connection.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error
        except (sqlite3.Error, ValueError) as error:
            self._database._reraise(error)


def marker_of(path: Path) -> Path:
    """The file that says a database was created at `path`: hidden, and not matched by
    `rm ballcourt.db*`, so a database deleted by hand is noticed at the next start instead of
    being replaced by an empty one."""
    return path.with_name(f".{path.name}.created")


def _who() -> str:
    return f"uid {os.geteuid()}" if hasattr(os, "geteuid") else "this user"


def _folder_problem(folder: Path) -> str | None:
    """What stops the bot's user from creating files in `folder`, in words (None: nothing)."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        info = existing.stat()
    except OSError as error:
        return f"{existing} cannot be read ({error.strerror})"
    if not existing.is_dir():
        return f"{existing} is not a folder"
    if hasattr(os, "statvfs") and os.statvfs(existing).f_flag & os.ST_RDONLY:
        return f"the filesystem holding {existing} is mounted read-only"
    if not os.access(existing, os.W_OK | os.X_OK):
        return (
            f"the folder {existing} is not writable by the bot's user ({_who()}; the folder "
            f"belongs to uid {info.st_uid}, mode {info.st_mode & 0o777:o})"
        )
    return None


def _file_problem(path: Path) -> str | None:
    """What is wrong with an existing database file, in words (None: nothing visible)."""
    for candidate in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if candidate.exists() and not os.access(candidate, os.R_OK | os.W_OK):
            info = candidate.stat()
            return (
                f"{candidate} is not writable by the bot's user ({_who()}; the file belongs to "
                f"uid {info.st_uid}, mode {info.st_mode & 0o777:o})"
            )
    if hasattr(os, "statvfs") and path.parent.exists():
        stats = os.statvfs(path.parent)
        if stats.f_flag & os.ST_RDONLY:
            return f"the filesystem holding {path.parent} is mounted read-only"
        if stats.f_bavail == 0:
            return f"the filesystem holding {path.parent} is full"
    return None


class SqliteDatabase(Database):
    """One aiosqlite connection in autocommit mode; writes go through `transaction()`.

    A single connection cannot hold two transactions at once, so `transaction()` serialises them
    with a lock: concurrent moves queue for a few milliseconds instead of failing.

    Before each operation the file is checked (a few system calls, in SQLite's thread with the
    operation's first statement: `file_problem`): still the file that was
    opened (not deleted or replaced while the bot runs: writes would go to a file nobody can
    see again), on a filesystem that accepts writes (the kernel remounts a failing disk
    read-only), with its shared-memory file (-shm, which SQLite maps into memory) no smaller
    than before: touching a mapped page past the end of a shrunk file kills the process with
    SIGBUS, so such a file is refused instead of used.
    """

    backend = "sqlite"
    BUSY_TIMEOUT_MS = 2000  # a file locked by another program: answer within Discord's 3 s

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self.owner = str(secrets.randbelow(2**31 - 1) + 1)
        self._write_lock = asyncio.Lock()
        self._on_available = []
        self._on_timer = []
        self._identity: tuple[int, int] | None = None
        self._shm = Path(f"{path}-shm")
        self._shm_size = 0
        # the names as strings: os.stat on a str skips pathlib's conversion on every check
        self._path_name, self._folder_name, self._shm_name = (
            str(path),
            str(path.parent),
            str(self._shm),
        )
        if str(path) != ":memory:":
            info = path.stat()
            self._identity = (info.st_dev, info.st_ino)
            self._shm_size = self._shm.stat().st_size if self._shm.exists() else 0

    @classmethod
    async def connect(cls, path: Path) -> SqliteDatabase:
        """The database at `path`, opened and checked. A stop during start-up that cancels
        this waits for the opening (it runs in SQLite's thread, which would otherwise hand
        its answer to an event loop already closed, a traceback after the bot stopped), then
        closes the connection."""
        opening = asyncio.ensure_future(cls._open(path))
        try:
            return await asyncio.shield(opening)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await (await opening).close()
            raise

    @classmethod
    async def _open(cls, path: Path) -> SqliteDatabase:
        in_memory = str(path) == ":memory:"
        if not in_memory:
            marker = marker_of(path)
            if not path.exists() and marker.exists():
                raise DatabaseError(
                    f"The database {path} is missing, but a database was created there "
                    f"({marker.read_text(errors='replace').strip() or 'see ' + str(marker)}). "
                    "Starting with an empty one would lose every match, league and rating. "
                    f"Restore the file from a backup (docs/operations.md), or, to start empty on "
                    f"purpose, delete {marker}."
                )
            problem = _folder_problem(path.parent) if not path.exists() else None
            if problem is not None:
                raise DatabaseError(cls._cannot(path, problem))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise DatabaseError(
                    cls._cannot(path, f"{error.strerror}: {error.filename}")
                ) from error
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            problem = (
                (_folder_problem(path.parent) or _file_problem(path)) if not in_memory else None
            )
            raise DatabaseError(cls._cannot(path, problem or str(error))) from error
        connection.row_factory = aiosqlite.Row
        try:
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute(f"PRAGMA busy_timeout = {cls.BUSY_TIMEOUT_MS}")
            # Fail at start-up, with a clear message, rather than at the first move.
            await connection.execute("BEGIN IMMEDIATE")
            await connection.execute("ROLLBACK")
        except sqlite3.Error as error:
            await connection.close()
            problem = None if in_memory else (_file_problem(path) or _folder_problem(path.parent))
            raise DatabaseError(
                f"The database {path} cannot be written ({problem or error}). Give the bot's "
                "user write permission on the file and its folder (SQLite writes a -wal file "
                "beside it), or set DATABASE_PATH to a writable place."
            ) from error
        if not in_memory and not marker_of(path).exists():
            try:
                marker_of(path).write_text(
                    f"created {time.strftime('%Y-%m-%d %H:%M:%S %Z')} by Ballcourt\n"
                )
            except OSError as error:
                log.warning("could not write %s (%s)", marker_of(path), error)
        return cls(connection, path)

    @staticmethod
    def _cannot(path: Path, problem: str) -> str:
        return (
            f"The database {path} cannot be opened: {problem}. Give the bot's user write "
            "permission on that folder, or set DATABASE_PATH to a writable place (in the Docker "
            "image leave it unset: the data goes to the /data volume)."
        )

    def describe(self) -> str:
        return f"SQLite {self.path}"

    async def close(self) -> None:
        if self._identity is not None and 0 <= self._shm_stat() < self._shm_size:
            # Closing checkpoints through the shared memory: a shrunk file would crash the bot
            # now (SIGBUS). Given back its size, SQLite rebuilds its content from the WAL.
            with contextlib.suppress(OSError):
                os.truncate(self._shm, self._shm_size)
        await self.connection.close()

    def _shm_stat(self) -> int:
        """The -shm file's size (-1: there is none)."""
        try:
            return os.stat(self._shm_name).st_size
        except OSError:
            return -1

    def file_problem(self) -> str | None:
        """What makes the file unsafe to use now, in words (None: nothing; see the class): a
        few system calls, made in SQLite's thread before each read, before a transaction
        begins and before it commits."""
        if self._identity is None:
            return None
        try:
            info = os.stat(self._path_name)
        except FileNotFoundError:
            return (
                f"the database file {self.path} was deleted while the bot runs; nothing more "
                "can be saved. Stop the bot and restore the file from a backup"
            )
        except OSError as error:
            return f"the database file {self.path} cannot be read ({error.strerror})"
        if (info.st_dev, info.st_ino) != self._identity:
            return (
                f"the database file {self.path} was replaced by another file while the bot "
                "runs; nothing more is saved. Stop the bot before restoring a backup"
            )
        if os.statvfs(self._folder_name).f_flag & os.ST_RDONLY:
            return (
                f"the filesystem holding {self.path} became read-only (the kernel does that "
                "after disk errors: see `dmesg`); nothing more can be saved"
            )
        shm = self._shm_stat()
        if shm < self._shm_size:
            return (
                f"SQLite's shared-memory file {self._shm} was "
                f"{'deleted' if shm < 0 else 'truncated'} while the bot runs; using it "
                "would crash the bot, so nothing more is saved. Stop the bot and start "
                "it again"
            )
        self._shm_size = max(self._shm_size, shm)
        return None

    def _reraise(self, error: BaseException) -> NoReturn:
        """Raise DatabaseUnavailable for a backend error that means the database cannot serve
        now (logged once), otherwise `error` itself."""
        cause = unavailable_cause(error)
        if isinstance(error, ValueError) and "no active connection" in str(error):
            cause = f"the connection to {self.path} is closed"
        if cause is None:
            raise error
        raise self.unavailable(DatabaseUnavailable(f"{self.describe()}: {cause}")) from error

    @asynccontextmanager
    async def transaction(
        self, *, timeout: float | None = None, key: str | None = None
    ) -> AsyncIterator[SqliteConnection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises; a block that ran no
        statement begins nothing (SqliteConnection begins with the first). (`timeout` and
        `key` are for PostgreSQL: a file has the busy timeout only, and one writer.)"""
        async with self._write_lock:
            wrapped = SqliteConnection(self.connection, self)
            try:
                yield wrapped
            except BaseException:
                if wrapped.begun:  # a BEGIN that failed leaves nothing to roll back: suppressed
                    with contextlib.suppress(sqlite3.Error, ValueError):
                        await self.connection.execute("ROLLBACK")
                raise
            if not wrapped.begun:
                return
            try:
                # checked first: never acknowledge a write to a file that is gone
                await self._in_thread("COMMIT", (), _nothing)
            except (sqlite3.Error, ValueError, DatabaseUnavailable) as error:
                with contextlib.suppress(sqlite3.Error, ValueError):
                    await self.connection.execute("ROLLBACK")
                if isinstance(error, DatabaseUnavailable):
                    raise
                self._reraise(error)
        self.committed(wrapped)

    async def fetch_one(self, sql: str, parameters: Iterable[object] = ()) -> aiosqlite.Row | None:
        try:
            row = await self._in_thread(sql, tuple(parameters), sqlite3.Cursor.fetchone)
        except (sqlite3.Error, ValueError) as error:
            self._reraise(error)
        return row

    async def fetch_all(self, sql: str, parameters: Iterable[object] = ()) -> list[aiosqlite.Row]:
        try:
            rows = await self._in_thread(sql, tuple(parameters), sqlite3.Cursor.fetchall)
        except (sqlite3.Error, ValueError) as error:
            self._reraise(error)
        return rows

    async def _in_thread(
        self,
        sql: str,
        parameters: tuple[object, ...],
        fetch: Callable[[sqlite3.Cursor], Any],
        *,
        checked: bool = True,
        begin: bool = False,
    ) -> Any:
        """A statement and what `fetch` reads of it, run whole in aiosqlite's thread: one
        hand-over to that thread and back, where an aiosqlite cursor's execute, fetch and close
        are three, each a wake-up of the event loop (most of what a read costs the loop).
        aiosqlite's `_execute` is the queue all of its own methods go through; a closed
        connection raises ValueError as they do. `checked`: the file is checked first, in the
        same hand-over (DatabaseUnavailable when it must not be used); `begin`: a transaction
        is begun before the statement, in it too."""
        connection = self.connection
        result = await connection._execute(
            _query, self if checked else None, connection._conn, sql, parameters, fetch, begin
        )
        if isinstance(result, _Refused):
            raise self.unavailable(DatabaseUnavailable(result.problem))
        return result

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
