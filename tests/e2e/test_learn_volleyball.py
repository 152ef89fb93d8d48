"""Volleyball's lesson through the fake Discord (docs/rules/volleyball.md "Learn by playing"):
`/volleyball learn` teaches a manager's first round on a real league of four seats, with the
real league card, the real orders editor's menus and Save orders, the real round and its Why?,
then training and a sale from My team's menus, by clicks only. A wrong click is answered privately with the step's hint and changes nothing
(no draft, no orders, no round); the stored step is the lesson's progress, so a learner who
leaves finds it where it was and a restart in the middle loses nothing; the end offers the way
to a real league. The lesson is nobody else's and is no public league: not in the server's
leagues nor in their autocompletes."""

from __future__ import annotations

import json

import pytest

from rules.volleyball import lesson_script
from tests.e2e.stored import connect
from tests.e2e.test_learn import joined_server
from tests.e2e.volleyball_lesson_clicks import sheet_menus

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]

LESSON = lesson_script()
STEPS = len(LESSON.steps)
SIX = ["Kasper Hammer", "Anna", "Bram", "Cees", "Dirk", "Eva"]
CARD_BUTTONS = ["Edit with menus", "My team", "Play the round", "Why?"]
TRAIN_OL = "Train a player's OL (+1, one training point)"  # My team's menus
TRAIN_DL = "Train a player's DL (+1, one training point)"
SELL = "Put a player on the transfer list (sell)"


def sql(bot, query: str, *parameters):
    with connect(bot) as conn:
        return conn.execute(query, parameters).fetchall()


def stored_draft(bot) -> str | None:
    rows = sql(bot, "SELECT draft FROM volleyball_drafts")
    return rows[0][0] if rows else None


def next_orders(bot) -> dict | None:
    """The learner's orders on file for round 2 (after the lesson's round)."""
    rows = sql(bot, "SELECT orders FROM volleyball_orders WHERE round_number = 2")
    return json.loads(rows[0][0]) if rows else None


def played_rounds(bot) -> int:
    state = json.loads(sql(bot, "SELECT state FROM volleyball_leagues")[0][0])
    return state["league"]["round_number"] - 1


async def card_at(discord, channel, number: int, learner, since=0):
    """`learner`'s lesson card once it shows step `number` (0: the lesson done), posted after
    the message `since` (a round's results: the card is posted again below them)."""
    wanted = "Lesson done!" if number == 0 else f"Volleyball lesson {number}/{STEPS}"
    whose = f"<@{learner.id}>'s lesson"
    return await discord.wait_for_message(
        channel,
        lambda m: wanted in m.content and whose in m.content and bool(m.embeds),
        since=since,
    )


def text_of(reply) -> str:
    return "\n".join([reply.content, *(f.content for f in reply.followups)])


