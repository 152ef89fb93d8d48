"""Learning by playing (docs/rules/rocketball.md "Learn by playing"): `/rocketball learn` plays
the lesson on the real live card with clicks only; each step says what to do and why, a wrong
move gets the step's hint and changes nothing, a restart in the middle loses nothing, and the
end offers a real match. The lesson counts for nothing (no statistics, no rating)."""

from __future__ import annotations

import asyncio

import pytest

from host.adapter import move_arg
from rules.lessons import LEARNER, lesson_of
from rules.rocketball import ENGINE
from tests.e2e.rocketball_clicks import click_action
from tests.e2e.test_rocketball import current_card, latest_game_id, new_thread, stored_game

pytestmark = pytest.mark.e2e

LESSON = lesson_of("rocketball")
assert LESSON is not None
SAYS = [step for step in LESSON.steps if step.seat == LEARNER]


async def wrong_try(discord, message, custom_id: str, user, *, select: list[str] | None = None):
    """A click (or a pick) the lesson refuses: its private answer, which follows the card's
    redraw (the click's own response puts the card back at the step's start)."""
    before = len(discord.ephemerals(user))
    if select is None:
        reply = await discord.click(message, custom_id, user=user)
    else:
        reply = await discord.select(message, custom_id, select, user=user)
    if reply.ephemeral:
        return reply
    for _ in range(300):
        shown = discord.ephemerals(user)[before:]
        if shown:
            return shown[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no private answer to the wrong try: {reply.text[:200]}")


async def test_a_lesson_played_to_its_end_with_clicks_a_wrong_try_and_a_restart(
    discord, bot, games
):
    ada = discord.add_user("ada")
    known = len(discord.threads(games))
    await discord.slash("rocketball learn", user=ada, channel=games)
    thread = await new_thread(discord, games, known)
    game_id = latest_game_id(bot)
    card = await current_card(discord, bot, thread, game_id)
    _, status, match, _ = stored_game(bot, game_id)
    assert status == "active" and match.names[1] == "Tutor" and match.auto == set()

    for number, step in enumerate(SAYS, 1):
        assert f"Lesson {number}/{len(SAYS)}:" in card.text, card.text
        assert step.say[:60] in card.text
        version, _, match, _ = stored_game(bot, game_id)
        if number == 2:
            # A wrong try: another square than the lesson's. The hint, privately; nothing saved.
            wrong = "e7"
            if not card.selects:
                card = await discord.click(card, "Other squares…", user=ada)
            menu = next(s for s in card.selects if wrong in [o.value for o in s.options])
            picked = await discord.select(card, menu.custom_id, [wrong], user=ada)
            arg = move_arg(ENGINE, ENGINE.parse_action(match.engine, 0, f"{wrong} S"))
            button = next(b for b in picked.buttons if (b.custom_id or "").endswith(f":{arg}"))
            answer = await wrong_try(discord, picked, button.custom_id, ada)
            assert step.hint in answer.text
            assert stored_game(bot, game_id)[0] == version
            # The card is back at the step's start, its squares on offer: no Back needed.
            card = await current_card(discord, bot, thread, game_id)
            assert "Back" not in card.button_labels, card.button_labels
            assert f"Lesson {number}/{len(SAYS)}:" in card.text
        if number == 4:
            await bot.restart()  # the lesson's progress is saved with each move
            card = await current_card(discord, bot, thread, game_id)
            assert f"Lesson {number}/{len(SAYS)}:" in card.text
        await click_action(discord, card, ada, ENGINE.parse_action(match.engine, 0, step.move))
        card = await current_card(discord, bot, thread, game_id)

    _, status, match, _ = stored_game(bot, game_id)
    assert status == "finished" and match.engine.winner == "N"
    assert "Lesson done!" in card.text and "GOAL!" in card.text
    stats = await discord.slash("rocketball stats", user=ada)
    assert "No finished matches yet." in stats.text  # a lesson is no match of the statistics

    # The end offers a real match: against the computer, at the level for a first match.
    known = len(discord.threads(games))
    reply = await discord.click(card, "Play a real match", user=ada)
    assert reply.ephemeral and "A real match: Rocketball match #" in reply.text
    await new_thread(discord, games, known)
    _, status, real, _ = stored_game(bot, latest_game_id(bot))
    assert status == "active" and real.computers == {1: "medium"} and real.lesson is None


async def test_only_the_lessons_move_is_taken_when_typed(discord, bot, games):
    """A typed move is checked like a click: the step's hint, and nothing saved."""
    bea = discord.add_user("bea")
    known = len(discord.threads(games))
    await discord.slash("rocketball learn", user=bea, channel=games)
    thread = await new_thread(discord, games, known)
    game_id = latest_game_id(bot)
    await current_card(discord, bot, thread, game_id)
    version = stored_game(bot, game_id)[0]
    answer = await discord.slash("rocketball move", user=bea, channel=thread, move="pass")
    assert answer.ephemeral and SAYS[0].hint in answer.text
    assert stored_game(bot, game_id)[0] == version


async def test_the_quick_start_of_help_starts_the_lesson(discord, bot, games):
    """/help's overview → Rocketball's quick start names the lesson and its button starts it."""
    cy = discord.add_user("cy")
    overview = await discord.slash("help", user=cy, channel=games)
    start = await discord.click(overview, "Rocketball", user=cy)
    assert "/rocketball learn" in str(start.embeds[0])
    known = len(discord.threads(games))
    await discord.click(start, "Learn by playing", user=cy)
    thread = await new_thread(discord, games, known)
    card = await current_card(discord, bot, thread, latest_game_id(bot))
    assert f"Lesson 1/{len(SAYS)}:" in card.text
