"""What every cog shares: user-facing errors, the error reporter, per-game locks, permission
checks and the caps that keep every reply inside Discord's limits. Nothing about any one game
lives here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Iterable

import discord
from discord import app_commands

from db.database import Database, LockTimeout
from db.games import StaleGameError
from rules.errors import PlayerError

log = logging.getLogger(__name__)

UNEXPECTED_ERROR = (
    "Something went wrong on our side and it has been logged. Nothing was changed: try again, "
    "and if it keeps happening tell the server's admins."
)

BUSY = (
    "This match is busy with another move that is taking long. Nothing of yours was changed: "
    "try again in a minute."
)
STALE = (
    "Another move on this match was saved first, so yours was not: nothing of yours was "
    "changed. Look at the latest turn message and try again."
)

MAX_CONTENT = 2000  # Discord's limit for a message's content
MAX_QUOTE = 60  # how much of what a user typed is quoted back in an answer


class UserError(PlayerError):
    """A mistake the user can fix outside any engine (a bad option, someone else's match): the
    message is shown to them, ephemerally, as it is. Engines raise their own PlayerError."""


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """What the user typed, as inline code, cut to `limit` characters so no answer that quotes
    it can outgrow a Discord message."""
    text = text.replace("`", "'").replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"`{text}`"


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """Cut a message to Discord's limit (the last safety net; answers are written to fit)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# What Discord's own check failures mean to a player.
def _check_failure_text(error: app_commands.AppCommandError) -> str | None:
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(p.replace("_", " ") for p in error.missing_permissions)
        return f"You need the {needed} permission to do that."
    if isinstance(error, app_commands.BotMissingPermissions):
        return missing_permissions_text(error.missing_permissions)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command only works in a server channel, not in DMs."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, app_commands.TransformerError):
        return f"`{error.value}` is not a valid value there."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use that command here."
    return None


def user_message_for(error: BaseException) -> str | None:
    """The player-facing text for an error they caused, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, PlayerError):
        return str(error)
    if isinstance(error, StaleGameError):  # the version check on save refused a stale move
        return STALE
    if isinstance(error, app_commands.AppCommandError):
        return _check_failure_text(error)
    return None


async def send_ephemeral(interaction: discord.Interaction, content: str, **kwargs) -> None:
    """Answer ephemerally whether or not the interaction was already acknowledged. An expired
    interaction gets nothing visible (never a public ping): it is logged instead."""
    content = fit(content)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=True, **kwargs)
    except discord.NotFound:
        log.info("interaction of user %s expired before it was answered", interaction.user.id)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one place errors from commands and components end: a user's mistake gets its
    message; anything else is logged with its traceback and the user hears that it failed."""
    message = user_message_for(error)
    if message is None:
        original = getattr(error, "original", error)
        log.error(
            "unexpected error in %s by user %s",
            getattr(interaction.command, "qualified_name", None)
            or (interaction.data or {}).get("custom_id"),
            interaction.user.id,
            exc_info=(type(original), original, original.__traceback__),
        )
        message = UNEXPECTED_ERROR
    try:
        await send_ephemeral(interaction, message)
    except discord.HTTPException:
        log.exception("could not tell user %s about an error", interaction.user.id)


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

    def __call__(self, key: object) -> GameLock:
        lock = self._locks.get(key)
        if lock is None:
            lock = GameLock(key, self)
            self._locks[key] = lock
        return lock

    async def drain(self, timeout: float) -> None:
        """At shutdown: let the moves being applied now finish (up to `timeout` seconds), so a
        SIGTERM does not cut a move between its save and its message."""

        async def wait_all() -> None:
            for lock in list(self._locks.values()):
                await lock.wait_free()

        try:
            await asyncio.wait_for(wait_all(), timeout)
        except TimeoutError:
            log.warning("shutting down with a move still in progress")


PERMISSION_NAMES = {
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "create_public_threads": "Create Public Threads",
    "read_message_history": "Read Message History",
}


def missing_permissions_text(missing: Iterable[str]) -> str:
    names = ", ".join(PERMISSION_NAMES.get(p, p.replace("_", " ").title()) for p in missing)
    return (
        f"I can't play here: I'm missing the {names} permission in this channel. "
        "Ask a server admin to grant it to the Ballcourt role, or use another channel."
    )


def require_bot_permissions(interaction: discord.Interaction, *names: str) -> None:
    """Raise UserError naming what the bot lacks in this channel (Discord tells us in the
    interaction's app_permissions, so no extra request is needed)."""
    if interaction.guild is None:
        return
    granted = interaction.app_permissions
    missing = [name for name in names if not getattr(granted, name, False)]
    if missing:
        raise UserError(missing_permissions_text(missing))


def missing_after_save_text(what: str, error: discord.HTTPException, recover: str) -> str:
    """What a player is told when their move was saved but its message could not be posted."""
    reason = (
        "I'm missing a permission there"
        if isinstance(error, discord.Forbidden)
        else "Discord refused the message"
    )
    return f"{what} was saved, but I couldn't post it: {reason}. {recover}"
