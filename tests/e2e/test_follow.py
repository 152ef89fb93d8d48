"""Following through the fake Discord (docs/async-play.md "Following"): a follower hears of each
milestone of what they follow once (a goal, a period's end, a banked card, a result) and of
nothing else, by a mention or a DM as their settings say; quiet hours hold it; unfollowing
stops it; /live counts the followers; /privacy lists follows and deletes them."""

from __future__ import annotations

import asyncio
import random
import re
import time

import pytest

from fakediscord.model import DriverError
from tests.e2e.cards import current_card
from tests.e2e.stored import connect, fired, sql, until
from tests.e2e.test_async_play import rocketball, settled
from tests.e2e.test_rocketball import play_to_the_end, start_challenge

pytestmark = [pytest.mark.e2e, pytest.mark.both_backends]

FOLLOWED = "You follow this"
# The matches' sides: strong against easy, so that the goal that ends them comes soon.
QUICK = {"N": "strong", "S": "easy"}


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # timers made due by a test fire within 0.2 s; the matches' seeds are reproducible
    return {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "4242"}


def mentions_of(discord, channel, user) -> list[str]:
    """The messages of a channel that mention `user`, as posted."""
    return [m.content for m in discord.channel_messages(channel) if user.mention in m.content]


def followed_dms(discord, user) -> list[str]:
    return [m.content for m in discord.dm_messages(user) if FOLLOWED in m.content]


def goals_and_result(discord, thread) -> tuple[list[str], str]:
    """The thread's goal milestones (their first lines) and the match's result."""
    goals = [
        m.content.split("\n")[0]
        for m in discord.channel_messages(thread)
        if m.content.startswith("⚽")
    ]
    result = next(m.content for m in discord.channel_messages(thread) if "Dice revealed" in m.text)
    return goals, result


async def test_a_rocketball_follower_hears_each_goal_and_the_result_once_and_nothing_else(
    discord, bot, general
):
    erin, finn, gus, hal, ivy, jo = (
        discord.add_user(n) for n in ("erin", "finn", "gus", "hal", "ivy", "jo")
    )
    *_, game_id, thread, card = await start_challenge(discord, bot, erin, finn, general, target=1)

    # the card's Follow button: a mention in the thread (the default for turns in the thread)
    followed = await discord.click(card, "Follow", user=gus)
    assert followed.ephemeral and f"You follow Rocketball match #{game_id}" in followed.text
    assert "never every move" in followed.text
    # a player follows no match of their own
    own = await discord.click(card, "Follow", user=erin)
    assert own.ephemeral and "You take part in" in own.text
    # a spectator's click on a player's control: who may act, and Follow offered
    move = next(b for b in card.buttons if (b.custom_id or "").startswith("match:"))
    refused = await discord.click(card, move.custom_id, user=ivy)
    assert refused.ephemeral and "only its players can act" in refused.text
    assert "Follow" in refused.button_labels
    await discord.slash("settings follows", user=ivy, channel=discord.open_dm(ivy), news="dm")
    offered = await discord.click(refused, "Follow", user=ivy)
    assert "reach you by DM" in offered.text
    # a player followed with /follow: news of their matches on this server
    by_player = await discord.slash("follow", user=hal, channel=general, player=erin)
    assert by_player.ephemeral and "You follow Erin" in by_player.text
    # followed, then unfollowed with the answer's own button: nothing reaches them
    first = await discord.click(card, "Follow", user=jo)
    stopped = await discord.click(first, "Unfollow", user=jo)
    assert "You no longer follow" in stopped.text

    live = await discord.slash("live", user=jo, channel=general)
    line = next(x for x in live.text.splitlines() if f"Rocketball #{game_id}**" in x)
    assert "3 following" in line  # gus, ivy, hal (jo stopped; players are not counted)

    seats = {"N": erin, "S": finn}
    await play_to_the_end(
        discord, bot, thread, game_id, seats, card, rng=random.Random(5), levels=QUICK
    )
    await settled(bot, game_id)
    goals, result = goals_and_result(discord, thread)
    assert goals
    won = re.search(r"\*\*(.+? wins.*?)\*\*", result)
    assert won, result
    # gus: each goal and the result once, nothing else; the goal that ends the match comes
    # in one mention with the result (one move, one message)
    heard = mentions_of(discord, thread, gus)
    assert len(heard) == len(goals), heard
    for goal in goals:
        assert sum(goal in text for text in heard) == 1
    assert all(f"> **Rocketball match #{game_id}**: " in text for text in heard)
    assert won[1] in heard[-1] and goals[-1] in heard[-1]  # the result, as the thread says it
    assert sum(won[1] in text for text in heard) == 1
    # hal follows the player, on this server: the same milestones
    assert len(mentions_of(discord, thread, hal)) == len(goals)
    # ivy chose DMs: the same milestones by DM, not in the thread
    assert len(followed_dms(discord, ivy)) == len(goals)
    assert not mentions_of(discord, thread, ivy)
    # jo unfollowed: nothing
    assert not mentions_of(discord, thread, jo) and not followed_dms(discord, jo)
    # the players hear of it as players, never as followers
    assert not any(FOLLOWED in text for text in mentions_of(discord, thread, erin))
    # each milestone once: the database holds one row per follower and milestone
    rows = sql(bot, "SELECT user_id, news_key FROM follow_news")
    assert len(rows) == len(set(rows))


