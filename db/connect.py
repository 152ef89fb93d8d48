"""Opening the database: SQLite for a path, PostgreSQL for a `postgresql://` URL. It stands
above both backends (db/database.py: the surface and SQLite; db/postgres.py: built on that
surface), so that neither backend module imports the other."""

from __future__ import annotations

from pathlib import Path

from db.database import Database, SqliteDatabase, is_postgres_url
from db.postgres import PostgresDatabase


async def open_database(target: Path | str, *, wait_seconds: float = 0.0) -> Database:
    """`wait_seconds`: how long a PostgreSQL server that refuses connections (still starting,
    as under Compose) is waited for before start-up gives up."""
    if is_postgres_url(target):
        return await PostgresDatabase.connect(str(target), wait_seconds=wait_seconds)
    return await SqliteDatabase.connect(Path(target))
