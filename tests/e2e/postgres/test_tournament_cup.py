"""A tournament's end on PostgreSQL: the podium lost between the end and its post is posted
once at start-up; the card's bracket and standings pictures; an eight-team Rollerball II cup;
a coach of several teams choosing his; a cup's computer stand-in and both lose. The tests are
tests/e2e/test_tournament_cup.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_tournament_cup as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "7"}  # as the SQLite module's

# In the SQLite module's order.
test_the_podium_lost_between_the_end_and_its_post_is_posted_once_at_start_up = (
    on_sqlite.test_the_podium_lost_between_the_end_and_its_post_is_posted_once_at_start_up
)
test_the_card_shows_a_knockouts_bracket_and_a_round_robins_standings = (
    on_sqlite.test_the_card_shows_a_knockouts_bracket_and_a_round_robins_standings
)
test_an_eight_team_rollerball2_cup_is_played_to_a_winner_through_a_restart = (
    on_sqlite.test_an_eight_team_rollerball2_cup_is_played_to_a_winner_through_a_restart
)
test_a_cup_team_busy_in_another_match_is_decided_at_the_deadline = (
    on_sqlite.test_a_cup_team_busy_in_another_match_is_decided_at_the_deadline
)
test_a_coach_of_several_teams_chooses_the_team_he_enters_the_cup_with = (
    on_sqlite.test_a_coach_of_several_teams_chooses_the_team_he_enters_the_cup_with
)
test_a_computer_stands_in_for_an_absent_coach_in_a_cup = (
    on_sqlite.test_a_computer_stands_in_for_an_absent_coach_in_a_cup
)
test_both_lose_in_a_cup_sends_the_better_seed_through_and_frees_his_team = (
    on_sqlite.test_both_lose_in_a_cup_sends_the_better_seed_through_and_frees_his_team
)
