"""The league host (host/leagues/league_host.py) with a league of its own, without Discord or a
database: a deadline plays its round once (also two timers at once), a timer of a played round
or of a paused league does nothing, a deadline a vacation puts off waits, a round that fails is
tried again only where the league says so, a round with a part left unsettled stays open and
is tried again, the posts come after the lock is released, a vacation recounts only the leagues
it can move, and the start-up repair looks at every league; a reminder before the deadline
(host/leagues/reminders.py) comes once to each player still missing orders, at their time, and
never for a paused league, a round played since or a player whose vacation lasts past the
deadline."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from db import clocks as clock_store
from db import timers as timer_store
from db.database import DatabaseUnavailable
from db.timers import Timer
from host.leagues import LeagueHost, LeagueReminders, Outcome, Reminder, Round
from host.leagues.league_host import UNSETTLED_RETRY_SECONDS
from host.locks import SHUTTING_DOWN, GameLocks, ShuttingDown
from tests.support.posts import Posts, bot_posting
from ui import UserError


@dataclass
class League:
    id: int
    round: int = 1
    status: str = "running"  # or "paused"
    vacations: bool = False
    away_until: float | None = None  # a player on vacation puts the deadline off to this
    busy: list[str] = field(default_factory=list)  # parts of the round that cannot be settled
    only: int | None = None  # the one user who may act in it (as a lesson's learner)
    guild: int = 1
    unsent: bool = False  # a post a missing permission held back


@dataclass
class Adapter:
    """A league of the test's own, kept in memory; it writes down what the host asks of it."""

    host: LeagueHost[League] | None = None
    leagues: dict[int, League] = field(default_factory=dict)
    retry_seconds: float | None = None
    broken: bool = False
    outage: int = 0  # this many reads find the database unavailable
    played: list[tuple[int, int]] = field(default_factory=list)
    posts: list[tuple[int, Outcome, bool]] = field(default_factory=list)  # and: lock free?
    post_fails: list[BaseException] = field(default_factory=list)  # raised by the next posts
    retries: list[tuple[int, float]] = field(default_factory=list)
    repaired: list[int] = field(default_factory=list)
    lock_name: str = "test-league"
    deadline_event: str = "test_deadline"
    title: str = "the test leagues"
    gone: str = "That league no longer exists."

    async def load_league(self, league_id: int) -> League | None:
        await asyncio.sleep(0)  # a database read: another task may run meanwhile
        if self.outage:
            self.outage -= 1
            raise DatabaseUnavailable("PostgreSQL: the database system is shutting down")
        return self.leagues.get(league_id)

    def refusal(self, league: League, user_id: int) -> str | None:
        return None if league.only in (None, user_id) else "Not yours."

    def timer_target(self, payload: dict[str, Any]) -> tuple[int, Round]:
        return payload["league"], (payload["round"],)

    def round_of(self, league: League, /) -> Round:
        return (league.round,)

    def deadline_runs(self, league: League, /) -> bool:
        return league.status == "running"

    def vacations_count(self, league: League, /) -> bool:
        return league.vacations

    async def waits(self, league: League, now: float, /) -> bool:
        return league.away_until is not None and league.away_until > now

    async def play(self, league: League, now: float, /) -> None:
        if self.broken:
            raise RuntimeError("engine bug")
        await asyncio.sleep(0)
        self.played.append((league.id, league.round))

    async def unsettled(self, league: League, /) -> list[str]:
        return list(league.busy)

    async def next_round(self, league: League, now: float, /) -> None:
        league.round += 1

    async def retry_at(self, league: League, moment: float, /) -> None:
        self.retries.append((league.id, moment))

    async def recount(self, league: League, /) -> bool:
        return True

    async def waiting_for(self, user_id: int) -> list[int]:
        return sorted(self.leagues)

    async def league_ids(self) -> list[int]:
        return sorted(self.leagues)

    async def held_back(self, guild_id: int, /) -> list[int]:
        return [
            i
            for i, league in sorted(self.leagues.items())
            if league.unsent and league.guild == guild_id
        ]

    async def repair(self, league: League, /) -> None:
        self.repaired.append(league.id)

    async def published(self, league_id: int, outcome: Outcome) -> None:
        assert self.host is not None
        if self.post_fails:
            raise self.post_fails.pop(0)
        free = True
        lock = self.host.lock(league_id)
        try:  # the league's lock is free again: posting never holds a command up
            await asyncio.wait_for(lock.acquire(), 1)
        except TimeoutError:
            free = False
        else:
            await lock.release()
        self.posts.append((league_id, outcome, free))

    async def games_entries(self, user_id: int, now: float) -> list:
        return []


