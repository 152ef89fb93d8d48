"""The bot's own permissions in a channel, checked before anything is stored and explained to
the user when missing."""

from __future__ import annotations

from collections.abc import Iterable

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
