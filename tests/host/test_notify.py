"""Who is pinged, where and when (host/notify.py, docs/async-play.md "Notifications"): each
setting, quiet hours in the user's time zone, and the settings read from the database on both
backends."""

import datetime as dt
import time
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import discord
import pytest

from db import games as game_store
from db import settings as settings_store
from db.settings import UserSettings
from host import notify
from tests.support import posts

BERLIN = ZoneInfo("Europe/Berlin")


def at(year, month, day, hour, minute=0, tz=BERLIN) -> float:
    return dt.datetime(year, month, day, hour, minute, tzinfo=tz).timestamp()


NOON = at(2025, 3, 12, 12)


@pytest.mark.parametrize(
    ("ping", "turn", "reminder"),
    [
        ("every_turn", "thread", "thread"),
        ("dm", "dm", "dm"),
        ("never", "quiet", "quiet"),
    ],
)
def test_each_ping_setting_sends_a_turn_and_a_reminder_where_it_says(ping, turn, reminder):
    settings = UserSettings(1, ping=ping, time_zone="Europe/Berlin")
    assert notify.route(settings, last_move=None, now=NOON, reminder=False) == turn
    assert notify.route(settings, last_move=None, now=NOON, reminder=True) == reminder


def test_away_pings_only_someone_who_has_not_moved_in_the_match_lately():
    settings = UserSettings(1, ping="away", away_minutes=30)
    recently, long_ago = NOON - 10 * 60, NOON - 45 * 60
    assert notify.route(settings, last_move=recently, now=NOON, reminder=False) == "quiet"
    assert notify.route(settings, last_move=long_ago, now=NOON, reminder=False) == "thread"
    assert notify.route(settings, last_move=None, now=NOON, reminder=False) == "thread"
    # a reminder comes only to someone who has been away: it pings
    assert notify.route(settings, last_move=recently, now=NOON, reminder=True) == "thread"


def test_quiet_hours_past_midnight_hold_a_reminder_until_they_end_in_the_users_zone():
    settings = UserSettings(1, time_zone="Europe/Berlin", quiet_start=22 * 60, quiet_end=7 * 60)
    night = at(2025, 3, 12, 23, 30)
    assert notify.in_quiet_hours(settings, night)
    assert notify.in_quiet_hours(settings, at(2025, 3, 13, 6, 59))
    assert not notify.in_quiet_hours(settings, at(2025, 3, 13, 7, 0))
    assert not notify.in_quiet_hours(settings, NOON)
    assert notify.route(settings, last_move=None, now=night, reminder=True) == at(2025, 3, 13, 7)
    assert notify.route(settings, last_move=None, now=night, reminder=False) == "quiet"
    # the same instant is daytime for someone in New York: no quiet hours for them
    new_york = UserSettings(1, time_zone="America/New_York", quiet_start=22 * 60, quiet_end=420)
    assert notify.route(new_york, last_move=None, now=night, reminder=True) == "thread"


def test_the_next_local_time_follows_daylight_saving():
    settings = UserSettings(1, time_zone="Europe/Berlin")
    # the night the clocks go forward (30 March 2025): 08:00 is still 08:00 on the wall
    before = at(2025, 3, 29, 12)
    assert notify.next_local(settings, before, 8 * 60) == at(2025, 3, 30, 8)
    assert dt.datetime.fromtimestamp(at(2025, 3, 30, 8), BERLIN).utcoffset() == dt.timedelta(
        hours=2
    )


def test_an_unknown_time_zone_is_refused_and_read_as_utc():
    assert not notify.is_time_zone("Mars/Olympus_Mons")
    assert notify.is_time_zone("Asia/Kolkata")
    assert notify.zone("not a zone") == dt.UTC


def test_a_jump_link_names_the_thread_and_the_turn_message():
    stored = game_store.StoredGame(
        7, "rocketball", 11, 22, 33, "active", "{}", 3, (1, 2), turn_message_id=44
    )
    assert notify.jump_url(stored) == "https://discord.com/channels/11/33/44"


# ---- from the database ------------------------------------------------------------------------------


async def test_turn_pings_read_each_users_settings_and_last_move(db):
    game_id = await game_store.create_game(
        db,
        game="rocketball",
        guild_id=1,
        channel_id=2,
        players=[101, 102, 103, 104, 0],
        state="{}",
        status="active",
    )
    stored = await game_store.load_game(db, game_id)
    assert stored is not None
    await settings_store.save_user_settings(db, UserSettings(102, ping="dm"))
    await settings_store.save_user_settings(db, UserSettings(103, ping="never"))
    await settings_store.save_user_settings(db, UserSettings(104, ping="away", away_minutes=60))
    stored = await game_store.save_move(
        db, stored, state="{}", actor_id=104, action="roll", events=[]
    )
    pings = await notify.turn_pings(db, stored, [101, 102, 103, 104, 0], now=time.time())
    assert pings.thread == [101] and pings.dm == [102] and sorted(pings.quiet) == [103, 104]
    later = await notify.turn_pings(db, stored, [104], now=time.time() + 2 * 3600)
    assert later.thread == [104]  # two hours without a move: away
    # The host's own record of who acted when (the match's `seen`): by default someone who
    # acted in the last five minutes is looking at the card and is not pinged.
    now = time.time()
    seen = notify.seen_by_user(stored.players, {0: now - 60, 3: now - 3600})
    assert seen == {101: now - 60, 104: now - 3600}
    pinged = await notify.turn_pings(db, stored, [101, 104], now=now, last_seen=seen)
    assert pinged.quiet == [101] and pinged.thread == [104]


