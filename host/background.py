"""Work the bot runs beside its events (a start-up repair): started once, stopped at shutdown;
and work that waits for the database to answer again after an outage (`until_done`).

A task's failure is logged when it happens, with its traceback. A task that fails and is never
awaited would otherwise be reported only when the garbage collector finds it ("Task exception
was never retrieved"), long after, or not at all; and stopping a task that already failed must
not raise its old error into the shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from db.database import is_unavailable
from host.locks import ShuttingDown

if TYPE_CHECKING:
    from db.database import Database

log = logging.getLogger(__name__)


def started(name: str, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    """`work` running as a task named `name`; if it fails, the failure is logged at once."""
    task = asyncio.create_task(work, name=name)
    task.add_done_callback(_report)
    return task


def _report(task: asyncio.Task[None]) -> None:
    if task.cancelled():
        return  # stopped: the shutdown's, not a failure
    error = task.exception()
    if error is not None:
        log.error("%s failed", task.get_name(), exc_info=error)


async def stopped(task: asyncio.Task[None] | None) -> None:
    """Cancel `task` and wait until it has ended (a failure it ended with was logged)."""
    if task is None:
        return
    task.cancel()
    await asyncio.wait([task])


FIRST_RETRY_SECONDS = 1.0
MAX_RETRY_SECONDS = 30.0


async def until_done(what: str, db: Database, attempt: Callable[[], Awaitable[None]]) -> None:
    """Run `attempt` until it ends without the database being unavailable: after such a
    failure, wait (1 s, doubling up to 30 s, or until the database works again for anyone) and
    run it again. Said once in the log, and again when it worked."""
    delay = FIRST_RETRY_SECONDS
    woken = asyncio.Event()
    wake = woken.set
    retried = False
    try:
        while True:
            try:
                await attempt()
            except ShuttingDown:
                log.info("%s stopped by the shutdown; the next start does it again", what)
                return
            except Exception as error:
                if not is_unavailable(error):
                    raise
                if not retried:
                    log.warning("%s waits for the database (%s); it is tried again", what, error)
                    db.when_available(wake)
                retried = True
                woken.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), delay)
                delay = min(MAX_RETRY_SECONDS, delay * 2)
                continue
            if retried:
                log.info("%s done after the database came back", what)
            return
    finally:
        if retried:  # many waits come and go during outages: none stays registered
            db.forget_available(wake)


_later: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to its tasks


def done_later(what: str, db: Database, attempt: Callable[[], Awaitable[None]]) -> None:
    """`attempt` run in the background until it ends without the database being unavailable
    (`until_done`): one that has just met the database unavailable, or one its caller must not
    wait for (an admin answered before the posts a change freed); any other failure is logged
    when it happens."""
    task = started(what, until_done(what, db, attempt))
    _later.add(task)
    task.add_done_callback(_later.discard)
