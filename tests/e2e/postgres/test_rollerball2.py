"""Rollerball II on PostgreSQL: teams (created, imported from CSV), a solo match to the end, a
simulated match and injuries carried into the next, a coaches match told who replaces a hurt
player of a saved line-up, a match after a restart, a season whose deadline passes while the bot
is down, statistics from the scoresheets, an admin playing a matchday with a match under way, a
coach leaving his dice to the bot from the start. The tests are
tests/e2e/test_rollerball2.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_rollerball2 as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "11011"}  # as tests/e2e/test_rollerball2.py

# In the SQLite module's order (a test may build on the ones before it).
test_two_teams_are_created_and_a_name_is_taken_once = (
    on_sqlite.test_two_teams_are_created_and_a_name_is_taken_once
)
test_a_csv_team_is_imported_and_a_bad_one_refused_with_every_problem = (
    on_sqlite.test_a_csv_team_is_imported_and_a_bad_one_refused_with_every_problem
)
test_a_solo_match_is_played_to_the_end_with_the_buttons = (
    on_sqlite.test_a_solo_match_is_played_to_the_end_with_the_buttons
)
test_a_simulated_match_and_injuries_carried_into_the_next = (
    on_sqlite.test_a_simulated_match_and_injuries_carried_into_the_next
)
test_a_coaches_match_tells_the_coach_who_replaces_a_hurt_player_of_his_lineup = (
    on_sqlite.test_a_coaches_match_tells_the_coach_who_replaces_a_hurt_player_of_his_lineup
)
test_a_match_goes_on_after_a_restart = on_sqlite.test_a_match_goes_on_after_a_restart
test_a_season_whose_deadline_passes_while_the_bot_is_down = (
    on_sqlite.test_a_season_whose_deadline_passes_while_the_bot_is_down
)
test_statistics_are_summed_from_the_scoresheets = (
    on_sqlite.test_statistics_are_summed_from_the_scoresheets
)
test_an_admin_plays_a_whole_matchday_with_a_match_under_way = (
    on_sqlite.test_an_admin_plays_a_whole_matchday_with_a_match_under_way
)
test_a_coach_lets_the_bot_roll_his_die_from_the_start_and_still_decides = (
    on_sqlite.test_a_coach_lets_the_bot_roll_his_die_from_the_start_and_still_decides
)
