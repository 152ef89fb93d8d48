"""A Volleyball match's replay on PostgreSQL: the round's records stored with it (migration 027),
/games' Replay button, the replay set by set and an altered stored record refused. The test is
tests/e2e/test_volleyball_replays.py's own (tests/e2e/postgres/conftest.py)."""

from collections.abc import Iterator

import pytest

from tests.e2e import test_volleyball_replays as on_sqlite
from tests.postgres.reader import PostgresReader

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "5757"}  # as tests/e2e/test_volleyball_replays.py


@pytest.fixture(scope="module", autouse=True)
def _records_read_postgres(bot_env: dict[str, str]) -> Iterator[None]:
    """The test reads (and alters) the stored records."""
    saved = on_sqlite.sqlite3
    on_sqlite.sqlite3 = PostgresReader(bot_env["DATABASE_URL"])
    yield
    on_sqlite.sqlite3 = saved


test_a_played_match_replays_set_by_set_and_an_altered_record_is_refused = (
    on_sqlite.test_a_played_match_replays_set_by_set_and_an_altered_record_is_refused
)
