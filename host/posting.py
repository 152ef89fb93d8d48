"""What the match host does when Discord refuses to show a saved move (docs/operations.md,
"Faults over days"): the one place that reads Discord's refusals of a match's card and
messages.

- 50083, the match's thread was archived (a day without a message, or a moderator between a
  click and the bot's answer to it): it is reopened (``archived: false``) and the edit made
  again. A message sent there reopens it by itself.
- 10008, the card was deleted (a moderator): the host posts a new card (host/core.py `show_card`).
- 50001 / 50013, a permission was taken away: the move stays saved and its version unposted;
  the player who made it (or else the match's channel, once) hears which permission is missing
  where, and the card and the ping are posted again as soon as Discord says the permission is
  back (CHANNEL_UPDATE, a role's update, the bot invited again), or at the next move or restart;
  the leagues hear of it too (`Core.permission_listeners`) and post what it held back of theirs.
- 50027, an interaction's token expired (15 minutes): the card is edited as a message instead.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from db import games as game_store
from host.background import until_done
from host.locks import ShuttingDown
from host.recovery import finish_lost_move
from ui import channel_by_id, send_ephemeral
from ui.permissions import missing_in, permission_names, refused_for_permission
from ui.replies import edit_clicked, interaction_expired

if TYPE_CHECKING:
    from host.adapter import GameAdapter
    from host.base import Core

log = logging.getLogger(__name__)

T = TypeVar("T")

# A pick (nothing saved) on a card deleted since it was drawn; the game's board command after it.
CARD_DELETED = "This card was deleted, so nothing was changed: {board} shows the match again."
ARCHIVED_THREAD = 50083  # "Operation was performed on an archived thread"


def file_copies(files: Sequence[discord.File]) -> Callable[[], list[discord.File]]:
    """Fresh copies of `files` for each attempt (discord.py closes a file once it was sent)."""
    kept = []
    for file in files:
        file.reset()
        kept.append((file.fp.read(), file.filename or "image.png"))
    return lambda: [discord.File(io.BytesIO(data), filename=name) for data, name in kept]


async def reopening(bot: Any, channel: Any, attempt: Callable[[], Awaitable[T]]) -> T:
    """`attempt()` in a match's thread; if Discord says the thread is archived, open it again
    and make the attempt once more."""
    try:
        return await attempt()
    except discord.HTTPException as error:
        if error.code != ARCHIVED_THREAD:
            raise
    log.info("thread %s was archived: opening it again", channel.id)
    await reopen(bot, channel.id)
    return await attempt()


async def edit_clicked_reopening(
    bot: Any, interaction: discord.Interaction, **changes: Any
) -> None:
    """`edit_clicked` on a message in a match's thread, reopening the thread if it was archived
    since the click (Discord's client reopened it to send the click, but a moderator or its idle
    timer may archive it before the answer: an edit through an acknowledged interaction is then
    refused with 50083), and editing the message as the bot's own if the click's token expired
    meanwhile (50027). Images are sent afresh at each attempt. discord.NotFound: the message
    was deleted."""
    files = changes.pop("attachments", None)
    again = file_copies(files) if files else None

    def images() -> dict[str, Any]:
        return {"attachments": again()} if again is not None else {}

    async def attempt() -> None:
        try:
            await edit_clicked(interaction, **changes, **images())
        except discord.HTTPException as error:
            if not interaction_expired(error) or interaction.message is None:
                raise
            await interaction.message.edit(**changes, **images())

    if interaction.channel is None:
        await attempt()
    else:
        await reopening(bot, interaction.channel, attempt)


async def reopen(bot: Any, thread_id: int) -> None:
    """Unarchive a match's thread (an archived thread leaves discord.py's cache: fetched)."""
    thread = await bot.fetch_channel(thread_id)
    if isinstance(thread, discord.Thread) and thread.archived:
        await thread.edit(archived=False)


def missing_permissions(bot: Any, stored: game_store.StoredGame) -> list[str]:
    """The permissions a match needs that the bot lacks where it is played, as its cache knows
    them (read on the match's channel, its thread's too: ui.permissions.missing_in)."""
    channel = bot.get_channel(stored.channel_id)
    if not isinstance(channel, discord.abc.GuildChannel):
        return []
    return missing_in(channel, channel.guild.me, in_thread=bool(stored.thread_id))


def cause_of(
    bot: Any, stored: game_store.StoredGame, error: discord.HTTPException
) -> tuple[str, bool]:
    """Why Discord refused, in words naming the real cause, and whether it is a permission
    (then the post is tried again when the permission is back)."""
    where = "the match's thread" if stored.thread_id else f"<#{stored.channel_id}>"
    if bot.get_guild(stored.guild_id) is None:
        return "I'm not in the match's server any more (removed, or it is unavailable)", True
    if refused_for_permission(error):
        missing = missing_permissions(bot, stored)
        if missing:
            return f"I'm missing {permission_names(missing)} in {where}", True
        return f"I'm missing a permission in {where}", True
    if isinstance(error, discord.NotFound) and error.code == 10003:
        return f"{where} was deleted", False
    return f"Discord refused it ({error.status}, code {error.code}: {error.text})", False


async def refused(
    host: Core,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    error: discord.HTTPException,
    *,
    interaction: discord.Interaction | None,
    card_shown: bool,
) -> None:
    """A saved move Discord would not show (all of it, or the ping after the card): the
    version stays unposted, and the player who moved, else the match's channel (once per
    cause), hears the real cause and what fixes it."""
    cause, permission = cause_of(host.bot, stored, error)
    log.warning(
        "match %s version %s is saved but not shown: %s (%s)",
        stored.id,
        stored.version,
        cause,
        error,
    )
    shown = (
        "is saved and the card shows it, but I couldn't tell whoever moves next"
        if card_shown
        else "is saved, but I couldn't show it on the card"
    )
    fix = (
        "A server admin can give it to the Ballcourt role: the card and the ping follow by "
        f"themselves once it is back, or `{adapter.command('board')}` posts the card then."
        if permission
        else f"`{adapter.command('board')}` posts the card again."
    )
    text = f"{adapter.title} match #{stored.id}: the move {shown}: {cause}. {fix}"
    if interaction is not None:
        await send_ephemeral(interaction, text)
    else:
        await tell_channel(host, stored, cause, text)


async def reminder_refused(
    host: Core,
    adapter: GameAdapter,
    stored: game_store.StoredGame,
    error: discord.HTTPException,
) -> None:
    """A reminder Discord would not post: the match's channel hears why (once per cause); the
    next reminder or move tries again."""
    cause, permission = cause_of(host.bot, stored, error)
    log.warning("match %s: a reminder could not be posted: %s (%s)", stored.id, cause, error)
    fix = " A server admin can give it to the Ballcourt role." if permission else ""
    text = (
        f"{adapter.title} match #{stored.id} waits for a move, but I couldn't remind the "
        f"player there: {cause}.{fix}"
    )
    await tell_channel(host, stored, cause, text)


async def tell_channel(host: Core, stored: game_store.StoredGame, cause: str, text: str) -> None:
    """Say `text` in the channel the match was started in, where its players and the
    channel's admins look, once per match and cause (until the match is shown again)."""
    if (stored.id, cause) in host.told:
        return
    host.told.add((stored.id, cause))
    try:
        channel = await channel_by_id(host.bot, stored.channel_id)
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    except (discord.HTTPException, AttributeError) as also:
        log.warning("could not tell match %s's channel either: %s", stored.id, also)