async def test_the_volleyball_lesson_on_a_real_league_by_clicks(discord, bot, games):
    ida = discord.add_user("ida")
    begun = await discord.slash("volleyball learn", user=ida, channel=games)
    assert begun.ephemeral and "lesson begins" in begun.text
    card = await card_at(discord, games, 1, ida)
    assert LESSON.steps[0].say[:40] in card.content and f"*{LESSON.steps[0].rule}*" in card.text
    assert list(card.button_labels) == CARD_BUTTONS
    assert "A lesson: season 1, round 1" in str(card.embeds[0])  # the league's own card

    # a wrong click: the step's hint, privately; no round is played and the card stays
    early = await discord.click(card, "Play the round", user=ida)
    assert early.ephemeral and LESSON.steps[0].hint in early.text
    assert "Nothing changed" in early.text and played_rounds(bot) == 0
    assert discord.message(card).content == card.content
    # someone else's click on the learner's card is refused
    jon = discord.add_user("jon")
    other = await discord.click(card, "Edit with menus", user=jon)
    assert other.ephemeral and "someone's lesson" in other.text

    # step 1: the card's real Edit with menus opens the real editor
    editor = await discord.click(card, "Edit with menus", user=ida)
    assert editor.ephemeral and "**Round 1, Match 1, " in editor.content
    card = await card_at(discord, games, 2, ida)

    # step 2: the six, with the editor's players menu; a wrong six is refused, nothing kept
    wrong = [*SIX[:5], "Fenna"]
    refused = await discord.select(editor, "Players of set 1 (pick six)", wrong, user=ida)
    assert refused.ephemeral and LESSON.steps[1].hint in refused.text
    assert stored_draft(bot) is None  # the draft was not kept
    picked = await discord.select(editor, "Players of set 1 (pick six)", SIX, user=ida)
    assert "✓ Next:" in picked.content and LESSON.steps[2].say[:30] in picked.content
    first = json.loads(stored_draft(bot) or "{}")["matches"][0]["sets"][0]
    assert sorted(slot["player"] for slot in first["slots"]) == sorted(SIX)
    card = await card_at(discord, games, 3, ida)

    # the learner leaves, and comes back: the lesson goes on where it was
    await discord.slash("help", user=ida, channel=games)
    back = await discord.slash("volleyball learn", user=ida, channel=games)
    assert back.ephemeral and "where you left it" in back.text
    card = await card_at(discord, games, 3, ida)
    assert sql(bot, "SELECT COUNT(*) FROM volleyball_leagues")[0][0] == 1

    # step 3: positions
    positions = ["Kasper Hammer: Setter", "Anna: Setter", "Bram: Attacker", "Cees: Attacker"]
    placed = await discord.select(
        picked, "Positions (the others play Allround)", positions, user=ida
    )
    assert "Kasper Hammer (Setter)" in placed.content and "✓ Next:" in placed.content
    card = await card_at(discord, games, 4, ida)

    # a restart in the middle: the editor's menus and the card still work, nothing is lost
    await bot.restart()
    card = await card_at(discord, games, 4, ida)
    kept = stored_draft(bot)
    wrong_concept = await discord.select(
        placed, "Concept and risk", ["NC (Neutral), risk 5"], user=ida
    )
    assert wrong_concept.ephemeral and LESSON.steps[3].hint in wrong_concept.text
    assert stored_draft(bot) == kept
    concept = await discord.select(placed, "Concept and risk", ["OC (Offensive), risk 9"], user=ida)
    assert "OC risk 9" in concept.content and "✓ Next:" in concept.content
    card = await card_at(discord, games, 5, ida)

    # step 5: the editor's Save orders puts them on file
    saved = await discord.click(concept, "Save orders", user=ida)
    assert "accepted** (Lesson Lions)" in text_of(saved), text_of(saved)
    card = await card_at(discord, games, 6, ida)

    # step 6: the round, played now; its real results are posted
    played = await discord.click(card, "Play the round", user=ida)
    assert played.ephemeral and "Round played" in played.text
    assert played_rounds(bot) == 1
    posted = await discord.wait_for_message(games, lambda m: "Nova Spikers" in m.content)
    assert "Lesson Lions" in posted.content  # the round's real results, in the channel
    theirs = await discord.click(posted, "Why?", user=jon)  # the lesson's, not jon's
    assert theirs.ephemeral and "someone's lesson" in theirs.text
    card = await card_at(discord, games, 7, ida, since=posted)

    # step 7: the round's Why?
    why = await discord.click(card, "Why?", user=ida)
    assert why.ephemeral and "Ruling" in why.text
    card = await card_at(discord, games, 8, ida)

    # step 8: My team's training menu; a pick the lesson does not teach is its hint, and no
    # order is kept for round 2
    menus = await sheet_menus(discord, await discord.click(card, "My team", user=ida))
    wrong_training = await discord.select(menus, TRAIN_DL, ["Fenna"], user=ida)
    assert wrong_training.ephemeral and LESSON.steps[7].hint in text_of(wrong_training)
    assert next_orders(bot) is None
    trained = await discord.select(menus, TRAIN_OL, ["Fenna"], user=ida)
    assert "accepted** (Lesson Lions)" in text_of(trained), text_of(trained)
    assert (next_orders(bot) or {})["training"] == [{"player": "Fenna", "ol_gain": 1, "dl_gain": 0}]
    card = await card_at(discord, games, 9, ida)

    # step 9: My team's transfer list; another player is the hint, nothing changes
    wrong_sale = await discord.select(menus, SELL, ["Anna"], user=ida)
    assert LESSON.steps[8].hint in text_of(wrong_sale)
    assert not (next_orders(bot) or {}).get("sales")
    sold = await discord.select(menus, SELL, ["Gijs"], user=ida)
    assert "accepted** (Lesson Lions)" in text_of(sold), text_of(sold)
    assert (next_orders(bot) or {})["sales"] == [{"player": "Gijs", "minimum_price": 0}]
    card = await card_at(discord, games, 0, ida)
    assert list(card.button_labels) == ["Start a real league", "Join a league", "Why?"]
    league = await discord.click(card, "Start a real league", user=ida)
    assert league.ephemeral and "/volleyball league create" in league.text

    # a lesson is no public league: not in the server's leagues nor their names
    table = await discord.slash("volleyball table", user=ida, channel=games)
    assert table.ephemeral and "Lesson Lions" not in table.text
    names = await discord.autocomplete("volleyball table", "league", "", user=ida)
    assert not names

    # the next lesson begins anew; the finished one is gone
    again = await discord.slash("volleyball learn", user=ida, channel=games)
    assert "lesson begins" in again.text
    await card_at(discord, games, 1, ida)
    assert sql(bot, "SELECT lesson_step FROM volleyball_leagues") == [(0,)]


async def test_the_quick_start_of_help_starts_the_volleyball_lesson(discord, bot, games):
    kim = discord.add_user("kim")
    overview = await discord.slash("help", user=kim, channel=games)
    start = await discord.click(overview, "Volleyball", user=kim)
    assert "/volleyball learn" in str(start.embeds[0])
    await discord.click(start, "Learn by playing", user=kim)
    await card_at(discord, games, 1, kim)


async def test_the_welcome_offers_the_volleyball_lesson(discord, bot, fake_discord):
    """The message a server gets when the bot joins it offers Volleyball's lesson too; a click
    starts it in that channel for whoever clicks."""
    channel, welcome = await joined_server(discord, bot, fake_discord, "Managers' Server")
    assert "Learn Volleyball" in welcome.button_labels
    lee = discord.add_user("lee")
    begun = await discord.click(welcome, "Learn Volleyball", user=lee)
    assert begun.ephemeral and "lesson begins" in begun.text
    await card_at(discord, channel, 1, lee)
