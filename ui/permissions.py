"""The bot's own permissions in a channel, checked before anything is stored and explained to
the user when missing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

from rules.errors import PlayerError


def is_server_admin(interaction: discord.Interaction) -> bool:
    """Manage Server or Administrator: who changes a server's settings, runs its leagues and
    manages anyone's team there."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


class PermissionMissing(PlayerError):
    """The bot lacks a permission it needs in this channel: the message says which."""


PERMISSION_NAMES = {
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "create_public_threads": "Create Public Threads",
    "read_message_history": "Read Message History",
    "view_channel": "View Channel",
}


# Discord's answers to a request the bot's permissions do not allow: "Missing Access" (50001,
# no View Channel) and "Missing Permissions" (50013), both 403 (Opcodes and Status Codes, "JSON
# Error Codes").
REFUSED_CODES = (50001, 50013)
# What a match needs where it is played, besides View Channel (in a thread: Send Messages in
# Threads on its channel).
IN_THREAD = ("send_messages_in_threads", "embed_links", "attach_files")
IN_CHANNEL = ("send_messages", "embed_links", "attach_files")


def refused_for_permission(error: BaseException) -> bool:
    """Whether Discord refused a request because the bot lacks a permission where it made it
    (a moderator took it away, or never gave it)."""
    original = getattr(error, "original", error)
    return isinstance(original, discord.Forbidden) and original.code in REFUSED_CODES


def missing_in(channel: Any, member: Any, *, in_thread: bool) -> list[str]:
    """The permissions a match needs that `member` (the bot) lacks in `channel`, as the cache
    knows them. For a thread pass its channel (`in_thread`): the thread may be archived (out
    of the cache), and discord.py's thread permissions also deny Embed Links and Attach Files
    when only Send Messages in Threads is missing."""
    if not isinstance(channel, discord.abc.GuildChannel):
        return []
    return _missing(channel.permissions_for(member), in_thread=in_thread)


def _missing(granted: discord.Permissions, *, in_thread: bool) -> list[str]:
    if not granted.view_channel:  # without it every other one reads as denied too
        return ["view_channel"]
    needed = IN_THREAD if in_thread else IN_CHANNEL
    return [name for name in needed if not getattr(granted, name)]


def missing_here(interaction: discord.Interaction) -> list[str]:
    """What the bot lacks where `interaction` came from: its cache of the channel (a thread's
    channel), which CHANNEL_UPDATE keeps current, else the permissions Discord sent with the
    interaction (`app_permissions`, as they were when it was made)."""
    channel = interaction.channel
    in_thread = isinstance(channel, discord.Thread)
    parent = channel.parent if isinstance(channel, discord.Thread) else channel
    if interaction.guild is None:
        return []
    if isinstance(parent, discord.abc.GuildChannel):
        return missing_in(parent, interaction.guild.me, in_thread=in_thread)
    return _missing(interaction.app_permissions, in_thread=in_thread)


def permission_names(missing: Sequence[str]) -> str:
    """ "the Attach Files permission", "the Embed Links and Attach Files permissions"."""
    names = [PERMISSION_NAMES.get(name, name.replace("_", " ").title()) for name in missing]
    if len(names) == 1:
        return f"the {names[0]} permission"
    return "the " + ", ".join(names[:-1]) + f" and {names[-1]} permissions"


def refused_text(interaction: discord.Interaction) -> str:
    """What a player hears when Discord refused what their click or command made the bot do
    for a permission it lacks there: which one, and that nothing was changed (a move that was
    saved is told by the match host instead, host/posting.py)."""
    where = "this thread" if isinstance(interaction.channel, discord.Thread) else "this channel"
    missing = missing_here(interaction)
    what = permission_names(missing) if missing else "a permission"
    return (
        f"I couldn't show that: I'm missing {what} in {where}. Nothing was changed: a server "
        "admin can give it to the Ballcourt role, then try again."
    )


def missing_permissions_text(missing: Iterable[str]) -> str:
    names = ", ".join(PERMISSION_NAMES.get(p, p.replace("_", " ").title()) for p in missing)
    return (
        f"I can't play here: I'm missing the {names} permission in this channel. "
        "Ask a server admin to grant it to the Ballcourt role, or use another channel."
    )


def require_bot_permissions(interaction: discord.Interaction, *names: str) -> None:
    """Raise PermissionMissing naming what the bot lacks in this channel (Discord tells us in the
    interaction's app_permissions, so no extra request is needed)."""
    if interaction.guild is None:
        return
    granted = interaction.app_permissions
    missing = [name for name in names if not getattr(granted, name, False)]
    if missing:
        raise PermissionMissing(missing_permissions_text(missing))