async def test_quiet_hours_hold_followed_news_until_they_end(discord, bot, general):
    kit, lee, mo = (discord.add_user(n) for n in ("kit", "lee", "mo"))
    *_, game_id, thread, card = await start_challenge(discord, bot, kit, lee, general, target=1)
    dm = discord.open_dm(mo)
    # quiet all day but a minute: whatever the clock, the news waits
    await discord.slash("settings me", user=mo, channel=dm, quiet_hours="00:00-23:59")
    await discord.click(card, "Follow", user=mo)
    seats = {"N": kit, "S": lee}
    await play_to_the_end(
        discord, bot, thread, game_id, seats, card, rng=random.Random(8), levels=QUICK
    )
    await settled(bot, game_id)
    goals, _ = goals_and_result(discord, thread)
    assert not mentions_of(discord, thread, mo) and not followed_dms(discord, mo)
    waiting = sql(
        bot, "SELECT COUNT(*) FROM follow_news WHERE user_id = ? AND sent_at IS NULL", mo.id
    )[0][0]
    assert waiting == len(goals) + 1
    ((timer,),) = sql(bot, "SELECT id FROM timers WHERE event = 'follow_news'")
    # the end of the quiet hours comes: one DM with everything that waited
    with connect(bot) as conn:
        conn.execute("UPDATE timers SET due_at = ? WHERE id = ?", (time.time() - 1, timer))
    await fired(bot, timer)
    held = await discord.wait_for_dm(mo, lambda m: "While your quiet hours lasted" in m.text)
    assert len(re.findall(rf"match #{game_id}\*\*", held.text)) == len(goals) + 1
    assert not sql(bot, "SELECT 1 FROM follow_news WHERE user_id = ? AND sent_at IS NULL", mo.id)


async def test_privacy_lists_follows_and_deleting_forgets_them(discord, bot, general):
    ned, oz, pia = (discord.add_user(n) for n in ("ned", "oz", "pia"))
    game_id, thread = await rocketball(discord, bot, ned, oz, general)
    card = await current_card(discord, bot, thread, game_id)
    await discord.click(card, "Follow", user=pia)
    await discord.slash("follow", user=pia, channel=general, player=ned)
    # ned is followed as a player: deleting ned's data forgets that too
    await discord.slash("follow", user=oz, channel=general, player=pia)
    listed = await discord.slash("settings follows", user=pia, channel=general)
    assert f"Rocketball match #{game_id}" in listed.text and "Ned" in listed.text
    unfollowed = await discord.slash(
        "settings follows", user=pia, channel=general, unfollow=f"player {ned.id}"
    )
    assert "You no longer follow Ned" in unfollowed.text
    shown = await discord.slash("privacy", user=pia, channel=discord.open_dm(pia))
    assert f"1 thing you follow: Rocketball match #{game_id}" in shown.text
    done = await discord.click(shown, "Delete my data", user=pia)
    assert done.ephemeral
    assert not sql(bot, "SELECT 1 FROM follows WHERE user_id = ?", pia.id)
    assert not sql(bot, "SELECT 1 FROM follows WHERE kind = 'player' AND target = ?", str(pia.id))


# ---- Rollerball: a won bid and a banked card -----------------------------------------------------


async def test_a_rollerball_follower_hears_the_won_bid_once(discord, bot, general):
    """Rollerball's milestones are a won bid and a banked card (docs/rules/rollerball.md):
    a table of one person and a computer, followed by a spectator, until the first bid is won."""
    quin, rex = discord.add_user("quin"), discord.add_user("rex")
    lobby = await discord.slash("rollerball new", user=quin, channel=general, players=2)
    await discord.click(lobby, "Add computer", user=quin)
    await discord.click(lobby, "Start", user=quin)
    thread = await discord.wait_for_thread(general)
    game_id = int(thread.name.split("#")[1])
    card = await current_card(discord, bot, thread, game_id)
    followed = await discord.click(card, "Follow", user=rex)
    assert f"You follow Rollerball match #{game_id}" in followed.text
    panel = await discord.click(card, "My hand", user=quin)
    menu = panel.select("Pick the cards to bid")
    await discord.select(panel, menu.custom_id, [menu.options[0].value], user=quin)
    await settled(bot, game_id)
    won = [m.content for m in discord.channel_messages(thread) if "wins the bid" in m.content]
    assert won
    heard = mentions_of(discord, thread, rex)
    assert len(heard) == 1 and "wins the bid" in heard[0] and f"match #{game_id}**" in heard[0]


# ---- Rollerball II: a team's periods and result; a season's matchday ----------------------------


