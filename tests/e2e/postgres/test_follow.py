"""Following on PostgreSQL: each milestone once per follower, quiet hours, unfollowing and
/privacy, for every card game. The tests are tests/e2e/test_follow.py's own
(tests/e2e/postgres/conftest.py)."""

from collections.abc import Iterator

import pytest

from tests.e2e import test_follow as on_sqlite
from tests.e2e import test_rocketball
from tests.postgres.reader import PostgresReader

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "4242"}  # as tests/e2e/test_follow.py


@pytest.fixture(scope="module", autouse=True)
def _rocketball_helpers_read_postgres(bot_env: dict[str, str]) -> Iterator[None]:
    """The Rocketball helpers the tests play with read the database too."""
    saved = test_rocketball.sqlite3
    test_rocketball.sqlite3 = PostgresReader(bot_env["DATABASE_URL"])
    yield
    test_rocketball.sqlite3 = saved


# In the SQLite module's order (a test may build on the ones before it).
test_a_rocketball_follower_hears_each_goal_and_the_result_once_and_nothing_else = (
    on_sqlite.test_a_rocketball_follower_hears_each_goal_and_the_result_once_and_nothing_else
)
test_quiet_hours_hold_followed_news_until_they_end = (
    on_sqlite.test_quiet_hours_hold_followed_news_until_they_end
)
test_privacy_lists_follows_and_deleting_forgets_them = (
    on_sqlite.test_privacy_lists_follows_and_deleting_forgets_them
)
test_a_rollerball_follower_hears_the_won_bid_once = (
    on_sqlite.test_a_rollerball_follower_hears_the_won_bid_once
)
test_a_rollerball2_team_follower_hears_each_period_and_the_result_once = (
    on_sqlite.test_a_rollerball2_team_follower_hears_each_period_and_the_result_once
)
test_a_season_follower_hears_each_matchday_once = (
    on_sqlite.test_a_season_follower_hears_each_matchday_once
)
test_a_volleyball_league_follower_hears_each_rounds_results_once = (
    on_sqlite.test_a_volleyball_league_follower_hears_each_rounds_results_once
)
