"""What /settings and vacations store (db/settings.py, db/clocks.py, db/player_games.py), on both
backends (the `database_target` parameter, tests/conftest.py)."""

import asyncio
import time
from types import SimpleNamespace

import pytest

from db import clocks as clock_store
from db import games as game_store
from db import settings as store
from db.player_games import open_games_of
from host import clocks


async def test_a_user_without_settings_gets_the_defaults_and_changes_are_one_row(db):
    assert await store.user_settings(db, 5) == store.UserSettings(5)
    await store.save_user_settings(db, store.UserSettings(5, ping="dm", time_zone="Asia/Tokyo"))
    await store.save_user_settings(
        db, store.UserSettings(5, ping="never", quiet_start=1320, quiet_end=420)
    )
    saved = await store.user_settings(db, 5)
    assert (saved.ping, saved.time_zone, saved.quiet_start, saved.stored) == (
        "never",
        "UTC",
        1320,
        True,
    )
    both = await store.users_settings(db, [5, 6])
    assert both[5].ping == "never" and both[6] == store.UserSettings(6)
    rows = await db.fetch_all("SELECT user_id FROM user_settings")
    assert [row["user_id"] for row in rows] == [5]


async def test_server_defaults_are_per_game_and_a_reset_removes_them(db):
    assert await store.defaults_for(db, 1, "rocketball") == store.MatchDefaults("rocketball")
    assert await store.defaults_for(db, None, "rocketball") == store.MatchDefaults("rocketball")
    await store.save_game_defaults(
        db, 1, "rocketball", store.GameDefaults(remind_minutes=60, on_timeout="wait")
    )
    await store.set_match_channel(db, 1, 777)
    await store.set_admin_role(db, 1, 888)
    defaults = await store.defaults_for(db, 1, "rocketball")
    assert defaults.game_defaults.remind_minutes == 60 and defaults.channel_id == 777
    assert defaults.admin_role_id == 888
    assert (await store.defaults_for(db, 1, "rollerball")).game_defaults.is_empty()
    assert (await store.defaults_for(db, 2, "rocketball")).game_defaults.is_empty()
    await store.save_game_defaults(db, 1, "rocketball", store.GameDefaults())
    assert (await store.server_settings(db, 1)).games == {}


async def test_two_games_switched_off_at_once_are_both_off(db):
    await asyncio.gather(
        store.set_game_enabled(db, 1, "rocketball", False),
        store.set_game_enabled(db, 1, "volleyball", False),
    )
    assert (await store.server_settings(db, 1)).disabled_games == {"rocketball", "volleyball"}
    assert not await store.game_enabled(db, 1, "rocketball")
    assert await store.game_enabled(db, 1, "rollerball") and await store.game_enabled(db, 2, "x")
    await store.set_game_enabled(db, 1, "rocketball", True)
    assert await store.game_enabled(db, 1, "rocketball")


async def test_a_server_is_welcomed_once_however_many_processes_see_the_join(db):
    claims = await asyncio.gather(*(store.claim_welcome(db, 42) for _ in range(5)))
    assert claims.count(True) == 1
    assert not await store.claim_welcome(db, 42)


async def test_a_vacation_is_taken_from_the_bank_and_an_early_end_gives_the_rest_back(db):
    told: list[int] = []

    async def league(user_id: int) -> None:
        told.append(user_id)

    class Bot:  # what take_vacation and end_vacation use of the bot
        def __init__(self, db):
            self.db = db
            self.matches = type("Host", (), {"adapters": {}, "vacation_listeners": [league]})()
            self.woken = 0

        @property
        def timers(self):
            bot = self

            class Timers:
                def wake(self):
                    bot.woken += 1

            return Timers()

    now, bot = time.time(), Bot(db)
    with pytest.raises(clocks.VacationError, match=r"7\.0 days of vacation banked, not 8"):
        await clocks.take_vacation(bot, 9, 8, now)
    assert told == []  # nothing taken: the leagues hear nothing
    start, end = await clocks.take_vacation(bot, 9, 3, now)
    assert end - start == 3 * clocks.DAY
    assert told == [9]  # the leagues move the deadlines that wait for the user
    with pytest.raises(clocks.VacationError, match="on vacation already"):
        await clocks.take_vacation(bot, 9, 1, now + 10)
    status = await clocks.vacation_status(db, 9, now + 10)
    assert status.current == (start, end)
    assert status.banked == pytest.approx(4 * clocks.DAY, abs=60)
    given_back = await clocks.end_vacation(bot, 9, now + clocks.DAY)
    assert given_back == pytest.approx(2 * clocks.DAY)
    assert told == [9, 9]
    after = await clocks.vacation_status(db, 9, now + clocks.DAY)
    # 4 days left + 2 given back + a seventh of a day accrued in that day
    assert after.current is None
    assert after.banked == pytest.approx((6 + 1 / 7) * clocks.DAY, abs=600)
    assert await clock_store.vacations(db, 9) == [(start, now + clocks.DAY)]
    async with db.transaction() as conn:
        await clock_store.forget_user(conn, 9)
        await store.forget_user(conn, 9)
    assert await clock_store.vacations(db, 9) == [] and await clock_store.balance(db, 9) is None


async def test_two_vacations_started_at_once_make_one(db):
    now = time.time()
    bot = SimpleNamespace(db=db, matches=SimpleNamespace(vacation_listeners=[]))
    results = await asyncio.gather(
        *(clocks.take_vacation(bot, 10, 1, now) for _ in range(3)), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert len(await clock_store.vacations(db, 10)) == 1


async def test_a_players_open_matches_on_every_server_newest_first(db):
    async def make(guild, players, status):
        return await game_store.create_game(
            db,
            game="rocketball",
            guild_id=guild,
            channel_id=guild * 10,
            players=players,
            state="{}",
            status=status,
        )

    first = await make(1, [7, 8], "active")
    await make(2, [8, 9], "active")
    third = await make(2, [9, 7], "pending")
    await make(3, [7, 8], "finished")
    games = await open_games_of(db, 7)
    assert [g.id for g in games] == [third, first]
    assert games[0].players == (9, 7) and games[0].guild_id == 2


async def test_settings_saved_at_once_leave_one_digest_timer_the_last_ones(db):
    """Each save writes the settings and the digest's timer in one transaction; the database
    holds one digest timer per user (a unique index) whatever writes it."""
    from db import timers as timer_store
    from db.database import IntegrityError

    now = time.time()
    await asyncio.gather(
        *(
            store.save_user_settings(
                db, store.UserSettings(41, digest_minute=minute), digest_due=now + minute * 60
            )
            for minute in (360, 375, 390, 405, 420)
        )
    )
    (timer,) = await timer_store.list_timers(db, store.DIGEST_EVENT)
    saved = await store.user_settings(db, 41)
    assert timer.payload == {"user_id": 41}
    assert timer.due_at == pytest.approx(now + saved.digest_minute * 60)
    with pytest.raises(IntegrityError):
        await timer_store.create_timer(db, store.DIGEST_EVENT, now, {"user_id": 41}, now=now)
    await store.save_user_settings(db, store.UserSettings(41))  # digest off: no timer
    assert await timer_store.list_timers(db, store.DIGEST_EVENT) == []
