"""A Volleyball league's deadline policies on PostgreSQL: an extension, a pause, the computer
taking a team after missed rounds, a manager's vacation putting the deadline off, reminders
through each manager's notification settings. The tests are
tests/e2e/test_volleyball_deadlines.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_volleyball_deadlines as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "5353"}  # as the SQLite module's

fake_discord = on_sqlite.fake_discord  # a results channel per league

# In the SQLite module's order (the reminders' test changes users' settings).
test_an_admin_extends_a_rounds_deadline_and_the_next_round_still_gets_its_time = (
    on_sqlite.test_an_admin_extends_a_rounds_deadline_and_the_next_round_still_gets_its_time
)
test_a_pause_gives_the_round_the_time_it_had_left_and_moves_the_deadlines_after_it = (
    on_sqlite.test_a_pause_gives_the_round_the_time_it_had_left_and_moves_the_deadlines_after_it
)
test_after_the_leagues_missed_rounds_the_computer_manages_the_team = (
    on_sqlite.test_after_the_leagues_missed_rounds_the_computer_manages_the_team
)
test_a_managers_vacation_puts_the_deadline_off_where_the_league_allows_it = (
    on_sqlite.test_a_managers_vacation_puts_the_deadline_off_where_the_league_allows_it
)
test_a_reminder_reaches_each_manager_as_their_notification_settings_say = (
    on_sqlite.test_a_reminder_reaches_each_manager_as_their_notification_settings_say
)
