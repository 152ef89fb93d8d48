"""A real Volleyball round's Why? through the fake Discord (cogs/volleyball/why.py): the round's
post, the league's card and `/volleyball why` answer privately with what decided the round, a
sentence per event and under it each ruling's clause and text from docs/rules/volleyball.md,
with the rules menu; a manager also reads their own team's (its orders' rulings), nobody else
does; nothing changes. A round played before its events were kept gets a clear private answer.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from rules.prose import possessive
from rules.volleyball import LeagueState

pytestmark = pytest.mark.e2e

LEAGUE = "Why League"


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "2911"}


def sql(bot, query: str, *parameters) -> list[sqlite3.Row]:
    with sqlite3.connect(bot.database_path) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute(query, parameters).fetchall()
        conn.commit()
    return rows


def state_of(bot) -> LeagueState:
    row = sql(bot, "SELECT state FROM volleyball_leagues WHERE name = ?", LEAGUE)[0]
    return LeagueState.from_dict(json.loads(row["state"]))


def version_of(bot) -> int:
    return sql(bot, "SELECT version FROM volleyball_leagues WHERE name = ?", LEAGUE)[0]["version"]


def is_card(message) -> bool:
    return bool(message.embeds) and "Why?" in message.button_labels


async def play_round(discord, owner, channel, number: int):
    """The round played now: its post, and the league's card posted again below it."""
    marker = discord.last_message(channel)
    await discord.slash("volleyball round run-now", user=owner, channel=channel, timeout=30)
    post = await discord.wait_for_message(
        channel, lambda m: f"round {number} results" in m.content, since=marker, timeout=30
    )
    return post, await discord.wait_for_message(channel, is_card, since=post, timeout=30)


async def test_a_round_played_before_its_events_were_kept_gets_a_clear_private_answer(
    discord, bot, alice, owner, general
):
    await discord.slash("volleyball league create", user=owner, name=LEAGUE, teams=4)
    form = await discord.slash("volleyball team create", user=alice, make_me_a_team=True)
    await discord.submit_modal(form, {}, user=alice)
    started = await discord.slash("volleyball league start", user=owner)
    assert "has started" in started.text
    nothing = await discord.slash("volleyball why", user=alice)
    assert nothing.ephemeral and "has played no round yet" in nothing.text

    _, card = await play_round(discord, owner, general, 1)
    # as a round played before this bot kept what decided it: its reports keep nothing
    sql(bot, "UPDATE volleyball_reports SET why = NULL")
    before = version_of(bot)
    for answer in (
        await discord.slash("volleyball why", user=alice, round=1),
        await discord.click(card, "Why?", user=alice),
    ):
        assert answer.ephemeral, answer.text
        assert "Round 1 of season 1 of Why League was played before the bot kept" in answer.text
        assert "`/volleyball results round:1`" in answer.text
    unknown = await discord.slash("volleyball why", user=alice, round=9)
    assert unknown.ephemeral and "has no round 9 of season 1 played" in unknown.text
    assert version_of(bot) == before


async def test_a_rounds_why_words_each_event_with_its_rulings_and_keeps_a_teams_own_to_it(
    discord, bot, alice, carol, owner, general
):
    team = next(t.name for t in state_of(bot).league.teams if t.manager_id == str(alice.id))
    # Alice sends the orders the form opens with (her home match's home advantage on it)
    card = [m for m in discord.channel_messages(general) if is_card(m)][-1]
    form = await discord.click(card, "Send orders", user=alice)
    sent = await discord.submit_modal(form, {}, user=alice)
    assert "saved" in sent.content.lower() or "on file" in sent.content.lower(), sent.content
    post, card = await play_round(discord, owner, general, 2)
    assert post.button_labels[-1] == "Why?"
    before, posts = version_of(bot), len(discord.channel_messages(general))

    # Carol only watches: each set as the post told it, each ruling once with its clause
    seen = await discord.click(post, "Why?", user=carol)
    assert seen.ephemeral and "Why? Why League, round 2 of season 1" in seen.text
    assert f"{team} v " in seen.text or f" v {team}" in seen.text
    assert ", set 1: " in seen.text
    assert "Ruling R1** (Rally, scoring chance, clamping)" in seen.text
    assert "Ruling R6** (Eligibility" in seen.text
    assert "*A match*" in seen.text and "/volleyball rules" in seen.text
    assert seen.selects, "the rules menu, to read a topic whole"
    menu = seen.selects[0]
    assert [o.label for o in menu.options if o.default] == ["A match"]  # open at its topic
    page = await discord.select(seen, menu.custom_id, [menu.options[0].value], user=carol)
    assert "Volleyball rules:" in page.text  # docs/rules/volleyball.md, topic by topic
    # nothing of a team's own orders: no team's orders, points or home advantage
    assert "orders in" not in seen.text and "only you see this" not in seen.text
    assert "Ruling R10" not in seen.text and "Ruling R9" not in seen.text

    # Alice manages a team: her team's own too, and only hers
    own = await discord.click(post, "Why?", user=alice)
    assert own.ephemeral and f"**{team}, your team (only you see this)**" in own.text
    assert f"{possessive(team)} orders in " in own.text, own.text
    assert "Ruling R10** (Home advantage" in own.text
    others = [t.name for t in state_of(bot).league.teams if t.name != team]
    assert not any(f"{possessive(name)} orders in" in own.text for name in others)

    # the card's Why? and the command are the same answer: the latest round's
    from_card = await discord.click(card, "Why?", user=carol)
    assert from_card.text == seen.text
    asked = await discord.slash("volleyball why", user=carol)
    assert asked.text == seen.text
    # nothing was played, posted or changed
    assert version_of(bot) == before
    assert len(discord.channel_messages(general)) == posts
