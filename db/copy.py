"""Move an installation from its SQLite file to PostgreSQL, and prove nothing was lost.

    python -m db.copy SQLITE_FILE DATABASE_URL

Stop the bot first. The SQLite file gets its pending migrations (what the bot does at start-up),
the PostgreSQL database gets the same ones (it must hold no data yet: the copy never merges),
then every table is copied in one PostgreSQL transaction (a failed copy leaves nothing behind),
the auto-numbered ids continue after the highest copied one, and every table is compared, row
by row, between the two databases. The exit status is 0 only when all of them are equal; then
set DATABASE_URL and start the bot. The SQLite file is not changed otherwise: keep it as the
backup of the moment of the move. See docs/operations.md.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from db.database import BACKEND_ERRORS, Database, DatabaseError, SqliteDatabase, redacted
from db.postgres import PostgresDatabase

# The migrations' own bookkeeping: each database records when it applied them.
SKIPPED_TABLES = ("schema_migrations",)


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # the primary key's columns (rows are compared in this order)


@dataclass(frozen=True)
class Comparison:
    table: str
    source_rows: int
    target_rows: int
    difference: str | None  # the first row that differs, None when the tables are equal

    @property
    def equal(self) -> bool:
        return self.difference is None and self.source_rows == self.target_rows


async def tables_in_order(source: SqliteDatabase) -> list[Table]:
    """The SQLite file's tables, each after the tables its foreign keys point at."""
    names = [
        row["name"]
        for row in await source.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
        if row["name"] not in SKIPPED_TABLES
    ]
    tables: dict[str, Table] = {}
    needs: dict[str, set[str]] = {}
    for name in names:
        info = await source.fetch_all(f'PRAGMA table_info("{name}")')
        columns = tuple(row["name"] for row in info)
        key = tuple(row["name"] for row in sorted(info, key=lambda r: r["pk"]) if row["pk"])
        tables[name] = Table(name, columns, key or columns)
        foreign = await source.fetch_all(f'PRAGMA foreign_key_list("{name}")')
        needs[name] = {row["table"] for row in foreign if row["table"] != name}
    ordered: list[Table] = []
    while needs:
        ready = sorted(
            name for name, wanted in needs.items() if not wanted - {t.name for t in ordered}
        )
        if not ready:
            raise DatabaseError(f"foreign keys form a cycle among {sorted(needs)}")
        for name in ready:
            ordered.append(tables[name])
            del needs[name]
    return ordered


async def column_types(target: PostgresDatabase, table: str) -> dict[str, str]:
    rows = await target.fetch_all(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = ?",
        (table,),
    )
    return {row["column_name"]: row["data_type"] for row in rows}


def as_type(value: Any, pg_type: str) -> Any:
    """A value read from SQLite as the PostgreSQL column holds it (SQLite keeps what it is
    given; PostgreSQL's column decides)."""
    if value is None:
        return None
    if pg_type in ("bigint", "integer", "smallint"):
        return int(value)
    if pg_type in ("double precision", "real", "numeric"):
        return float(value)
    if pg_type == "text":
        return value if isinstance(value, str) else str(value)
    return value


async def rows_of(db: Database, table: Table, types: dict[str, str]) -> list[tuple[Any, ...]]:
    """Every row, values as PostgreSQL holds them, in primary key order (sorted here: the two
    databases may order text differently)."""
    columns = ", ".join(f'"{c}"' for c in table.columns)
    rows = await db.fetch_all(f'SELECT {columns} FROM "{table.name}"')
    converted = [
        tuple(
            as_type(value, types[column]) for value, column in zip(row, table.columns, strict=True)
        )
        for row in rows
    ]
    positions = [table.columns.index(column) for column in table.key]
    return sorted(converted, key=lambda row: tuple(_sortable(row[i]) for i in positions))


def _sortable(value: Any) -> tuple[int, Any]:
    return (0, 0) if value is None else (1, value)


