"""The timer dispatcher, a service of the bot (`bot.timers`): one task sleeping until the next
durable timer (db/timers.py) is due.

Cogs register a handler per event name. The dispatcher survives restarts because the timers are
rows: on start-up, overdue ones fire at once. Whatever writes a timer (a move's transaction, a
league, a timer put off), the database tells the dispatcher once it commits (db/timers.py
notes every timer written), and one due before the dispatcher would look again wakes it. Due timers are claimed (written) in batches before
their handlers run (db/timers.py), so while the database refuses writes (read-only file, a lock
held elsewhere, a server down) nothing fires twice: the dispatcher backs off, doubling the wait
up to MAX_BACKOFF for an unexpected error, and says once in the log what is wrong, and again
once it works. While the database is unavailable it is tried every OUTAGE_RETRY seconds, and the
wait ends early as soon as any write of the bot's succeeds (a click, a move), so a reminder due
during an outage fires right after it, not a back-off later. A handler that meets the outage
halfway (a deadline settling its matches) has not failed: its timer and the rest of its batch
are given back and fire again once the database answers, as after a crash (handlers are
idempotent: they check the version or round they were written for).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from db import timers as timer_store
from db.database import BACKEND_ERRORS, Database, is_unavailable
from host.locks import ShuttingDown

log = logging.getLogger(__name__)

TimerHandler = Callable[[timer_store.Timer], Awaitable[None]]
# Handles every timer of its event in a claimed batch at once (one query for all of them
# instead of a few for each: reminders falling due together); it deals with each timer's own
# failure itself.
BatchHandler = Callable[[list[timer_store.Timer]], Awaitable[None]]

DEFAULT_RECHECK_SECONDS = 3600.0  # re-check at least hourly (clock changes, long suspends)
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0  # an unexpected error (a bug, not an outage) is tried again this often
# While the database is known to be down, it is tried again this often: nobody else may write to
# notice its return (a quiet night), and one failed query a second costs nothing, where a
# doubling back-off would leave a reminder due during the outage up to MAX_BACKOFF late.
OUTAGE_RETRY = 0.5
DELETE_EVERY_SECONDS = 0.25  # fired timers are deleted in batches, at least this often
FIRED = "timer %s (%s) due at %.3f fired"  # the log line of each timer fired
STOP_SECONDS = 3.0  # at shutdown, the most the dispatcher waits for a handler to give up


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
        self._batch_handlers: dict[str, BatchHandler] = {}
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._backoff = 0.0
        self._reported: str | None = None  # the problem already in the log
        self._fired: list[int] = []  # fired, not yet deleted (deleted in batches)
        self._kept: list[int] = []  # claimed, not fired: a shutdown came first (given back)
        self._retry: list[int] = []  # claimed, their handler met an outage: given back, refired
        self._deleted_at = 0.0
        # When the dispatcher looks at its timers next (time.time()); infinity while it is
        # looking: a timer written meanwhile may not have been seen.
        self._looks_at = float("inf")
        db.when_available(self.wake)
        db.when_timer_written(self._timer_written)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="timer-dispatcher")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            # A handler in a call that swallows the cancellation (a database driver waiting
            # on a server that is gone) must not hold the shutdown past its grace period: the
            # timer stays claimed by this process and the next start fires it again.
            done, _ = await asyncio.wait({self._task}, timeout=STOP_SECONDS)
            if not done:
                log.warning("the timer dispatcher did not stop in %.0f s; leaving it", STOP_SECONDS)
            elif not self._task.cancelled() and self._task.exception() is not None:
                # it had already stopped (e.g. never connected)
                log.info("the timer dispatcher had stopped: %s", self._task.exception())
            self._task = None
        if self._fired:  # fired timers not deleted would fire again at the next start
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._delete_fired(), 2.0)
        kept, self._kept, self._retry = self._kept + self._retry, [], []
        with contextlib.suppress(Exception):  # else the next start's release_claims frees them
            await asyncio.wait_for(timer_store.unclaim_timers(self.db, kept), 2.0)

    def register(self, event: str, handler: TimerHandler) -> None:
        self._handlers[event] = handler
        self._wakeup.set()

    def register_batch(self, event: str, handler: BatchHandler) -> None:
        """`handler` gets the timers of `event` that a claimed batch holds next to each other,
        in one call."""
        self._batch_handlers[event] = handler
        self._wakeup.set()

    def wake(self) -> None:
        """Look again at the earliest timer now."""
        self._wakeup.set()

    def _timer_written(self, due_at: float) -> None:
        """A committed transaction wrote a timer (any of them: a move's, a league's, one put
        off): if it falls due before the dispatcher would look again, it looks now."""
        if due_at < self._looks_at:
            self._wakeup.set()

    async def schedule(
        self, event: str, delay_seconds: float, payload: dict[str, Any]
    ) -> timer_store.Timer:
        now = time.time()
        return await timer_store.create_timer(self.db, event, now + delay_seconds, payload, now=now)

    async def cancel(self, event: str, **match: Any) -> int:
        return await timer_store.delete_timers_for(self.db, event, **match)

    async def _run(self) -> None:
        if self._wait_until_ready is not None:
            await self._wait_until_ready()
        released = False
        while True:
            # Nothing stops the dispatcher but a stop: whatever fails (the database, most
            # likely) is retried, the release of a previous run's claims included.
            try:
                if not released:
                    await timer_store.release_claims(self.db)
                    released = True
                await self._fire_due_timers()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database, most likely: back off and say so once
                await self._back_off(error)
            else:
                self._recovered()

    async def _back_off(self, error: Exception) -> None:
        problem = f"{type(error).__name__}: {error}"
        outage = is_unavailable(error)  # a handler's may come wrapped (a refusal raised from it)
        if outage:
            self._backoff = OUTAGE_RETRY
        else:
            self._backoff = min(MAX_BACKOFF, max(FIRST_BACKOFF, self._backoff * 2))
        if problem != self._reported:
            known = outage or isinstance(error, BACKEND_ERRORS)
            log.log(
                logging.WARNING if outage else logging.ERROR,
                "timers cannot be fired (%s); retrying with back-off up to %.0f s",
                problem,
                MAX_BACKOFF,
                exc_info=not known,
            )
            self._reported = problem
        # wake() ends the wait early: the database worked again for someone (a move)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wakeup.wait(), self._backoff)

    def _recovered(self) -> None:
        if self._reported is not None:
            log.info("timers work again")
        self._reported = None
        self._backoff = 0.0

    async def _delete_fired(self) -> None:
        fired, self._fired = self._fired, []
        try:
            await timer_store.delete_timers(self.db, fired)
        except BaseException:
            self._fired = fired + self._fired  # still claimed by this process: delete later
            raise
        self._deleted_at = time.monotonic()

    async def _fire_due_timers(self) -> None:
        self._wakeup.clear()
        self._looks_at = float("inf")
        if self._fired:
            await self._delete_fired()
        if self._retry:  # met an outage: claimable again, by this process or another
            await timer_store.unclaim_timers(self.db, self._retry)
            self._retry = []
        batch = await timer_store.claim_due(self.db, now=time.time())
        if not batch:
            timer = await timer_store.next_timer(self.db)
            delay = self.recheck_seconds if timer is None else timer.due_at - time.time()
            # due but not ours to claim (just taken by another process): look again shortly
            delay = min(max(delay, 0.05), self.recheck_seconds)
            self._looks_at = time.time() + delay
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=delay)
            return
        self._deleted_at = time.monotonic()
        pending = list(batch)
        commits = self.db.commits
        while pending:
            if self.db.commits != commits:  # a handler wrote: it may have replaced timers
                ours = await timer_store.still_claimed(self.db, [t.id for t in pending])
                pending = [t for t in pending if t.id in ours]
                commits = self.db.commits
                if not pending:
                    break
            timer = pending.pop(0)
            run = [timer]
            batch_handler = self._batch_handlers.get(timer.event)
            while batch_handler is not None and pending and pending[0].event == timer.event:
                run.append(pending.pop(0))
            handler = self._handlers.get(timer.event)
            if batch_handler is None and handler is None:
                log.warning("no handler for timer %s (%s); dropping it", timer.id, timer.event)
            else:
                try:
                    if batch_handler is not None:
                        await batch_handler(run)
                    elif handler is not None:
                        await handler(timer)
                except ShuttingDown:
                    # A restart's drain closed the match locks: these timers and the rest of the
                    # batch stay claimed by this run, and the next start releases and fires them.
                    log.info("timer %s (%s) left for the next start", timer.id, timer.event)
                    self._kept += [t.id for t in (*run, *pending)]
                    break
                except Exception as error:
                    if not is_unavailable(error):
                        log.exception("timer %s (%s) handler failed", timer.id, timer.event)
                    else:
                        # An outage is no failure of the handler: as after a crash, its timers
                        # and the rest of the batch (which would meet it too) are given back,
                        # and fire again once the database answers (handlers are idempotent).
                        log.info("timer %s (%s) waits for the database", timer.id, timer.event)
                        self._retry += [t.id for t in (*run, *pending)]
                        raise
                else:
                    # one line per firing: a timer fired twice for one due time shows in the log
                    # (bench/invariants.py's timers-once)
                    for fired in run:
                        log.info(FIRED, fired.id, fired.event, fired.due_at)
            self._fired += [t.id for t in run]
            if time.monotonic() - self._deleted_at >= DELETE_EVERY_SECONDS:
                await self._delete_fired()
        await self._delete_fired()
