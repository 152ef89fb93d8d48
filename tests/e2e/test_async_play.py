"""Playing over days through the fake Discord (docs/async-play.md): /games across two servers and
a DM, each notification setting, quiet hours, vacations, each timeout policy, a server's
defaults for new matches, the welcome when the bot joins a server, and /help's game buttons.

Time passes the way the other e2e tests make it pass: a timer's row is made due (the bot
re-checks its timers every 0.2 s here) or a match's stored clock is set back, as hours of waiting
would have left them. Who is to move in a new Rocketball match depends on its first d4, so the
tests read it from the stored match and work with whoever it is.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator

import pytest

from cogs.rocketball.presenter import RocketballAdapter
from fakediscord.model import SEND_MESSAGES
from fakediscord.server import FakeDiscord
from host import Match
from tests.e2e.conftest import Fixtures
from tests.e2e.stored import fired, sql, until

pytestmark = pytest.mark.e2e

ROCKETBALL = RocketballAdapter()


@pytest.fixture(scope="module")
def fake_discord(database_backend: str) -> Iterator[FakeDiscord]:
    """The usual fixtures in the first guild, plus a second guild with #lobby (one per backend:
    tests/e2e/test_replays_games.py runs on both)."""
    fake = FakeDiscord()
    fake.fixtures = Fixtures(fake)  # type: ignore[attr-defined]
    fake.second = fake.add_guild("Second Server")  # type: ignore[attr-defined]
    fake.lobby = fake.add_channel("lobby", guild=fake.second)  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    # Timers made due by a test fire within 0.2 s; the matches' seeds are reproducible.
    return {"TIMER_RECHECK_SECONDS": "0.2", "GAME_SEED": "2323"}


# ---- reading and changing what the bot stored --------------------------------------------------


def stored(bot, game_id: int) -> tuple[int, str, dict, tuple[int, ...]]:
    """(version, status, the stored match's JSON, the seats' user ids)."""
    ((version, status, state),) = sql(
        bot, "SELECT version, status, state FROM games WHERE id = ?", game_id
    )
    players = tuple(
        u
        for (u,) in sql(
            bot, "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", game_id
        )
    )
    return version, status, json.loads(state), players


def rocketball_match(bot, game_id: int) -> Match:
    _, _, state, _ = stored(bot, game_id)
    return Match.from_json(ROCKETBALL, json.dumps(state))


def seat_to_move(bot, game_id: int) -> int:
    (seat,) = ROCKETBALL.engine.actors(rocketball_match(bot, game_id).engine)
    return seat


def change_match(bot, game_id: int, **fields) -> None:
    """Set fields of the stored match envelope (what a server's defaults or a clock would have
    made it), at the same version."""
    _, _, state, _ = stored(bot, game_id)
    state.update(fields)
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute(
            "UPDATE games SET state = ? WHERE id = ?", (json.dumps(state, sort_keys=True), game_id)
        )


def seat_them_to_move(bot, game_id: int, user) -> None:
    """Make `user` the player to move (the first d4 decides who starts): if it is the other
    player, the two swap seats (ids and names), as if they had challenged the other way round."""
    _, _, state, players = stored(bot, game_id)
    if players[seat_to_move(bot, game_id)] == user.id:
        return
    state["names"] = list(reversed(state["names"]))
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute(
            "UPDATE game_players SET user_id = CASE seat WHEN 0 THEN ? ELSE ? END"
            " WHERE game_id = ?",
            (players[1], players[0], game_id),
        )
        conn.execute(
            "UPDATE games SET state = ? WHERE id = ?", (json.dumps(state, sort_keys=True), game_id)
        )


def make_due(bot, game_id: int, event: str, *, waited: float = 3600.0, **payload) -> int:
    """A timer of the match's current position, set `waited` seconds ago and due now."""
    version, *_ = stored(bot, game_id)
    now = time.time()
    with sqlite3.connect(bot.database_path) as conn:
        cursor = conn.execute(
            "INSERT INTO timers (event, due_at, payload, created_at, game_id)"
            " VALUES (?, ?, ?, ?, ?)",
            (
                event,
                now - 0.5,
                json.dumps({"game_id": game_id, "version": version, **payload}),
                now - waited,
                game_id,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid


async def run_out_of_clock(bot, game_id: int, seat: int, *, policy: str) -> None:
    """`seat`'s ten-minute clock ran out a second ago, under the timeout `policy`; its timer
    has fired."""
    change_match(
        bot,
        game_id,
        on_timeout=policy,
        clock={
            "bank": 600.0,
            "increment": 60.0,
            "cap": None,
            "left": {str(seat): 600.0, str(1 - seat): 600.0},
            "since": {str(seat): time.time() - 601},
        },
    )
    await fired(bot, make_due(bot, game_id, "match_clock", waited=601))


async def settled(bot, game_id: int) -> None:
    """The bot has posted the match's newest position (the last thing a move does)."""
    for _ in range(300):
        version, posted = sql(
            bot, "SELECT version, posted_version FROM games WHERE id = ?", game_id
        )[0]
        if posted >= version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {game_id} was not posted")


def latest_game_id(bot) -> int:
    return sql(bot, "SELECT MAX(id) FROM games")[0][0]


async def new_thread(discord, channel, known: int):
    for _ in range(300):
        threads = discord.threads(channel)
        if len(threads) > known:
            return threads[-1]
        await asyncio.sleep(0.05)
    raise AssertionError("the bot opened no thread")


async def rocketball(discord, bot, challenger, opponent, channel):
    """A Rocketball match between two people, accepted and posted: (game id, thread)."""
    reply = await discord.slash(
        "rocketball challenge", user=challenger, channel=channel, opponent=opponent
    )
    game_id = latest_game_id(bot)
    await discord.click(reply, "Accept", user=opponent)
    # the match's own thread, as stored: counting the channel's threads can name another one
    # when an earlier match's thread is archived meanwhile
    for _ in range(300):
        (thread_id,) = sql(bot, "SELECT thread_id FROM games WHERE id = ?", game_id)[0]
        thread = next((t for t in discord.threads(channel) if t.id == thread_id), None)
        if thread is not None:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the bot opened no thread")
    await settled(bot, game_id)
    return game_id, thread


def texts_since(discord, channel, message_count: int) -> list[str]:
    return [m.text for m in discord.channel_messages(channel)[message_count:]]


# ---- /games ---------------------------------------------------------------------------------


async def test_games_lists_every_match_on_every_server_privately_and_in_a_dm(
    discord, bot, fake_discord, general, games
):
    erin, finn, gil, hal = (discord.add_user(n) for n in ("erin", "finn", "gil", "hal"))
    first, first_thread = await rocketball(discord, bot, erin, finn, general)
    second, second_thread = await rocketball(discord, bot, gil, erin, fake_discord.lobby)
    await discord.slash("rocketball challenge", user=hal, channel=games, opponent=erin)
    pending = latest_game_id(bot)

    dm = discord.open_dm(erin)
    listed = await discord.slash("games", user=erin, channel=dm)
    assert listed.ephemeral
    text = listed.text
    for number in (first, second, pending):
        assert f"Rocketball #{number}" in text
    assert fake_discord.guild.name in text and "Second Server" in text
    assert "vs Finn" in text and "vs Gil" in text and "vs Hal" in text
    assert "challenge for you: Accept or Decline" in text
    # a link to each match card (its thread), and each running match's deadline as a timestamp
    assert f"/{first_thread.id}" in text and f"/{second_thread.id}" in text
    assert text.count(":R>") >= 2
    mine = [first] * (seat_to_move(bot, first) == 0) + [second] * (seat_to_move(bot, second) == 1)
    assert f"Waiting for you ({len(mine) + 1})" in text  # the challenge waits for her too
    line = next(line for line in text.splitlines() if f"Rocketball #{first}**" in line)
    assert ("**your move**" in line) == (first in mine)

    # In a server it is private as well, and lists only the user's own games.
    theirs = await discord.slash("games", user=finn, channel=general)
    assert theirs.ephemeral and f"Rocketball #{first}" in theirs.text
    assert f"Rocketball #{second}" not in theirs.text
    # Someone with nothing going is told how to start.
    nobody = await discord.slash("games", user=discord.add_user("ike"), channel=general)
    assert nobody.ephemeral and "no matches or leagues" in nobody.content


# ---- notifications ----------------------------------------------------------------------------


async def test_each_notification_setting_changes_who_is_pinged_for_a_reminder_and_where(
    discord, bot, general
):
    jo, kit = discord.add_user("jo"), discord.add_user("kit")
    game_id, thread = await rocketball(discord, bot, jo, kit, general)
    waiting = (jo, kit)[seat_to_move(bot, game_id)]
    other = kit if waiting is jo else jo
    dm = discord.open_dm(waiting)

    async def remind(ping: str) -> tuple[list[str], list[str]]:
        await discord.slash("settings me", user=waiting, channel=dm, ping=ping)
        before_thread = len(discord.channel_messages(thread))
        before_dm = len(discord.dm_messages(waiting))
        await fired(bot, make_due(bot, game_id, "match_remind"))
        return texts_since(discord, thread, before_thread), [
            m.text for m in discord.dm_messages(waiting)[before_dm:]
        ]

    in_thread, by_dm = await remind("every_turn")
    assert len(in_thread) == 1 and in_thread[0].startswith(waiting.mention)
    assert "is waiting for your move" in in_thread[0] and other.mention not in in_thread[0]
    assert by_dm == []

    in_thread, by_dm = await remind("dm")
    assert in_thread == []
    (message,) = by_dm
    assert f"Rocketball match #{game_id} is waiting for your move" in message
    assert f"/{thread.id}" in message  # a link to the match

    in_thread, by_dm = await remind("never")
    assert in_thread == [] and by_dm == []

    # "only when away": a reminder comes only to someone away, so it pings in the thread
    in_thread, by_dm = await remind("away")
    assert len(in_thread) == 1 and in_thread[0].startswith(waiting.mention) and by_dm == []

    shown = await discord.slash("settings me", user=waiting, channel=dm)
    assert "unless you acted in it in the last 5 minutes" in shown.text


async def test_a_dm_that_cannot_be_delivered_becomes_a_mention_in_the_thread(discord, bot, general):
    lu, mo = discord.add_user("lu"), discord.add_user("mo")
    game_id, thread = await rocketball(discord, bot, lu, mo, general)
    waiting = (lu, mo)[seat_to_move(bot, game_id)]
    await discord.slash("settings me", user=waiting, channel=general, ping="dm")
    discord.close_dms(waiting)
    before = len(discord.channel_messages(thread))
    await fired(bot, make_due(bot, game_id, "match_remind"))
    (text,) = texts_since(discord, thread, before)
    assert text.startswith(waiting.mention) and "waiting for your move" in text


async def test_quiet_hours_hold_a_reminder_until_they_end(discord, bot, general):
    nia, ole = discord.add_user("nia"), discord.add_user("ole")
    game_id, thread = await rocketball(discord, bot, nia, ole, general)
    waiting = (nia, ole)[seat_to_move(bot, game_id)]
    # quiet hours from an hour ago to an hour from now, in Tokyo
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    local = datetime.now(ZoneInfo("Asia/Tokyo"))
    start, end = local - timedelta(hours=1), local + timedelta(hours=1)
    saved = await discord.slash(
        "settings me",
        user=waiting,
        channel=general,
        time_zone="Asia/Tokyo",
        quiet_hours=f"{start:%H:%M}-{end:%H:%M}",
    )
    assert "Saved" in saved.content and f"{start:%H:%M}-{end:%H:%M}" in saved.content
    before = len(discord.channel_messages(thread))
    await fired(bot, make_due(bot, game_id, "match_remind"))
    assert texts_since(discord, thread, before) == []
    # the reminder waits for the end of the quiet hours, for this player only
    ((timer_id, due_at, payload),) = sql(
        bot,
        "SELECT id, due_at, payload FROM timers WHERE game_id = ? AND event = 'match_remind'"
        " AND payload LIKE '%users%'",
        game_id,
    )
    assert abs(due_at - end.replace(second=0, microsecond=0).timestamp()) < 61
    assert json.loads(payload)["users"] == [waiting.id]
    # Once they are over (the timer made due), it comes.
    await discord.slash("settings me", user=waiting, channel=general, quiet_hours="off")
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute("UPDATE timers SET due_at = ? WHERE id = ?", (time.time() - 1, timer_id))
    await fired(bot, timer_id)
    (text,) = texts_since(discord, thread, before)
    assert text.startswith(waiting.mention)


async def test_settings_are_checked_and_shown_in_a_dm(discord, bot):
    pia = discord.add_user("pia")
    dm = discord.open_dm(pia)
    zone = await discord.slash("settings me", user=pia, channel=dm, time_zone="Mars/Base")
    assert zone.ephemeral and "not a time zone I know" in zone.content
    quiet = await discord.slash("settings me", user=pia, channel=dm, quiet_hours="late")
    assert quiet.ephemeral and "22:00-07:00" in quiet.content
    choices = await discord.autocomplete("settings me", "time_zone", "berl", user=pia, channel=dm)
    assert [c["value"] for c in choices] == ["Europe/Berlin"]
    shown = await discord.slash("settings me", user=pia, channel=dm, digest="08:00")
    assert "every day at 08:00" in shown.content and "7.0 days banked" in shown.content
    assert sql(bot, "SELECT COUNT(*) FROM timers WHERE event = 'user_digest'")[0][0] >= 1


async def test_the_daily_digest_dms_what_waits_for_the_user(discord, bot, general):
    ada, bex = discord.add_user("ada"), discord.add_user("bex")
    game_id, _ = await rocketball(discord, bot, ada, bex, general)
    waiting = (ada, bex)[seat_to_move(bot, game_id)]
    await discord.slash("settings me", user=waiting, channel=general, digest="07:30")
    ((timer_id, payload),) = sql(
        bot,
        "SELECT id, payload FROM timers WHERE event = 'user_digest' AND payload LIKE ?",
        f"%{waiting.id}%",
    )
    assert json.loads(payload) == {"user_id": waiting.id}
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute("UPDATE timers SET due_at = ? WHERE id = ?", (time.time() - 1, timer_id))
    digest = await discord.wait_for_dm(waiting, lambda m: "of your games" in m.text)
    assert "1 of your games waits for you" in digest.text
    assert f"Rocketball #{game_id}" in digest.text and "**your move**" in digest.text

    def next_written() -> bool:  # the fired timer became the next one (it may keep its id)
        rows = sql(
            bot,
            "SELECT due_at FROM timers WHERE event = 'user_digest' AND payload LIKE ?",
            f"%{waiting.id}%",
        )
        return len(rows) == 1 and rows[0][0] > time.time()

    await until(next_written)
    # the next one is written for tomorrow's 07:30 (UTC, their time zone)
    ((due_at,),) = sql(
        bot,
        "SELECT due_at FROM timers WHERE event = 'user_digest' AND payload LIKE ?",
        f"%{waiting.id}%",
    )
    assert time.time() < due_at <= time.time() + 86400 and time.gmtime(due_at)[3:5] == (7, 30)
    off = await discord.slash("settings me", user=waiting, channel=general, digest="off")
    assert "Daily DM of what waits for you:** off" in off.content
    assert not sql(
        bot,
        "SELECT 1 FROM timers WHERE event = 'user_digest' AND payload LIKE ?",
        f"%{waiting.id}%",
    )


async def test_a_user_has_one_digest_however_many_settings_come_at_once(discord, bot, general):
    """Five `/settings me digest:` at the same moment leave one digest timer, at the time the
    last one saved; and the database itself refuses a second one for the user."""
    cy = discord.add_user("cy")
    times = ["06:00", "06:15", "06:30", "06:45", "07:00"]
    replies = await asyncio.gather(
        *(
            discord.slash("settings me", user=cy, channel=general, digest=at, settle=False)
            for at in times
        )
    )
    assert all("Saved." in reply.text for reply in replies)
    rows = sql(
        bot,
        "SELECT due_at FROM timers WHERE event = 'user_digest' AND payload = ?",
        json.dumps({"user_id": cy.id}),
    )
    assert len(rows) == 1
    ((minute,),) = sql(bot, "SELECT digest_minute FROM user_settings WHERE user_id = ?", cy.id)
    assert time.gmtime(rows[0][0])[3:5] == divmod(minute, 60)
    with sqlite3.connect(bot.database_path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO timers (event, due_at, payload, created_at) VALUES (?, ?, ?, ?)",
            ("user_digest", time.time() + 60, json.dumps({"user_id": cy.id}), time.time()),
        )


async def test_privacy_shows_and_deletes_the_settings_and_vacations(discord, bot):
    cid = discord.add_user("cid")
    dm = discord.open_dm(cid)
    await discord.slash(
        "settings me", user=cid, channel=dm, ping="never", quiet_hours="23:00-06:00"
    )
    await discord.slash("settings vacation", user=cid, channel=dm, days=1)
    shown = await discord.slash("privacy", user=cid, channel=dm)
    assert shown.ephemeral
    assert "your notification settings: pinged never" in shown.text
    assert "quiet hours 23:00-06:00" in shown.text
    assert "your vacation bank (6.0 days) and 1 vacation taken" in shown.text
    done = await discord.click(shown, "Delete my data", user=cid)
    assert "settings and vacations are gone" in done.content
    assert not sql(bot, "SELECT 1 FROM user_settings WHERE user_id = ?", cid.id)
    assert not sql(bot, "SELECT 1 FROM vacations WHERE user_id = ?", cid.id)
    assert not sql(bot, "SELECT 1 FROM vacation_balances WHERE user_id = ?", cid.id)
    again = await discord.slash("privacy", user=cid, channel=dm)
    assert "stores nothing about you" in again.content


# ---- vacations --------------------------------------------------------------------------------


async def test_a_vacation_pauses_every_match_on_every_server_and_they_go_on_after(
    discord, bot, fake_discord, general
):
    quin, ray, sol = (discord.add_user(n) for n in ("quin", "ray", "sol"))
    here, here_thread = await rocketball(discord, bot, quin, ray, general)
    there, there_thread = await rocketball(discord, bot, sol, quin, fake_discord.lobby)
    for game in (here, there):
        seat_them_to_move(bot, game, quin)
    dm = discord.open_dm(quin)
    away = await discord.slash("settings vacation", user=quin, channel=dm, days=2)
    assert away.ephemeral and "every clock, reminder and timeout of yours is paused" in away.text
    assert "5.0 days banked" in away.text
    # quin left 5 s before the timers below fall due: 5 s of each is left for after
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute(
            "UPDATE vacations SET started_at = ? WHERE user_id = ?", (time.time() - 5.5, quin.id)
        )

    # Reminders and timeouts fall due in both matches while quin is away: none fires for quin.
    threads = {here: here_thread, there: there_thread}
    counts = {game: len(discord.channel_messages(thread)) for game, thread in threads.items()}
    for game in (here, there):
        await fired(bot, make_due(bot, game, "match_remind", waited=3600, users=[quin.id]))
        await fired(bot, make_due(bot, game, "match_forfeit", waited=72 * 3600))
        assert texts_since(discord, threads[game], counts[game]) == []
        # both are put off by the vacation (two days, less what had already passed)
        later = sql(
            bot,
            "SELECT event, due_at FROM timers WHERE game_id = ? AND payload LIKE '%since%'",
            game,
        )
        events = sorted(event for event, _ in later)
        assert events == ["match_forfeit", "match_remind"] or events == ["match_remind"]
        assert all(due > time.time() + 47 * 3600 for _, due in later)
        assert stored(bot, game)[1] == "active"
    listed = await discord.slash("games", user=quin, channel=dm)
    assert f"Rocketball #{here}" in listed.text and f"Rocketball #{there}" in listed.text

    # Back early: what was put off comes back to when it falls due without the vacation.
    back = await discord.slash("settings vacation", user=quin, channel=dm, end=True)
    assert "Welcome back" in back.text and "2.0 days went back" in back.text
    for game in (here, there):
        reminder = await discord.wait_for_message(
            threads[game], lambda m: m.content.startswith(quin.mention), timeout=10
        )
        assert "waiting for your move" in reminder.text
    again = await discord.slash("settings vacation", user=quin, channel=dm, end=True)
    assert again.ephemeral and "not on vacation" in again.content


async def test_a_vacation_pauses_a_running_clock_and_it_runs_out_only_after(discord, bot, general):
    tam, uma = discord.add_user("tam"), discord.add_user("uma")
    game_id, thread = await rocketball(discord, bot, tam, uma, general)
    seat = seat_to_move(bot, game_id)
    waiting = (tam, uma)[seat]
    now = time.time()
    # Their clock has run 100 s with 5 s left in the bank: it ran out 95 s ago, unless the
    # vacation they took 200 s ago (for a day) stopped it.
    change_match(
        bot,
        game_id,
        on_timeout="forfeit",
        clock={
            "bank": 3600.0,
            "increment": 0.0,
            "cap": None,
            "left": {str(seat): 105.0, str(1 - seat): 3600.0},
            "since": {str(seat): now - 100},
        },
    )
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute(
            "INSERT INTO vacations (user_id, started_at, ends_at) VALUES (?, ?, ?)",
            (waiting.id, now - 200, now + 86400),
        )
    await fired(bot, make_due(bot, game_id, "match_clock", waited=100))
    assert stored(bot, game_id)[1] == "active"
    ((due_at,),) = sql(
        bot, "SELECT due_at FROM timers WHERE game_id = ? AND event = 'match_clock'", game_id
    )
    assert abs(due_at - (now + 86400 + 105)) < 2  # the whole bank is left after the vacation
    listed = await discord.slash("games", user=waiting, channel=general)
    line = next(x for x in listed.text.splitlines() if f"Rocketball #{game_id}**" in x)
    assert "your clock: 1 min left (paused: you're on vacation)" in line

    before = len(discord.channel_messages(thread))
    await discord.slash("settings vacation", user=waiting, channel=general, end=True)
    # the clock runs again: its 105 s are up 105 s from now; make them pass
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute("UPDATE vacations SET ends_at = ? WHERE user_id = ?", (now - 150, waiting.id))
        conn.execute(
            "UPDATE timers SET due_at = ? WHERE game_id = ? AND event = 'match_clock'",
            (time.time() - 1, game_id),
        )
    notice = await discord.wait_for_message(
        thread, lambda m: "ran out of time on the clock and forfeit" in m.text, timeout=10
    )
    assert notice.content.startswith(waiting.mention)
    await settled(bot, game_id)
    assert stored(bot, game_id)[1] == "finished"
    assert stored(bot, game_id)[2]["forfeited_by"] == seat
    assert len(discord.channel_messages(thread)) > before


# ---- what happens when time runs out -------------------------------------------------------------


async def test_when_the_time_for_a_move_is_up_the_forfeit_policy_ends_the_match(
    discord, bot, general
):
    vi, wu = discord.add_user("vi"), discord.add_user("wu")
    game_id, thread = await rocketball(discord, bot, vi, wu, general)
    seat = seat_to_move(bot, game_id)
    change_match(bot, game_id, on_timeout="forfeit")
    await fired(bot, make_due(bot, game_id, "match_forfeit", waited=72 * 3600))
    notice = await discord.wait_for_message(thread, lambda m: "forfeit" in m.text)
    assert "ran out of time for a move and forfeit" in notice.text
    await settled(bot, game_id)
    _, status, state, _ = stored(bot, game_id)
    assert status == "finished" and state["forfeited_by"] == seat
    assert not sql(bot, "SELECT 1 FROM timers WHERE game_id = ?", game_id)


async def test_when_the_time_for_a_move_is_up_the_wait_policy_only_says_so(discord, bot, general):
    xia, yan = discord.add_user("xia"), discord.add_user("yan")
    game_id, thread = await rocketball(discord, bot, xia, yan, general)
    waiting = (xia, yan)[seat_to_move(bot, game_id)]
    version = stored(bot, game_id)[0]
    change_match(bot, game_id, on_timeout="wait")
    await fired(bot, make_due(bot, game_id, "match_forfeit", waited=72 * 3600))
    notice = await discord.wait_for_message(thread, lambda m: "waits for them" in m.text)
    assert notice.content.startswith(waiting.mention) and not notice.buttons
    assert stored(bot, game_id)[:2] == (version, "active")


async def test_when_a_clock_runs_out_the_computer_policy_hands_the_seat_to_the_computer(
    discord, bot, general
):
    zed, abe = discord.add_user("zed"), discord.add_user("abe")
    game_id, thread = await rocketball(discord, bot, zed, abe, general)
    seat = seat_to_move(bot, game_id)
    waiting = (zed, abe)[seat]
    version = stored(bot, game_id)[0]
    await run_out_of_clock(bot, game_id, seat, policy="computer")
    notice = await discord.wait_for_message(
        thread, lambda m: "Take my seat back" in m.button_labels
    )
    assert notice.content.startswith(waiting.mention)
    assert "ran out of time on the clock, so a computer" in notice.text
    await settled(bot, game_id)
    state = stored(bot, game_id)[2]
    assert str(seat) in state["computers"]
    assert stored(bot, game_id)[0] > version  # the computer has played for them
    other = (zed, abe)[1 - seat]

    def pings_of_other() -> list[str]:
        return [
            m.content
            for m in discord.channel_messages(thread)
            if m.content.startswith(f"{other.mention}, your move")
        ]

    told = pings_of_other()
    back = await discord.click(notice, "Take my seat back", user=waiting)
    assert "takes their seat back" in back.text
    await settled(bot, game_id)
    # whose move it is did not change: the one told it is theirs is not told again
    assert pings_of_other() == told
    await discord.slash("rocketball resign", user=waiting, channel=thread)


# ---- a server's settings -------------------------------------------------------------------------


async def open_table(discord, bot, host, channel, **options):
    """A Rollerball table with a computer seat, started: its game id."""
    reply = await discord.slash("rollerball new", user=host, channel=channel, players=2, **options)
    game_id = latest_game_id(bot)
    await discord.click(reply, "Add computer", user=host)
    await discord.click(reply, "Start", user=host)
    return game_id, reply


async def test_server_settings_change_the_defaults_of_new_matches_only(
    discord, bot, owner, alice, general, games
):
    bea, cal, dee, eve, fay = (discord.add_user(n) for n in ("bea", "cal", "dee", "eve", "fay"))
    before = await discord.slash("rollerball new", user=bea, channel=general, players=2)
    before_id = latest_game_id(bot)

    refused = await discord.slash("settings server", user=alice, channel=general)
    assert refused.ephemeral and "Manage Server" in refused.content
    unnamed = await discord.slash("settings server", user=owner, channel=general, remind_hours=2)
    assert unnamed.ephemeral and "add the game option" in unnamed.content
    wrong = await discord.slash(
        "settings server",
        user=owner,
        channel=general,
        game="rollerball",
        remind_hours=6,
        timeout_hours=5,
    )
    assert wrong.ephemeral and "must be longer than the reminder" in wrong.content
    saved = await discord.slash(
        "settings server",
        user=owner,
        channel=general,
        game="rollerball",
        remind_hours=2,
        timeout_hours=5,
        on_timeout="forfeit",
    )
    assert "Saved" in saved.content
    assert "**Rollerball** (on): reminder 2 hours; timeout 5 hours; then the player forfeits" in (
        saved.content
    )
    assert "**Rocketball** (on): reminder the game's own" in saved.content

    # The table opened before keeps the terms it was opened with ...
    await discord.click(before, "Add computer", user=bea)
    await discord.click(before, "Start", user=bea)
    _, _, old, _ = stored(bot, before_id)
    assert (old["remind_minutes"], old["takeover_minutes"], old["on_timeout"]) == (720, 1440, None)
    # ... a new one takes the server's, except what its player typed.
    after_id, _ = await open_table(discord, bot, cal, general)
    _, _, new, _ = stored(bot, after_id)
    assert (new["remind_minutes"], new["forfeit_minutes"], new["takeover_minutes"]) == (
        120,
        300,
        None,
    )
    assert new["on_timeout"] == "forfeit"
    typed_id, _ = await open_table(discord, bot, dee, general, remind_hours=3)
    assert stored(bot, typed_id)[2]["remind_minutes"] == 180

    # A clock for new matches.
    await discord.slash(
        "settings server",
        user=owner,
        channel=general,
        game="rollerball",
        clock_hours=72,
        increment_hours=12,
        cap_hours=96,
    )
    clocked_id, _ = await open_table(discord, bot, eve, general)
    clock = stored(bot, clocked_id)[2]["clock"]
    assert clock["bank"] == 72 * 3600 and clock["increment"] == 12 * 3600
    assert sorted(clock["left"]) == ["0", "1"]

    # The channel new matches go to.
    moved = await discord.slash(
        "settings server", user=owner, channel=general, options={"channel": games}
    )
    assert f"new matches and leagues go to {games.mention}" in moved.content
    pointed = await discord.slash("rollerball new", user=fay, channel=general, players=2)
    assert pointed.ephemeral and games.mention in pointed.content
    table = discord.last_message(games)
    assert "Rollerball table" in table.text and "Join" in table.button_labels
    assert sql(bot, "SELECT channel_id FROM games WHERE id = ?", latest_game_id(bot))[0][0] == (
        games.id
    )
    await discord.click(table, "Leave", user=fay)

    # A game switched off answers none of its commands; the others go on.
    off = await discord.slash(
        "settings server", user=owner, channel=general, game="rollerball", enabled=False
    )
    assert "Rollerball is switched off" in off.content and "**Rollerball** (off)" in off.content
    blocked = await discord.slash("rollerball new", user=fay, channel=general)
    assert blocked.ephemeral and "`/rollerball` is switched off on this server" in blocked.content
    assert "rolled" in (await discord.slash("roll", user=bea, notation="d6")).text

    # Back to the built-in defaults.
    await discord.slash(
        "settings server",
        user=owner,
        channel=general,
        game="rollerball",
        enabled=True,
        reset="game",
    )
    reset = await discord.slash("settings server", user=owner, channel=general, reset="channel")
    assert "where their command is used" in reset.content
    assert "**Rollerball** (on): reminder the game's own" in reset.content


async def test_a_rocketball_challenge_takes_the_servers_defaults_and_channel(
    discord, bot, owner, general, games
):
    """A challenge (and a match against the computer) is made like every other match: the
    server's reminder, timeout, policy and match channel fill in what the player did not type."""
    gil, hal, ida = (discord.add_user(n) for n in ("gil", "hal", "ida"))
    await discord.slash(
        "settings server",
        user=owner,
        channel=general,
        game="rocketball",
        remind_hours=2,
        timeout_hours=5,
        on_timeout="forfeit",
    )
    await discord.slash("settings server", user=owner, channel=general, options={"channel": games})
    pointed = await discord.slash("rocketball challenge", user=gil, channel=general, opponent=hal)
    assert pointed.ephemeral and games.mention in pointed.content
    challenge = discord.last_message(games)
    assert f"{hal.mention}, {gil.mention} challenges you to Rocketball" in challenge.text
    game_id = latest_game_id(bot)
    _, status, match, _ = stored(bot, game_id)
    assert status == "pending"
    assert (match["remind_minutes"], match["forfeit_minutes"], match["on_timeout"]) == (
        120,
        300,
        "forfeit",
    )
    typed = await discord.slash(
        "rocketball play-computer", user=ida, channel=games, level="easy", remind_hours=9
    )
    assert "takes on the computer (easy)" in typed.text
    assert stored(bot, latest_game_id(bot))[2]["remind_minutes"] == 9 * 60
    await discord.click(challenge, "Decline", user=hal)
    await discord.slash("rocketball resign", user=ida, channel=games)
    await discord.slash("settings server", user=owner, channel=general, reset="channel")
    await discord.slash(
        "settings server", user=owner, channel=general, game="rocketball", reset="game"
    )


async def test_server_settings_are_not_for_dms(discord, bot, owner):
    dm = discord.open_dm(owner)
    reply = await discord.slash("settings server", user=owner, channel=dm)
    assert reply.ephemeral and "set in the server" in reply.content


# ---- the welcome and /help ------------------------------------------------------------------------


async def test_joining_a_server_posts_one_welcome_where_the_bot_may(discord, bot, fake_discord):
    for _ in range(200):  # the bot is connected (a guild added before READY is no join)
        if "Ballcourt ready as" in bot.log_text():
            break
        await asyncio.sleep(0.05)

    async def join():
        guild = fake_discord._new_guild("Third Server", None)
        closed = fake_discord.add_channel("rules", deny_bot=SEND_MESSAGES, guild=guild)
        chat = fake_discord.add_channel("chat", guild=guild)
        await fake_discord.dispatch("GUILD_CREATE", fake_discord.joined_guild_json(guild))
        return guild, closed, chat

    guild, closed, chat = fake_discord.call_sync_coroutine(join)
    welcome = await discord.wait_for_message(chat, lambda m: "Ballcourt" in m.text)
    assert "`/rocketball challenge`" in welcome.text and "`/rollerball new`" in welcome.text
    assert "`/volleyball league create`" in welcome.text and "`/help`" in welcome.text
    assert discord.channel_messages(closed) == []
    # Joined again (kicked and invited back, or another process of a cluster sees the join):
    # no second welcome.
    fake_discord.call_sync_coroutine(
        lambda: fake_discord.dispatch("GUILD_CREATE", fake_discord.joined_guild_json(guild))
    )
    await asyncio.sleep(0.5)
    assert len(discord.channel_messages(chat)) == 1


async def test_help_has_a_button_per_game_that_opens_its_quick_start(discord, alice):
    first = await discord.slash("help", user=alice)
    assert first.button_labels[:2] == ["Previous", "Next"]
    for title in ("Rollerball II", "Rollerball", "Volleyball", "Rocketball"):
        assert title in first.button_labels
    start = await discord.click(first, "Rocketball", user=alice)
    assert start.response_type == 7 and start.id == first.id
    assert start.embeds[0]["title"] == "Rocketball: quick start"
    fields = {f["name"]: f["value"] for f in start.embeds[0]["fields"]}
    assert "/rocketball challenge" in fields["Start"] and "d4" in fields["A turn"]
    assert "/rocketball rules" in fields["Rules"]
    overview = await discord.click(start, "Overview", user=alice)
    assert overview.embeds[0]["title"] == "Ballcourt: ball games in chat"
    volley = await discord.click(overview, "Volleyball", user=alice)
    assert "/volleyball orders edit" in volley.text
    commands = await discord.click(volley, "Commands", user=alice)
    assert commands.embeds[0]["title"] == "Volleyball: commands"
    assert "/volleyball league create" in commands.text


# ---- the match host's own calls to host/notify.py and host/clocks.py ----------------------------


async def pass_the_turn(discord, bot, game_id: int, thread, players) -> int:
    """The player to move plays (the engine's easy computer chooses, the move is typed) until
    the turn is the other player's; returns the seat that moved."""
    import random

    from rules.rocketball import ai, format_action

    rng = random.Random(game_id)
    mover = seat_to_move(bot, game_id)
    for _ in range(40):
        match = rocketball_match(bot, game_id)
        if ROCKETBALL.engine.is_over(match.engine) or ROCKETBALL.engine.actors(match.engine) != {
            mover
        }:
            return mover
        action = ai.choose_action(match.engine, "easy", rng)
        said = await discord.slash(
            "rocketball move", user=players[mover], channel=thread, move=format_action(action)
        )
        await settled(bot, game_id)
    raise AssertionError(f"the turn did not pass: {said.content!r}")


async def test_a_turn_reaches_a_player_who_chose_dms_by_dm_and_not_in_the_thread(
    discord, bot, general
):
    cy, di = discord.add_user("cy"), discord.add_user("di")
    game_id, thread = await rocketball(discord, bot, cy, di, general)
    players = (cy, di)
    nxt = players[1 - seat_to_move(bot, game_id)]
    await discord.slash("settings me", user=nxt, channel=general, ping="dm")
    before = len(discord.dm_messages(nxt))
    await pass_the_turn(discord, bot, game_id, thread, players)
    dm = await discord.wait_for_dm(nxt, lambda m: f"#{game_id}" in m.text, timeout=5)
    assert f"/{thread.id}" in dm.text and len(discord.dm_messages(nxt)) > before
    assert nxt.mention not in discord.last_message(thread).content


async def test_a_move_charges_the_movers_clock_and_starts_the_next(discord, bot, general):
    ed, fo = discord.add_user("ed"), discord.add_user("fo")
    game_id, thread = await rocketball(discord, bot, ed, fo, general)
    seat = seat_to_move(bot, game_id)
    change_match(
        bot,
        game_id,
        clock={
            "bank": 3600.0,
            "increment": 600.0,
            "cap": 3900.0,
            "left": {"0": 3600.0, "1": 3600.0},
            "since": {str(seat): time.time() - 1200},
        },
    )
    await pass_the_turn(discord, bot, game_id, thread, (ed, fo))
    clock = stored(bot, game_id)[2]["clock"]
    assert 2950 < clock["left"][str(seat)] <= 3000  # 60 min - 20 min + 10 min
    assert list(clock["since"]) == [str(1 - seat)]
    assert sql(bot, "SELECT 1 FROM timers WHERE game_id = ? AND event = 'match_clock'", game_id)


async def test_a_finished_matchs_thread_is_archived(discord, bot, fake_discord, general):
    gus, hu = discord.add_user("gus"), discord.add_user("hu")
    game_id, thread = await rocketball(discord, bot, gus, hu, general)
    asked = await discord.slash("rocketball resign", user=gus, channel=thread)
    await discord.click(asked, "Resign", user=gus)
    await settled(bot, game_id)
    for _ in range(100):
        if fake_discord.channels[thread.id]["thread_metadata"]["archived"]:
            break
        await asyncio.sleep(0.05)
    assert fake_discord.channels[thread.id]["thread_metadata"]["archived"]


# ---- a clock from the first move, and a move after the flag fell ----------------------------------


def set_back_position(bot, game_id: int, seconds: float) -> None:
    """The match's current position was saved `seconds` ago (as waiting would have left it)."""
    version = stored(bot, game_id)[0]
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(time.time() - seconds))
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute(
            "UPDATE game_moves SET created_at = ? WHERE game_id = ? AND version = ?",
            (stamp, game_id, version),
        )


async def test_the_first_turns_clock_runs_out_when_nobody_moves(discord, bot, general):
    """A match made with a clock (a server's default: full banks, none running yet) whose first
    player never moves: their clock counts from the first position (docs/async-play.md, "The
    first turn") and runs out; the forfeit policy ends the match."""
    gil, hal = discord.add_user("gil"), discord.add_user("hal")
    game_id, thread = await rocketball(discord, bot, gil, hal, general)
    seat = seat_to_move(bot, game_id)
    waiting = (gil, hal)[seat]
    change_match(
        bot,
        game_id,
        on_timeout="forfeit",
        clock={"bank": 600.0, "increment": 0.0, "cap": None, "left": {"0": 600.0, "1": 600.0}},
    )
    set_back_position(bot, game_id, 660)  # 11 minutes of a 10-minute bank
    await fired(bot, make_due(bot, game_id, "match_clock", waited=600))
    notice = await discord.wait_for_message(
        thread, lambda m: "ran out of time on the clock and forfeit" in m.text, timeout=10
    )
    assert notice.content.startswith(waiting.mention)
    await settled(bot, game_id)
    _, status, state, _ = stored(bot, game_id)
    assert status == "finished" and state["forfeited_by"] == seat


async def test_a_move_after_the_flag_fell_is_refused_and_the_forfeit_wins(discord, bot, general):
    """The mover's clock ran out a second ago and its timer has not fired yet: their move is
    refused (they are told why, privately) and the forfeit is applied at once."""
    ivy, jon = discord.add_user("ivy"), discord.add_user("jon")
    game_id, thread = await rocketball(discord, bot, ivy, jon, general)
    seat = seat_to_move(bot, game_id)
    mover = (ivy, jon)[seat]
    change_match(
        bot,
        game_id,
        on_timeout="forfeit",
        clock={
            "bank": 600.0,
            "increment": 60.0,
            "cap": None,
            "left": {str(seat): 100.0, str(1 - seat): 600.0},
            "since": {str(seat): time.time() - 101},
        },
    )
    import random

    from rules.rocketball import ai, format_action

    action = ai.choose_action(rocketball_match(bot, game_id).engine, "easy", random.Random(1))
    reply = await discord.slash(
        "rocketball move", user=mover, channel=thread, move=format_action(action)
    )
    assert reply.ephemeral and "ran out" in reply.text
    await discord.wait_for_message(
        thread, lambda m: "ran out of time on the clock and forfeit" in m.text, timeout=10
    )
    await settled(bot, game_id)
    _, status, state, _ = stored(bot, game_id)
    assert status == "finished" and state["forfeited_by"] == seat
