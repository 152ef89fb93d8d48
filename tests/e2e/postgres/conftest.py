"""The e2e tests of every game again, with the bot on PostgreSQL.

A module here names the SQLite module whose tests it runs (`SAME_TESTS_AS`), imports the tests
it runs from it, and gives the bot environment of that module (`BOT_ENV`, e.g. its GAME_SEED).
Its bot gets `DATABASE_URL` pointing at a new database on the suite's PostgreSQL server.

Those tests read what the bot stored with `sqlite3.connect(bot.database_path)`. While a module
here runs, the `sqlite3` name in the SQLite module (and in the shared helpers, tests/e2e/cards.py
and tests/e2e/stored.py) is `PostgresReader` (tests/postgres/reader.py):
the same calls (connect, execute with `?` placeholders, fetchone, fetchall, rowcount, iterating
rows, rows by name or position) on the PostgreSQL database, so the very same assertions check it;
the statements of a `with sqlite3.connect(...) as conn:` block are one transaction there too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e import cards, stored
from tests.postgres.reader import PostgresReader
from tests.postgres.server import PostgresServer


@pytest.fixture(scope="module")
def bot_env(request: pytest.FixtureRequest, postgres_server: PostgresServer) -> dict[str, str]:
    """The SQLite module's bot environment, and a new PostgreSQL database."""
    name = request.module.__name__.rsplit(".", 1)[-1]
    return {**request.module.BOT_ENV, "DATABASE_URL": postgres_server.create_database(name)}


@pytest.fixture(scope="module", autouse=True)
def _helpers_read_postgres(
    request: pytest.FixtureRequest, bot_env: dict[str, str]
) -> Iterator[None]:
    reader = PostgresReader(bot_env["DATABASE_URL"])
    # cards and stored: the shared helpers read the database too
    patched = (request.module.SAME_TESTS_AS, cards, stored)
    saved = [module.sqlite3 for module in patched]
    for module in patched:
        module.sqlite3 = reader
    yield
    for module, original in zip(patched, saved, strict=True):
        module.sqlite3 = original
