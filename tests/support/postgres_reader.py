"""Reading and writing a PostgreSQL database the way tests read a SQLite file with the sqlite3
module: `PostgresReader(url).connect(anything)` gives a connection whose `execute` takes `?`
placeholders and returns a cursor (fetchone, fetchall, rowcount, iteration); rows are readable
by name and by position. As with sqlite3, the statements of a `with ... as conn:` block are one
transaction, committed when the block ends and rolled back if it raises: a test that moves
several stored moments back in one block (a timer and the vacation it waits for) never lets the
bot see half of them. A statement outside a block is committed at once. For tests only (it runs
in a thread of its own, on an event loop of its own, so that a running test's event loop may
call it)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import asyncpg

from db.postgres import RETURNING, RETURNS_ROWS, rowcount, translate_placeholders

_worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="pg-reader")
# A block's connection lives across its statements, so they all run on one loop: this one, only
# ever run by _worker's one thread, one call at a time.
_loop = asyncio.new_event_loop()

T = TypeVar("T")


def _run(work: Coroutine[Any, Any, T]) -> T:
    # the test's own event loop is busy running the test: a thread of our own runs this
    return _worker.submit(_loop.run_until_complete, work).result(timeout=30)


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
    """Statements committed one by one, or those of a `with` block as one transaction (the way
    a sqlite3 connection's context manager commits or rolls back)."""

    row_factory: Any = None  # rows are readable by name and by position anyway

    def __init__(self, url: str) -> None:
        self.url = url
        self.total_changes = 0
        self._in_block = False
        self._block: tuple[asyncpg.Connection, Any] | None = None  # connection, transaction

    def __enter__(self) -> _Connection:
        self._in_block = True
        return self

    def __exit__(self, error_type: type[BaseException] | None, *_: object) -> None:
        block, self._block, self._in_block = self._block, None, False
        if block is not None:
            _run(self._finish(*block, commit=error_type is None))

    @staticmethod
    async def _finish(connection: asyncpg.Connection, transaction: Any, *, commit: bool) -> None:
        try:
            await (transaction.commit() if commit else transaction.rollback())
        finally:
            await connection.close()

    async def _block_connection(self) -> asyncpg.Connection:
        if self._block is None:
            connection = await asyncpg.connect(self.url)
            transaction = connection.transaction()
            await transaction.start()
            self._block = (connection, transaction)
        return self._block[0]

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> _Cursor:
        query = translate_placeholders(sql)

        async def statement(connection: asyncpg.Connection) -> _Cursor:
            if RETURNS_ROWS.match(query) or RETURNING.search(query):
                rows = await connection.fetch(query, *parameters)
                return _Cursor(list(rows), len(rows))
            return _Cursor([], rowcount(await connection.execute(query, *parameters)))

        async def in_block() -> _Cursor:
            return await statement(await self._block_connection())

        async def alone() -> _Cursor:
            connection = await asyncpg.connect(self.url)
            try:
                return await statement(connection)
            finally:
                await connection.close()

        cursor = _run(in_block() if self._in_block else alone())
        if not RETURNS_ROWS.match(query):  # sqlite3 counts the rows written, as here
            self.total_changes += max(cursor.rowcount, 0)
        return cursor


class PostgresReader:
    """Opens a PostgreSQL database as sqlite3 opens a file (tests/e2e/stored.py `connect`)."""

    Row = None

    def __init__(self, url: str) -> None:
        self.url = url

    def connect(self, _database_path: object) -> _Connection:
        return _Connection(self.url)
