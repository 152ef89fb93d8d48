"""Rocketball on PostgreSQL: a match between two people to the end (stats, record), against the
computer (ratings), buttons and an overdue reminder and forfeit after a restart, a double click.
The tests are tests/e2e/test_rocketball.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_rocketball as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "20261122"}  # as tests/e2e/test_rocketball.py

# In the SQLite module's order (a test may build on the ones before it).
test_a_challenge_is_played_to_a_win_in_a_thread = (
    on_sqlite.test_a_challenge_is_played_to_a_win_in_a_thread
)
test_a_match_against_the_computer_to_the_end = (
    on_sqlite.test_a_match_against_the_computer_to_the_end
)
test_a_match_and_its_buttons_survive_a_restart = (
    on_sqlite.test_a_match_and_its_buttons_survive_a_restart
)
test_an_overdue_reminder_and_forfeit_fire_after_a_restart = (
    on_sqlite.test_an_overdue_reminder_and_forfeit_fire_after_a_restart
)
test_double_click_applies_the_move_once = on_sqlite.test_double_click_applies_the_move_once