class NoDatabase:
    def when_available(self, callback) -> None:
        pass

    def forget_available(self, callback) -> None:
        pass


def services(db: Any, registered: dict[str, Any]) -> SimpleNamespace:
    """The bot's services a league host uses; the timer events it registers go in
    `registered`."""

    async def ready() -> None:
        pass

    return bot_posting(  # what it posts is kept (bot.http)
        timers=SimpleNamespace(register=registered.__setitem__, wake=lambda: None),
        matches=SimpleNamespace(vacation_listeners=[], permission_listeners=[]),
        game_locks=GameLocks(),
        db=db,
        wait_until_ready=ready,
    )


def league_host(*leagues: League, retry_seconds: float | None = None) -> LeagueHost[League]:
    registered: dict[str, Any] = {}
    bot = services(NoDatabase(), registered)
    adapter = Adapter(leagues={league.id: league for league in leagues})
    adapter.retry_seconds = retry_seconds
    host = LeagueHost(bot, adapter)  # type: ignore[arg-type]  # the bot's services, in part
    adapter.host = host
    assert registered == {"test_deadline": host.on_deadline}
    assert bot.matches.vacation_listeners == [host.vacation_changed]
    assert bot.matches.permission_listeners == [host.post_held_back]
    return host


def timer(league: int, round_number: int) -> Timer:
    return Timer(1, "test_deadline", time.time(), {"league": league, "round": round_number})


def adapter_of(host: LeagueHost[League]) -> Adapter:
    assert isinstance(host.adapter, Adapter)
    return host.adapter


async def test_a_deadline_plays_its_round_once_and_posts_after_the_lock():
    host = league_host(League(1))
    await host.on_deadline(timer(1, 1))
    await host.on_deadline(timer(1, 1))  # the same deadline again: the round is played
    adapter = adapter_of(host)
    assert adapter.played == [(1, 1)]
    assert adapter.posts == [(1, "played", True)]


async def test_a_league_loaded_for_a_user_is_refused_as_its_adapter_says():
    """Who may act in a league is the adapter's one answer, asked by every load for a user."""
    host = league_host(League(1), League(2, only=7))
    assert (await host.load(1, by=8)).id == 1 and (await host.load(2, by=7)).id == 2
    assert (await host.load(2)).id == 2  # the host's own reads (a deadline) ask nobody
    with pytest.raises(UserError, match="Not yours"):
        await host.load(2, by=8)
    with pytest.raises(UserError, match="no longer exists"):
        await host.load(3, by=7)


async def test_posts_a_missing_permission_held_back_are_sent_when_discord_says_it_may_be_back():
    """A permission may be back in a server (host/posting.py tells the host): each league of
    that server with posts held back sends them; other servers' wait."""
    host = league_host(League(1, unsent=True), League(2), League(3, unsent=True, guild=2))
    adapter = adapter_of(host)
    await host.post_held_back(1)
    assert adapter.posts == [(1, "repaired", True)]
    await host.post_held_back(2)
    assert adapter.posts[1:] == [(3, "repaired", True)]


async def test_two_timers_of_one_deadline_at_once_play_it_once():
    host = league_host(League(1))
    await asyncio.gather(host.on_deadline(timer(1, 1)), host.on_deadline(timer(1, 1)))
    assert adapter_of(host).played == [(1, 1)]


