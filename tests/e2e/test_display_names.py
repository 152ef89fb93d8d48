"""A name Discord gives (a member's display name) is cleaned as a typed name is (rules.names):
a right-to-left override (U+202E) or a zero-width space (U+200B) in a nickname reaches neither
the match's card, its "Next:" line and score footer, the lobby, nor the stored match the board
images are drawn from (an override there turned the other players' names around)."""

from __future__ import annotations

import json
import sqlite3

import pytest

pytestmark = pytest.mark.e2e

INVISIBLE = ("\u202e", "\u200b")
NICKS = {"ruth": "\u202eRuth\u200b Evil", "zed": "Z\u200bed\u202e"}


def nicknamed(discord, name: str):
    """A member whose server nickname (their display name there) carries invisible marks."""
    user = discord.add_user(name)
    fake = discord.fake
    fake.call_sync(lambda: fake.members[user.id].__setitem__("nick", NICKS[name]))
    return user


def stored_state(bot) -> str:
    with sqlite3.connect(bot.database_path) as conn:
        rows = conn.execute("SELECT state FROM games ORDER BY id").fetchall()
    return "\n".join(json.dumps(json.loads(row[0]), ensure_ascii=False) for row in rows)


def assert_clean(text: str) -> None:
    assert not any(mark in text for mark in INVISIBLE), repr(text[:300])


async def test_invisible_marks_of_display_names_reach_no_message_and_no_image(
    discord, bot, general
):
    ruth, zed = nicknamed(discord, "ruth"), nicknamed(discord, "zed")
    reply = await discord.slash("rocketball challenge", user=ruth, opponent=zed)
    await discord.click(reply, "Accept", user=zed)
    thread = await discord.wait_for_thread(general)
    card = await discord.wait_for_message(thread, lambda m: bool(m.buttons), timeout=15)
    assert "(Zed)" in card.text or "(Ruth Evil)" in card.text  # visible characters kept
    lobby = await discord.slash("rollerball new", user=ruth)
    joined = await discord.click(lobby, "Join", user=zed)
    assert "Ruth Evil" in joined.text and "Zed" in joined.text
    stats = await discord.slash("rocketball stats", user=zed, options={"user": ruth})
    for message in (reply, card, lobby, joined, stats, *discord.channel_messages(thread)):
        assert_clean(message.text)
    for message in discord.channel_messages(general):
        assert_clean(message.text)
    assert_clean(stored_state(bot))  # what the board images draw
