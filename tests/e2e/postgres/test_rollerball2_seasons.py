"""A Rollerball II season's deadline policies on PostgreSQL: an admin's extension and pause,
and a coach's vacation putting a matchday's deadline off. The tests are
tests/e2e/test_rollerball2_seasons.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_rollerball2_seasons as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "1515"}  # as the SQLite module's

fake_discord = on_sqlite.fake_discord  # a channel per season

# In the SQLite module's order.
test_an_admin_extends_a_matchday_and_the_later_ones_keep_theirs_unless_too_close = (
    on_sqlite.test_an_admin_extends_a_matchday_and_the_later_ones_keep_theirs_unless_too_close
)
test_a_pause_gives_the_matchday_the_time_it_had_left_and_moves_the_later_deadlines = (
    on_sqlite.test_a_pause_gives_the_matchday_the_time_it_had_left_and_moves_the_later_deadlines
)
test_a_coachs_vacation_puts_off_the_matchday_of_their_fixture_where_the_season_allows_it = on_sqlite.test_a_coachs_vacation_puts_off_the_matchday_of_their_fixture_where_the_season_allows_it
