"""What every league shares (Volleyball's leagues, Rollerball II's seasons): who runs them.

A league is run by the server's admins: members with Manage Server (or Administrator), members
with the server's league admin role (`/settings server admin_role`, docs/async-play.md, "A
server's settings") and, where a league has one, members with its own admin role. They start,
extend, pause and resume it and play its round or matchday at once; nobody else may.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from db import settings as settings_store
from ui import UserError
from ui.formats import human_join
from ui.permissions import is_server_admin


def is_league_admin(interaction: discord.Interaction, role_ids: Iterable[int | None] = ()) -> bool:
    """Manage Server or Administrator, or one of `role_ids` (the server's league admin role,
    the league's own)."""
    if is_server_admin(interaction):
        return True
    wanted = set(role_ids) - {None}
    roles = getattr(interaction.user, "roles", [])
    return any(role.id in wanted for role in roles)


async def require_league_admin(
    db: Any,
    interaction: discord.Interaction,
    league_role_id: int | None = None,
    *,
    what: str = "do that",
) -> None:
    """A UserError unless the caller runs leagues here: the message names the roles that may,
    and `what` says what they may do."""
    if is_league_admin(interaction, [league_role_id]):
        return
    server_role = None
    if interaction.guild_id is not None:
        server_role = (await settings_store.server_settings(db, interaction.guild_id)).admin_role_id
    if is_league_admin(interaction, [league_role_id, server_role]):
        return
    roles = [f"<@&{role}>" for role in (league_role_id, server_role) if role is not None]
    also = f" or the role {human_join(roles)}" if roles else ""
    raise UserError(f"Only server admins (the Manage Server permission){also} can {what}.")