async def test_a_leagues_news_reaches_people_as_their_settings_say(db):
    await settings_store.save_user_settings(db, UserSettings(202, ping="dm"))
    await settings_store.save_user_settings(db, UserSettings(203, ping="away"))
    pings = await notify.people_pings(db, [201, 202, 203, 0])
    assert pings.thread == [201, 203] and pings.dm == [202] and pings.quiet == []


@pytest.mark.parametrize(
    ("count", "says"), [(1, "1 of your games waits"), (3, "3 of your games wait")]
)
def test_the_daily_digest_agrees_its_verb_with_the_count(count, says):
    from cogs.games import _digest_text
    from host.listing import Entry

    entries = [
        Entry(True, f"Rocketball #{n}", "Ballcourt", "vs Bob", "your move", "https://x/1")
        for n in range(count)
    ]
    assert f"Good day! {says} for you:" in _digest_text(entries, [])


# ---- what a player sees of a ping (deliver through ui.client.post) -------------------------------


async def test_a_reminder_shows_its_text_and_may_ping_only_the_player_it_waits_for():
    """A reminder posted without building a discord.Message from Discord's answer
    (ui.client.post) is the message it was: its text after the mention, and only the waiting
    player may be pinged by it, not another user its text names, nor @everyone or a role."""
    bot = posts.bot_posting()
    text = "Rocketball match #7 is waiting for your move: <@999> said @everyone <@&55> gg"
    pings = notify.Pings(thread=[301])
    message_id = await notify.deliver(
        bot, pings, posts.channel(33), text, dm=text, link=notify.channel_link(11, 33)
    )
    ((payload,),) = bot.http.payloads.values()
    assert message_id is not None and list(bot.http.payloads) == [33]
    assert payload["content"] == f"<@301>, {text}"
    allowed = payload["allowed_mentions"]
    # nothing parsed from the text (no users, roles or @everyone); the one user listed
    assert allowed["parse"] == [] and [int(user) for user in allowed["users"]] == [301]


async def test_news_for_nobody_to_ping_is_posted_only_when_everyone_should_see_it():
    bot = posts.bot_posting()
    quiet = notify.Pings(quiet=[301])
    link = notify.channel_link(11, 33)
    assert await notify.deliver(bot, quiet, posts.channel(33), "t", dm="t", link=link) is None
    assert bot.http.payloads == {}
    await notify.deliver(bot, quiet, posts.channel(33), "over", dm="t", link=link, always=True)
    ((payload,),) = bot.http.payloads.values()
    allowed = payload["allowed_mentions"]
    assert payload["content"] == "over" and allowed["parse"] == [] and allowed["users"] == []


async def test_a_refused_post_raises_discords_refusal_as_send_did():
    """The caller decides what a refusal means (a reminder's: host/posting.py
    reminder_refused), so deliver lets Discord's HTTPException through."""
    bot = posts.bot_posting()

    async def refuse(channel_id, *, params):
        response: Any = SimpleNamespace(status=403, reason="Forbidden")
        raise discord.Forbidden(response, "Missing Access")

    bot.http.send_message = refuse
    with pytest.raises(discord.Forbidden):
        await notify.deliver(
            bot, notify.Pings(thread=[301]), posts.channel(33), "t", dm="t", link="l"
        )


async def test_news_for_many_pinged_keeps_its_whole_text_for_each_of_them():
    """The mentions went before the text in one message cut to Discord's 2,000 characters: a
    long news line for a dozen followers lost its end (its link, how to stop it), and past 100
    Discord refuses the message (allowed_mentions names at most 100 users). Each message has
    the whole text and as many of the pinged as fit."""
    bot = posts.bot_posting()
    pinged = [10**17 + n for n in range(130)]
    text = "x" * 1500 + " · [open](https://discord.com/channels/11/33)\n-# stops it."
    await notify.deliver(
        bot, notify.Pings(thread=pinged), posts.channel(33), text, dm=text, link="l"
    )
    payloads = bot.http.payloads[33]
    told = []
    for payload in payloads:
        assert len(payload["content"]) <= 2000 and payload["content"].endswith(", " + text)
        users = [int(user) for user in payload["allowed_mentions"]["users"]]
        assert len(users) <= 100 and payload["content"].startswith(notify.mentions(users))
        told += users
    assert told == pinged
