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
from rules.rollerball import ENGINE as RB
from rules.rollerball import Play
from tests.e2e.cards import current_card as any_card
from tests.e2e.rocketball_clicks import click_action
from tests.e2e.rollerball_clicks import ClickingTable, stored_match
from tests.e2e.test_rocketball import current_card, latest_game_id, new_thread, stored_game
from tests.e2e.test_rollerball2 import settled
from tests.e2e.test_rollerball2 import stored_match as rb2_stored

pytestmark = pytest.mark.e2e

LESSON = lesson_of("rocketball")
assert LESSON is not None
SAYS = [step for step in LESSON.steps if step.seat == LEARNER]


async def start_lesson(discord, bot, channel, command: str, name: str):
    """A newcomer types the lesson's command: (the newcomer, the lesson's thread, its match)."""
    user = discord.add_user(name)
    known = len(discord.threads(channel))
    await discord.slash(command, user=user, channel=channel)
    thread = await new_thread(discord, channel, known)
    return user, thread, latest_game_id(bot)


async def wrong_try(discord, message, custom_id: str, user, *, select: list[str] | None = None):
    """A click (or a pick) the lesson refuses: its private answer, which follows the card's
    redraw (the click's own response puts the card back at the step's start)."""
    before = len(discord.ephemerals(user))
    if select is None:
        reply = await discord.click(message, custom_id, user=user)
    else:
        reply = await discord.select(message, custom_id, select, user=user)
    if reply.ephemeral and reply.response_type == 4:  # a message of its own: the answer
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
    ada, thread, game_id = await start_lesson(discord, bot, games, "rocketball learn", "ada")
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
    bea, thread, game_id = await start_lesson(discord, bot, games, "rocketball learn", "bea")
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


RB_LESSON = lesson_of("rollerball")
assert RB_LESSON is not None
RB_SAYS = [step for step in RB_LESSON.steps if step.seat == LEARNER]


async def test_the_rollerball_lesson_is_played_to_its_end_with_clicks_only(discord, bot, games):
    """docs/rules/rollerball.md "Learn by playing": the bid on the panel, the set-up's squares
    on the card, cards placed from the hand, a workman's move, a split, a bounce and a banked
    point; a wrong square and a wrong bid get the step's hint and change nothing; the lesson
    is left (a fresh card) and resumed, and a restart in the middle loses nothing."""
    dee, thread, game_id = await start_lesson(discord, bot, games, "rollerball learn", "dee")
    table = ClickingTable(discord, bot, thread, game_id, {0: dee})
    _, status, match = stored_match(bot, game_id)
    assert status == "active" and match.names[1] == "Tutor"

    for number, step in enumerate(RB_SAYS, 1):
        card = await table.card()
        assert f"Lesson {number}/{len(RB_SAYS)}:" in card.text, card.text
        assert step.say[:60] in card.text and f"*{step.rule}*" in card.text
        version, _, match = stored_match(bot, game_id)
        if number == 8:
            assert "A ball splits in two on the Splitter Up at f7." in card.text
        if number == 10:  # the bounce over the tutor's base was shown a card ago; the score now
            assert "A ball runs over Dee's base." in card.text
            assert "Tutor's base" not in card.text
        if number == 1:
            # A wrong try on the panel: bidding nothing. The hint; nothing saved, nothing shown.
            panel = await table.open_panel(0)
            answer = await wrong_try(discord, panel, "Bid nothing (0 cards)", dee)
            assert step.hint in answer.text
            assert stored_match(bot, game_id)[0] == version
            assert "Dee has bid" not in discord.message(card).text
        if number == 2:
            # A wrong square for the base: the hint; the card still asks for the base.
            menu = next(s for s in card.selects if "a9" in [o.value for o in s.options])
            answer = await wrong_try(discord, card, menu.custom_id, dee, select=["a9"])
            assert step.hint in answer.text
            assert stored_match(bot, game_id)[0] == version
            assert f"Lesson {number}/" in (await table.card()).text
        if number == 5:
            # Left and resumed: a fresh card at the bottom of the thread goes on with the lesson.
            await discord.slash("rollerball board", user=dee, channel=thread)
            card = await table.card()
            assert f"Lesson {number}/{len(RB_SAYS)}:" in card.text
            table.panels.clear()
        if number == 8:
            await bot.restart()  # the lesson's progress is saved with each move
            table.panels.clear()
            card = await table.card()
            assert f"Lesson {number}/{len(RB_SAYS)}:" in card.text
        play = RB.parse_action(match.engine, 0, step.move)
        assert isinstance(play, Play)
        await table.play(0, play)

    card = await table.card()
    _, status, match = stored_match(bot, game_id)
    assert status == "finished" and match.engine.game.winners == [0]
    assert "Lesson done!" in card.text
    stats = await discord.slash("rollerball stats", user=dee)
    assert "No" in stats.text or "0" in stats.text  # a lesson is no game of the statistics

    # The end offers a real game: a table of two against the computer, the game's defaults.
    known = len(discord.threads(games))
    reply = await discord.click(card, "Play a real match", user=dee)
    assert reply.ephemeral and "A real match: Rollerball match #" in reply.text, reply.text
    await new_thread(discord, games, known)
    _, status, real = stored_match(bot, latest_game_id(bot))
    assert status == "active" and real.computers == {1: "sensible"} and real.lesson is None
    assert real.engine.game.settings.target_vp == 5


