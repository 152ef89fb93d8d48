"""Reminders before a league's deadline, run the same way for every league that has them,
beside its deadline timer (docs/architecture.md, "A league's deadline").

A league that reminds its players gives the league host a `ReminderAdapter`: who is still
missing orders for the round, and how the reminder is worded. The rest is here, once:

- the reminder's timer: written in the same save as the deadline's (the adapter asks `timer`
  for it), a set time before the deadline, and only while that moment is still ahead; its
  payload names the league and the round like the deadline's;
- when it fires: nothing for a league that is gone, whose deadline does not run (paused,
  forming, over), that has played the round since, or whose deadline has passed (the clock
  jumped, the bot was down: the round is being played); otherwise the players still missing
  orders (of the timer's `users`, when it names them) are reminded once, each as their
  notification settings say (host/notify.py): a mention in the league's channel, a DM with a
  link, or nothing;
- a player in quiet hours or on vacation is reminded when those end, by a timer of their own
  that names them, if that is before the deadline; one that would come after it never comes.

Nothing is changed in the league, so a reminder needs no lock: it reads the league and posts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import discord

from db import clocks as clock_store
from db import timers as timer_store
from host import notify
from host.leagues.league_host import LeagueAdapter, LeagueHost

L = TypeVar("L")

# A reminder held for quiet hours or a vacation comes at least this long before the deadline,
# or not at all: by then the round is about to be played.
LAST_MOMENT = 60


@dataclass(frozen=True)
class Reminder:
    """A league's reminder as its players read it: `text` after the mentions in `channel`,
    `dm` by DM with `link` under it, and `view` (the buttons they need) under the post."""

    channel: discord.abc.Messageable
    text: str
    dm: str
    link: str
    view: discord.ui.View | None = None


class ReminderAdapter(LeagueAdapter[L], Protocol[L]):
    """What a league that reminds its players gives the league host besides its deadline."""

    @property
    def remind_event(self) -> str:
        """The event of the league's reminder timers."""
        ...

    def deadline_of(self, league: L, /) -> float | None:
        """The round's deadline as it stands (put off by vacations), None while none is set."""
        ...

    async def missing(self, league: L, /) -> list[int]:
        """The players (user ids) still missing orders for the round."""
        ...

    async def reminder(self, league: L, deadline: float, /) -> Reminder:
        """The reminder's words, channel and buttons for the round due at `deadline`."""
        ...


class LeagueReminders(Generic[L]):
    """A kind of league's reminders on the league host (the module docstring). `clock` is the
    wall clock (a test's own to move)."""

    def __init__(
        self,
        host: LeagueHost[L],
        adapter: ReminderAdapter[L],
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.host = host
        self.adapter = adapter
        self.clock = clock
        host.bot.timers.register(adapter.remind_event, self.on_remind)

    def timer(
        self, payload: dict[str, Any], deadline: float, minutes: int
    ) -> timer_store.TimerSpec | None:
        """The reminder `minutes` before `deadline`, whose deadline timer has `payload`; None
        when the league reminds nobody (0 minutes) or that moment has passed."""
        moment = deadline - minutes * 60
        if minutes <= 0 or moment <= self.clock():
            return None
        return timer_store.TimerSpec(self.adapter.remind_event, moment, payload)

    async def on_remind(self, timer: timer_store.Timer) -> None:
        payload = timer.payload
        league_id, expected = self.adapter.timer_target(payload)
        league = await self.adapter.load_league(league_id)
        if league is None or not self.adapter.deadline_runs(league):
            return
        if self.adapter.round_of(league) != expected:
            return  # played since: its reminder has nothing left to say
        deadline = self.adapter.deadline_of(league)
        now = self.clock()
        if deadline is None or deadline <= now:
            return
        waiting = sorted(set(await self.adapter.missing(league)))
        named = payload.get("users")
        if named is not None:
            waiting = [user for user in waiting if user in named]
        if not waiting:
            return
        db = self.host.db
        found = await clock_store.vacations_of(db, waiting, since=now)
        back = {
            user: max(end for start, end in periods if start <= now)
            for user, periods in found.items()
            if any(start <= now for start, _ in periods)
        }
        pings = await notify.people_pings(db, [u for u in waiting if u not in back], now)
        later = {**pings.later, **back}
        again = {key: value for key, value in payload.items() if key != "users"}
        for moment in sorted(set(later.values())):
            if moment < deadline - LAST_MOMENT:
                users = sorted(user for user, at in later.items() if at == moment)
                await timer_store.create_timer(
                    db, self.adapter.remind_event, moment, {**again, "users": users}, now=now
                )
                self.host.bot.timers.wake()
        reminder = await self.adapter.reminder(league, deadline)
        extra: dict[str, Any] = {} if reminder.view is None else {"view": reminder.view}
        await notify.deliver(
            self.host.bot,
            pings,
            reminder.channel,
            reminder.text,
            dm=reminder.dm,
            link=reminder.link,
            **extra,
        )
