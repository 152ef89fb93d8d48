"""ui/replies.py report_error while the bot is stopping: discord.py has closed its HTTP session,
so the answer cannot be sent ("Session is closed"). Seen in the hour-long chaos run: a manager's
orders met a PostgreSQL outage during a SIGTERM, and the error reporter's own failure went up
to discord.py as "Ignoring exception in on_interaction". The reporter never raises: it logs that
the player could not be told, as a warning (the bot is stopping), not as an error."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from db.database import DatabaseUnavailable
from ui.replies import report_error


class Closed:
    """An interaction's response and followup once discord.py's session is closed."""

    def is_done(self) -> bool:
        return False

    async def send_message(self, *_, **__) -> None:
        raise RuntimeError("Session is closed")


def interaction(*, closed: bool) -> SimpleNamespace:
    return SimpleNamespace(
        user=SimpleNamespace(id=42, mention="<@42>"),
        client=SimpleNamespace(is_closed=lambda: closed),
        response=Closed(),
        command=None,
        data={"custom_id": "vb:1:1:7:orders"},
    )


async def test_an_error_told_while_the_bot_stops_is_logged_not_raised(caplog):
    with caplog.at_level(logging.INFO):
        await report_error(
            interaction(closed=True),  # type: ignore[arg-type]
            DatabaseUnavailable("PostgreSQL: connection was closed in the middle of operation"),
        )
    assert "the bot is stopping" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_failure_to_tell_while_running_is_still_an_error_in_the_log(caplog):
    """Outside a shutdown the same failure is a defect: logged with its traceback, and still
    never raised into discord.py."""
    with caplog.at_level(logging.INFO):
        await report_error(
            interaction(closed=False),  # type: ignore[arg-type]
            DatabaseUnavailable("PostgreSQL: the database system is starting up"),
        )
    (error,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "could not tell user 42" in error.getMessage()
    assert error.exc_info is not None and error.exc_info[0] is RuntimeError
