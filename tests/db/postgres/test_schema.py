"""The two backends' schemas agree: the same tables, columns, nullability and indexes after
every migration, with types that mean the same (db/migrations: one source per migration, the
loader expands the few places SQLite and PostgreSQL spell a column differently)."""

import pytest

from db.connect import open_database

pytestmark = pytest.mark.postgres

# SQLite's type affinity (from the declared type) -> the PostgreSQL types that mean the same.
SAME_TYPES = {
    "INTEGER": {"integer", "bigint"},
    "REAL": {"double precision"},
    "TEXT": {"text"},
}


def affinity(declared: str) -> str:
    """SQLite's rules (https://sqlite.org/datatype3.html, 3.1) for the types used here."""
    declared = declared.upper()
    if "INT" in declared:
        return "INTEGER"
    if "TEXT" in declared or "CHAR" in declared:
        return "TEXT"
    return "REAL"


async def sqlite_schema(path):
    db = await open_database(path)
    await db.migrate()
    tables = {}
    names = await db.fetch_all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    for (table,) in names:
        columns = await db.fetch_all(f"PRAGMA table_info({table})")
        tables[table] = {
            row["name"]: (affinity(row["type"]), bool(row["notnull"] or row["pk"]))
            for row in columns
        }
    indexes = await db.fetch_all(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    )
    await db.close()
    return tables, {row["name"] for row in indexes}


async def postgres_schema(url):
    db = await open_database(url)
    await db.migrate()
    tables = {}
    columns = await db.fetch_all(
        "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns"
        " WHERE table_schema = 'public'"
    )
    for row in columns:
        tables.setdefault(row["table_name"], {})[row["column_name"]] = (
            row["data_type"],
            row["is_nullable"] == "NO",
        )
    indexes = await db.fetch_all(
        "SELECT indexname FROM pg_indexes i WHERE schemaname = 'public'"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)"
    )
    await db.close()
    return tables, {row["indexname"] for row in indexes}


async def test_both_backends_have_the_same_tables_columns_and_indexes(tmp_path, postgres_url):
    lite_tables, lite_indexes = await sqlite_schema(tmp_path / "schema.db")
    pg_tables, pg_indexes = await postgres_schema(postgres_url)
    assert sorted(pg_tables) == sorted(lite_tables)
    for table, columns in lite_tables.items():
        assert sorted(pg_tables[table]) == sorted(columns), table
        for column, (lite_affinity, lite_not_null) in columns.items():
            pg_type, pg_not_null = pg_tables[table][column]
            assert pg_type in SAME_TYPES[lite_affinity], (table, column, pg_type)
            assert pg_not_null == lite_not_null, (table, column)
    assert pg_indexes == lite_indexes


async def test_postgresql_keeps_discord_ids_and_times_whole(postgres_url):
    """Every id column is 64-bit (Discord's snowflakes), no number is a 4-byte float (REAL
    would round seconds since the epoch to about two minutes)."""
    tables, _ = await postgres_schema(postgres_url)
    for table, columns in tables.items():
        for column, (pg_type, _) in columns.items():
            if column == "id" or column.endswith("_id") or column == "created_by":
                assert pg_type == "bigint", (table, column, pg_type)
            assert pg_type != "real", (table, column)
