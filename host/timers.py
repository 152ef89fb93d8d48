"""The timer dispatcher, a service of the bot (`bot.timers`): one task sleeping until the next
durable timer (db/timers.py) is due.

Cogs register a handler per event name. The dispatcher survives restarts because the timers are
rows: on start-up, overdue ones fire at once. A timer is claimed (written) before its handler
runs, so while the database refuses writes (read-only file, a lock held elsewhere) nothing fires
twice: the dispatcher backs off, doubling the wait up to five minutes, and says once in the log
what is wrong, and again once it works.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from db import timers as timer_store
from db.database import BACKEND_ERRORS, Database

log = logging.getLogger(__name__)

TimerHandler = Callable[[timer_store.Timer], Awaitable[None]]

DEFAULT_RECHECK_SECONDS = 3600.0  # re-check at least hourly (clock changes, long suspends)
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 300.0


class TimerService:
    def __init__(
        self,
        db: Database,
        *,
        recheck_seconds: float = DEFAULT_RECHECK_SECONDS,
        wait_until_ready: Callable[[], Awaitable[Any]] | None = None,
    ) -> None:
        self.db = db
        self.recheck_seconds = recheck_seconds
        self._wait_until_ready = wait_until_ready
        self._handlers: dict[str, TimerHandler] = {}
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._backoff = 0.0
        self._reported: str | None = None  # the problem already in the log

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="timer-dispatcher")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            except Exception as error:  # it had already stopped (e.g. never connected)
                log.info("the timer dispatcher had stopped: %s", error)
            self._task = None

    def register(self, event: str, handler: TimerHandler) -> None:
        self._handlers[event] = handler
        self._wakeup.set()

    def wake(self) -> None:
        """Something wrote a timer (e.g. with a move): look again at the earliest one."""
        self._wakeup.set()

    async def schedule(
        self, event: str, delay_seconds: float, payload: dict[str, Any]
    ) -> timer_store.Timer:
        now = time.time()
        timer = await timer_store.create_timer(
            self.db, event, now + delay_seconds, payload, now=now
        )
        self._wakeup.set()
        return timer

    async def cancel(self, event: str, **match: Any) -> int:
        return await timer_store.delete_timers_for(self.db, event, **match)

    async def _run(self) -> None:
        if self._wait_until_ready is not None:
            await self._wait_until_ready()
        with contextlib.suppress(*BACKEND_ERRORS):
            await timer_store.release_claims(self.db)
        while True:
            try:
                await self._fire_due_timers()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database, most likely: back off and say so once
                await self._back_off(error)
            else:
                self._recovered()

    async def _back_off(self, error: Exception) -> None:
        problem = f"{type(error).__name__}: {error}"
        self._backoff = min(MAX_BACKOFF, max(FIRST_BACKOFF, self._backoff * 2))
        if problem != self._reported:
            log.error(
                "timers cannot be fired (%s); retrying with back-off up to %.0f s",
                problem,
                MAX_BACKOFF,
                exc_info=not isinstance(error, BACKEND_ERRORS),
            )
            self._reported = problem
        await asyncio.sleep(self._backoff)

    def _recovered(self) -> None:
        if self._reported is not None:
            log.info("timers work again")
        self._reported = None
        self._backoff = 0.0

    async def _fire_due_timers(self) -> None:
        self._wakeup.clear()
        timer = await timer_store.next_timer(self.db)
        delay = self.recheck_seconds if timer is None else timer.due_at - time.time()
        if delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._wakeup.wait(), timeout=min(delay, self.recheck_seconds)
                )
            return
        assert timer is not None
        if not await timer_store.claim_timer(self.db, timer.id, now=time.time()):
            return  # another process (or a delete) got there first
        handler = self._handlers.get(timer.event)
        if handler is None:
            log.warning("no handler for timer %s (%s); dropping it", timer.id, timer.event)
        else:
            try:
                await handler(timer)
            except Exception:
                log.exception("timer %s (%s) handler failed", timer.id, timer.event)
        await timer_store.delete_timer(self.db, timer.id)
