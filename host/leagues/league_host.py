"""The league host: a league's deadline, run the same way for every league (Volleyball's
leagues, Rollerball II's seasons; docs/architecture.md, "A league's deadline").

A league is a stored row whose current round (a Volleyball round, a Rollerball II matchday) has
one deadline: a durable timer (db/timers.py) whose payload names the league and the round. What
a league plays at its deadline, how it stores its time and what it posts are the league's own
(its `LeagueAdapter`); what every league does alike is here, once:

- its lock (`bot.game_locks`, which holds across processes on PostgreSQL): every change loads
  the league under it and saves before releasing it, so two changes never interleave and a
  round is never played twice;
- its deadline's timer: a timer for a round already played, or of a league whose deadline does
  not run (forming, paused, over), does nothing; a deadline a player's vacation puts off waits
  (the adapter moves it, counting the vacations as they are now); otherwise the adapter plays
  every part of the round not settled yet, and only once none is left unsettled does the next
  round's deadline run: a part that could not be settled (a team busy elsewhere) keeps the round
  open, its deadline tried again later, never passed over. What the round left to post is posted
  once the lock is released, so a command on the league never waits behind Discord's limits. A
  league that says so (`retry_seconds`) has a round that failed to play tried again later;
- the admins' pause, resume and extension: the league loaded under its lock (gone: a private
  refusal), the adapter's policy applied and saved, and what changed shown after the lock;
- vacations: a player taking one or coming back (host/clocks.py tells the host) has the
  deadline of each league waiting for them counted again;
- start-up repair: a league whose deadline runs and whose timer is gone gets it back (an overdue
  one then fires at once), and what a crash left unposted is posted; tried again while the
  database is unavailable (host/background.py `until_done`);
- posts held back: a post Discord refuses for a missing permission stays unsent (the adapter's
  poster stops there), and is sent once Discord says a permission may be back (a channel's
  overwrites or a role changed, the bot invited again: host/posting.py tells the host through
  `Core.permission_listeners`), at the next round, or at a restart;
- /games: the lines the league gives for a user (host/listing.py), which name what is on file,
  never its contents.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Generic, Literal, Protocol, TypeVar

import discord

from db import clocks as clock_store
from db import timers as timer_store
from db.database import is_unavailable
from host import background
from host.background import until_done
from host.base import HostBot
from host.listing import Entry
from host.locks import GameLock, ShuttingDown
from rules.periods import Period
from ui import UserError
from ui.permissions import refused_for_permission

log = logging.getLogger(__name__)

Round = tuple[int, ...]  # a league's round as its timers name it: (season, round), (matchday,)
# What the league host has just done to a league, for the adapter to show once the lock is
# released: a round played, a deadline put off by a vacation (at the deadline, or when a
# vacation was taken or ended), an admin's change saved, a league repaired at start-up.
Outcome = Literal["played", "waits", "moved", "changed", "repaired"]

# A round whose deadline left a part unsettled (a team busy elsewhere) is tried again this much
# later when the league gives no `retry_seconds` of its own.
UNSETTLED_RETRY_SECONDS = 300.0

L = TypeVar("L")
R = TypeVar("R")
T = TypeVar("T")


class LeagueAdapter(Protocol[L]):
    """What a league gives the league host. Every method marked "under the lock" is called
    with the league's lock held and the league just loaded; it saves what it changes."""

    @property
    def lock_name(self) -> str:
        """Names the league's lock: ("volleyball", 3)."""
        ...

    @property
    def deadline_event(self) -> str:
        """The event of the league's deadline timers."""
        ...

    @property
    def title(self) -> str:
        """The leagues as the log names them: "the Volleyball leagues"."""
        ...

    @property
    def gone(self) -> str:
        """The refusal when a league is gone: "That league no longer exists."."""
        ...

    @property
    def retry_seconds(self) -> float | None:
        """A round that failed to play is tried again this much later; None: not."""
        ...

    async def load_league(self, league_id: int) -> L | None:
        """The league as stored; None when it is gone."""
        ...

    def refusal(self, league: L, user_id: int, /) -> str | None:
        """Why this user may not act in the league (a lesson is its learner's alone), or
        None: the one place that says who may, asked by every `load(by=...)`."""
        ...

    def timer_target(self, payload: dict[str, Any]) -> tuple[int, Round]:
        """The league and the round a deadline timer's payload names."""
        ...

    def round_of(self, league: L, /) -> Round:
        """The round the league is at."""
        ...

    def deadline_runs(self, league: L, /) -> bool:
        """A deadline runs now (not forming, paused nor over)."""
        ...

    def vacations_count(self, league: L, /) -> bool:
        """A player's vacation puts the league's deadline off (its admins' choice)."""
        ...

    async def waits(self, league: L, now: float, /) -> bool:
        """Under the lock, at the deadline: whether it waits for a player on vacation; if so
        its deadline and timer are moved to when it falls due."""
        ...

    async def play(self, league: L, now: float, /) -> None:
        """Under the lock: settle every part of the round not settled yet (play or simulate
        it), each saved as it is settled."""
        ...

    async def unsettled(self, league: L, /) -> list[str]:
        """Under the lock, after `play`: the parts of the round still unsettled, as the log
        names them (one of them being played elsewhere, say). The round is passed only when
        there is none."""
        ...

    async def next_round(self, league: L, now: float, /) -> None:
        """Under the lock, once every part of the round is settled: the next round's deadline
        runs, saved with its timer."""
        ...

    async def retry_at(self, league: L, moment: float, /) -> None:
        """Under the lock: the round's deadline timer again at `moment` (it failed to play)."""
        ...

    async def recount(self, league: L, /) -> bool:
        """Under the lock: the deadline again from the vacations as they are now, saved when
        it moved. Returns whether it did."""
        ...

    async def waiting_for(self, user_id: int) -> list[int]:
        """The leagues whose deadline a vacation of the user's may move."""
        ...

    async def league_ids(self) -> list[int]:
        """The leagues the start-up repair looks at."""
        ...

    async def held_back(self, guild_id: int, /) -> list[int]:
        """The leagues of this server with posts not sent yet (a missing permission held them
        back): each gets `published(league_id, "repaired")` when one may be back."""
        ...

    async def repair(self, league: L, /) -> None:
        """Under the lock, at start-up, when its deadline runs: its timer written again when
        it is gone."""
        ...

    async def published(self, league_id: int, outcome: Outcome) -> None:
        """Outside the lock: post and show what `outcome` left to post and show."""
        ...

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        """/games: a line per league of the user's (host/listing.py)."""
        ...