async def joined_server(discord, bot, fake_discord, name: str):
    """The bot joins a new server `name`: (its channel, the welcome posted there)."""
    # This start of the bot is connected (a guild added before its READY is no join; an
    # earlier test restarted it).
    assert await asyncio.to_thread(bot.wait_until_ready)

    async def join():
        guild = fake_discord._new_guild(name, None)
        chat = fake_discord.add_channel("chat", guild=guild)
        await fake_discord.dispatch("GUILD_CREATE", fake_discord.joined_guild_json(guild))
        return chat

    chat = fake_discord.call_sync_coroutine(join)
    return chat, await discord.wait_for_message(chat, lambda m: "Ballcourt" in m.text)


async def test_the_welcome_offers_each_lesson_and_its_button_starts_it(discord, bot, fake_discord):
    """The message a server gets when the bot joins it offers every game's lesson; a newcomer's
    click on one starts it in a thread of that channel."""
    chat, welcome = await joined_server(discord, bot, fake_discord, "Learners' Server")
    assert "**Learn** below" in welcome.text
    assert {"Learn Rocketball", "Learn Rollerball"} <= set(welcome.button_labels)
    eve = discord.add_user("eve")
    known = len(discord.threads(chat))
    await discord.click(welcome, "Learn Rollerball", user=eve)
    thread = await new_thread(discord, chat, known)
    card = await any_card(discord, bot, thread, latest_game_id(bot))
    assert f"Lesson 1/{len(RB_SAYS)}:" in card.text


RB2_LESSON = lesson_of("rollerball2")
assert RB2_LESSON is not None
RB2_SAYS = list(RB2_LESSON.steps)  # a lesson of one seat: every step is the learner's
RB2_LABELS = {
    "next": "Next card",
    "until": "Play to next event",
    "simulate": "Simulate the rest",
}


async def test_the_rollerball2_lesson_is_played_to_its_end_with_clicks_only(discord, bot, games):
    """docs/rules/rollerball2.md "Learn by playing": a solo match from a prepared deal, a duel,
    a FAC read, a penalty and an injury, a substitution from the card's menus, and the rest
    simulated; a wrong button gets the step's hint and changes nothing, the lesson is left and
    resumed on a fresh card, and a restart in the middle loses nothing."""
    fay, thread, game_id = await start_lesson(discord, bot, games, "rollerball2 match learn", "fay")
    card = await any_card(discord, bot, thread, game_id)
    _, status, match = rb2_stored(bot, game_id)
    assert status == "active" and match.engine.mode == "solo" and match.lesson is not None

    for number, step in enumerate(RB2_SAYS, 1):
        assert f"Lesson {number}/{len(RB2_SAYS)}:" in card.text, card.text
        assert step.say[:60] in card.text and f"*{step.rule}*" in card.text
        version = rb2_stored(bot, game_id)[0]
        if number == 1:
            assert "(`/rollerball2 rules`)" in card.text  # the game's rules command
        if number == 2:
            # A wrong try: drawing a new FAC instead of the duel. The hint; nothing saved.
            answer = await wrong_try(discord, card, "Draw a new FAC (ACTION)", fay)
            assert step.hint in answer.text
            assert rb2_stored(bot, game_id)[0] == version
            card = await any_card(discord, bot, thread, game_id)
            assert "Roll on his card" in card.button_labels
        if number == 4:
            assert "INJURY: Visitors Catcher2" in card.text
            await discord.slash("rollerball2 match board", user=fay, channel=thread)  # left...
            card = await any_card(discord, bot, thread, game_id)  # ...and resumed
            assert f"Lesson {number}/{len(RB2_SAYS)}:" in card.text
        if number == 7:
            assert "Substitution, Visitors: #24 Zora Ulrich into Catcher2." in card.text
        if number == 6:
            await bot.restart()  # the lesson's progress is saved with each move
            card = await any_card(discord, bot, thread, game_id)
            assert f"Lesson {number}/{len(RB2_SAYS)}:" in card.text
            menu = await discord.click(card, "Substitute…", user=fay)
            players = await discord.select(menu, "Step 1: the slot", ["Catcher2"], user=fay)
            await discord.select(players, "Step 2: the player", ["24"], user=fay)
        elif step.move.startswith("catcher"):
            await discord.click(card, "Roll on his card", user=fay)
        else:
            await discord.click(card, RB2_LABELS[step.move], user=fay)
        await settled(bot, game_id)
        assert rb2_stored(bot, game_id)[0] > version, f"step {number} was not taken"
        card = await any_card(discord, bot, thread, game_id)

    _, status, match = rb2_stored(bot, game_id)
    assert status == "finished" and match.engine.over
    assert "Lesson done!" in card.text

    # The end offers a real match: the same two teams, a whole match, solo, not scripted.
    known = len(discord.threads(games))
    reply = await discord.click(card, "Play a real match", user=fay)
    assert reply.ephemeral and "A real match: Rollerball II match #" in reply.text, reply.text
    await new_thread(discord, games, known)
    _, status, real = rb2_stored(bot, latest_game_id(bot))
    assert status == "active" and real.lesson is None and real.engine.mode == "solo"