async def test_a_paused_or_gone_league_s_timer_does_nothing():
    host = league_host(League(1, status="paused"))
    await host.on_deadline(timer(1, 1))
    await host.on_deadline(timer(2, 1))  # a league deleted since
    assert adapter_of(host).played == [] and adapter_of(host).posts == []


async def test_an_admin_plays_a_paused_leagues_round_now_and_posts_it_himself():
    host = league_host(League(1, status="paused"))
    assert await host.advance(1, expected=(1,), forced=True, send=False)
    assert adapter_of(host).played == [(1, 1)] and adapter_of(host).posts == []
    assert not await host.advance(1, expected=(1,), forced=True)  # played already


async def test_a_deadline_a_vacation_puts_off_waits_where_the_league_counts_vacations():
    away = time.time() + 3600
    host = league_host(League(1, vacations=True, away_until=away), League(2, away_until=away))
    await host.on_deadline(timer(1, 1))
    await host.on_deadline(timer(2, 1))  # this league plays at its deadlines
    adapter = adapter_of(host)
    assert adapter.played == [(2, 1)]
    assert adapter.posts == [(1, "waits", True), (2, "played", True)]


async def test_a_round_that_fails_is_tried_again_only_where_the_league_says_so(caplog):
    host = league_host(League(1), retry_seconds=600)
    adapter_of(host).broken = True
    with caplog.at_level(logging.ERROR):
        await host.on_deadline(timer(1, 1))
    assert "could not be played; retrying" in caplog.text
    ((league, moment),) = adapter_of(host).retries
    assert league == 1 and moment == pytest.approx(time.time() + 600, abs=5)

    other = league_host(League(1))  # no retry: the timer dispatcher logs the failure
    adapter_of(other).broken = True
    with pytest.raises(RuntimeError, match="engine bug"):
        await other.on_deadline(timer(1, 1))
    assert adapter_of(other).retries == []


async def test_a_round_with_a_part_left_unsettled_stays_open_and_is_tried_again(caplog):
    """A deadline that could not settle every part of its round (a fixture's team busy in
    another match) never passes it: the round stays, its deadline is tried again later (the
    league's retry, else the host's), nothing is posted; once every part is settled it passes."""
    league = League(1, busy=["Lima at Kobe: Kobe is playing match #3"])
    host = league_host(league)
    with caplog.at_level(logging.WARNING):
        await host.on_deadline(timer(1, 1))
    adapter = adapter_of(host)
    assert league.round == 1 and adapter.posts == []
    ((_, moment),) = adapter.retries
    assert moment == pytest.approx(time.time() + UNSETTLED_RETRY_SECONDS, abs=5)
    assert "stays open" in caplog.text and "Kobe is playing match #3" in caplog.text
    # an admin's "play now" does not pass it either
    assert not await host.advance(1, expected=(1,), forced=True)
    assert league.round == 1

    league.busy = []  # that match is over: the deadline tried again settles it and passes
    await host.on_deadline(timer(1, 1))
    assert league.round == 2 and adapter.posts == [(1, "played", True)]
    assert adapter.played == [(1, 1), (1, 1), (1, 1)]


async def test_a_change_runs_under_the_lock_and_is_shown_after_it():
    host = league_host(League(1))

    async def pause(league: League) -> str:
        league.status = "paused"
        return "paused"

    assert await host.change(1, pause) == "paused"
    assert adapter_of(host).posts == [(1, "changed", True)]
    with pytest.raises(UserError, match="That league no longer exists"):
        await host.change(2, pause)
    assert len(adapter_of(host).posts) == 1  # nothing changed, nothing shown


async def test_a_vacation_recounts_only_the_leagues_whose_deadline_it_can_move():
    host = league_host(
        League(1, vacations=True), League(2), League(3, vacations=True, status="paused")
    )
    await host.vacation_changed(77)
    assert adapter_of(host).posts == [(1, "moved", True)]


