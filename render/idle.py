"""Work a drawing process does ahead, while it has nothing to draw: `later`, `drawing`,
`start`.

Some of a turn's image can be made before the click that needs it: a Rocketball roll's whole
round GIF, the roll being the match's seeded dice's (also the bot's roll after a chip the card
places in one click), and the opening frame of a round whose aim is still the player's, the board as
it stands (render/rocketball/round.py). Done while the process is idle, it is off every click's
path; done between the clicks of a burst, it would only delay them. So a job given to `later`
runs once no turn has been drawn for `quiet` seconds and the bot has begun or ended no click
for as long (`clicked`: between two turns of a burst the worker is idle while the bot's event
loop loads, saves and answers the others, on the same cores), one job at a time: the likeliest
first (its `rank`: a card's suggested move before the next best, in every match), and within
a rank the newest (the match moved last is the likeliest to be clicked next); while turns are
being drawn it waits, and a turn that arrives during a job waits for that one job at most (a
few milliseconds).

Only a process that called `start` works ahead (host/drawing.py: a drawing worker, or the bot
itself when it draws in a thread, on one core); in any other `later` does nothing (the bot's
own process beside its workers: its event loop's time is the clicks'), and a job not done
costs only the time it would have saved: the turn that needs it does it itself.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger(__name__)

QUIET = 0.05  # seconds without a turn drawn before a job runs: a burst's clicks come closer
PENDING = 256  # jobs kept waiting at most; past it the oldest are dropped


class WorkAhead:
    """The jobs waiting for this process to be idle, and the thread that runs them."""

    def __init__(self, quiet: float = QUIET, pending: int = PENDING) -> None:
        self.quiet = quiet
        self.limit = pending
        self._lock = threading.Condition()
        # key -> (rank, job), in the order given
        self._pending: dict[Hashable, tuple[int, Callable[[], None]]] = {}
        self._drawing = 0  # turns being drawn now
        self._last_drawn = 0.0  # when the last one ended (time.monotonic)
        self._clicks: Any = None  # the bot's, shared: its latest click begun or ended (`clicks`)
        self._started = False

    @property
    def running(self) -> bool:
        return self._started

    def start(self, clicks: Any = None) -> None:
        """Run the jobs given to `later` in a thread of this process, each when it is idle;
        `clicks`: the bot's (`clicks()`), for it to be quiet as well."""
        with self._lock:
            if self._started:
                return
            self._started = True
            self._clicks = clicks
        threading.Thread(target=self._run, name="drawing-ahead", daemon=True).start()

    def later(self, key: Hashable, job: Callable[[], None], rank: int = 0) -> None:
        """Run `job` once this process is idle, after every job of a lower `rank` (a job of
        the same key given again replaces it); nothing before `start`."""
        if not self._started:
            return
        with self._lock:
            self._pending.pop(key, None)
            self._pending[key] = (rank, job)
            while len(self._pending) > self.limit:
                del self._pending[next(iter(self._pending))]
            self._lock.notify()

    @contextmanager
    def drawing(self) -> Iterator[None]:
        """Around each turn drawn: no job starts meanwhile, nor until `quiet` after it."""
        with self._lock:
            self._drawing += 1
        try:
            yield
        finally:
            with self._lock:
                self._drawing -= 1
                self._last_drawn = time.monotonic()
                self._lock.notify()

    def _next_job(self) -> Callable[[], None]:
        """The newest job of the lowest rank, once the process is idle (under the lock)."""
        while True:
            last = self._last_drawn
            if self._clicks is not None:  # set by the bot's process, not under this lock
                last = max(last, self._clicks.value)
            waited = time.monotonic() - last
            if self._pending and not self._drawing and waited >= self.quiet:
                # min keeps the first of equals: newest first, a few hundred jobs at most
                key = min(reversed(self._pending), key=lambda k: self._pending[k][0])
                return self._pending.pop(key)[1]
            busy = not self._pending or self._drawing
            self._lock.wait(None if busy else self.quiet - waited)

    def _run(self) -> None:
        while True:
            with self._lock:
                job = self._next_job()
            try:
                job()
            except Exception:  # only ever a saving: the turn that needs it does it itself
                log.exception("work done ahead failed; the turn that needs it does it")


_ahead = WorkAhead()  # this process's
start = _ahead.start
later = _ahead.later
drawing = _ahead.drawing


def running() -> bool:
    """Whether this process works ahead (`start` was called)."""
    return _ahead.running


_clicks: Any = None  # made once in the bot's process (`clicks`)


def clicks() -> Any:
    """When the bot last began or ended answering a click (time.monotonic, which every process
    of the machine shares), in memory its drawing workers share: made once in the bot's
    process and handed to `start` in each worker (host/drawing.py). None where this machine
    has no shared memory for it: work ahead then waits for its own process's turns only."""
    global _clicks
    if _clicks is None:
        try:
            _clicks = multiprocessing.get_context("forkserver").RawValue("d", 0.0)
        except OSError as error:  # no /dev/shm
            log.warning("work ahead will not wait for the bot's clicks (%s)", error)
            return None
    return _clicks


def clicked() -> None:
    """The bot began or ended answering a click (host/gate.py): no work ahead until it has been
    quiet for a while."""
    if _clicks is not None:
        _clicks.value = time.monotonic()
