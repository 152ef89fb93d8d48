"""The timer dispatcher: one task sleeping until the next durable timer (db/timers.py) is due.

Cogs register a handler per event name and schedule timers; the dispatcher survives restarts
because the timers are rows: on start-up, overdue ones fire at once. A handler runs before its row
is deleted, so handlers must be idempotent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from discord.ext import commands

from db import timers as timer_store

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)

TimerHandler = Callable[[timer_store.Timer], Awaitable[None]]

MAX_SLEEP = 3600.0  # re-check at least hourly (clock changes, long suspends)


class Timers(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self._handlers: dict[str, TimerHandler] = {}
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._run(), name="timer-dispatcher")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def register(self, event: str, handler: TimerHandler) -> None:
        self._handlers[event] = handler
        self._wakeup.set()

    async def schedule(
        self, event: str, delay_seconds: float, payload: dict[str, Any]
    ) -> timer_store.Timer:
        now = time.time()
        timer = await timer_store.create_timer(
            self.bot.db, event, now + delay_seconds, payload, now=now
        )
        self._wakeup.set()
        return timer

    async def cancel(self, event: str, **match: Any) -> int:
        return await timer_store.delete_timers_for(self.bot.db, event, **match)

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self._fire_due_timers()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer dispatcher failed; retrying in 5 seconds")
                await asyncio.sleep(5)

    async def _fire_due_timers(self) -> None:
        self._wakeup.clear()
        timer = await timer_store.next_timer(self.bot.db)
        delay = MAX_SLEEP if timer is None else timer.due_at - time.time()
        if delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=min(delay, MAX_SLEEP))
            return
        assert timer is not None
        handler = self._handlers.get(timer.event)
        if handler is None:
            log.warning("no handler for timer %s (%s); dropping it", timer.id, timer.event)
        else:
            try:
                await handler(timer)
            except Exception:
                log.exception("timer %s (%s) handler failed", timer.id, timer.event)
        await timer_store.delete_timer(self.bot.db, timer.id)


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Timers(bot))
