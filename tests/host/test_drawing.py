"""The drawing workers' stop (host/drawing.py): a bot stopped while its workers are still
starting ends them before it exits, as it does workers that are up."""

from __future__ import annotations

import threading
from concurrent.futures import process

from host.drawing import Drawing


def managers() -> list[threading.Thread]:
    """The process pools' manager threads still running in this process."""
    return [t for t in threading.enumerate() if isinstance(t, process._ExecutorManagerThread)]


def seven() -> int:
    return 7


async def test_workers_still_starting_end_before_the_stop_returns():
    """A SIGTERM just after the first turn was drawn (the workers starting in the background)
    left their pool to end on its own: its manager thread could close its wake-up pipe as the
    interpreter's exit wrote to it, and the bot's log ended on a Bad file descriptor traceback
    (seen in a CI run: a bot stopped as it started)."""
    before = managers()
    drawing = Drawing(1)
    drawing.start([])
    assert await drawing(seven) == 7  # drawn in the thread; the workers start meanwhile
    await drawing.stop()
    started = drawing._starting  # what a stop must not leave behind: the start in progress
    assert started is not None and started.done()
    assert [t for t in managers() if t not in before] == []
