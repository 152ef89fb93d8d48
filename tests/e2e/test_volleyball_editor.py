"""The Volleyball orders editor (`/volleyball orders edit`) through the fake Discord: a manager
builds a set with the menus and the points form, sees the preview change with every pick, keeps
the draft across a restart, saves, and `orders show` has the line-up; a formation the rules
refuse is shown as a problem and refused on saving with the reason, the orders on file
staying; another user can neither see nor use the manager's editor.
"""

from __future__ import annotations

import json
import re

import pytest

from fakediscord import DriverError
from tests.e2e.forged import forged_click
from tests.e2e.stored import connect, whole_answer

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]

LEAGUE = "Editor League"
ROSTER = "\n".join(
    [
        "Anna Visser A 6 4",
        "Bram de Wit A 5 5",
        "Cees Jansen B 12 12",
        "Dirk Smit C 8 8",
        "Eva Bakker C 8 8",
        "Femke Mol D 12 12",
        "Gijs Kok E 10 10",
    ]
)
PREVIEW = re.compile(
    r"\*\*Set (\d)\*\*: [^\n]*\n[^\n]*: OL (\d+) DL (\d+), \*\*(\d+) %\*\* against"
)


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "4242"}


def sql(bot, query: str, *parameters):
    with connect(bot) as conn:
        return conn.execute(query, parameters).fetchall()


def orders_on_file(bot, team: str) -> dict | None:
    rows = sql(bot, "SELECT orders FROM volleyball_orders WHERE team = ?", team)
    return json.loads(rows[0][0]) if rows else None


def preview(message) -> tuple[int, int, int, int]:
    found = PREVIEW.search(message.content)
    assert found, message.content
    set_number, ol, dl, chance = (int(x) for x in found.groups())
    return set_number, ol, dl, chance


def everything(reply) -> str:
    return "\n".join([reply.content, *(f.content for f in reply.followups)])


async def league_with_managers(discord, bot, alice, bob, owner) -> None:
    """A running league of four seats: alice's own team (Red Rockets), bob on a computer
    team's seat (made once per module)."""
    if sql(bot, "SELECT 1 FROM volleyball_leagues WHERE name = ?", LEAGUE):
        return
    await discord.slash(
        "volleyball league create", user=owner, name=LEAGUE, teams=4, every_hours=24
    )
    form = await discord.slash("volleyball team create", user=alice)
    joined = await discord.submit_modal(form, {"name": "Red Rockets", "players": ROSTER})
    assert "**Red Rockets** joins" in joined.content
    state = json.loads(sql(bot, "SELECT state FROM volleyball_leagues")[0][0])
    seat = next(t["name"] for t in state["league"]["teams"] if t.get("manager_id") is None)
    taken = await discord.slash("volleyball take-seat", user=bob, team=seat)
    assert "takes over" in taken.content
    started = await discord.slash("volleyball league start", user=owner)
    assert "has started" in started.text


