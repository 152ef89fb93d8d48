"""Volleyball's lesson through the fake Discord (docs/rules/volleyball.md "Learn by playing"):
`/volleyball learn` plays a set's orders, its report, a training and a transfer on the lesson's
card by clicks only; a wrong click is explained privately with the engine's reason and changes
nothing; the card is the lesson's progress, so a learner who leaves finds it where it was and a
restart in the middle loses nothing; the end offers the way to a real league. Nothing of it is
a league's: no league, no table."""

from __future__ import annotations

import pytest

from rules.volleyball import answer_of, lesson_script
from tests.e2e.test_learn import joined_server

pytestmark = pytest.mark.e2e

LESSON = lesson_script()
STEPS = len(LESSON.steps)


def labels(message) -> list[str]:
    return list(message.button_labels)


async def test_the_volleyball_lesson_by_clicks_with_a_wrong_try_a_leave_and_a_restart(
    discord, bot, games
):
    ida = discord.add_user("ida")
    card = await discord.slash("volleyball learn", user=ida, channel=games)
    assert not card.ephemeral and "Volleyball lesson 1/8:" in card.text
    assert "Kasper Hammer 18/10" in card.text  # the squad, with its levels

    for index, step in enumerate(LESSON.steps):
        assert f"Volleyball lesson {index + 1}/{STEPS}:" in card.text, card.text
        assert step.say[:50] in card.text and f"*{step.rule}*" in card.text
        if step.kind == "concept":
            # a wrong click: the engine's own reason and the hint, privately; the card stays
            before = discord.message(card)
            answer = await discord.click(card, "AC", user=ida)
            assert answer.ephemeral and "needs at least 5 setters/attackers" in answer.text
            assert step.hint in answer.text and "Nothing changed" in answer.text
            after = discord.message(card)
            assert after.text == before.text and labels(after) == labels(before)
            # someone else's click on the learner's card is refused, nothing changes
            other = await discord.click(card, "OC", user=discord.add_user("jon"))
            assert other.ephemeral and "someone else's lesson" in other.text
            assert discord.message(card).text == before.text
        if step.kind == "risk":
            # the learner leaves: other talk in the channel, then back to the card as it was
            await discord.slash("help", user=ida, channel=games)
            card = discord.message(card)
            assert f"Volleyball lesson {index + 1}/{STEPS}:" in card.text
        if step.kind == "report":
            assert "**Your report:**" in card.text and "scoring chance" in card.text
            # Why? on the set's report: what decided it, each ruling worded from the page
            why = await discord.click(card, "Why?", user=discord.add_user("max"))
            assert why.ephemeral and "Lesson Lions v Tutor Tigers, set 1: 15-5" in why.text
            assert "Ruling R1" in why.text and "Rally, scoring chance, clamping" in why.text
            assert "Ruling R2" in why.text and "Ruling R3" in why.text and "*A match*" in why.text
            # worded as a real round's Why? is (host/why.py): the rules menu at its topic
            menu = why.selects[0]
            assert [o.label for o in menu.options if o.default] == ["A match"]
            assert discord.message(card).text == card.text  # nothing changed
            await bot.restart()  # the card is the progress: nothing is lost
            card = discord.message(card)
            assert f"Volleyball lesson {index + 1}/{STEPS}:" in card.text
        card = await discord.click(card, answer_of(LESSON, index), user=ida)

    assert "Lesson done!" in card.text and "Transfer list: Gijs ✓" in card.text
    assert labels(card) == ["Start a real league", "Join a league", "Why?"]
    league = await discord.click(card, "Start a real league", user=ida)
    assert league.ephemeral and "/volleyball league create" in league.text
    team = await discord.click(card, "Join a league", user=ida)
    assert team.ephemeral and "/volleyball team create" in team.text
    # a lesson is no league: the server has none
    table = await discord.slash("volleyball table", user=ida, channel=games)
    assert table.ephemeral and "Lesson Lions" not in table.text


async def test_the_quick_start_of_help_starts_the_volleyball_lesson(discord, bot, games):
    kim = discord.add_user("kim")
    overview = await discord.slash("help", user=kim, channel=games)
    start = await discord.click(overview, "Volleyball", user=kim)
    assert "/volleyball learn" in str(start.embeds[0])
    await discord.click(start, "Learn by playing", user=kim)
    cards = [m for m in discord.channel_messages(games) if "Volleyball lesson 1/8:" in m.content]
    assert cards, "the lesson's first card, in the channel"


async def test_the_welcome_offers_the_volleyball_lesson(discord, bot, fake_discord):
    """The message a server gets when the bot joins it offers Volleyball's lesson too; a click
    starts it in that channel for whoever clicks."""
    _, welcome = await joined_server(discord, bot, fake_discord, "Managers' Server")
    assert "Learn Volleyball" in welcome.button_labels
    lee = discord.add_user("lee")
    card = await discord.click(welcome, "Learn Volleyball", user=lee)
    assert not card.ephemeral and "Volleyball lesson 1/8:" in card.text
