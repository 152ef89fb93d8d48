"""A Rocketball Swiss tournament on PostgreSQL: seven players, a bye, a withdrawal, a no-show,
three rounds; the sign-up closing on its timer, a restart mid-round, a late joiner and the
round's deadline; check-in, the absence policies and the admins' commands; a Rollerball
tournament of nine in tables of three. The tests are tests/e2e/test_tournament.py's own
(tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_tournament as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "7"}  # as the SQLite module's

# In the SQLite module's order.
test_a_seven_player_swiss_of_three_rounds = on_sqlite.test_a_seven_player_swiss_of_three_rounds
test_a_round_deadline_decides_the_unfinished_game_after_a_restart = (
    on_sqlite.test_a_round_deadline_decides_the_unfinished_game_after_a_restart
)
test_a_single_elimination_of_four_is_won_in_two_rounds = (
    on_sqlite.test_a_single_elimination_of_four_is_won_in_two_rounds
)
test_a_round_robin_of_three_meets_everyone_once = (
    on_sqlite.test_a_round_robin_of_three_meets_everyone_once
)
test_a_double_elimination_of_four_ends_with_everyone_but_the_winner_out_twice = (
    on_sqlite.test_a_double_elimination_of_four_ends_with_everyone_but_the_winner_out_twice
)
test_absences_check_in_and_what_an_admin_can_do = (
    on_sqlite.test_absences_check_in_and_what_an_admin_can_do
)
test_a_rollerball_tournament_of_nine_in_tables_of_three = (
    on_sqlite.test_a_rollerball_tournament_of_nine_in_tables_of_three
)
test_a_computer_stands_in_for_the_absent_at_the_deadline = (
    on_sqlite.test_a_computer_stands_in_for_the_absent_at_the_deadline
)
test_a_vacation_puts_the_round_off_and_games_lists_the_tournament = (
    on_sqlite.test_a_vacation_puts_the_round_off_and_games_lists_the_tournament
)
