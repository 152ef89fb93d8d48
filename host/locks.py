"""One move at a time per match (or league): this process's asyncio lock, then the database's
cluster-wide hold on the same key."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref

from db.database import Database, LockTimeout
from ui.replies import BUSY, UserError

log = logging.getLogger(__name__)

# A click that comes while the bot shuts down (a restart or a deploy): refused before it starts a
# move that the closing HTTP session and database would cut in half.
SHUTTING_DOWN = "Ballcourt is restarting. Nothing of yours was changed: try again in a minute."


class ShuttingDown(UserError):
    """The match locks are closed for a restart. A player reads SHUTTING_DOWN; the bot's own
    work (a timer, the start-up repair) stops quietly and is done again by the next start."""


class GameLock:
    """The lock of one game (or league): this process's asyncio lock, then the database's
    cluster-wide hold on the same key (PostgreSQL: an advisory lock; SQLite: nothing more), so
    two clicks on one match queue even when they reach two processes of a cluster. The version
    check on save stays the second guard. One object per key (GameLocks keeps it while used)."""

    def __init__(self, key: object, locks: GameLocks) -> None:
        self.key = key
        self._locks = locks
        self._local = asyncio.Lock()
        self._hold: contextlib.AbstractAsyncContextManager[None] | None = None

    async def acquire(self) -> None:
        await self._local.acquire()
        if self._locks.closing:  # checked once it is this click's turn: it may have queued
            self._local.release()
            raise ShuttingDown(SHUTTING_DOWN)
        database = self._locks.database
        if database is None:
            return
        hold = database.hold(f"lock:{self.key!r}")
        try:
            await hold.__aenter__()
        except BaseException as error:
            self._local.release()
            if isinstance(error, LockTimeout):
                raise UserError(BUSY) from error
            raise
        self._hold = hold

    async def release(self) -> None:
        hold, self._hold = self._hold, None
        try:
            if hold is not None:
                await hold.__aexit__(None, None, None)
        finally:
            self._local.release()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.release()

    async def wait_free(self) -> None:
        """Until nobody in this process holds it."""
        async with self._local:
            pass


class GameLocks:
    """`bot.game_locks(key)`: the GameLock of a game id (or a league's key). A move is computed
    and saved while holding it, so two clicks on the same game queue instead of racing."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[object, GameLock] = weakref.WeakValueDictionary()
        self.database: Database | None = None  # set once the database is open (bot.py)
        # Set when the drain starts: no move starts after it (the gateway still delivers clicks
        # until the bot closes it, and they would run into the closed session and database).
        self.closing = False

    def __call__(self, key: object) -> GameLock:
        lock = self._locks.get(key)
        if lock is None:
            lock = GameLock(key, self)
            self._locks[key] = lock
        return lock

    async def drain(self, timeout: float) -> None:
        """At shutdown: let the moves being applied now finish (up to `timeout` seconds), so a
        SIGTERM does not cut a move between its save and its message. A click that comes
        meanwhile is refused (SHUTTING_DOWN), answered while the bot can still answer."""
        self.closing = True

        async def wait_all() -> None:
            for lock in list(self._locks.values()):
                await lock.wait_free()

        try:
            await asyncio.wait_for(wait_all(), timeout)
        except TimeoutError:
            log.warning("shutting down with a move still in progress")