async def post_unposted(host, *, guild_id: int, channel_id: int | None = None) -> None:
    """A cause may be gone (a permission given back, the bot invited again): every match in
    the guild (or that channel and its threads) with a saved move never shown gets it shown,
    a finishing move too."""
    kinds = tuple(host.adapters)
    stored_games = await game_store.open_games(host.bot.db, kinds)
    stored_games += await game_store.unshown_finished(host.bot.db, kinds)
    for stored in stored_games:
        if stored.guild_id != guild_id or stored.posted_version >= stored.version:
            continue
        if channel_id is not None and channel_id not in (stored.channel_id, stored.thread_id):
            continue
        try:
            await finish_lost_move(host, stored.id)
        except ShuttingDown:
            return  # the next start's repair shows it
        except Exception:
            log.exception("could not show match %s's saved move", stored.id)


# ---- a cause of a refusal gone: the bot's listeners ----------------------------------------


async def on_guild_channel_update(
    host: Core, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
) -> None:
    if before.overwrites != after.overwrites:
        await post_held_back(host, guild_id=after.guild.id, channel_id=after.id)


async def on_guild_role_update(host: Core, before: discord.Role, after: discord.Role) -> None:
    if before.permissions != after.permissions:
        await post_held_back(host, guild_id=after.guild.id)


async def on_guild_join(host: Core, guild: discord.Guild) -> None:
    await post_held_back(host, guild_id=guild.id)


async def post_held_back(host: Core, *, guild_id: int, channel_id: int | None = None) -> None:
    """`post_unposted` when a cause of a refusal is gone, then the leagues' posts it held back
    (`Core.permission_listeners`); a database unavailable then (a restart) does not lose the
    posts: they are tried again once it answers."""
    await until_done(
        "posting the cards a missing permission held back",
        host.bot.db,
        lambda: post_unposted(host, guild_id=guild_id, channel_id=channel_id),
    )
    for listener in host.permission_listeners:
        await listener(guild_id)
