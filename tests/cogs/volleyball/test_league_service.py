"""The league service without Discord: a deadline plays its round once (a second timer for the
same round does nothing, also when two processes run it at once), orders on file that no longer fit are not played and their manager
is told why, and a round that fails to play leaves the state alone and its deadline armed; on
both database backends."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.volleyball import league as league_module
from cogs.volleyball import playing
from cogs.volleyball.league import DEADLINE_EVENT, Leagues, decode, encode
from db import timers as timer_store
from db import volleyball as store
from db.connect import open_database
from host.locks import GameLocks
from rules.volleyball import RoundOrders, SpyOrder, new_league


class Timers:
    def __init__(self) -> None:
        self.woken = 0

    def register(self, event, handler) -> None:
        pass

    def wake(self) -> None:
        self.woken += 1


class RecordingLeagues(Leagues):
    """The league service, keeping the ids of the reports it would have posted (`sent`)."""

    sent: list[int]


async def open_service(target) -> RecordingLeagues:
    """A league service as one bot process has it: its own database connection(s) and locks
    (which, on PostgreSQL, hold across processes)."""
    db = await open_database(target)
    await db.migrate()
    locks = GameLocks()
    locks.database = db
    host = SimpleNamespace(vacation_listeners=[], permission_listeners=[], follows=_NoFollowers())
    bot: Any = SimpleNamespace(db=db, timers=Timers(), game_locks=locks, matches=host)
    leagues = RecordingLeagues(bot)
    assert host.vacation_listeners == [leagues.host.vacation_changed]  # host/clocks.py tells it
    # a permission back in a server (host/posting.py tells it): the posts it held back are sent
    assert host.permission_listeners == [leagues.host.post_held_back]
    sent: list[int] = []

    async def send_pending(stored) -> None:  # Discord is not part of these tests
        for report in await store.unposted_reports(db, stored.id):
            sent.append(report.id)
            await store.mark_posted(db, report.id)

    leagues.reports.send_pending = send_pending

    async def refresh(league_id: int) -> None:
        pass  # the status card is Discord's (tests/e2e/test_volleyball_week.py)

    def refresh_soon(league_id: int) -> None:
        pass

    leagues.card = SimpleNamespace(refresh=refresh, refresh_soon=refresh_soon)  # type: ignore[assignment]
    leagues.sent = sent
    return leagues


@pytest.fixture
async def service(database_target):
    leagues = await open_service(database_target)  # SQLite, then PostgreSQL
    yield leagues
    await leagues.db.close()


async def running_league(leagues: Leagues) -> store.StoredLeague:
    """Four seats, two of them managed (users 101 and 102), running, deadline due."""
    state = new_league([], total_teams=4, seed=11)
    for user, team in zip((101, 102), state.league.teams, strict=False):
        team.manager_id = str(user)
    league_id = await store.create_league(
        leagues.db,
        guild_id=1,
        name="Test League",
        channel_id=2,
        ping_role_id=None,
        admin_role_id=None,
        created_by=3,
        settings={},
        deadline_rule={"every_hours": 24},
        remind_minutes=60,
        state=encode(state),
        anchor=time.time(),
    )
    async with leagues.db.transaction() as conn:
        for user, team in zip((101, 102), state.league.teams, strict=False):
            await store.add_manager(conn, league_id, user, team.name)
    stored = await store.load_league(leagues.db, league_id)
    assert stored is not None
    due = time.time() - 1
    return await store.save_league(
        leagues.db,
        stored,
        status="running",
        deadline=(due, leagues.deadline_timers(stored, state, due)),
    )


def deadline_timer(stored: store.StoredLeague) -> timer_store.Timer:
    payload = {"league_id": stored.id, "season": 1, "round": 1}
    return timer_store.Timer(stored.deadline_timer or 0, DEADLINE_EVENT, time.time(), payload)


async def test_a_deadline_plays_its_round_once(service):
    stored = await running_league(service)
    timer = deadline_timer(stored)
    await service.host.on_deadline(timer)
    await service.host.on_deadline(timer)  # a second timer for the same deadline
    after = await store.load_league(service.db, stored.id)
    assert after is not None
    assert decode(after).league.round_number == 2
    assert after.version == stored.version + 1
    assert len(service.sent) == 3  # the public summary and two private sheets, once
    public = await store.report_for(service.db, stored.id, 1, 1, "")
    assert public.posted and "round 1 results" in public.messages[0]
    for user, team in zip((101, 102), decode(stored).league.teams, strict=False):
        sheet = await store.report_for(service.db, stored.id, 1, 1, team.name)
        first = sheet.messages[0].splitlines()[0]
        assert sheet.user_id == user and team.name in first and "(private)" in first
    # the next deadline is a day after the one passed, with its timers
    timers = await timer_store.list_timers(service.db)
    assert {t.payload["round"] for t in timers} == {2}
    assert after.next_deadline == pytest.approx(stored.next_deadline + 24 * 3600, abs=2)


async def test_the_next_rounds_timer_outlives_the_deadline_timer_that_played_the_round(service):
    """The deadline's timer is the newest row: the round's save once deleted it before writing
    the next round's, SQLite gave the new timer the same id, and the dispatcher deleted it
    with the fired one (the league waited for a restart)."""
    stored = await running_league(service)
    timer = deadline_timer(stored)
    await service.host.on_deadline(timer)
    await timer_store.delete_timers(service.db, [timer.id])  # the dispatcher, once it returned
    after = await store.load_league(service.db, stored.id)
    assert after is not None
    assert decode(after).league.round_number == 2
    assert await store.league_timers_exist(service.db, after)
    (left,) = await timer_store.list_timers(service.db, DEADLINE_EVENT)
    assert left.payload["round"] == 2 and left.due_at == pytest.approx(after.next_deadline)


@pytest.mark.postgres
async def test_a_deadline_two_processes_see_at_once_plays_its_round_once(postgres_url):
    """Two bot processes on one PostgreSQL database both run the same deadline: one
    plays the round and the other finds it played (the league's lock holds across them; without
    it the version check on save still refuses the second round, so this is also its test)."""
    first, second = await open_service(postgres_url), await open_service(postgres_url)
    stored = await running_league(first)
    timer = deadline_timer(stored)
    await asyncio.gather(first.host.on_deadline(timer), second.host.on_deadline(timer))
    after = await store.load_league(first.db, stored.id)
    assert after is not None
    assert decode(after).league.round_number == 2
    assert after.version == stored.version + 1
    assert len(first.sent) + len(second.sent) == 3  # the summary and two sheets, once
    await first.db.close()
    await second.db.close()


async def test_orders_that_no_longer_fit_are_not_played_and_the_manager_hears_why(service):
    stored = await running_league(service)
    state = decode(stored)
    mine = state.league.teams[0].name
    # a spying order on a team that is not in the league (renamed since, say)
    orders = RoundOrders(team=mine, spies=[SpyOrder("Gone Team", 1)])
    await store.save_orders(
        service.db,
        stored,
        season=1,
        round_number=1,
        team=mine,
        orders=json.dumps(orders.to_dict()),
        user_id=101,
    )
    assert await service.host.advance(stored.id, expected=(1, 1))
    sheet = await store.report_for(service.db, stored.id, 1, 1, mine)
    text = "\n".join(sheet.messages)
    assert "no longer fitted the round" in text and "Gone Team" in text
    public = await store.report_for(service.db, stored.id, 1, 1, "")
    assert mine in public.messages[0] and "No orders from" in public.messages[0]
    assert "Gone Team" not in "\n".join(public.messages)


async def test_a_round_that_fails_leaves_the_state_and_tries_again(service, monkeypatch, caplog):
    stored = await running_league(service)

    def broken(*_args, **_kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(playing, "play_round", broken)
    with caplog.at_level(logging.ERROR):
        await service.host.on_deadline(deadline_timer(stored))
    assert "could not be played" in caplog.text
    after = await store.load_league(service.db, stored.id)
    assert after.state == stored.state
    (timer,) = await timer_store.list_timers(service.db, DEADLINE_EVENT)
    assert timer.payload == {"league_id": stored.id, "season": 1, "round": 1}
    assert timer.due_at == pytest.approx(time.time() + league_module.RETRY_SECONDS, abs=5)


async def test_start_up_sends_what_a_crash_left_unsent_and_rearms_the_deadline(service):
    stored = await running_league(service)
    state = decode(stored)
    # a crash after the save and before the sending, and a lost timer
    stored = await store.save_league(
        service.db,
        stored,
        reports=(1, 1, [store.NewReport("", None, ["round 1 results"], ["standings"])]),
    )
    async with service.db.transaction() as conn:
        await conn.execute("DELETE FROM timers")

    async def ready() -> None:
        pass

    service.bot.wait_until_ready = ready
    await service.host._recover()
    assert len(service.sent) == 1
    (timer,) = await timer_store.list_timers(service.db, DEADLINE_EVENT)
    assert timer.payload == {"league_id": stored.id, "season": 1, "round": 1}
    assert timer.due_at == stored.next_deadline  # overdue: it fires at once
    reloaded = await store.load_league(service.db, stored.id)
    assert reloaded is not None
    assert decode(reloaded).to_dict() == state.to_dict()


async def test_the_servers_league_admin_role_runs_its_leagues(service):
    """`/settings server admin_role` names the role whose members run leagues besides Manage
    Server; the league's own admin role runs that league only."""
    from db import settings as settings_store
    from ui import UserError

    def member(*roles: int):
        return SimpleNamespace(
            guild_id=1,
            permissions=SimpleNamespace(manage_guild=False, administrator=False),
            user=SimpleNamespace(roles=[SimpleNamespace(id=r) for r in roles]),
        )

    stored = await running_league(service)
    with pytest.raises(UserError, match="Only server admins"):
        await service.require_admin(member(55), stored)
    await settings_store.set_admin_role(service.db, 1, 55)
    await service.require_admin(member(55), stored)  # no error: the server's role
    await service.require_admin(member(55), None)  # and it may create leagues
    with pytest.raises(UserError, match="<@&55>"):
        await service.require_admin(member(66), stored)


async def test_a_round_played_while_paused_gets_a_period_when_the_league_resumes(service):
    stored = await running_league(service)
    await service.pause(stored.id)
    assert await service.host.advance(stored.id, forced=True)  # run-now while paused
    played = await store.load_league(service.db, stored.id)
    assert played is not None
    assert decode(played).league.round_number == 2 and played.next_deadline is None
    assert played.set_deadline is None  # round 1's time is not round 2's
    resumed, deadline = await service.resume(stored.id)
    # the rule's first deadline at least half a period away, not what round 1 had left
    assert time.time() + 12 * 3600 - 5 <= deadline <= time.time() + 36 * 3600
    assert resumed.round_since == pytest.approx(time.time(), abs=5)
    assert resumed.set_deadline == deadline


class _NoFollowers:
    """The match host's follows as a league meets them (host/follow.py): nobody follows the
    leagues of these tests, whose rounds are played without Discord."""

    def register(self, *_: object) -> None:
        pass

    async def tell(self, *_: object, **__: object) -> None:
        pass
