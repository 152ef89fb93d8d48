"""A Rollerball II season fixture between a coach's match start and its matchday's deadline,
and a crash before a matchday's results post, on PostgreSQL (where the season's lock is an
advisory lock held across processes). The tests are tests/e2e/test_rollerball2_fixture_race.py's
own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_rollerball2_fixture_race as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "1515"}  # as the SQLite module's

fake_discord = on_sqlite.fake_discord  # a channel per season
bot_extensions = on_sqlite.bot_extensions  # the gates (tests/e2e/season_gate_cog.py)
gates = on_sqlite.gates

# In the SQLite module's order.
test_a_start_that_read_the_fixture_before_the_deadline_settled_it_is_no_season_match = (
    on_sqlite.test_a_start_that_read_the_fixture_before_the_deadline_settled_it_is_no_season_match
)
test_a_start_made_while_the_deadline_settles_the_matchday_waits_for_it = (
    on_sqlite.test_a_start_made_while_the_deadline_settles_the_matchday_waits_for_it
)
test_a_crash_between_a_matchday_and_its_results_post_posts_them_once_after_the_restart = (
    on_sqlite.test_a_crash_between_a_matchday_and_its_results_post_posts_them_once_after_the_restart
)
