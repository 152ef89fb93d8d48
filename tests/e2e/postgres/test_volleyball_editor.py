"""The Volleyball orders editor on PostgreSQL: menus, the preview, the draft kept across a
restart, saving, a refused formation, another user refused, an editor of a round already
played. The tests are tests/e2e/test_volleyball_editor.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_volleyball_editor as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "4242"}  # as tests/e2e/test_volleyball_editor.py

# In the SQLite module's order (the last one plays a round).
test_a_manager_builds_a_set_with_the_menus_and_saves_it = (
    on_sqlite.test_a_manager_builds_a_set_with_the_menus_and_saves_it
)
test_a_formation_the_rules_refuse_is_refused_with_the_reason = (
    on_sqlite.test_a_formation_the_rules_refuse_is_refused_with_the_reason
)
test_another_user_cannot_use_the_managers_editor = (
    on_sqlite.test_another_user_cannot_use_the_managers_editor
)
test_an_editor_of_a_round_already_played_changes_nothing = (
    on_sqlite.test_an_editor_of_a_round_already_played_changes_nothing
)