async def compare(source: SqliteDatabase, target: PostgresDatabase) -> list[Comparison]:
    """Every table's rows in both databases, compared value by value."""
    results = []
    for table in await tables_in_order(source):
        types = await column_types(target, table.name)
        missing = [c for c in table.columns if c not in types]
        if missing:
            results.append(
                Comparison(table.name, 0, 0, f"columns missing in PostgreSQL: {missing}")
            )
            continue
        left, right = await rows_of(source, table, types), await rows_of(target, table, types)
        difference = None
        for number, (a, b) in enumerate(zip(left, right, strict=False)):
            if a != b:
                difference = f"row {number + 1} by {', '.join(table.key)}: {a!r} != {b!r}"
                break
        if difference is None and len(left) != len(right):
            difference = f"{len(left)} rows in SQLite, {len(right)} in PostgreSQL"
        results.append(Comparison(table.name, len(left), len(right), difference))
    return results


async def copy(source: SqliteDatabase, target: PostgresDatabase) -> dict[str, int]:
    """Copy every table (the target must be migrated and empty); rows copied per table."""
    tables = await tables_in_order(source)
    for table in tables:
        row = await target.fetch_one(f'SELECT 1 FROM "{table.name}" LIMIT 1')
        if row is not None:
            raise DatabaseError(
                f"The PostgreSQL database already holds data (table {table.name}); the copy "
                "goes only into an empty database. Create a new one, or drop this one's tables."
            )
    copied: dict[str, int] = {}
    async with target.transaction() as conn:
        raw = conn.raw
        for table in tables:
            types = await column_types(target, table.name)
            rows = await rows_of(source, table, types)
            if rows:
                await raw.copy_records_to_table(table.name, records=rows, columns=table.columns)
            copied[table.name] = len(rows)
            if "id" in table.columns and await raw.fetchval(
                "SELECT pg_get_serial_sequence($1, 'id')", table.name
            ):
                # new rows continue after the highest copied id
                await raw.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                    f' COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM "{table.name}"'
                )
    return copied


async def copy_installation(sqlite_file: Path, url: str, out=sys.stdout) -> bool:
    """The command: migrate both, copy, compare; True when every table is equal."""
    if not sqlite_file.is_file():
        raise DatabaseError(f"{sqlite_file} is not a file (the bot's DATABASE_PATH)")
    source = await SqliteDatabase.connect(sqlite_file)
    target = await PostgresDatabase.connect(url)
    try:
        for db, label in ((source, str(sqlite_file)), (target, redacted(url))):
            applied = await db.migrate()
            if applied:
                print(f"{label}: applied {', '.join(applied)}", file=out)
        copied = await copy(source, target)
        print(f"copied {sum(copied.values())} rows in {len(copied)} tables", file=out)
        results = await compare(source, target)
    finally:
        await source.close()
        await target.close()
    for result in results:
        verdict = "equal" if result.equal else f"DIFFERENT: {result.difference}"
        print(f"  {result.table}: {result.source_rows} rows, {verdict}", file=out)
    equal = all(result.equal for result in results)
    print(
        "every table is equal in both databases: set DATABASE_URL and start the bot"
        if equal
        else "the copy differs from the SQLite file (above): do not switch to it",
        file=out,
    )
    return equal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m db.copy",
        description="Copy a Ballcourt SQLite database into an empty PostgreSQL database and "
        "compare every table afterwards (stop the bot first).",
    )
    parser.add_argument("sqlite_file", type=Path, help="the bot's SQLite file (DATABASE_PATH)")
    parser.add_argument("database_url", help="postgresql://user:password@host:5432/name")
    args = parser.parse_args(argv)
    try:
        return 0 if asyncio.run(copy_installation(args.sqlite_file, args.database_url)) else 1
    except (DatabaseError, *BACKEND_ERRORS) as error:
        print(f"copy failed: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
