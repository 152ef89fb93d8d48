"""Where turn images are drawn: warm worker processes, or a thread of the bot's own.

Pillow's GIF encoder holds the interpreter lock while it compresses a frame (a round GIF's
whole first frame is about a third of a click's work), so a turn drawn in a thread stalls the
event loop meanwhile: every other click, save and gateway event waits (bench/README.md, "Busy
servers"). Drawn in a worker process, the event loop runs on. On one core the processes would
only add the pickling, so there the thread stays (config.py: RENDER_PROCESSES).

The workers are forked from a server that imported the games' drawing code once, and start
with the first turn to draw, which the thread draws meanwhile, so no click waits for a worker
to start. A worker that dies (the kernel's out-of-memory killer, an operator's kill) costs no
card: the turns it left are drawn in the thread and the workers started again.

A worker works ahead while it is idle (render/idle.py): a part of the next turn's image known
before its click (a Rocketball round whose roll the seeded dice have decided) is made between
clicks, not during one. Without workers (one core) the bot's own process does, in a thread: a
click arriving meanwhile waits for that one frame at most, as it waits for a turn drawn in the
thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TypeVar

from render import idle

T = TypeVar("T")
# How long a stop waits for the workers to end (a turn being drawn takes milliseconds).
STOP_WAIT = 5.0

log = logging.getLogger(__name__)


def _end_with(bot_pid: int) -> None:
    """A worker's initializer: it ends when the bot does, and only then. A worker waits for
    jobs on a queue it also holds the writing end of, and the fork server lives as long as a
    worker does, so after a bot killed outright (SIGKILL, the out-of-memory killer) both would
    stay for good, holding their memory, one set more after every crash. The signals a
    terminal or a process manager sends the bot's whole process group (Ctrl-C's SIGINT, a
    SIGTERM) are the bot's to act on: a worker that took them printed a KeyboardInterrupt
    traceback under the bot's orderly stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def watch() -> None:
        try:
            handle = os.pidfd_open(bot_pid)
        except ProcessLookupError:
            os._exit(0)
        except (AttributeError, OSError):  # no pidfd (not Linux, or before 5.3): look again
            while os.getppid() != 1 and _alive(bot_pid):
                time.sleep(2)
            os._exit(0)
        select.select([handle], [], [])  # readable once the bot has ended
        os._exit(0)

    threading.Thread(target=watch, name="bot-watch", daemon=True).start()


def _start_worker(bot_pid: int, clicks: object) -> None:
    """A worker's initializer: it ends with the bot, and works ahead while idle, the bot's
    clicks included (render/idle.py `clicks`)."""
    _end_with(bot_pid)
    idle.start(clicks)


def _drawn(call: Callable[[], T]) -> T:
    """A turn drawn: no work ahead starts meanwhile (render/idle.py)."""
    with idle.drawing():
        return call()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _ready() -> int:
    """A worker's first job: it is up (its imports done in the fork server)."""
    return os.getpid()


class Drawing:
    """Draws calls off the event loop: in `workers` processes, or a thread when 0.

    The workers start with the first turn to draw, in the background, that turn and any
    other until they are up being drawn in the thread: a bot that draws nothing (one being
    stopped as it starts, a server without matches) starts no process, and no click waits
    for one to start."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None  # set once its workers are up
        self._starting: asyncio.Task[None] | None = None
        self._stopped = False
        self._ended = False  # the stop is over
        # when the bot last began or ended a click, shared with the workers (render/idle.py)
        self._clicks = idle.clicks()

    def start(self, modules: Iterable[str]) -> None:
        """The workers will import `modules` (the presenters whose `draw_turn` the calls
        name) once, in the fork server they are forked from."""
        if self.workers:
            multiprocessing.get_context("forkserver").set_forkserver_preload(sorted(set(modules)))
        else:  # one core: the bot's own process works ahead between turns, as a worker would
            idle.start(self._clicks)

    def _start_workers(self) -> None:
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(self._started())

    async def _started(self) -> None:
        try:
            pool = await asyncio.to_thread(self._warm_pool)
        except OSError as error:  # no /dev/shm for its locks, no process could start
            self.workers = 0
            log.warning("drawing workers could not start (%s): turns are drawn in a thread", error)
            return
        except BrokenProcessPool:
            return  # a worker killed while starting: the next turn starts them again
        if self._ended:  # up after the stop gave up waiting for them
            pool.shutdown(wait=False, cancel_futures=True)
            return
        self._pool = pool
        log.info("drawing in %d worker process(es)", self.workers)

    def _warm_pool(self) -> ProcessPoolExecutor:
        """A pool with every worker up. In a thread: starting a worker waits for the fork
        server (its imports, the first time)."""
        pool = ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_start_worker,
            initargs=(os.getpid(), self._clicks),
        )
        try:
            # one job each, at once: the pool starts a process per job while none is idle
            for job in [pool.submit(_ready) for _ in range(self.workers)]:
                job.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        return pool

    async def __call__(self, call: Callable[[], T]) -> T:
        pool = self._pool
        if pool is None:
            if self.workers and not self._stopped:
                self._start_workers()
            return await asyncio.to_thread(_drawn, call)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, partial(_drawn, call))
        except BrokenProcessPool:
            if self._pool is pool:  # the first of the calls it failed starts them again
                log.warning(
                    "a drawing worker ended abruptly: its turns are drawn in a thread, and the "
                    "workers are started again"
                )
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                self._start_workers()
            return await asyncio.to_thread(_drawn, call)

    async def stop(self) -> None:
        """The workers end, and the pool's manager thread with them, before the bot does:
        left to end on its own, that thread could be closing its wake-up pipe as the
        interpreter's exit wrote to it (Python 3.11's concurrent.futures checks the pipe, then
        writes, with no lock between), and the bot's last words were a traceback."""
        self._stopped = True  # no turn starts them again
        if self._starting is not None and not self._starting.done():
            # workers still starting (a stop as the bot starts): waited for, so that they
            # end below like workers that are up; past STOP_WAIT `_started` ends them itself
            await asyncio.wait({self._starting}, timeout=STOP_WAIT)
        if self._pool is not None:
            pool, self._pool = self._pool, None
            # One call that waits: a first shutdown(wait=False) forgets the manager thread, and
            # a second then has nothing to join.
            ending = asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
            with contextlib.suppress(TimeoutError):  # a worker stuck in a turn is not waited for
                await asyncio.wait_for(ending, STOP_WAIT)
        self._ended = True
