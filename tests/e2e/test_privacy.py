"""/privacy delete through the fake Discord: a user who joined and left Rollerball tables,
played a Rocketball match, managed a Volleyball team that got its round's report, and set a
daily digest deletes their data; afterwards no table and no column of the whole database holds
their Discord id or their display name (the schema is enumerated, nothing is listed by hand).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from fakediscord import Upload
from tests.e2e.stored import sql
from tests.e2e.test_volleyball import BOB_ROSTER as ROSTER  # the team "Blue Whales"

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "4646"}


def every_value(bot) -> Iterator[tuple[str, str, object]]:
    """(table, column, value) for every column of every row of every table."""
    with sqlite3.connect(bot.database_path) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for table in tables:
            columns = [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                for column, value in zip(columns, row, strict=True):
                    yield table, column, value


def traces(bot, needles: list[str]) -> list[tuple[str, str, str]]:
    """Where any of `needles` (lower case) is stored: table, column, the text around it."""
    found = []
    for table, column, value in every_value(bot):
        text = (value.decode(errors="replace") if isinstance(value, bytes) else str(value)).lower()
        at = min((i for i in (text.find(n) for n in needles) if i >= 0), default=-1)
        if value is not None and at >= 0:
            found.append((table, column, text[max(0, at - 60) : at + 60]))
    return found


async def test_after_privacy_delete_no_table_holds_the_users_id_or_name(
    discord, bot, alice, bob, owner, general
):
    zy = discord.add_user("zyxwvsecretname")
    needles = [str(zy.id), zy.name.lower()]

    # Rollerball: joins a table and leaves it, joins another that is played and resigned
    lobby = await discord.slash("rollerball new", user=alice, channel=general, players=3)
    await discord.click(lobby, "Join", user=zy)
    await discord.click(lobby, "Leave", user=zy)
    await discord.click(lobby, "Join", user=zy)
    await discord.click(lobby, "Add computer", user=alice)
    started = await discord.click(lobby, "Start", user=alice)
    assert "has started" in started.text, started.text
    thread = await discord.wait_for_thread(general)
    asked = await discord.slash("rollerball resign", user=zy, channel=thread)
    await discord.click(asked, "Resign", user=zy)
    asked = await discord.slash("rollerball resign", user=alice, channel=thread)
    await discord.click(asked, "Resign", user=alice)

    # Rocketball: a match between the two, resigned
    challenge = await discord.slash("rocketball challenge", user=zy, channel=general, opponent=bob)
    await discord.click(challenge, "Accept", user=bob)
    rocket = await discord.wait_for_thread(general)
    asked = await discord.slash("rocketball resign", user=zy, channel=rocket)
    await discord.click(asked, "Resign", user=zy)

    # Volleyball: a team in a league whose round is played, its report sent
    await discord.slash("volleyball league create", user=owner, name="Privacy League", teams=2)
    made = await discord.slash(
        "volleyball team create", user=zy, roster=Upload("roster.txt", ROSTER.encode())
    )
    assert "**Blue Whales** joins" in made.content, made.content
    await discord.slash("volleyball league start", user=owner)
    await discord.slash("volleyball round run-now", user=owner)
    await discord.wait_for_dm(zy, lambda m: "Blue Whales" in m.text, timeout=20)
    assert sql(bot, "SELECT COUNT(*) FROM volleyball_reports")[0][0] > 0

    # a daily digest
    await discord.slash("settings me", user=zy, channel=general, digest="08:00")
    assert traces(bot, needles)  # the search finds what is there

    shown = await discord.slash("privacy", user=zy)
    deleted = await discord.click(shown, "Delete my data", user=zy)
    assert deleted.ephemeral and "Done" in deleted.text, deleted.text
    left = traces(bot, needles)
    assert left == [], "\n".join(map(str, left))
    again = await discord.slash("privacy", user=zy)
    assert "stores nothing about you" in again.text
