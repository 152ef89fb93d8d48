"""The fake's data model: guilds, users and their membership, channels and DMs, permissions,
and the JSON Discord sends for them (GUILD_CREATE, members, roles, the application)."""

from __future__ import annotations

import copy
import datetime
import threading
from typing import Any

from fakediscord.clock import CLOCK
from fakediscord.model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    DM,
    GUILD_TEXT,
    MEMBER_PERMISSIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Channel,
    Guild,
    User,
)
from fakediscord.parts import Parts


def now_iso() -> str:
    return datetime.datetime.fromtimestamp(CLOCK.time(), datetime.UTC).isoformat()


class World(Parts):
    """People and places: a mixin of ``FakeDiscord`` (its state is set up in its __init__)."""

    # --- people and places -------------------------------------------------------------------

    @property
    def guild(self) -> Guild:
        """The first guild: where everything happens unless a test names another."""
        return next(iter(self.guilds.values()))

    @property
    def bot_role_id(self) -> int:
        """The bot's managed role in the first guild (``Guild.bot_role_id`` in any guild)."""
        return self.guild.bot_role_id

    def _new_guild(self, name: str, shard: tuple[int, int] | None) -> Guild:
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(guild_id, name, self.owner.id, bot_role_id=self.ids.next())
        self.guilds[guild.id] = guild
        return guild

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """Another guild with the bot in it. ``shard=(k, count)`` picks an id that Discord
        routes to shard k of count, ``(id >> 22) % count == k``. Its owner is ``owner``; it
        has its own @everyone role (the guild's id) and bot role (``Guild.bot_role_id``).
        Every user (``add_user``, before or after) is a member of every guild, with the same
        permissions. A bot already connected gets GUILD_CREATE for it (it was invited), on the
        guild's shard; add guilds before the bot starts to have them in READY."""
        if not self._on_server_thread():
            return self.call_sync_coroutine(lambda: self._add_guild_and_announce(name, shard))
        guild = self._new_guild(name, shard)
        if self._loop is not None and self.bot_connected:
            self._loop.create_task(self.dispatch("GUILD_CREATE", self.joined_guild_json(guild)))
        return guild

    async def _add_guild_and_announce(self, name: str, shard: tuple[int, int] | None) -> Guild:
        guild = self._new_guild(name, shard)
        await self.dispatch("GUILD_CREATE", self.joined_guild_json(guild))
        return guild

    def joined_guild_json(self, guild: Guild) -> dict[str, Any]:
        """GUILD_CREATE for a guild the bot was just invited to: as Discord sends it, without
        the `unavailable` key (a guild that comes back after an outage has unavailable false),
        which is how a bot tells a join (discord.py's on_guild_join) from a return."""
        payload = self.guild_json(guild)
        payload.pop("unavailable", None)
        return payload

    def guild_of_channel(self, channel_id: int) -> Guild | None:
        """The guild of a text channel or thread; None for a DM (or an unknown channel)."""
        data = self.channels.get(channel_id)
        if data is None or not data.get("guild_id"):
            return None
        return self.guilds.get(int(data["guild_id"]))

    def _new_user(self, name: str) -> User:
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        return user

    def _add_member(self, user: User, permissions: int = MEMBER_PERMISSIONS) -> None:
        """A member of every guild (``roles`` are filled in per guild by ``member_json``)."""
        self.members[user.id] = {
            "user": user.to_json(),
            "nick": None,
            "avatar": None,
            "roles": [],
            "joined_at": now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        self.member_permissions[user.id] = (
            ALL_PERMISSIONS if user.id == self.owner.id else permissions
        )

    def _on_server_thread(self) -> bool:
        """State changes happen on the server's loop; other threads are marshalled there."""
        return self._thread is None or threading.current_thread() is self._thread

    def add_user(self, name: str, *, permissions: int = MEMBER_PERMISSIONS) -> User:
        """A new member of every guild, with the same ``permissions`` in each. The bot learns
        of members from GUILD_CREATE (so add them before it connects) or from the interactions
        they send (discord.add_user also announces)."""
        if not self._on_server_thread():
            return self.call_sync(lambda: self.add_user(name, permissions=permissions))
        user = self._new_user(name)
        self._add_member(user, permissions=permissions)
        return user

    def add_channel(self, name: str, *, deny_bot: int = 0, guild: Guild | None = None) -> Channel:
        """A text channel in ``guild`` (default the first); ``deny_bot`` removes permissions
        from the bot's role there."""
        if not self._on_server_thread():
            return self.call_sync(lambda: self.add_channel(name, deny_bot=deny_bot, guild=guild))
        guild = self.guilds[guild.id] if guild is not None else self.guild
        channel_id = self.ids.next()
        overwrites = []
        if deny_bot:
            overwrites.append(
                {"id": str(guild.bot_role_id), "type": 0, "allow": "0", "deny": str(deny_bot)}
            )
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": GUILD_TEXT,
            "guild_id": str(guild.id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": overwrites,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }
        self.channel_messages[channel_id] = []
        return self.channel_handle(channel_id)

    def channel_handle(self, channel_id: int) -> Channel:
        data = self.channels[channel_id]
        return Channel(
            id=channel_id,
            name=data.get("name") or "",
            type=data["type"],
            guild_id=int(data["guild_id"]) if data.get("guild_id") else None,
            parent_id=int(data["parent_id"]) if data.get("parent_id") else None,
        )

    def dm_channel_for(self, user: User) -> int:
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            channel_id = self.ids.next()
            self.dm_channels[user.id] = channel_id
            self.channels[channel_id] = {
                "id": str(channel_id),
                "type": DM,
                "last_message_id": None,
                "recipients": [user.to_json()],
                "flags": 0,
            }
            self.channel_messages[channel_id] = []
        return channel_id

    def bot_permissions_in(self, channel_id: int) -> int:
        """What the bot may do in a channel: its role, minus the channel's deny overwrites
        (a thread inherits its parent's)."""
        data = self.channels[channel_id]
        if data["type"] == DM:
            return MEMBER_PERMISSIONS
        if data.get("parent_id") and int(data["parent_id"]) in self.channels:
            data = self.channels[int(data["parent_id"])]
        guild = self.guilds[int(data["guild_id"])]
        permissions = BOT_PERMISSIONS
        for overwrite in data.get("permission_overwrites") or []:
            if int(overwrite["id"]) in (guild.bot_role_id, self.application_id):
                permissions &= ~int(overwrite["deny"])
                permissions |= int(overwrite["allow"])
        return permissions

    def member_permissions_in(self, user: User, channel_id: int) -> int:
        if self.channels[channel_id]["type"] == DM:
            return MEMBER_PERMISSIONS
        permissions = self.member_permissions.get(user.id, MEMBER_PERMISSIONS)
        return ALL_PERMISSIONS if permissions & ADMINISTRATOR else permissions

    def member_json(
        self, user: User, channel_id: int | None = None, *, guild: Guild | None = None
    ) -> dict[str, Any]:
        """The user as a member of ``guild`` (default: the channel's guild, else the first);
        with ``channel_id``, with their permissions there (as interactions carry them)."""
        if guild is None:
            guild = (self.guild_of_channel(channel_id) if channel_id else None) or self.guild
        member = copy.deepcopy(self.members[user.id])
        member["roles"] = [str(guild.bot_role_id)] if user.id == self.bot_user.id else []
        if channel_id is not None:
            member["permissions"] = str(self.member_permissions_in(user, channel_id))
        return member

    def guild_json(self, guild: Guild | None = None) -> dict[str, Any]:
        """GUILD_CREATE's payload for ``guild`` (default the first): its text channels, its
        active threads, its roles and every member."""
        guild = guild or self.guild
        guild_channels = [
            data
            for data in self.channels.values()
            if data.get("guild_id") == str(guild.id) and data["type"] == GUILD_TEXT
        ]
        threads = [
            data
            for data in self.channels.values()
            if data["type"] in (PUBLIC_THREAD, PRIVATE_THREAD)
            and data.get("guild_id") == str(guild.id)
            and not data["thread_metadata"]["archived"]
        ]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": self.roles_json(guild),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "max_members": 500000,
            "unavailable": False,
            "joined_at": now_iso(),
            "large": False,
            "member_count": len(self.members),
            "members": [
                self.member_json(self.users[user_id], guild=guild) for user_id in self.members
            ],
            "channels": copy.deepcopy(guild_channels),
            "threads": copy.deepcopy(threads),
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def roles_json(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """@everyone (the guild's id) and the bot's managed role, in ``guild`` (default the
        first)."""
        guild = guild or self.guild

        def role(role_id: int, name: str, permissions: int, position: int, **extra: Any) -> dict:
            return {
                "id": str(role_id),
                "name": name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": bool(extra),
                "mentionable": False,
                "flags": 0,
                **extra,
            }

        return [
            role(guild.id, "@everyone", MEMBER_PERMISSIONS, 0),
            role(
                guild.bot_role_id,
                "Ballcourt",
                BOT_PERMISSIONS,
                1,
                tags={"bot_id": str(self.application_id)},
            ),
        ]

    def application_json(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "Ballcourt",
            "icon": None,
            "description": "Ball games in chat (fake Discord)",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot_user.to_json(),
            "owner": self.owner.to_json(),
            "team": None,
            "verify_key": "0" * 64,
            "summary": "",
            "flags": 0,
            "interactions_endpoint_url": None,
            "tags": [],
        }
