"""Reading and writing a PostgreSQL database the way tests read a SQLite file with the sqlite3
module: `PostgresReader(url).connect(anything)` gives a connection whose `execute` takes `?`
placeholders and returns a cursor (fetchone, fetchall, rowcount, iteration); rows are readable
by name and by position. Each statement is committed at once. For tests only (it opens a
connection per statement, in a thread of its own, so that a running test's event loop may call
it)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterator
from typing import Any

import asyncpg

from db.postgres import RETURNING, RETURNS_ROWS, rowcount, translate_placeholders

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
