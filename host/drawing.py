"""Where turn images are drawn: warm worker processes, or a thread of the bot's own.

Pillow's GIF encoder holds the interpreter lock while it compresses a frame (a round GIF's
whole first frame is about a third of a click's work), so a turn drawn in a thread stalls the
event loop meanwhile: every other click, save and gateway event waits (bench/README.md, "Busy
servers"). Drawn in a worker process, the event loop runs on. On one core the processes would
only add the pickling, so there the thread stays (config.py: RENDER_PROCESSES).

The workers are forked from a server that imported the games' drawing code once, and started
with the bot, so no click waits for a worker to start. A worker that dies (the kernel's
out-of-memory killer, an operator's kill) costs no card: the turns it left are drawn in the
thread and the workers started again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


def _end_with(bot_pid: int) -> None:
    """A worker's initializer: it ends when the bot does. A worker waits for jobs on a queue
    it also holds the writing end of, and the fork server lives as long as a worker does, so
    after a bot killed outright (SIGKILL, the out-of-memory killer) both would stay for good,
    holding their memory, one set more after every crash."""

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
    """Draws calls off the event loop: in `workers` processes, or a thread when 0."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._warming: asyncio.Task[None] | None = None

    def start(self, modules: Iterable[str]) -> None:
        """Start the workers, each with `modules` imported (the presenters whose `draw_turn`
        the calls name), in the background: the bot goes on starting meanwhile."""
        if not self.workers:
            return
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(sorted(set(modules)))
        self._start_pool(context)

    def _start_pool(self, context: BaseContext | None = None) -> None:
        try:
            pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context or multiprocessing.get_context("forkserver"),
                initializer=_end_with,
                initargs=(os.getpid(),),
            )
        except OSError as error:  # no /dev/shm for its locks, a start-up cut short
            self._in_a_thread(error)
            return
        self._pool = pool

        def warm() -> None:
            # One job each, at once: the pool starts a process per job while none is idle.
            # Starting one waits for the fork server (its imports, the first time), so it is
            # done here in a thread, not on the event loop.
            for job in [pool.submit(_ready) for _ in range(self.workers)]:
                job.result()

        async def warmed() -> None:
            try:
                await asyncio.to_thread(warm)
            except BrokenProcessPool:
                pass  # a worker killed while starting: the next drawing replaces the pool
            except OSError as error:  # no process could be started
                if self._pool is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._in_a_thread(error)
            else:
                log.info("drawing in %d worker process(es)", self.workers)

        self._warming = asyncio.get_running_loop().create_task(warmed())

    def _in_a_thread(self, error: OSError) -> None:
        log.warning("drawing workers could not start (%s): turns are drawn in a thread", error)
        self._pool = None

    async def __call__(self, call: Callable[[], T]) -> T:
        pool = self._pool
        if pool is None:
            return await asyncio.to_thread(call)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, call)
        except BrokenProcessPool:
            if self._pool is pool:  # the first of the calls it failed replaces it
                log.warning(
                    "a drawing worker ended abruptly: its turns are drawn in a thread, and the "
                    "workers are started again"
                )
                pool.shutdown(wait=False, cancel_futures=True)
                self._start_pool()
            return await asyncio.to_thread(call)

    async def stop(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
