"""The e2e tests of every game again, with the bot on PostgreSQL (issue 14).

A module here names the SQLite module whose tests it runs (`SAME_TESTS_AS`), imports the tests
it runs from it, and gives the bot environment of that module (`BOT_ENV`, e.g. its GAME_SEED).
Its bot gets `DATABASE_URL` pointing at a new database on the suite's PostgreSQL server.

Those tests read what the bot stored with `sqlite3.connect(bot.database_path)`. While a module
here runs, the `sqlite3` name in the SQLite module is `PostgresReader`: the same calls
(connect, execute with `?` placeholders, fetchone, fetchall, rowcount, iterating rows, rows by
name or position) on the PostgreSQL database, so the very same assertions check it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest

from db.postgres import RETURNING, RETURNS_ROWS, rowcount, translate_placeholders
from tests.postgres.server import PostgresServer

_worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="pg-reader")


class _Cursor:
    def __init__(self, rows: list[asyncpg.Record], count: int) -> None:
        self._rows = rows
        self.rowcount = count

    def fetchone(self) -> asyncpg.Record | None:
        return self._rows.pop(0) if self._rows else None

    def fetchall(self) -> list[asyncpg.Record]:
        rows, self._rows = self._rows, []
        return rows

    def __iter__(self) -> Iterator[asyncpg.Record]:
        return iter(self.fetchall())


class _Connection:
    """One statement at a time, each committed at once (the tests' reads and small updates)."""

    row_factory: Any = None  # rows are readable by name and by position anyway

    def __init__(self, url: str) -> None:
        self.url = url
        self.total_changes = 0

    def __enter__(self) -> _Connection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> _Cursor:
        query = translate_placeholders(sql)

        async def run() -> _Cursor:
            connection = await asyncpg.connect(self.url)
            try:
                if RETURNS_ROWS.match(query) or RETURNING.search(query):
                    rows = await connection.fetch(query, *parameters)
                    return _Cursor(list(rows), len(rows))
                return _Cursor([], rowcount(await connection.execute(query, *parameters)))
            finally:
                await connection.close()

        # the test's own event loop is busy running the test: a thread of our own runs this
        cursor = _worker.submit(asyncio.run, run()).result(timeout=30)
        if not RETURNS_ROWS.match(query):  # sqlite3 counts the rows written, as here
            self.total_changes += max(cursor.rowcount, 0)
        return cursor


class PostgresReader:
    """Stands in for the sqlite3 module in a SQLite e2e module's helpers."""

    Row = None

    def __init__(self, url: str) -> None:
        self.url = url

    def connect(self, _database_path: object) -> _Connection:
        return _Connection(self.url)


@pytest.fixture(scope="module")
def bot_env(request: pytest.FixtureRequest, postgres_server: PostgresServer) -> dict[str, str]:
    """The SQLite module's bot environment, and a new PostgreSQL database."""
    name = request.module.__name__.rsplit(".", 1)[-1]
    return {**request.module.BOT_ENV, "DATABASE_URL": postgres_server.create_database(name)}


@pytest.fixture(scope="module", autouse=True)
def _helpers_read_postgres(
    request: pytest.FixtureRequest, bot_env: dict[str, str]
) -> Iterator[None]:
    original = request.module.SAME_TESTS_AS
    saved = original.sqlite3
    original.sqlite3 = PostgresReader(bot_env["DATABASE_URL"])
    yield
    original.sqlite3 = saved