async def test_the_start_up_repair_looks_at_every_league_and_posts_what_was_left():
    host = league_host(League(1), League(2, status="paused"))
    host.start()
    assert host._recovery is not None
    await host._recovery
    adapter = adapter_of(host)
    assert adapter.repaired == [1]  # a paused league has no deadline timer to write again
    assert adapter.posts == [(1, "repaired", True), (2, "repaired", True)]
    await host.stop()


# ---- reminders before a deadline (host/leagues/reminders.py) ---------------------------------


@dataclass
class DueLeague(League):
    deadline: float = 0.0
    without_orders: list[int] = field(default_factory=list)  # players still missing orders


class Channel(discord.PartialMessageable):
    """The league's channel: what the reminders post in it (through the bot's `http`)."""

    def __init__(self, posted: Posts) -> None:
        super().__init__(state=cast(Any, None), id=LEAGUE_CHANNEL)
        self.posted = posted

    @property
    def sent(self) -> list[str]:
        return self.posted.texts(self.id)


LEAGUE_CHANNEL = 2


@dataclass
class RemindingAdapter(Adapter):
    channel: Channel = field(default_factory=lambda: Channel(Posts()))
    remind_event: str = "test_remind"

    def deadline_of(self, league: League, /) -> float | None:
        assert isinstance(league, DueLeague)
        return league.deadline

    async def missing(self, league: League, /) -> list[int]:
        assert isinstance(league, DueLeague)
        return list(league.without_orders)

    async def reminder(self, league: League, deadline: float, /) -> Reminder:
        text = f"your orders for round {league.round} are due <t:{int(deadline)}:R>."
        return Reminder(
            cast(Any, self.channel), text, f"Test: {text}", "https://discord.com/channels/1/2"
        )


def reminders_of(
    db: Any, *leagues: DueLeague, clock: list[float]
) -> tuple[LeagueReminders[League], RemindingAdapter]:
    """The league host with reminders, its league in memory, the players' vacations and
    notification settings and the reminders' timers in the database; `clock[0]` is now."""

    registered: dict[str, Any] = {}
    bot = services(db, registered)
    adapter = RemindingAdapter(
        leagues={league.id: league for league in leagues}, channel=Channel(bot.http)
    )
    host = LeagueHost(bot, adapter)  # type: ignore[arg-type]  # the bot's services, in part
    reminders = LeagueReminders(host, adapter, clock=lambda: clock[0])
    assert registered["test_remind"] == reminders.on_remind
    return reminders, adapter


def reminder(league: int, round_number: int, **more: Any) -> Timer:
    return Timer(1, "test_remind", time.time(), {"league": league, "round": round_number, **more})


async def test_a_reminder_comes_once_to_each_player_at_their_time_and_never_after_the_deadline(
    db,
):
    now = time.time()
    clock = [now]
    deadline = now + 3600
    # 101 and 102 have no orders in, 102 is on vacation for ten more minutes and 103 until
    # after the deadline; 104 has sent orders.
    await clock_store.start_vacation(db, 102, now=now - 60, ends_at=now + 600, balance_after=0)
    await clock_store.start_vacation(db, 103, now=now - 60, ends_at=now + 7200, balance_after=0)
    league = DueLeague(1, deadline=deadline, without_orders=[101, 102, 103])
    reminders, adapter = reminders_of(db, league, clock=clock)

    spec = reminders.timer({"league": 1, "round": 1}, deadline, 30)
    assert spec is not None and spec.due_at == pytest.approx(deadline - 1800)
    assert reminders.timer({"league": 1, "round": 1}, deadline, 0) is None  # reminds nobody
    assert reminders.timer({"league": 1, "round": 1}, deadline, 120) is None  # passed

    await reminders.on_remind(reminder(1, 1))
    assert adapter.channel.sent == [
        f"<@101>, your orders for round 1 are due <t:{int(deadline)}:R>."
    ]
    (later,) = await timer_store.list_timers(db, "test_remind")  # none for 103: too late
    assert later.due_at == pytest.approx(now + 600)
    assert later.payload == {"league": 1, "round": 1, "users": [102]}

    clock[0] = now + 600  # 102 is back
    await reminders.on_remind(later)
    assert adapter.channel.sent[1:] == [
        f"<@102>, your orders for round 1 are due <t:{int(deadline)}:R>."
    ]
    assert len(await timer_store.list_timers(db, "test_remind")) == 1  # nothing new


