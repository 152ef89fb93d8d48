"""A select answers only the values it offered (ui.items.Control): a modified client that sends
a value the menu never listed (a slot of 100 letters, an empty one, a made-up slot, a group
that does not exist, a player not on the menu) is told privately that the choice is not on
offer, and nothing changes: no menu of a made-up slot, no error, no line-up saved.
"""

from __future__ import annotations

import sqlite3

import pytest

from tests.e2e.forged import forged_click

pytestmark = pytest.mark.e2e

NOT_ON_OFFER = "not on offer"


def lineup_of(bot, name: str):
    with sqlite3.connect(bot.database_path) as conn:
        return conn.execute(
            "SELECT lineup, version FROM rollerball2_teams WHERE name = ?", (name,)
        ).fetchone()


async def test_forged_line_up_choices_are_refused_and_change_nothing(discord, bot, alice):
    created = await discord.slash("rollerball2 team create", user=alice, name="Forgers")
    assert "Forgers" in created.text
    editor = await discord.slash("rollerball2 team lineup", user=alice, team="Forgers")
    (slots,) = editor.selects
    before = lineup_of(bot, "Forgers")
    for value in ("x" * 100, "", "Skater9", "Biker1 "):
        forged = await forged_click(discord, editor, slots.custom_id, alice, values=[value])
        assert forged.ephemeral and NOT_ON_OFFER in forged.text, (value, forged.text)
        assert not forged.selects  # no player menu for a slot that was not offered
    assert discord.message(editor).text == editor.text
    picking = await discord.select(editor, "Choose a slot to change", ["Skater2"], user=alice)
    (players,) = picking.selects
    offered = {option.value for option in players.options}
    stranger = next(str(n) for n in range(100) if str(n) not in offered)
    for values in (["g99"], ["g0"], [stranger], ["x"], [], [next(iter(offered))] * 2):
        forged = await forged_click(discord, picking, players.custom_id, alice, values=values)
        assert forged.ephemeral and NOT_ON_OFFER in forged.text, (values, forged.text)
    assert lineup_of(bot, "Forgers") == before
    assert bot.take_errors() == []
