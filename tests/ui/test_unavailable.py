"""What a player reads and the log says when the database cannot serve (ui/replies.py,
db/database.py), checked without Discord."""

from __future__ import annotations

import logging
import os
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from db.connect import open_database
from db.database import DatabaseUnavailable, SqliteDatabase
from ui.replies import UNAVAILABLE, report_error


class Interaction:
    """The parts of a discord.Interaction that report_error uses."""

    def __init__(self, *, fail_with: Exception | None = None) -> None:
        self.sent: list[str] = []
        self.user = SimpleNamespace(id=42)
        self.command = SimpleNamespace(qualified_name="rocketball challenge")
        self.data = {}
        fail = fail_with

        async def send_message(content, **kwargs):
            if fail is not None:
                raise fail
            self.sent.append(content)

        self.response = SimpleNamespace(is_done=lambda: False, send_message=send_message)
        self.followup = SimpleNamespace(send=send_message)


def expired() -> discord.NotFound:
    response: Any = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})


async def test_a_click_during_an_outage_reads_that_the_database_is_unavailable(caplog):
    """Item 14: every click during an outage logged a full traceback and the player read
    "Something went wrong on our side"."""
    caplog.set_level(logging.INFO)
    interaction = Interaction()
    command: Any = SimpleNamespace(name="x", qualified_name="x")
    error = discord.app_commands.CommandInvokeError(
        command, DatabaseUnavailable("PostgreSQL: timed out")
    )
    await report_error(cast(Any, interaction), error)
    assert interaction.sent == [UNAVAILABLE]
    assert "database is unavailable" in UNAVAILABLE and "try again shortly" in UNAVAILABLE
    assert [r.levelname for r in caplog.records] == ["INFO"]
    assert caplog.records[0].exc_info is None


async def test_an_expired_interaction_is_logged_as_such_not_as_an_unexpected_error(caplog):
    """Item 14: work queued behind a stalled database ran after Discord's 3 s and its
    "Unknown interaction" was logged as an unexpected error with a traceback."""
    caplog.set_level(logging.INFO)
    interaction = Interaction()
    await report_error(cast(Any, interaction), expired())
    assert interaction.sent == []  # nothing can reach the player any more
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "expired before it was answered" in caplog.text and caplog.records[0].exc_info is None

    caplog.clear()  # the answer itself comes too late
    await report_error(cast(Any, Interaction(fail_with=expired())), DatabaseUnavailable("down"))
    assert "expired before it was answered" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_filesystem_gone_read_only_is_said_before_sqlite_touches_it(
    tmp_path, monkeypatch, caplog
):
    """Item 11: a filesystem remounted read-only after disk errors killed the bot with SIGBUS
    through SQLite's memory-mapped -shm file, with no log line. Each operation now checks the
    filesystem first and refuses with what is wrong (logged once)."""
    caplog.set_level(logging.INFO)
    db = await open_database(tmp_path / "b.db")
    assert isinstance(db, SqliteDatabase)
    await db.migrate()
    real = os.statvfs
    read_only = real(tmp_path)
    flags = read_only.f_flag | os.ST_RDONLY

    def statvfs(path):
        result = real(path)
        return (
            SimpleNamespace(f_flag=flags, f_bavail=result.f_bavail)
            if os.fspath(path) == os.fspath(db.path.parent)
            else result
        )

    monkeypatch.setattr(os, "statvfs", statvfs)
    for _ in range(3):
        with pytest.raises(DatabaseUnavailable, match=r"became read-only.*dmesg"):
            async with db.transaction() as conn:
                await conn.execute("DELETE FROM timers")
        with pytest.raises(DatabaseUnavailable):
            await db.fetch_one("SELECT 1")
    assert caplog.text.count("the database is unavailable") == 1
    monkeypatch.setattr(os, "statvfs", real)
    async with db.transaction() as conn:  # the disk is back (after a remount)
        await conn.execute("DELETE FROM timers")
    assert "the database answers again" in caplog.text
    await db.close()


async def test_start_up_on_a_read_only_filesystem_says_so(tmp_path, monkeypatch):
    from db.database import DatabaseError

    real = os.statvfs

    def statvfs(path):
        result = real(path)
        return SimpleNamespace(f_flag=result.f_flag | os.ST_RDONLY, f_bavail=result.f_bavail)

    monkeypatch.setattr(os, "statvfs", statvfs)
    with pytest.raises(DatabaseError, match=r"mounted read-only"):
        await open_database(tmp_path / "new.db")
