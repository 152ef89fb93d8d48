"""The calls the match host makes about time (host/timeouts.py timers_for, host/clocks.py tick,
host/notify.py archive_thread): the same timers as before for a match without a clock, a clock's
run-out timer for one with it, a move charging the clock, a finished match's thread archived."""

import functools
import random
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.rocketball.options import match_settings
from cogs.rocketball.presenter import RocketballAdapter
from db import games as game_store
from db import timers as timer_store
from db.connect import open_database
from host import clocks, notify, timeouts
from host.core import MatchCore
from host.match import Match
from rules import clocks as clock_rules
from rules.rocketball import ai
from tests.support import posts

ADAPTER = RocketballAdapter()


def new_match(**fields) -> Match:
    state, _ = ADAPTER.engine.new_state(7, {"settings": match_settings("", 2, 10, 7)})
    return Match(engine=state, names=["Ann", "Bo"], salt="s", commitment="c", **fields)


def stored_for(match: Match, version: int = 4) -> game_store.StoredGame:
    return game_store.StoredGame(
        id=1,
        game="rocketball",
        guild_id=5,
        channel_id=6,
        thread_id=7,
        status="active",
        state=match.to_json(ADAPTER),
        version=version,
        players=(10, 11),
    )


def plan(timers, now):
    return sorted(
        (t.event, round(t.due_at - now), tuple(sorted(t.payload.items()))) for t in timers
    )


@pytest.mark.parametrize(
    "fields",
    [{}, {"takeover_minutes": 600}, {"remind_minutes": 60, "forfeit_minutes": 120}],
)
def test_without_a_clock_the_timers_are_the_hosts_own(fields):
    match = new_match(**fields)
    stored = stored_for(match)
    host: Any = SimpleNamespace(adapters={"rocketball": ADAPTER})
    now = time.time()
    theirs = MatchCore.timers_for(host, stored, match, 5)
    ours = timeouts.timers_for(ADAPTER, stored, match, 5, now)
    assert plan(ours, now) == plan(theirs, now)


def test_with_a_clock_the_first_bank_to_run_out_replaces_the_timeout():
    match = new_match(clock=clock_rules.new_clock(120, 10, None, [0, 1]).to_dict())
    stored = stored_for(match)
    (seat,) = ADAPTER.engine.actors(match.engine)
    now = time.time()
    clock = clocks.clock_of(match)
    assert clock is not None
    clock_rules.on_move(clock, {seat}, now - 30 * 60)  # their clock has run half an hour
    match.clock = clock.to_dict()
    events = {t.event: t.due_at - now for t in timeouts.timers_for(ADAPTER, stored, match, 5, now)}
    assert set(events) == {"match_remind", clocks.CLOCK_EVENT}
    assert events[clocks.CLOCK_EVENT] == pytest.approx(90 * 60, abs=2)


@pytest.fixture
async def db(tmp_path):
    database = await open_database(tmp_path / "t.db")
    await database.migrate()
    yield database
    await database.close()


async def test_a_move_charges_the_clock_of_the_seat_whose_turn_ended(db):
    match = new_match(clock=clock_rules.new_clock(60, 5, 70, [0, 1]).to_dict())
    (seat,) = ADAPTER.engine.actors(match.engine)
    now = time.time()
    # The position was saved (version 4) without the clock started: the host's first save
    # starts it at the time of that position.
    stored = stored_for(match)
    # the mover plays until the turn is the other seat's (the engine's easy computer chooses)
    rng = random.Random(3)
    while ADAPTER.engine.actors(match.engine) == {seat}:
        action = ai.choose_action(match.engine, "easy", rng)
        match.engine, _ = ADAPTER.engine.apply(match.engine, seat, action)
    await clocks.tick(db, ADAPTER, stored, match, now + 20 * 60)
    clock = clocks.clock_of(match)
    # no saved move 4 in this database: the turn counted from now (not charged)
    assert clock.left[seat] == pytest.approx(65 * 60) and clock.since == {1 - seat: now + 20 * 60}

    # Started at the previous save, the next turn is charged from there: 60 - 20 + 5 = 45.
    before = stored_for(match, version=5)
    while ADAPTER.engine.actors(match.engine) == {1 - seat}:
        action = ai.choose_action(match.engine, "easy", rng)
        match.engine, _ = ADAPTER.engine.apply(match.engine, 1 - seat, action)
    await clocks.tick(db, ADAPTER, before, match, now + 40 * 60)
    clock = clocks.clock_of(match)
    assert clock.left[1 - seat] == pytest.approx(45 * 60) and set(clock.since) == {seat}
    # a match without a clock is left alone
    plain = new_match()
    await clocks.tick(db, ADAPTER, stored, plain, now)
    assert plain.clock is None


class FakeThread(discord.Thread):
    def __init__(self, archived: bool, refuse: bool = False) -> None:  # no discord state needed
        self.archived_now = archived
        self.refuse = refuse
        self.edits = []

    @property
    def archived(self) -> bool:
        return self.archived_now

    async def edit(self, **changes):
        if self.refuse:
            response: Any = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(response, "no")
        self.edits.append(changes)


