"""Following's news (host/follow.py `Follows.tell`), on both backends: a follower hears of a
milestone once, and a database that stops answering delays the news, never loses it."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

from db import follows as store
from db.database import DatabaseUnavailable
from host import follow
from host.follow import Follows
from tests.support.posts import bot_posting, channel

FOLLOWER = 501
THREAD = 70
GUILD = 9


async def test_news_that_meets_a_database_outage_reaches_the_followers_once_it_answers(
    db, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Seen in the 45-minute chaos run: a goal's news met PostgreSQL stalled; "could not tell
    the followers" was logged with a traceback and the followers never heard of it. Now the
    news waits for the database (one line in the log) and reaches each follower once."""
    await store.follow(db, FOLLOWER, "match", "12", GUILD, "Rocketball match #12")
    monkeypatch.setattr("host.background.FIRST_RETRY_SECONDS", 0.01)
    real_followers = store.followers
    outage = [2]  # the first try and the first retry find it down

    async def followers(*args: Any) -> list[int]:
        if outage[0]:
            outage[0] -= 1
            raise DatabaseUnavailable("PostgreSQL: the database did not answer in time")
        return await real_followers(*args)

    monkeypatch.setattr(follow.store, "followers", followers)
    bot = bot_posting(db=db)
    thread = channel(THREAD)
    follows = Follows(bot=bot)
    news = [("match:12:goal:1", "Goal! Ada scores for Falcons.")]
    with caplog.at_level(logging.INFO):
        await follows.tell([("match", "12")], GUILD, news, channel=thread, link="https://x/1")
        deadline = time.monotonic() + 5
        while not bot.http.texts(THREAD) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        # told again (a card shown again after a restart): each follower hears of it once
        await follows.tell([("match", "12")], GUILD, news, channel=thread, link="https://x/1")
    assert [text.split(" · ")[0] for text in bot.http.texts(THREAD)] == [
        f"<@{FOLLOWER}> Goal! Ada scores for Falcons."
    ]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text
    assert caplog.text.count("waits for the database") == 1


def test_news_lines_share_a_message_until_it_would_pass_the_limit() -> None:
    in_messages = follow.in_messages
    assert in_messages(["a goal", "the result"]) == ["a goal\nthe result"]
    lines = [f"{n}: " + "x" * 46 for n in range(10)]  # 49 characters each
    parts = in_messages(lines, limit=100)
    assert parts == ["\n".join(lines[i : i + 2]) for i in range(0, 10, 2)]
    assert all(len(part) <= 100 for part in parts)
    (cut,) = in_messages(["y" * 150], limit=100)  # a line longer than a message is cut
    assert len(cut) <= 100
