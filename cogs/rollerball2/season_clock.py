"""A Rollerball II season's time (docs/rules/rollerball2.md, "Seasons", rulings D7 and D10-D12):
its one deadline timer, an admin's extension, pause and resume, the coaches' vacations, and the
next matchday's deadline once one is over.

The league host (host/leagues/) runs it: every change runs under the season's lock (the one its
matchdays are settled under), loads the season, computes its deadlines
(rules/rollerball2/deadlines.py) and saves them with the timer of the current matchday in one
transaction (db/rollerball2/seasons.py `save_season_time`). A vacation taken or ended moves the deadline
at once (the league host's `vacation_changed` calls `recount`), and the deadline's timer counts
the vacations again when it fires (`waits`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from db import clocks as clock_store
from db import rollerball2 as store
from rules.periods import Period
from rules.rollerball2 import SeasonTime, Waiting, away_periods
from ui import UserError, shown

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)

DEADLINE_EVENT = "rollerball2_deadline"
LOCK_NAME = "rollerball2_season"  # the season's lock: its matchdays are settled under it too


@dataclass(frozen=True)
class Clock:
    """A season's time as stored, with its fixtures (all matchdays)."""

    season: store.Season
    time: SeasonTime
    fixtures: list[store.Fixture]

    def deadline(self, matchday: int) -> float:
        """The matchday's deadline in force, as stored."""
        return min(f.deadline for f in self.fixtures if f.matchday == matchday)

    @property
    def put_off(self) -> bool:
        """The current matchday's deadline is later than its time gives: coaches were away."""
        return not self.time.over and self.deadline(self.time.current) > self.time.span()[1] + 60


async def clock_of(bot: Ballcourt, season: store.Season) -> Clock:
    fixtures = await store.fixtures_of(bot.db, season.id)
    set_deadlines: dict[int, float] = {}
    for fixture in fixtures:
        set_deadline = (
            fixture.set_deadline if fixture.set_deadline is not None else fixture.deadline
        )
        set_deadlines[fixture.matchday] = min(
            set_deadline, set_deadlines.get(fixture.matchday, set_deadline)
        )
    before = [f.deadline for f in fixtures if f.matchday == season.current_matchday - 1]
    season_time = SeasonTime(
        hours=season.hours,
        starts_at=season.starts_at,
        current=season.current_matchday,
        set_deadlines=set_deadlines,
        passed=min(before) if before else None,
        resumed_at=season.resumed_at,
    )
    return Clock(season, season_time, fixtures)


async def away(bot: Ballcourt, clock: Clock, since: float | None = None) -> list[Period]:
    """The coaches' vacations that put off the current matchday (ruling D12), counted from
    `since` (its time's start); none where the season plays at its deadlines."""
    season, season_time = clock.season, clock.time
    if not season.vacation_pauses or season_time.over:
        return []
    since = season_time.span()[0] if since is None else since
    owners = {
        team_id: owner for team_id, _, owner in await store.team_names(bot.db, season.guild_id)
    }
    waiting = []
    for fixture in clock.fixtures:
        if fixture.matchday != season_time.current:
            continue
        coaches = tuple(
            owners[team] for team in (fixture.home_team_id, fixture.away_team_id) if team in owners
        )
        # a fixture settled without its match's end time (none should be) counts as played long ago
        played_at = fixture.played_at if fixture.how is None or fixture.played_at else 0.0
        waiting.append(Waiting(coaches, played_at))
    users = sorted({coach for fixture in waiting for coach in fixture.coaches})
    vacations = await clock_store.vacations_of(bot.db, users, since=since)
    return away_periods(waiting, vacations, since)


async def arm(
    bot: Ballcourt,
    clock: Clock,
    season_time: SeasonTime,
    *,
    played: dict[int, tuple[float, float]] | None = None,
) -> tuple[store.Season, float | None]:
    """Under the season's lock: save `season_time` (the season's set deadlines, current
    matchday and resume as they are to be): the deadlines in force from the current matchday
    on, the vacations that count put in, and the timer of the current one; `played` adds the
    deadline of a matchday played just now. Returns the season saved and the current matchday's
    deadline (None: the season is over)."""
    deadlines = dict(played or {})
    due = None
    if not season_time.over:
        periods = await away(bot, replace(clock, time=season_time))
        for matchday, moment in season_time.in_force(periods).items():
            deadlines[matchday] = (season_time.set_deadlines[matchday], moment)
        due = deadlines[season_time.current][1]
    saved = await store.save_season_time(
        bot.db,
        clock.season,
        current_matchday=season_time.current,
        deadlines=deadlines,
        paused_at=None,
        resumed_at=season_time.resumed_at,
        timer_event=DEADLINE_EVENT,
        due_at=due,
    )
    if due is not None:
        bot.timers.wake()
    return saved, due


