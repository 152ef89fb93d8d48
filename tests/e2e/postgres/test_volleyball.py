"""Volleyball on PostgreSQL: a league created, teams and managers, orders, rounds played by their
deadlines (also one that passed while the bot was down), reminders. The tests are
tests/e2e/test_volleyball.py's own (tests/e2e/postgres/conftest.py)."""

import pytest

from tests.e2e import test_volleyball as on_sqlite

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SAME_TESTS_AS = on_sqlite
BOT_ENV = {"GAME_SEED": "1212"}  # as tests/e2e/test_volleyball.py

# In the SQLite module's order (a test may build on the ones before it).
test_a_league_runs_by_its_deadlines = on_sqlite.test_a_league_runs_by_its_deadlines