def posting_lock(bot: HostBot, lock_name: str, league_id: int) -> GameLock:
    """A league's posting lock (`LeagueHost.posting_lock`), for an adapter's own poster."""
    return bot.game_locks((f"{lock_name}-posts", league_id))


async def post_in_order(
    what: str,
    items: Iterable[T],
    send: Callable[[T], Awaitable[object]],
    sent: Callable[[T], Awaitable[None]],
    named: Callable[[T], str],
) -> bool:
    """A league's posts (a round's reports, a matchday's results), oldest first, under its
    posting lock: each `sent` (marked posted, its followers told) once Discord took it, or gave
    it up for good (a channel deleted: no later attempt would do). A missing permission holds
    it back, and those after it, in order: sent when the permission is back (`post_held_back`),
    at the next change or at a restart. False when held back. `what` and `named(item)` say
    which in the log."""
    for item in items:
        try:
            await send(item)
        except discord.HTTPException as error:
            held = refused_for_permission(error)
            log.warning(
                "%s: %s could not be sent%s: %s",
                what,
                named(item),
                ", held back" if held else "",
                error,
            )
            if held:
                return False
        await sent(item)
    return True


class LeagueHost(Generic[L]):
    """A kind of league on the league host: its timers, vacations and repair registered, its
    changes run under its lock (the module docstring)."""

    def __init__(self, bot: HostBot, adapter: LeagueAdapter[L]) -> None:
        self.bot = bot
        self.adapter = adapter
        self._recovery: asyncio.Task[None] | None = None
        bot.timers.register(adapter.deadline_event, self.on_deadline)
        bot.matches.vacation_listeners.append(self.vacation_changed)
        # Discord says a permission may be back (host/posting.py): the posts it held back
        bot.matches.permission_listeners.append(self.post_held_back)

    @property
    def db(self):
        return self.bot.db

    def lock(self, league_id: int) -> GameLock:
        return self.bot.game_locks((self.adapter.lock_name, league_id))

    def posting_lock(self, league_id: int) -> GameLock:
        """The league's posts (what a change left to post, its status card), one sender at a
        time, outside the league's lock: they wait on Discord's limit of posts per channel (5
        in 5 s), and a command on the league must not wait behind them past its 3 seconds."""
        return posting_lock(self.bot, self.adapter.lock_name, league_id)

    async def load(self, league_id: int, *, by: int | None = None) -> L:
        """The league, or a private refusal saying it is gone; `by`: for that user to act in,
        or a private refusal saying why they may not (the adapter's `refusal`)."""
        league = await self.adapter.load_league(league_id)
        if league is None:
            raise UserError(self.adapter.gone)
        if by is not None and (reason := self.adapter.refusal(league, by)) is not None:
            raise UserError(reason)
        return league

    async def change(
        self, league_id: int, apply: Callable[[L], Awaitable[R]], *, shown: bool = True
    ) -> R:
        """`apply` to the league under its lock (it saves what it changes: an admin's pause,
        resume or extension, a rule changed); then, with `shown`, the adapter shows the change.
        A league that is gone is a private refusal."""
        async with self.lock(league_id):
            result = await apply(await self.load(league_id))
        if shown:
            await self.publish(league_id, "changed")
        return result

    # ---- the deadline -------------------------------------------------------------------------

    async def on_deadline(self, timer: timer_store.Timer) -> None:
        league_id, expected = self.adapter.timer_target(timer.payload)
        if self.adapter.retry_seconds is None:
            await self.advance(league_id, expected=expected)
            return
        try:
            await self.advance(league_id, expected=expected)
        except Exception as error:
            # Nothing was saved (a round is saved whole or not at all); without a new timer
            # the league would wait for a restart, so the deadline is tried again later. An
            # outage is no unexpected error: db.database has said what it is.
            if is_unavailable(error):
                log.warning(
                    "league %s: %s waits for the database (%s); retrying",
                    league_id,
                    expected,
                    error,
                )
            else:
                log.exception("league %s: %s could not be played; retrying", league_id, expected)
            # The retry's own timer needs the database too: while it is still down, it is
            # written once it answers (else the deadline would wait for the next start).
            seconds = self.adapter.retry_seconds
            await until_done(
                f"league {league_id}'s deadline retry",
                self.db,
                lambda: self.retry_later(league_id, expected, seconds),
            )

    async def retry_later(self, league_id: int, expected: Round, seconds: float) -> None:
        async with self.lock(league_id):
            league = await self.adapter.load_league(league_id)
            if league is None or not self.adapter.deadline_runs(league):
                return
            if self.adapter.round_of(league) != expected:
                return
            await self.adapter.retry_at(league, time.time() + seconds)

    async def advance(
        self,
        league_id: int,
        *,
        expected: Round | None = None,
        forced: bool = False,
        send: bool = True,
    ) -> bool:
        """Play what is next in the league once: with `expected`, only if the league is still
        at that round (a timer for a round already played does nothing); `forced` (an admin's
        "play now") also while its deadline does not run, and without waiting for vacations.
        What it leaves to post is posted once the lock is released, or with `send` False by
        the caller (after answering its command). Returns whether a round was played."""
        outcome: Outcome | None = None
        async with self.lock(league_id):
            league = await self.adapter.load_league(league_id)
            if league is None:
                return False
            if expected is not None and self.adapter.round_of(league) != expected:
                log.info("league %s: %s was played already", league_id, expected)
                return False
            runs = self.adapter.deadline_runs(league)
            if not runs and not forced:
                return False
            now = time.time()
            vacations = runs and not forced and self.adapter.vacations_count(league)
            if vacations and await self.adapter.waits(league, now):
                outcome = "waits"
            if outcome is None:
                await self.adapter.play(league, now)
                left = await self.adapter.unsettled(league)
                if left:
                    # Never passed with a part unsettled: the round stays open, its deadline
                    # tried again (what was settled is saved and stays settled).
                    wait = self.adapter.retry_seconds or UNSETTLED_RETRY_SECONDS
                    if runs:
                        await self.adapter.retry_at(league, now + wait)
                    log.warning(
                        "league %s: %s stays open, tried again in %.0f s: %s unsettled",
                        league_id,
                        self.adapter.round_of(league),
                        wait,
                        "; ".join(left),
                    )
                    return False
                await self.adapter.next_round(league, now)
                outcome = "played"
        if outcome == "waits":
            log.info("league %s: %s waits for a player on vacation", league_id, expected)
        if send or outcome == "waits":
            await self.publish(league_id, outcome)
        return outcome == "played"

    async def publish(self, league_id: int, outcome: Outcome) -> None:
        """Post what a saved change left to post. Its failure is not the change's: the change
        stays saved and what it left unsent is kept (sent by this call once the database
        answers, or by the next start's repair after a shutdown), so it is never reported as
        the change failing, nor makes a played round be tried again."""
        try:
            await until_done(
                f"league {league_id}'s posts",
                self.db,
                lambda: self.adapter.published(league_id, outcome),
            )
        except Exception:
            log.exception("league %s: what %s left could not be posted", league_id, outcome)

    # ---- vacations ----------------------------------------------------------------------------

    async def vacations(
        self, users: list[int], since: float, *, counted: bool = True
    ) -> dict[int, list[Period]]:
        """The players' vacations ending after `since`, by user (those who have one), when
        the league lets them put its deadline off (`counted`)."""
        if not counted or not users:
            return {}
        found = await clock_store.vacations_of(self.db, users, since=since)
        return {user: periods for user, periods in found.items() if periods}

    async def on_vacation(self, users: list[int], now: float) -> set[int]:
        """Those of `users` on vacation at `now`."""
        found = await clock_store.vacations_of(self.db, users, since=now)
        return {user for user, periods in found.items() if any(a <= now for a, _ in periods)}

    async def vacation_changed(self, user_id: int) -> None:
        """A player took a vacation or came back (`/settings vacation`; host/clocks.py tells
        its listeners): each league waiting for them that lets vacations put its deadline off
        counts it again."""
        for league_id in await self.adapter.waiting_for(user_id):
            await self.recount(league_id)

    async def recount(self, league_id: int) -> bool:
        """The league's deadline again from the vacations as they are now: saved and shown
        when it moved. Returns whether it did."""
        async with self.lock(league_id):
            league = await self.adapter.load_league(league_id)
            if league is None or not self.adapter.deadline_runs(league):
                return False
            if not self.adapter.vacations_count(league):
                return False
            moved = await self.adapter.recount(league)
        if moved:
            await self.publish(league_id, "moved")
        return moved

    # ---- start-up -----------------------------------------------------------------------------

    def start(self) -> None:
        self._recovery = background.started(f"{self.adapter.lock_name}-recovery", self._recover())

    async def stop(self) -> None:
        await background.stopped(self._recovery)

    async def _recover(self) -> None:
        """After a crash: a league whose deadline runs and whose timer is gone gets it back (an
        overdue one then fires at once), and what was saved but not posted is posted. Tried
        again while the database is unavailable (host.background.until_done)."""
        await self.bot.wait_until_ready()
        await until_done(f"start-up repair of {self.adapter.title}", self.db, self._repair)

    # ---- posts a missing permission held back -----------------------------------------------

    async def post_held_back(self, guild_id: int) -> None:
        """Each league of the server with posts not sent yet sends them (what a start-up repair
        sends); a database unavailable meanwhile delays them until it answers."""

        async def post() -> None:
            for league_id in await self.adapter.held_back(guild_id):
                try:
                    await self.adapter.published(league_id, "repaired")
                except ShuttingDown:
                    return  # the next start's repair sends them
                except Exception as error:
                    if is_unavailable(error):
                        raise
                    log.exception("could not send league %s's held-back posts", league_id)

        await until_done(f"the posts held back in {self.adapter.title}", self.db, post)

    async def _repair(self) -> None:
        for league_id in await self.adapter.league_ids():
            try:
                async with self.lock(league_id):
                    league = await self.adapter.load_league(league_id)
                    if league is None:
                        continue
                    if self.adapter.deadline_runs(league):
                        await self.adapter.repair(league)
                await self.adapter.published(league_id, "repaired")
            except Exception as error:
                if is_unavailable(error) or isinstance(error, ShuttingDown):
                    raise  # the whole repair is tried again, or left to the next start
                log.exception("could not repair league %s at start-up", league_id)

    # ---- /games -------------------------------------------------------------------------------

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        return await self.adapter.games_entries(user_id, now)