def check_running(season: store.Season, doing: str) -> store.Season:
    """The season, if a deadline runs in it (a UserError saying why not: paused, or over). A
    command checks it before it is acknowledged, so the refusal is private, and again under the
    season's lock."""
    if season.paused_at is not None:
        raise UserError(
            f"{shown(season.name)} is paused: no deadline runs, so nobody can {doing}. "
            "`/rollerball2 season resume` gives matchday "
            f"{season.current_matchday} the time it had left."
        )
    if season.over:
        raise UserError(f"Every matchday of {shown(season.name)} has been played.")
    return season


# ---- an admin's extension, pause and resume (rulings D10 and D11) ---------------------------------


async def extend(bot: Ballcourt, season: store.Season, hours: int) -> tuple[store.Season, float]:
    """Under the season's lock: the current matchday's deadline `hours` later (ruling D10); the
    later ones keep theirs unless they would come less than half a matchday after the one
    before."""
    check_running(season, "extend a deadline")
    clock = await clock_of(bot, season)
    saved, due = await arm(
        bot, clock, replace(clock.time, set_deadlines=clock.time.extended(hours))
    )
    assert due is not None  # a running season has a current matchday
    return saved, due


async def pause(bot: Ballcourt, season: store.Season) -> store.Season:
    """Under the season's lock: no deadline runs until the resume (ruling D11): the timer goes;
    the deadlines stay as they were, for the resume to count what the current matchday had
    left."""
    check_running(season, "pause it again")
    return await store.save_season_time(
        bot.db,
        season,
        current_matchday=season.current_matchday,
        deadlines={},
        paused_at=time.time(),
        resumed_at=season.resumed_at,
        timer_event=DEADLINE_EVENT,
        due_at=None,
    )


def check_paused(season: store.Season) -> float:
    """Since when an admin has paused the season (a UserError if not; checked as
    `check_running` is)."""
    if season.paused_at is None:
        raise UserError(f"{shown(season.name)} is not paused: its deadlines run.")
    return season.paused_at


async def resume(bot: Ballcourt, season: store.Season) -> tuple[store.Season, float, float]:
    """Under the season's lock: paused -> running (ruling D11): the current matchday gets the
    time it had left when the pause began (the coaches' vacations not counted where the season
    waits for them), and every later deadline moves by the pause. Returns the season, the
    current matchday's deadline and the pause's length in seconds."""
    paused_at = check_paused(season)
    now = time.time()
    clock = await clock_of(bot, season)  # never over: nothing is settled while paused
    since = min(clock.time.span()[0], paused_at)
    periods = await away(bot, clock, since)
    after = replace(
        clock.time,
        set_deadlines=clock.time.resumed(paused_at, now, periods),
        resumed_at=now,
    )
    saved, due = await arm(bot, clock, after)
    assert due is not None
    return saved, due, now - paused_at


# ---- the end of a matchday, and vacations (rulings D7 and D12) -----------------------------------


async def advance(
    bot: Ballcourt, season: store.Season, played_at: float | None = None
) -> store.Season:
    """Under the season's lock, once the current matchday is settled: the next one's deadline
    runs (its time from the deadline just passed, or from `played_at` when an admin played the
    matchday before its deadline; that moment is then the matchday's deadline)."""
    clock = await clock_of(bot, season)
    matchday = clock.time.current
    passed = clock.deadline(matchday) if played_at is None else played_at
    played = {matchday: (clock.time.set_deadlines[matchday], passed)}
    after = replace(clock.time, current=matchday + 1, passed=passed)
    saved, _ = await arm(bot, clock, after, played=played)
    return saved


async def waits(bot: Ballcourt, season: store.Season, now: float) -> bool:
    """Under the season's lock, when the current matchday's deadline has come: whether it
    waits for a coach on vacation (ruling D12), counted again now; if so its deadline and timer
    move to when it falls due."""
    clock = await clock_of(bot, season)
    deadline = clock.time.in_force(await away(bot, clock))[clock.time.current]
    if deadline <= now + 1:
        return False
    await arm(bot, clock, clock.time)
    log.info("season %s: matchday %s waits for a coach on vacation", season.id, clock.time.current)
    return True


async def recount(bot: Ballcourt, season: store.Season) -> bool:
    """Under the season's lock: the current matchday's deadline again from the coaches'
    vacations as they are now (a coach took a vacation or came back): saved when it moved.
    Returns whether it did."""
    clock = await clock_of(bot, season)
    deadline = clock.time.in_force(await away(bot, clock))[clock.time.current]
    if abs(deadline - clock.deadline(clock.time.current)) < 1:
        return False
    await arm(bot, clock, clock.time)
    log.info("season %s: the deadline moved to %s for vacations", season.id, deadline)
    return True