async def test_a_finished_matchs_thread_is_archived_once():
    thread = FakeThread(archived=False)
    bot = SimpleNamespace(get_channel=lambda channel_id: thread if channel_id == 7 else None)
    stored = stored_for(new_match())
    assert await notify.archive_thread(bot, stored)
    assert thread.edits == [{"archived": True}]
    thread.archived_now = True
    assert await notify.archive_thread(bot, stored) and len(thread.edits) == 1
    refused = FakeThread(archived=False, refuse=True)
    bot.get_channel = lambda channel_id: refused
    assert not await notify.archive_thread(bot, stored)
    no_thread = game_store.StoredGame(1, "rocketball", 5, 6, None, "finished", "{}", 1, (10, 11))
    assert not await notify.archive_thread(bot, no_thread)


async def reminders_due(db, count: int, *, first_user: int) -> tuple[list, dict[int, int]]:
    """`count` Rocketball matches waiting for their first move, each with its reminder due:
    the timers as the dispatcher claims them, and each match's thread (game id -> thread id)."""
    match = new_match()
    rooms: dict[int, int] = {}
    now = time.time()
    for number in range(count):
        players = [first_user + 2 * number, first_user + 2 * number + 1]
        game_id = await game_store.create_game(
            db,
            game="rocketball",
            guild_id=5,
            channel_id=6,
            thread_id=1000 + number,
            players=players,
            state=match.to_json(ADAPTER),
            status="active",
        )
        rooms[game_id] = 1000 + number
        await timer_store.create_timer(
            db, "match_remind", now - 1, {"game_id": game_id, "version": 0}, now=now - 3600
        )
    timers = await timer_store.claim_due(db, now=now, limit=count)
    return timers, rooms


async def test_reminders_due_together_read_the_database_once_for_all_of_them(db):
    """A batch of reminders falling due at once (10,000 of them took over a minute) reads
    its matches, vacations and settings in a few queries however many it holds, and each
    waiting player is reminded in their own match's thread."""
    match = new_match()
    (seat,) = ADAPTER.engine.actors(match.engine)
    statements = {"count": 0}
    for name in ("fetch_one", "fetch_all"):
        original = getattr(db, name)

        async def counting(*args, original=original, **kwargs):
            statements["count"] += 1
            return await original(*args, **kwargs)

        setattr(db, name, counting)
    counted = []
    for count, first_user in ((3, 100), (30, 200)):
        timers, rooms = await reminders_due(db, count, first_user=first_user)
        games = {timer.payload["game_id"]: timer for timer in timers}

        async def channel_of(stored, rooms=rooms):
            return posts.channel(rooms[stored.id])

        bot = posts.bot_posting(db=db)
        host: Any = SimpleNamespace(
            adapters={"rocketball": ADAPTER}, bot=bot, channel_of=channel_of, told=set()
        )
        host.waiting_at = functools.partial(MatchCore.waiting_at, host)
        statements["count"] = 0
        await timeouts.on_remind_timers(host, timers)
        counted.append(statements["count"])
        for game_id, room in rooms.items():
            waiting = first_user + 2 * (game_id - min(games)) + seat
            (text,) = bot.http.texts(room)
            assert text.startswith(f"<@{waiting}>, Rocketball match #{game_id} is waiting")
    assert counted[0] == counted[1], counted


async def test_a_reminder_written_with_its_position_reads_no_match_state(db, monkeypatch):
    """A reminder carries whom it waits for and what it says from the move that wrote it
    (timers_for): firing it loads no match state (the dice's 624 words were most of a
    reminder's cost) and says what the match's state would have said."""
    match = new_match()
    (seat,) = ADAPTER.engine.actors(match.engine)
    now = time.time()
    game_id = await game_store.create_game(
        db,
        game="rocketball",
        guild_id=5,
        channel_id=6,
        thread_id=1000,
        players=[300, 301],
        state=match.to_json(ADAPTER),
        status="active",
    )
    stored = await game_store.load_game(db, game_id)
    assert stored is not None
    (spec,) = [
        t
        for t in timeouts.timers_for(ADAPTER, stored, match, stored.version, now)
        if t.event == timeouts.REMIND_EVENT
    ]
    expected = timeouts.reminder_text(ADAPTER, stored, match)
    await timer_store.create_timer(db, spec.event, now - 1, spec.payload, now=now - 3600)
    timers = await timer_store.claim_due(db, now=now, limit=1)

    async def channel_of(stored):
        return posts.channel(1000)

    def unread(*_):
        raise AssertionError("a reminder that carries its text read the match's state")

    monkeypatch.setattr(Match, "from_json", unread)
    bot = posts.bot_posting(db=db)
    host: Any = SimpleNamespace(adapters={"rocketball": ADAPTER}, bot=bot, channel_of=channel_of)
    await timeouts.on_remind_timers(host, timers)
    assert bot.http.texts(1000) == [f"<@{300 + seat}>, {expected}"]