async def test_a_manager_builds_a_set_with_the_menus_and_saves_it(discord, bot, alice, bob, owner):
    await league_with_managers(discord, bot, alice, bob, owner)
    editor = await discord.slash("volleyball orders edit", user=alice)
    assert editor.ephemeral and "**Round 1, Match 1, " in editor.content
    # the rule the menus cannot show, once, and where the other orders go
    assert "-5 level points a set played, +3 a set rested" in editor.content
    assert "`/volleyball orders send`" in editor.content
    players = editor.select("Players of set 1 (pick six)")
    assert len(players.options) == 7 and sum(o.default for o in players.options) == 6
    assert len(editor.select("Concept and risk").options) == 23  # the legal pairs only
    assert preview(editor)[0] == 1

    # the six fittest (the starting line-up may rest one of them in set 1 to field the later
    # sets), then Bram in for Anna
    fittest = ["Anna Visser", "Cees Jansen", "Dirk Smit", "Eva Bakker", "Femke Mol", "Gijs Kok"]
    baseline = await discord.select(editor, "Players of set 1 (pick six)", fittest, user=alice)
    start = preview(baseline)
    six = ["Bram de Wit", "Cees Jansen", "Dirk Smit", "Eva Bakker", "Femke Mol", "Gijs Kok"]
    picked = await discord.select(baseline, "Players of set 1 (pick six)", six, user=alice)
    assert picked.response_type == 7  # the editor itself is redrawn
    set_line = picked.content.split("**Set 1**: ")[1].splitlines()[0]
    assert "Bram de Wit" in set_line and "Anna Visser" not in set_line
    after_players = preview(picked)
    assert (after_players[1], after_players[2]) == (start[1] - 1, start[2] + 1)  # 6/4 -> 5/5

    # two setters and two attackers: OL up, DL down, the chance up
    positions = await discord.select(
        picked,
        "Positions (the others play Allround)",
        ["Cees Jansen: Setter", "Femke Mol: Setter", "Gijs Kok: Attacker", "Dirk Smit: Attacker"],
        user=alice,
    )
    assert "Cees Jansen (Setter)" in positions.content
    assert "Gijs Kok (Attacker)" in positions.content
    after_positions = preview(positions)
    # Setter: 12 -> 14 OL (+20 %), DL -2; Attacker: 10 -> 11 and 8 -> 9 OL, DL -1
    assert after_positions[1] == after_players[1] + 2 + 2 + 1 + 1
    assert after_positions[2] == after_players[2] - 2 - 2 - 1 - 1
    assert after_positions[3] > after_players[3]

    # Offensive at risk 7 against the neutral side's Neutral: half the average risk added
    concept = await discord.select(
        positions, "Concept and risk", ["OC (Offensive), risk 7"], user=alice
    )
    after_concept = preview(concept)
    assert after_concept[1:3] == after_positions[1:3] and after_concept[3] > after_positions[3]
    assert "No problems" in concept.content

    # special points through the small form: OL total up by five
    form = await discord.click(concept, "Points", user=alice)
    assert form.response_type == 9
    pointed = await discord.submit_modal(form, {"sp": "5 0"}, user=alice)
    after_points = preview(pointed)
    assert after_points[1] == after_concept[1] + 5 and after_points[3] > after_concept[3]
    assert "SP 5/0" in pointed.content
    assert orders_on_file(bot, "Red Rockets") is None  # a draft is not orders

    # to set 2; the bot restarts; the menus still work and the draft is still there
    second = await discord.click(pointed, "2", user=alice)
    assert "**Set 2**" in second.content
    await bot.restart()
    neutral = await discord.select(second, "Concept and risk", ["NC (Neutral), risk 5"], user=alice)
    assert "**Set 2**" in neutral.content and "NC risk 5" in neutral.content
    assert f"1: {after_points[3]} %" in neutral.content  # set 1 as it was left

    saved = await discord.click(neutral, "Save orders", user=alice)
    text = everything(saved)
    assert saved.ephemeral and "Orders for round 1 of season 1 accepted** (Red Rockets)" in text
    # the answer says what changed: the match's line-up, its concepts and points, once
    assert "Changed:" in text and "Match 1, home v " in text, text
    assert ": OC/NC/" in text and "SP 5" in text
    again = await discord.slash("volleyball orders edit", user=alice)
    assert "On file as shown." in again.content and preview(again) == after_points

    shown = await discord.slash("volleyball orders show", user=alice)
    shown_text = await whole_answer(discord, shown)
    # the editor opened on Match 1 (at home: the home advantage spread over its sets)
    assert "Set 1: OC risk 7, HA 3/3, SP 5/0: Bram de Wit 3, Cees Jansen 1" in shown_text
    assert f"OL {after_points[1]} DL {after_points[2]}, {after_points[3]} %" in shown_text
    assert "Gijs Kok 2" in shown_text and "Set 2: NC risk 5" in shown_text


