"""The e2e tests' stand-in for the sqlite3 module on PostgreSQL (tests/support/postgres_reader.py) keeps
what they rely on from `with sqlite3.connect(path) as conn:`: the statements of the block are
one transaction, committed when it ends (rolled back if it raises). A test that moves a match's
stored moments back in one block must not let the bot see half of them: a timer made due before
the vacation it waits for was moved fires with the vacation as it was."""

import pytest

from tests.support.postgres_reader import PostgresReader

pytestmark = pytest.mark.postgres


@pytest.fixture
def reader(postgres_url: str) -> PostgresReader:
    reader = PostgresReader(postgres_url)
    reader.connect(None).execute("CREATE TABLE moments (name TEXT PRIMARY KEY, at REAL)")
    reader.connect(None).execute("INSERT INTO moments VALUES ('timer', 100), ('vacation', 200)")
    return reader


def moments(reader: PostgresReader) -> dict[str, float]:
    """What another connection (the bot) reads."""
    rows = reader.connect(None).execute("SELECT name, at FROM moments").fetchall()
    return {name: at for name, at in rows}


def test_the_statements_of_a_block_are_seen_by_others_only_once_it_ends(reader):
    with reader.connect(None) as conn:
        conn.execute("UPDATE moments SET at = at - ? WHERE name = ?", (50, "timer"))
        assert moments(reader) == {"timer": 100, "vacation": 200}
        # the block reads what it wrote
        assert conn.execute("SELECT at FROM moments WHERE name = 'timer'").fetchone()[0] == 50
        conn.execute("UPDATE moments SET at = at - ? WHERE name = ?", (50, "vacation"))
        assert conn.total_changes == 2
    assert moments(reader) == {"timer": 50, "vacation": 150}


def test_a_block_that_raises_writes_nothing(reader):
    with pytest.raises(RuntimeError), reader.connect(None) as conn:
        conn.execute("UPDATE moments SET at = 0 WHERE name = 'timer'")
        raise RuntimeError("the test failed half-way")
    assert moments(reader) == {"timer": 100, "vacation": 200}
