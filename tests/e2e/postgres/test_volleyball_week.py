"""A Volleyball manager's week on PostgreSQL: the status card, the prefilled orders, forms that
keep their text (a table of migration 011), Repeat last orders, the smaller defects and the
season's end. The tests are tests/e2e/test_volleyball_week.py's own
(tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_volleyball_week as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "2222"}  # as tests/e2e/test_volleyball_week.py

# In the SQLite module's order (a test may build on the ones before it).
test_the_card_shows_who_has_sent_orders_and_is_edited_in_place = (
    on_sqlite.test_the_card_shows_who_has_sent_orders_and_is_edited_in_place
)
test_the_prefilled_orders_fill_every_set_and_spend_the_home_advantage = (
    on_sqlite.test_the_prefilled_orders_fill_every_set_and_spend_the_home_advantage
)
test_a_mistake_in_the_orders_form_keeps_the_text = (
    on_sqlite.test_a_mistake_in_the_orders_form_keeps_the_text
)
test_a_mistake_in_the_team_form_keeps_the_text_and_says_the_budget = (
    on_sqlite.test_a_mistake_in_the_team_form_keeps_the_text_and_says_the_budget
)
test_a_seed_style_roster_file_is_read = on_sqlite.test_a_seed_style_roster_file_is_read
test_spying_twice_and_on_a_team_that_is_gone_are_refused_with_the_reason = (
    on_sqlite.test_spying_twice_and_on_a_team_that_is_gone_are_refused_with_the_reason
)
test_a_bid_the_bank_would_refuse_is_warned_about_when_sent = (
    on_sqlite.test_a_bid_the_bank_would_refuse_is_warned_about_when_sent
)
test_the_round_post_is_one_message_and_the_sheet_starts_with_what_matters = (
    on_sqlite.test_the_round_post_is_one_message_and_the_sheet_starts_with_what_matters
)
test_last_rounds_orders_repeat_in_one_click = on_sqlite.test_last_rounds_orders_repeat_in_one_click
test_a_reminder_after_its_deadline_says_nothing = (
    on_sqlite.test_a_reminder_after_its_deadline_says_nothing
)
test_the_season_end_tells_each_manager_their_own_ageing_only = (
    on_sqlite.test_the_season_end_tells_each_manager_their_own_ageing_only
)