async def test_a_rollerball2_team_follower_hears_each_period_and_the_result_once(
    discord, bot, games
):
    from tests.e2e.test_rollerball2 import first_turn, press

    sam, uma = discord.add_user("sam"), discord.add_user("uma")
    await discord.slash("rollerball2 team create", user=sam, channel=games, name="Oslo")
    # a solo match: one coach for both teams
    await discord.slash("rollerball2 team create", user=sam, channel=games, name="Perth")
    choices = await discord.autocomplete("follow", "team", "osl", user=uma, channel=games)
    (oslo,) = [c for c in choices if c["name"].startswith("Oslo")]
    followed = await discord.slash("follow", user=uma, channel=games, team=oslo["value"])
    assert "You follow team Oslo" in followed.text
    known = len(discord.threads(games))
    await discord.slash(
        "rollerball2 match start", user=sam, channel=games, home="Oslo", away="Perth", mode="solo"
    )
    thread, turn = await first_turn(discord, bot, games, known)
    moves = 1
    while "Simulate the rest" not in turn.button_labels:
        turn = await press(discord, bot, thread, turn, turn.button_labels[0], sam)
        moves += 1
    await press(discord, bot, thread, turn, "Simulate the rest", sam)
    await discord.wait_for_message(thread, lambda m: "Dice revealed" in m.text, since=0, timeout=30)
    await until(lambda: any("Final" in t for t in mentions_of(discord, thread, uma)), timeout=30)
    periods = sum(
        m.text.count("**End of ")
        for m in discord.channel_messages(thread)
        if "**End of " in m.text and uma.mention not in m.content
    )
    heard = mentions_of(discord, thread, uma)
    told = sum(text.count("**End of ") for text in heard)
    assert told == periods >= 4  # every period's end, each once
    assert sum("Final" in t for t in heard) == 1
    assert len(set(heard)) == len(heard)
    # what one move made is one message: the rest simulated at once is one mention, not a
    # mention per period (each a ping, and five messages at once meet Discord's limit)
    assert len(heard) <= moves


async def test_a_season_follower_hears_each_matchday_once(discord, bot, owner, games):
    vic, wyn, xan = (discord.add_user(n) for n in ("vic", "wyn", "xan"))
    await discord.slash("rollerball2 team create", user=vic, channel=games, name="Quito")
    await discord.slash("rollerball2 team create", user=wyn, channel=games, name="Riga")
    created = await discord.slash(
        "rollerball2 season create",
        user=owner,
        channel=games,
        name="Follow Cup",
        teams="Quito, Riga",
        hours=24,
    )
    followed = await discord.click(created, "Follow", user=xan)
    assert "You follow Rollerball II season Follow Cup" in followed.text
    coach = await discord.click(created, "Follow", user=vic)
    assert "You take part in" in coach.text
    await discord.slash("rollerball2 season play", user=owner, channel=games, season="Follow Cup")
    await until(lambda: len(mentions_of(discord, games, xan)) == 1)
    await discord.slash("rollerball2 season play", user=owner, channel=games, season="Follow Cup")
    await until(lambda: len(mentions_of(discord, games, xan)) == 2)
    heard = mentions_of(discord, games, xan)
    assert "matchday 1**" in heard[0] and "matchday 2**" in heard[1]
    assert not any(FOLLOWED in text for text in mentions_of(discord, games, vic))


# ---- Volleyball: a league's rounds ------------------------------------------------------------------


async def click_league_follow(discord, channel, user):
    """Follow on the league's card. The card is posted again below the league's opening posts
    once they are out: the click goes to the card that stays."""
    for _ in range(50):
        card = next(
            (
                m
                for m in reversed(discord.channel_messages(channel))
                if m.embeds and "Follow" in m.button_labels
            ),
            None,
        )
        if card is None:  # between the old card's deletion and the new one's post
            await asyncio.sleep(0.2)
            continue
        try:
            return await discord.click(card, "Follow", user=user)
        except DriverError as error:
            assert "deleted" in str(error)
            await asyncio.sleep(0.2)
    raise AssertionError("the league's card kept being replaced")


async def test_a_volleyball_league_follower_hears_each_rounds_results_once(
    discord, bot, owner, general
):
    yan, zed = discord.add_user("yan"), discord.add_user("zed")
    await discord.slash(
        "volleyball league create",
        user=owner,
        channel=general,
        name="Follow League",
        teams=2,
        every_hours=24,
    )
    form = await discord.slash("volleyball team create", user=yan, channel=general)
    from tests.e2e.test_volleyball_week import ROSTER as roster

    await discord.submit_modal(form, {"name": "Yan Yaks", "players": roster})
    await discord.slash("volleyball league start", user=owner, channel=general)
    followed = await click_league_follow(discord, general, zed)
    assert "You follow Volleyball league Follow League" in followed.text
    manager = await click_league_follow(discord, general, yan)
    assert "You take part in" in manager.text
    await discord.slash("volleyball round run-now", user=owner, channel=general, timeout=20)
    await discord.wait_for_message(general, lambda m: "round 1 results" in m.content, timeout=20)
    await until(lambda: len(mentions_of(discord, general, zed)) == 1)
    (heard,) = mentions_of(discord, general, zed)
    assert "Follow League" in heard and "round 1 results" in heard
    assert not any(FOLLOWED in text for text in mentions_of(discord, general, yan))