async def test_no_reminder_for_a_paused_league_a_round_played_since_or_a_passed_deadline(db):
    now = time.time()
    waiting = [101, 102]
    reminders, adapter = reminders_of(
        db,
        DueLeague(1, status="paused", deadline=now + 3600, without_orders=waiting),
        DueLeague(2, round=2, deadline=now + 3600, without_orders=waiting),  # round 1 played
        DueLeague(3, deadline=now - 1, without_orders=waiting),  # being played
        DueLeague(4, deadline=now + 3600, without_orders=[]),  # every order in
        DueLeague(5, deadline=now + 3600, without_orders=waiting),
        clock=[now],
    )
    for league in (1, 2, 3, 4, 6):  # 6: a league deleted since
        await reminders.on_remind(reminder(league, 1))
    await reminders.on_remind(reminder(5, 1, users=[102]))  # back from quiet hours: 102 only
    assert adapter.channel.sent == [
        f"<@102>, your orders for round 1 are due <t:{int(now + 3600)}:R>."
    ]
    assert await timer_store.list_timers(db, "test_remind") == []


async def test_a_deadline_in_an_outage_writes_its_retry_once_the_database_answers(
    caplog, monkeypatch
):
    """Seen in the hour-long chaos run: the deadline met a PostgreSQL restart, and so did its
    retry, whose failure went up to the timer dispatcher ("handler failed") and left the league
    waiting for the next start. The retry's timer is written once the database answers."""
    monkeypatch.setattr("host.background.FIRST_RETRY_SECONDS", 0.01)
    host = league_host(League(1), retry_seconds=600)
    adapter_of(host).outage = 3  # the deadline's read, then the retry's first two
    with caplog.at_level(logging.WARNING):
        await host.on_deadline(timer(1, 1))
    assert "waits for the database" in caplog.text
    ((league, moment),) = adapter_of(host).retries
    assert league == 1 and moment == pytest.approx(time.time() + 600, abs=5)
    assert adapter_of(host).played == []


async def test_a_round_played_whose_posts_meet_a_shutdown_or_an_outage_is_not_played_again(
    caplog, monkeypatch
):
    """Seen in the hour-long chaos run: a round was played and saved, then its reports met the
    shutdown of a SIGTERM (the posting lock refuses new holders) and the deadline logged "could
    not be played; retrying" with a traceback. What a saved round leaves to post is posted by
    the next try or the next start (the reports are kept unsent); it is no failure of the
    round: no error, no retry of a round played, and posted once the database answers."""
    monkeypatch.setattr("host.background.FIRST_RETRY_SECONDS", 0.01)
    host = league_host(League(1), League(2), retry_seconds=600)
    adapter = adapter_of(host)
    adapter.post_fails = [ShuttingDown(SHUTTING_DOWN)]
    with caplog.at_level(logging.INFO):
        await host.on_deadline(timer(1, 1))
    assert adapter.played == [(1, 1)] and adapter.retries == [] and adapter.posts == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "stopped by the shutdown" in caplog.text

    adapter.post_fails = [DatabaseUnavailable("PostgreSQL: the database system is starting up")]
    await host.on_deadline(timer(2, 1))
    assert adapter.played == [(1, 1), (2, 1)] and adapter.retries == []
    assert adapter.posts == [(2, "played", True)]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
