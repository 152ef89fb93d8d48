"""Names in a Volleyball league are text (docs/rules/volleyball.md, ruling 14; rules.names and
ui.text.shown): a league, a team and players named with every construct Discord renders
(masked links, bare links, headings, lists, quotes, spoilers, code, bold, strike, timestamps,
emoji, channel, role and everyone mentions) show as those characters in every message the
bot sends, public, private and ephemeral, never as markdown, a link or a mention; and a name
of white space or invisible characters is refused with the one validator's message.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from rules.volleyball import LeagueState

pytestmark = pytest.mark.e2e

# Each name carries a few of tests/rules/test_names.py's HOSTILE constructs (a name has at most
# 32 characters, 40 for a league; a team or player name does not start or end with a digit).
LEAGUE = "[x](https://e.vil) **B** ||s|| `c` *i*"
TEAM = "# Hi <@&789> __u__ ~~s~~ <#123>"
PLAYERS = [
    "> quote # Heading",
    "<t:1700000000:R> Tim",
    "<:emoji:1> ```blk```",
    "@everyone @here Max",
    "- Item [y](http://e.vil)",
    "Anna Visser",
    "Bram de Wit",
    "Cees Jansen",
]
LEVELS = ["A 12 8", "B 6 6", "B 5 3", "C 7 7", "C 11 7", "D 9 15", "E 3 6", "E 4 5"]
# What must never reach a message as it was typed (a "<" escaped with a backslash shows the
# characters, not a mention, a timestamp or an emoji).
RAW = [
    "](https://e.vil)",
    "https://e.vil",
    "http://e.vil",
    "**B**",
    "||s||",
    "`c`",
    "<@&789>",
    "__u__",
    "~~s~~",
    "<#123>",
    "*i*",
    "<t:1700000000:R>",
    "<:emoji:1>",
    "```blk```",
    "@everyone",
    "@here",
]


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "3131"}


def state_of(bot) -> LeagueState:
    with sqlite3.connect(bot.database_path) as conn:
        (row,) = conn.execute("SELECT state FROM volleyball_leagues").fetchall()
    return LeagueState.from_dict(json.loads(row[0]))


def unescaped(raw: str, text: str) -> bool:
    start = text.find(raw)
    while start != -1:
        if start == 0 or text[start - 1] != "\\":
            return True
        start = text.find(raw, start + 1)
    return False


def assert_shown_as_text(messages) -> None:
    for message in messages:
        text = message.text
        for raw in RAW:
            assert not unescaped(raw, text), (raw, text[:500])
        for line in text.splitlines():
            assert not line.startswith(("# Hi", "- Item", "> quote")), line


async def test_hostile_names_show_as_text_everywhere(discord, bot, alice, bob, owner, general):
    replies = []
    blank = await discord.slash("volleyball league create", user=owner, name="   ")
    assert blank.ephemeral and "The league name cannot be empty" in blank.content
    override = await discord.slash("volleyball league create", user=owner, name="abc\u202edcba")
    assert override.ephemeral and "U+202E is not allowed" in override.content

    created = await discord.slash(
        "volleyball league create", user=owner, name=LEAGUE, teams=2, every_hours=24
    )
    replies.append(created)
    assert "\\[x\\]" in created.content  # the name, shown as its characters
    form = await discord.slash("volleyball team create", user=alice)
    roster = "\n".join(f"{n} {lv}" for n, lv in zip(PLAYERS, LEVELS, strict=True))
    joined = await discord.submit_modal(form, {"name": TEAM, "players": roster}, user=alice)
    replies += [joined, *joined.followups]
    assert state_of(bot).league.team(TEAM) is not None  # stored as typed
    rival = next(t.name for t in state_of(bot).league.teams if t.manager_id is None)
    replies.append(await discord.slash("volleyball take-seat", user=bob, team=rival))
    replies.append(await discord.slash("volleyball league start", user=owner))
    await discord.wait_for_message(
        general, lambda m: bool(m.embeds) and "orders due" in m.embeds[0].get("description", "")
    )
    modal = await discord.slash("volleyball orders send", user=alice)
    sent = await discord.submit_modal(modal, {"lines": "SPONSOR: Champion Cola"}, user=alice)
    replies += [sent, *sent.followups]
    for command in ("orders show", "preview", "team show", "schedule", "market", "season"):
        reply = await discord.slash(f"volleyball {command}", user=alice)
        replies += [reply, *reply.followups]
    editor = await discord.slash("volleyball orders edit", user=alice)
    replies.append(editor)
    await discord.slash("volleyball round run-now", user=owner, timeout=20)
    await discord.wait_for_dm(alice, lambda m: "(private)" in m.content, timeout=20)
    for command, options in (
        ("results", {}),
        ("history", {"team": TEAM}),
        ("table", {}),
        ("cup", {}),
    ):
        reply = await discord.slash(f"volleyball {command}", user=bob, **options)
        replies += [reply, *reply.followups]
    card = [m for m in discord.channel_messages(general) if m.embeds][-1]
    assert "\\[x\\]" in card.embeds[0]["title"] and "https\\://e.vil" in card.embeds[0]["title"]
    assert_shown_as_text(replies)
    assert_shown_as_text(discord.channel_messages(general))
    assert_shown_as_text(discord.dm_messages(alice))
    assert_shown_as_text(discord.dm_messages(bob))
    sheet = "\n".join(m.content for m in discord.dm_messages(alice))
    assert "\\<t:1700000000:R> Tim" in sheet  # the player, his name as typed
