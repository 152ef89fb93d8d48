"""Rollerball on PostgreSQL: a table of two people and a computer played to a win, simultaneous
clicks that never overfill a table, a game and its buttons after a restart, an absent player
replaced by a computer. The tests are tests/e2e/test_rollerball.py's own
(tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_rollerball as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "13013"}  # as tests/e2e/test_rollerball.py

# In the SQLite module's order (a test may build on the ones before it).
test_a_table_with_two_people_and_a_computer_is_played_to_a_win = (
    on_sqlite.test_a_table_with_two_people_and_a_computer_is_played_to_a_win
)
test_a_game_and_its_buttons_survive_a_restart = (
    on_sqlite.test_a_game_and_its_buttons_survive_a_restart
)
test_an_absent_player_is_replaced_by_a_computer_and_takes_the_seat_back = (
    on_sqlite.test_an_absent_player_is_replaced_by_a_computer_and_takes_the_seat_back
)
test_simultaneous_clicks_never_overfill_a_table_or_open_two = (
    on_sqlite.test_simultaneous_clicks_never_overfill_a_table_or_open_two
)
