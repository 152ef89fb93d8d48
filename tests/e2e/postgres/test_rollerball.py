"""Rollerball on PostgreSQL: a table of two people and a computer played to a win, a whole game
played with clicks and menus only, simultaneous clicks that never overfill a table, a game and
its buttons after a restart, a panel gone stale redrawn, an absent player replaced by a
computer, a rated table of three moving all three ratings. The tests are tests/e2e/test_rollerball.py's own
(tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import rollerball_clicks
from tests.e2e import test_rollerball as on_sqlite
from tests.postgres.reader import PostgresReader

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
test_a_whole_game_is_played_with_clicks_and_menus_only = (
    on_sqlite.test_a_whole_game_is_played_with_clicks_and_menus_only
)
test_a_panel_gone_stale_is_redrawn_when_clicked = (
    on_sqlite.test_a_panel_gone_stale_is_redrawn_when_clicked
)
test_a_rated_table_of_three_moves_all_three_ratings_once = (
    on_sqlite.test_a_rated_table_of_three_moves_all_three_ratings_once
)


@pytest.fixture(scope="module", autouse=True)
def _clicking_players_read_postgres(bot_env: dict[str, str]):
    """The clicking players (tests/e2e/rollerball_clicks.py) read the bot's database as the
    SQLite module's helpers do here (tests/e2e/postgres/conftest.py)."""
    original = rollerball_clicks.sqlite3
    rollerball_clicks.sqlite3 = PostgresReader(bot_env["DATABASE_URL"])
    yield
    rollerball_clicks.sqlite3 = original
