"""Matches over days against a Discord that says no (fakediscord/days.py): match threads
archive after a day without a message, interaction tokens expire after 15 minutes, a moderator
takes a permission away or deletes the card. Whatever Discord refuses, nothing saved is lost,
the card is made current again and whoever can fix a cause hears the real one
(docs/operations.md, "Faults over days").

The fake's clock moves with `discord.pass_time`; the bot's timers are made due through its
database, as in tests/e2e/test_async_play.py.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from fakediscord.model import SEND_MESSAGES, SEND_MESSAGES_IN_THREADS
from rules.rocketball import ai, format_action
from rules.rocketball.face import SEATS
from rules.rollerball import Pass as RollerballPass
from rules.rollerball import Play as RollerballPlay
from rules.rollerball import actors as rollerball_actors
from rules.rollerball import choose_action as rollerball_choose
from rules.rollerball import view_for as rollerball_view
from tests.e2e.rollerball_clicks import ClickingTable, stored_match
from tests.e2e.stored import fired, sql, until
from tests.e2e.test_async_play import (
    ROCKETBALL,
    latest_game_id,
    make_due,
    new_thread,
    rocketball,
    rocketball_match,
    run_out_of_clock,
    seat_to_move,
    settled,
)
from tests.e2e.test_rocketball import card_version, play, resign
from tests.e2e.test_rollerball import open_table as rollerball_table
from tests.e2e.test_rollerball import play_one as rollerball_play_one

pytestmark = pytest.mark.e2e

DAY = 24 * 3600.0


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "4141"}


def posted(bot, game_id: int) -> tuple[int, int, int | None]:
    """(version, posted version, the card's message id) as the bot stored them."""
    ((version, posted_version, card_id),) = sql(
        bot, "SELECT version, posted_version, turn_message_id FROM games WHERE id = ?", game_id
    )
    return version, posted_version, card_id


async def pinged_players(discord, bot, players, general):
    """Both players want a mention every turn (the bot's own clock does not move, so the
    default "unless active in the last 5 minutes" would keep them quiet)."""
    for player in players:
        await discord.slash("settings me", user=player, channel=general, ping="every_turn")


async def type_move(discord, bot, game_id: int, players, channel):
    """The player to move types the easy computer's choice with `/rocketball move` in
    `channel`; returns the answer and the seat that moved."""
    match = rocketball_match(bot, game_id)
    mover = seat_to_move(bot, game_id)
    version, _, _ = posted(bot, game_id)
    action = ai.choose_action(match.engine, "easy", random.Random(f"{game_id}:{version}"))
    answer = await discord.slash(
        "rocketball move", user=players[mover], channel=channel, move=format_action(action)
    )
    await settled(bot, game_id)
    return answer, mover


async def until_the_turn_passes(discord, bot, game_id, players, channel) -> int:
    """Typed moves until the other player is to move; the seat that moved."""
    first = seat_to_move(bot, game_id)
    for _ in range(40):
        if ROCKETBALL.engine.actors(rocketball_match(bot, game_id).engine) != {first}:
            return first
        await type_move(discord, bot, game_id, players, channel)
    raise AssertionError("the turn did not pass")


async def card_is_current(discord, bot, game_id: int) -> None:
    await settled(bot, game_id)
    version, posted_version, card_id = posted(bot, game_id)
    assert posted_version == version, "the newest move was never shown"
    assert card_id is not None
    ((status,),) = sql(bot, "SELECT status FROM games WHERE id = ?", game_id)
    # the card's controls are drawn for the newest version; a finished match's card has none
    shown = card_version(discord.message(card_id))
    assert shown == (version if status == "active" else None)


# ---- archived threads ---------------------------------------------------------------------------


async def test_a_move_typed_in_the_channel_while_the_thread_is_archived_reaches_the_card(
    discord, bot, general
):
    amy, bo = discord.add_user("amy"), discord.add_user("bo")
    players = (amy, bo)
    await pinged_players(discord, bot, players, general)
    game_id, thread = await rocketball(discord, bot, amy, bo, general)
    discord.pass_time(DAY + 60)  # a day and a minute without a message: Discord archives it
    assert discord.thread_archived(thread)

    answer, mover = await type_move(discord, bot, game_id, players, general)
    assert "Done" in answer.text, answer.text
    assert "Discord refused" not in answer.text and "permission" not in answer.text
    await card_is_current(discord, bot, game_id)
    assert not discord.thread_archived(thread)  # reopened to edit the card

    # the turn passes (the thread archives again in between): the opponent is pinged there
    discord.pass_time(DAY + 60)
    mover = await until_the_turn_passes(discord, bot, game_id, players, general)
    await card_is_current(discord, bot, game_id)
    waiting = players[1 - mover]
    assert any(
        m.content.startswith(waiting.mention) and "your move" in m.content
        for m in discord.channel_messages(thread)[-3:]
    )
    assert not discord.take_violations()


async def test_a_move_saved_before_a_crash_is_posted_at_start_up_in_an_archived_thread(
    discord, bot, general
):
    cal, dot = discord.add_user("cal"), discord.add_user("dot")
    players = (cal, dot)
    game_id, thread = await rocketball(discord, bot, cal, dot, general)
    await type_move(discord, bot, game_id, players, thread)
    version, _, _ = posted(bot, game_id)
    # as if the bot had died between saving the move and showing it
    sql(bot, "UPDATE games SET posted_version = ? WHERE id = ?", version - 1, game_id)
    discord.pass_time(DAY + 60)
    assert discord.thread_archived(thread)
    await bot.restart()
    await settled(bot, game_id)  # start-up repair posted it
    await card_is_current(discord, bot, game_id)


# ---- a moderator mid-match -------------------------------------------------------------------


async def test_a_deleted_card_is_replaced_by_a_fresh_one_that_the_match_goes_on_with(
    discord, bot, general
):
    eli, fay = discord.add_user("eli"), discord.add_user("fay")
    players = (eli, fay)
    game_id, thread = await rocketball(discord, bot, eli, fay, general)
    _, _, old_card = posted(bot, game_id)
    assert old_card is not None
    discord.delete_message(old_card)
    answer, _ = await type_move(discord, bot, game_id, players, thread)
    assert "Done" in answer.text
    _, _, new_card = posted(bot, game_id)
    assert new_card != old_card
    await card_is_current(discord, bot, game_id)
    # the next move edits the new card in place
    await type_move(discord, bot, game_id, players, thread)
    assert posted(bot, game_id)[2] == new_card
    await card_is_current(discord, bot, game_id)


async def test_a_permission_taken_mid_match_is_named_and_the_ping_follows_when_it_is_back(
    discord, bot, general
):
    """Send Messages in Threads taken away: a click still updates the card through its own
    response, the clicker hears which permission is missing (only that one), and the ping
    to the opponent is posted as soon as the permission is given back."""
    gus, han = discord.add_user("gus"), discord.add_user("han")
    players = (gus, han)
    await pinged_players(discord, bot, players, general)
    game_id, thread = await rocketball(discord, bot, gus, han, general)
    discord.deny_bot(general, SEND_MESSAGES_IN_THREADS)
    mover = seat_to_move(bot, game_id)
    sides = {side: players[seat] for seat, side in enumerate(SEATS)}
    card = discord.message(posted(bot, game_id)[2] or 0)
    before = len(discord.channel_messages(thread))
    rng = random.Random(game_id)
    while ROCKETBALL.engine.actors(rocketball_match(bot, game_id).engine) == {mover}:
        action = ai.choose_action(rocketball_match(bot, game_id).engine, "easy", rng)
        card = await play(discord, bot, thread, game_id, sides, action, card)
    waiting = players[1 - mover]
    version, posted_version, _ = posted(bot, game_id)
    assert posted_version < version  # shown on the card, but not yet announced
    assert card_version(discord.message(card)) == version
    assert len(discord.channel_messages(thread)) == before  # nothing could be posted

    async def told():
        for _ in range(100):
            said = [m.text for m in discord.ephemerals(players[mover])]
            if said and "permission" in said[-1]:
                return said[-1]
            await asyncio.sleep(0.05)
        raise AssertionError("the player was not told")

    text = await told()
    assert "the Send Messages in Threads permission in the match's thread" in text
    assert "Embed Links" not in text and "Attach Files" not in text
    assert "the move is saved and the card shows it" in text

    discord.deny_bot(general, 0)  # given back: the ping follows by itself
    ping = await discord.wait_for_message(thread, lambda m: m.content.startswith(waiting.mention))
    assert "your move" in ping.content
    await settled(bot, game_id)
    await card_is_current(discord, bot, game_id)


# ---- whole matches over days --------------------------------------------------------------------


async def test_a_rocketball_match_played_over_a_week_with_its_thread_archiving_between_moves(
    discord, bot, general
):
    """Two players play a whole match a few moves a day, by clicks on the card and by moves
    typed in the thread or in the channel; the thread archives every night. Nothing is lost:
    every move is saved and shown, the card ends current, and both players hear the result."""
    ivy, jon = discord.add_user("ivy"), discord.add_user("jon")
    players = (ivy, jon)
    await pinged_players(discord, bot, players, general)
    # first to one goal: a whole match in about a hundred moves
    reply = await discord.slash(
        "rocketball challenge", user=ivy, channel=general, opponent=jon, target=1
    )
    game_id = latest_game_id(bot)
    known = len(discord.threads(general))
    await discord.click(reply, "Accept", user=jon)
    thread = await new_thread(discord, general, known)
    await settled(bot, game_id)
    sides = {side: players[seat] for seat, side in enumerate(SEATS)}
    rng = random.Random(7)
    card = discord.message(posted(bot, game_id)[2] or 0)
    archived_nights = 0
    for move in range(400):
        match = rocketball_match(bot, game_id)
        if ROCKETBALL.engine.is_over(match.engine):
            break
        if move % 4 == 3:  # the night: nobody writes for a day and an hour
            discord.pass_time(DAY + 3600)
            archived_nights += discord.thread_archived(thread)
        how = move % 3
        if how == 0:
            action = ai.choose_action(match.engine, "strong", rng)
            card = await play(discord, bot, thread, game_id, sides, action, card)
        else:
            answer, _ = await type_move(discord, bot, game_id, players, (thread, general)[how - 1])
            assert "Done" in answer.text, answer.text
        await card_is_current(discord, bot, game_id)
    else:
        raise AssertionError("the match did not end")
    assert archived_nights >= 3
    version, status, _ = sql(
        bot, "SELECT version, status, posted_version FROM games WHERE id = ?", game_id
    )[0]
    assert status == "finished"
    assert posted(bot, game_id)[1] == version  # the last move shown
    final = discord.message(posted(bot, game_id)[2] or 0)
    assert card_version(final) is None  # no controls left on the finished card
    (result,) = [m for m in discord.channel_messages(thread) if "Dice revealed" in m.content]
    assert ivy.mention in result.content and jon.mention in result.content


async def test_a_rollerball_table_played_over_days_with_its_thread_archiving(discord, bot, general):
    """Two people and a computer, moves typed or sent on the card, a night between every few
    decisions: the thread archives, every decision is saved and shown, the card ends current
    and both people hear the result."""
    kim, lea = discord.add_user("kim"), discord.add_user("lea")
    await pinged_players(discord, bot, (kim, lea), general)
    game_id, thread, card = await rollerball_table(
        discord, bot, kim, general, joiners=[lea], computers=1, players=3, target=2
    )
    rng = random.Random(12)
    archived_nights = 0
    for decision in range(400):
        if stored_match(bot, game_id)[1] == "finished":
            break
        if decision % 6 == 5:
            discord.pass_time(DAY + 3600)
            archived_nights += discord.thread_archived(thread)
        card = await rollerball_play_one(
            discord, bot, game_id, thread, card, {0: kim, 1: lea}, rng, typed=decision % 2 == 0
        )
        await card_is_current(discord, bot, game_id)
    else:
        raise AssertionError("the game did not end in 400 decisions")
    assert archived_nights >= 3
    await card_is_current(discord, bot, game_id)
    (result,) = [m for m in discord.channel_messages(thread) if "Dice revealed" in m.content]
    assert kim.mention in result.content and lea.mention in result.content


# ---- interaction tokens ------------------------------------------------------------------------


async def test_a_panel_whose_token_expired_is_left_and_a_click_on_it_draws_it_anew(
    discord, bot, general
):
    """A private panel is kept up to date through its interaction's token, which lasts 15
    minutes: later, Discord refuses the redraw (401 50027), the bot lets the panel be, and
    the player's next click on it redraws it as it is now, through that click's response."""
    max_, ned = discord.add_user("max"), discord.add_user("ned")
    game_id, thread, _ = await rollerball_table(discord, bot, max_, general, joiners=[ned])
    table = ClickingTable(discord, bot, thread, game_id, {0: max_, 1: ned})
    rng = random.Random(3)
    for _ in range(300):
        game = stored_match(bot, game_id)[2].engine.game
        seat = min(rollerball_actors(game))
        if game.phase == "turn" and game.turn_step == "action" and len(game.hands[1 - seat]) < 4:
            break
        choice = rollerball_choose(rollerball_view(game, seat), rng, "random")
        await table.play(seat, RollerballPlay(choice, 9))
    else:
        raise AssertionError("no turn ended with the next player holding fewer than 4 cards")
    waiting = 1 - seat
    opened = await table.open_panel(waiting)
    discord.pass_time(16 * 60)  # the panel's token has run out
    await table.play(seat, RollerballPlay(RollerballPass(), 9))  # the next turn starts: a draw
    await settled(bot, game_id)
    assert discord.message(opened).text == opened.text  # Discord refused the redraw
    assert any(
        route.startswith("PATCH /webhooks/") and body.get("code") == 50027
        for route, status, body in discord.fake.errors
    )
    stale = discord.message(opened)
    control = (stale.buttons or [None])[0]
    if control is not None and control.custom_id:
        redrawn = await discord.click(stale, control.custom_id, user=table.users[waiting])
        assert redrawn.id == opened.id and redrawn.text != opened.text
    fresh = await discord.click(await table.card(), "My hand", user=table.users[waiting])
    assert fresh.ephemeral and fresh.id != opened.id
    await discord.slash("rollerball resign", user=max_, channel=thread)


async def test_a_deleted_thread_is_replaced_by_a_new_one_where_the_match_goes_on(
    discord, bot, general
):
    ola, pat = discord.add_user("ola"), discord.add_user("pat")
    players = (ola, pat)
    game_id, thread = await rocketball(discord, bot, ola, pat, general)
    await type_move(discord, bot, game_id, players, thread)
    version = posted(bot, game_id)[0]
    # counted before the deletion: the bot may open the new thread before a count after it
    known = len(discord.threads(general)) - 1  # without the one deleted now
    discord.delete_channel(thread)
    new = await new_thread(discord, general, known)
    notice = discord.channel_messages(general)[-1]
    assert f"match #{game_id} goes on in a new thread" in notice.text
    await card_is_current(discord, bot, game_id)
    assert posted(bot, game_id)[0] == version  # nothing lost
    assert sql(bot, "SELECT thread_id FROM games WHERE id = ?", game_id)[0][0] == new.id
    answer, _ = await type_move(discord, bot, game_id, players, new)
    assert "Done" in answer.text
    await card_is_current(discord, bot, game_id)


async def test_a_reminder_without_the_permission_to_post_it_names_it_in_the_channel(
    discord, bot, general
):
    quin, rex = discord.add_user("quin"), discord.add_user("rex")
    game_id, _ = await rocketball(discord, bot, quin, rex, general)
    discord.deny_bot(general, SEND_MESSAGES_IN_THREADS)
    await fired(bot, make_due(bot, game_id, "match_remind"))
    said = await discord.wait_for_message(general, lambda m: f"match #{game_id}" in m.text)
    assert "couldn't remind" in said.text
    assert "the Send Messages in Threads permission in the match's thread" in said.text
    discord.deny_bot(general, 0)


async def test_a_leagues_results_held_back_by_a_missing_permission_are_posted_when_it_is_back(
    discord, bot, owner
):
    """A round played while the bot may not post in the league's channel: its results were
    marked sent and never shown. They wait, and are posted once the permission is given back
    (CHANNEL_UPDATE), once."""
    room = discord.add_channel("held-back")
    created = await discord.slash(
        "volleyball league create", user=owner, channel=room, name="Held Back", teams=4
    )
    assert "Held Back" in created.text, created.text
    await discord.slash("volleyball league start", user=owner, channel=room)
    await until(lambda: any("round 1" in m.text.lower() for m in discord.channel_messages(room)))
    discord.deny_bot(room, SEND_MESSAGES)
    played = await discord.slash("volleyball round run-now", user=owner, channel=room)
    assert "Played" in played.content, played.content
    await until(lambda: "could not be sent" in bot.log_text())
    assert not any("round 1 results" in m.content for m in discord.channel_messages(room))

    discord.deny_bot(room, 0)  # given back: the results follow by themselves
    await until(lambda: any("round 1 results" in m.content for m in discord.channel_messages(room)))
    await asyncio.sleep(0.5)  # a second posting would come now
    posts = [m.content for m in discord.channel_messages(room)]
    assert sum("round 1 results" in text for text in posts) == 1


async def test_a_leagues_held_back_results_follow_it_to_a_channel_where_the_bot_may_post(
    discord, bot, owner
):
    """The admin moves the league to another channel (`league config channel:`) instead of
    giving the permission back: the results held back are posted there, after the admin's
    answer, not at the next round."""
    await until(lambda: "Ballcourt ready" in bot.log_text())  # its start-up repair is over
    room, elsewhere = discord.add_channel("shut-room"), discord.add_channel("open-room")
    created = await discord.slash(
        "volleyball league create", user=owner, channel=room, name="Moved On", teams=4
    )
    assert "Moved On" in created.text, created.text
    await discord.slash("volleyball league start", user=owner, channel=room)
    await until(lambda: any("round 1" in m.text.lower() for m in discord.channel_messages(room)))
    held = bot.log_text().count("could not be sent, held back")
    discord.deny_bot(room, SEND_MESSAGES)
    played = await discord.slash("volleyball round run-now", user=owner, channel=room)
    assert "Played" in played.content, played.content
    await until(lambda: bot.log_text().count("could not be sent, held back") > held)

    moved = await discord.slash(
        "volleyball league config",
        user=owner,
        channel=room,
        options={"league": "Moved On", "channel": elsewhere},
    )
    assert moved.ephemeral, moved.text
    await until(
        lambda: any("round 1 results" in m.content for m in discord.channel_messages(elsewhere))
    )
    assert not any("round 1 results" in m.content for m in discord.channel_messages(room))
    discord.deny_bot(room, 0)


async def test_a_bot_removed_from_the_server_shows_what_happened_meanwhile_when_invited_back(
    discord, bot, fake_discord, general
):
    """A computer takes over a seat whose clock ran out while the bot is not in the server:
    the move is saved; once the bot is invited back, the card shows it."""
    sue, tom = discord.add_user("sue"), discord.add_user("tom")
    game_id, _ = await rocketball(discord, bot, sue, tom, general)
    version = posted(bot, game_id)[0]
    discord.remove_bot(fake_discord.guild)
    await run_out_of_clock(bot, game_id, seat_to_move(bot, game_id), policy="computer")
    now, shown, _ = posted(bot, game_id)
    assert now > version and shown < now  # saved, not shown
    discord.invite_bot(fake_discord.guild)
    await card_is_current(discord, bot, game_id)


async def test_a_player_who_left_the_server_is_mentioned_instead_of_dmed_and_can_be_claimed(
    discord, bot, fake_discord, general
):
    """A seated player leaves the server mid-match: the bot's DMs to them are refused (they
    share no server any more), so their turn is a mention in the thread; the match carries on,
    and when their time is up the opponent claims it."""
    wes, xia = discord.add_user("wes"), discord.add_user("xia")
    players = (wes, xia)
    game_id, thread = await rocketball(discord, bot, wes, xia, general)
    mover = seat_to_move(bot, game_id)
    leaver, stayer = players[1 - mover], players[mover]
    await discord.slash("settings me", user=leaver, channel=general, ping="dm")
    discord.member_leaves(fake_discord.guild, leaver)
    await until_the_turn_passes(discord, bot, game_id, players, thread)
    ping = await discord.wait_for_message(thread, lambda m: m.content.startswith(leaver.mention))
    assert "your move" in ping.content
    assert (
        not discord.dm_messages(leaver) or f"#{game_id}" not in discord.dm_messages(leaver)[-1].text
    )
    await fired(bot, make_due(bot, game_id, "match_forfeit"))
    offer = await discord.wait_for_message(thread, lambda m: "claim" in m.content)
    claimed = await discord.click(offer, offer.button_labels[0], user=stayer)
    assert "claimed" in claimed.text
    await settled(bot, game_id)
    assert sql(bot, "SELECT status FROM games WHERE id = ?", game_id)[0][0] == "finished"


async def test_a_dm_refused_for_opening_dms_too_fast_becomes_a_mention(discord, bot, general):
    yul, zoe = discord.add_user("yul"), discord.add_user("zoe")
    players = (yul, zoe)
    game_id, thread = await rocketball(discord, bot, yul, zoe, general)
    waiting = players[1 - seat_to_move(bot, game_id)]
    await discord.slash("settings me", user=waiting, channel=general, ping="dm")
    discord.dms_too_fast()
    try:
        await until_the_turn_passes(discord, bot, game_id, players, thread)
        ping = await discord.wait_for_message(
            thread, lambda m: m.content.startswith(waiting.mention)
        )
        assert "your move" in ping.content
        assert any(body.get("code") == 40003 for _, _, body in discord.fake.errors)
    finally:
        discord.dms_too_fast(False)


# ---- a crash between a match's end and its card (placed last: the matches above keep the ids,
# and so the dice, they were written with) ----------------------------------------------------


async def test_a_finishing_move_saved_before_a_crash_is_shown_at_start_up(discord, bot, general):
    """A chaos run killed a process between saving a match's finishing move and showing it:
    the start-up repair looked at active matches only, so the card kept showing the position
    before the end for good."""
    gus, hal = discord.add_user("gus"), discord.add_user("hal")
    game_id, thread = await rocketball(discord, bot, gus, hal, general)
    await type_move(discord, bot, game_id, (gus, hal), thread)
    await settled(bot, game_id)
    await resign(discord, hal, thread)
    await settled(bot, game_id)
    version, _, _ = posted(bot, game_id)
    # as if the bot had died between saving the resignation and showing it: the card as it was
    # before, the version shown one behind
    sql(bot, "UPDATE games SET posted_version = ? WHERE id = ?", version - 1, game_id)
    await bot.restart()
    await settled(bot, game_id)  # start-up repair posted it
    await card_is_current(discord, bot, game_id)
    assert "resigned" in discord.message(posted(bot, game_id)[2] or 0).text