async def test_a_formation_the_rules_refuse_is_refused_with_the_reason(
    discord, bot, alice, bob, owner
):
    await league_with_managers(discord, bot, alice, bob, owner)
    before = orders_on_file(bot, "Red Rockets")
    editor = await discord.slash("volleyball orders edit", user=alice)
    if before is not None:
        assert "On file as shown." in editor.content

    # one player, two positions: nothing changes, and the answer says why
    twice = await discord.select(
        editor,
        "Positions (the others play Allround)",
        ["Cees Jansen: Setter", "Cees Jansen: Blocker"],
        user=alice,
    )
    assert twice.ephemeral and "a player plays one position" in twice.content

    neutral = await discord.select(editor, "Concept and risk", ["NC (Neutral), risk 3"], user=alice)
    three = await discord.select(
        neutral,
        "Positions (the others play Allround)",
        ["Cees Jansen: Setter", "Femke Mol: Setter", "Gijs Kok: Setter"],
        user=alice,
    )
    reason = "Set 1 has 3 setters; at most two setters may play in a set."
    assert reason in three.content and "Save orders refuses" in three.content

    refused = await discord.click(three, "Save orders", user=alice)
    text = everything(refused)
    assert "refused** (Red Rockets): 1 problem" in text and reason in text
    if before is not None:
        assert "stay as they were" in text
    assert orders_on_file(bot, "Red Rockets") == before  # nothing stored
    assert sql(bot, "SELECT COUNT(*) FROM volleyball_drafts")[0][0] == 1  # the draft stays

    over = await discord.click(three, "Start over", user=alice)
    assert "Started over" in over.content and reason not in over.content
    assert not sql(bot, "SELECT 1 FROM volleyball_drafts")


async def test_another_user_cannot_use_the_managers_editor(discord, bot, alice, bob, owner):
    await league_with_managers(discord, bot, alice, bob, owner)
    before = orders_on_file(bot, "Red Rockets")
    editor = await discord.slash("volleyball orders edit", user=alice)
    with pytest.raises(DriverError, match="bob cannot see that ephemeral message"):
        await discord.click(editor, "Save orders", user=bob)

    # a modified client could still send the custom_id it copied: the bot refuses it
    save_id = editor.button("Save orders").custom_id
    forged = await forged_click(discord, editor, save_id, bob)
    assert forged.ephemeral and "only their team's manager may use it" in forged.content
    players_id = editor.select("Players of set 1 (pick six)").custom_id
    forged = await forged_click(discord, editor, players_id, bob, values=["Anna Visser"])
    assert "only their team's manager may use it" in forged.content
    assert orders_on_file(bot, "Red Rockets") == before
    assert not sql(bot, "SELECT 1 FROM volleyball_drafts WHERE user_id = ?", bob.id)

    # bob's own editor is his team's
    own = await discord.slash("volleyball orders edit", user=bob)
    assert "**Round 1, " in own.content and "Anna Visser" not in own.content


async def test_an_editor_of_a_round_already_played_changes_nothing(
    discord, bot, alice, bob, owner, general
):
    """Last in this module: it plays a round."""
    await league_with_managers(discord, bot, alice, bob, owner)
    editor = await discord.slash("volleyball orders edit", user=alice)
    await discord.select(editor, "Concept and risk", ["NC (Neutral), risk 4"], user=alice)
    privacy = await discord.slash("privacy", user=alice)
    assert "1 unsaved orders draft" in privacy.text
    marker = discord.last_message(general)
    await discord.slash("volleyball round run-now", user=owner, timeout=20)
    await discord.wait_for_message(
        general, lambda m: "round 1 results" in m.content, since=marker, timeout=20
    )
    stale = await discord.click(editor, "Save orders", user=alice)
    assert stale.ephemeral and "Round 1 was played after this editor was opened" in stale.content
    assert not sql(bot, "SELECT 1 FROM volleyball_orders WHERE round_number = 2")
    fresh = await discord.slash("volleyball orders edit", user=alice)
    assert "**Round 2, " in fresh.content and "NC risk 3" in fresh.content
