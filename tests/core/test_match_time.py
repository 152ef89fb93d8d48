"""The calls the match host makes about time (host/timeouts.py timers_for, host/clocks.py tick,
host/notify.py archive_thread): the same timers as before for a match without a clock, a clock's
run-out timer for one with it, a move charging the clock, a finished match's thread archived."""

import random
import time
from types import SimpleNamespace

import discord
import pytest

from cogs.rocketball.options import match_settings
from cogs.rocketball.presenter import RocketballAdapter
from db import games as game_store
from db.connect import open_database
from host import clocks, notify, timeouts
from host.match import Match
from host.service import MatchHost
from rules.rocketball import ai

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
    host = SimpleNamespace(adapters={"rocketball": ADAPTER})
    now = time.time()
    theirs = MatchHost.timers_for(host, stored, match, 5)
    ours = timeouts.timers_for(ADAPTER, stored, match, 5, now)
    assert plan(ours, now) == plan(theirs, now)


def test_with_a_clock_the_first_bank_to_run_out_replaces_the_timeout():
    match = new_match(clock=clocks.new_clock(120, 10, None, [0, 1]).to_dict())
    stored = stored_for(match)
    (seat,) = ADAPTER.engine.actors(match.engine)
    now = time.time()
    clock = clocks.clock_of(match)
    clocks.on_move(clock, {seat}, now - 30 * 60)  # their clock has run half an hour
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
    match = new_match(clock=clocks.new_clock(60, 5, 70, [0, 1]).to_dict())
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
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "no")
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
