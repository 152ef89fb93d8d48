"""Which index a storage call's query reads: the SQLite query plan of the first statement it
sends through `fetch_all` (the tests that hold a cost flat however large the tables grow)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any


async def first_plan(db: Any, call: Callable[[], Awaitable[Any]]) -> tuple[Any, list[str] | None]:
    """`call`'s result, and the plan of its first `fetch_all` (None on PostgreSQL)."""
    statements = []
    fetch_all = db.fetch_all

    async def recording(sql, parameters=()):
        statements.append((sql, parameters))
        return await fetch_all(sql, parameters)

    db.fetch_all = recording
    try:
        result = await call()
    finally:
        db.fetch_all = fetch_all
    if db.backend != "sqlite":
        return result, None
    sql, parameters = statements[0]
    plan = await db.fetch_all("EXPLAIN QUERY PLAN " + sql, parameters)
    return result, [row["detail"] for row in plan]
