"""bot.py with DATABASE_URL naming a PostgreSQL server that is not there: it stops at start-up
with a message that says what to check, and never shows the password."""

from __future__ import annotations

import pytest

from fakediscord.botproc import BotProcess
from tests.support.postgres_server import free_port

pytestmark = pytest.mark.e2e


def test_an_unreachable_postgresql_stops_the_bot_with_a_clear_message(fake_discord, tmp_path):
    url = f"postgresql://ballcourt:s3cret-pw@127.0.0.1:{free_port()}/ballcourt"
    process = BotProcess(
        fake_discord,
        database_path=tmp_path / "unused.db",
        log_path=tmp_path / "bot.log",
        # start-up waits DATABASE_WAIT_SECONDS for a server still starting (tests/e2e/test_image.py)
        extra_env={"DATABASE_URL": url, "DATABASE_WAIT_SECONDS": "1"},
    )
    with pytest.raises(RuntimeError, match="exited with code 2"):
        process.start(timeout=30)
    log = process.log_text()
    assert "The PostgreSQL database postgresql://ballcourt:***@127.0.0.1" in log
    assert "cannot be used" in log and "DATABASE_URL" in log
    assert "s3cret-pw" not in log
    assert "Traceback" not in log
