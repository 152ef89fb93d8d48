"""Work the bot runs beside its events (a start-up repair): started once, stopped at shutdown.

A task's failure is logged when it happens, with its traceback. A task that fails and is never
awaited would otherwise be reported only when the garbage collector finds it ("Task exception
was never retrieved"), long after, or not at all; and stopping a task that already failed must
not raise its old error into the shutdown."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

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
