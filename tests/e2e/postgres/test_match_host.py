"""The match host on PostgreSQL: the fair-dice seed, twenty simultaneous challenges make one
match, lost timers and turn messages restored at start-up, /privacy, a rematch and the
leaderboard. The tests are tests/e2e/test_match_host.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_match_host as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "9090"}  # as tests/e2e/test_match_host.py

# In the SQLite module's order (a test may build on the ones before it).
test_the_seed_is_committed_at_the_start_secret_in_play_and_revealed_at_the_end = (
    on_sqlite.test_the_seed_is_committed_at_the_start_secret_in_play_and_revealed_at_the_end
)
test_twenty_simultaneous_challenges_make_one_match = (
    on_sqlite.test_twenty_simultaneous_challenges_make_one_match
)
test_missing_timers_and_a_missing_turn_message_are_restored_at_start_up = (
    on_sqlite.test_missing_timers_and_a_missing_turn_message_are_restored_at_start_up
)
test_privacy_shows_and_deletes_a_users_data = on_sqlite.test_privacy_shows_and_deletes_a_users_data
test_a_rematch_swaps_the_seats_and_results_move_the_leaderboard = (
    on_sqlite.test_a_rematch_swaps_the_seats_and_results_move_the_leaderboard
)
test_a_casual_match_moves_no_rating_and_challenges_show_the_ratings = (
    on_sqlite.test_a_casual_match_moves_no_rating_and_challenges_show_the_ratings
)
