"""Replays on PostgreSQL: /games' finished matches with their Replay buttons (the finished-seats
query), a replay from the stored match and an altered stored record refused. The tests are
tests/e2e/test_replays_games.py's and tests/e2e/test_replays.py's own
(tests/e2e/postgres/conftest.py)."""

from collections.abc import Iterator

import pytest

from tests.e2e import test_replays, test_rocketball
from tests.e2e import test_replays_games as on_sqlite
from tests.e2e.test_replays_games import fake_discord  # noqa: F401 (a second server)
from tests.postgres.reader import PostgresReader

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "20261129"}  # as tests/e2e/test_replays.py


@pytest.fixture(scope="module", autouse=True)
def _helpers_read_postgres(bot_env: dict[str, str]) -> Iterator[None]:
    """The Rocketball helpers and the altered-record test read (and write) the database too."""
    reader = PostgresReader(bot_env["DATABASE_URL"])
    saved = test_rocketball.sqlite3, test_replays.sqlite3
    test_rocketball.sqlite3 = test_replays.sqlite3 = reader
    yield
    test_rocketball.sqlite3, test_replays.sqlite3 = saved


test_games_lists_a_players_finished_matches_each_with_its_replay_even_in_a_dm = (
    on_sqlite.test_games_lists_a_players_finished_matches_each_with_its_replay_even_in_a_dm
)
test_an_altered_record_is_refused_with_the_reason = (
    test_replays.test_an_altered_record_is_refused_with_the_reason
)
