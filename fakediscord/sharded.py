"""The fake Discord's gateway as it is for a sharded bot (issue 14).

Each IDENTIFY carries `shard: [id, count]`; a guild's events go only to the connection of its
shard, `(guild_id >> 22) % count`, as Discord routes them. The fake has one guild, so of two
bot processes with one shard each, one gets the guild (READY lists it, GUILD_CREATE follows, its
interactions and messages arrive there) and the other gets READY with no guild. REST is not
sharded: any process may post anywhere, as with Discord.
"""

from __future__ import annotations

from typing import Any

from fakediscord.gateway import GatewaySession
from fakediscord.server import FakeDiscord


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


class ShardedFakeDiscord(FakeDiscord):
    """A FakeDiscord whose gateway sessions are per shard. `session` (what the base class
    dispatches to) is always the session of the shard that has the guild."""

    def __init__(self, *, shard_count: int, **options: Any) -> None:
        super().__init__(**options)
        self.shard_count = shard_count
        self.shard_sessions: dict[int, GatewaySession] = {}
        self.identified_shards: list[tuple[int, int]] = []  # (id, count) of every IDENTIFY

    @property
    def guild_shard(self) -> int:
        return shard_of(self.guild.id, self.shard_count)

    def shard_connected(self, shard_id: int) -> bool:
        session = self.shard_sessions.get(shard_id)
        return session is not None and session.connection is not None

    async def on_identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        shard_id, count = data.get("shard") or [0, 1]
        self.identified_shards.append((shard_id, count))
        if count != self.shard_count:
            self.record_violation(
                "shards",
                f"IDENTIFY with shard [{shard_id}, {count}]: this bot has {self.shard_count}",
                "GATEWAY",
            )
        self.shard_sessions[shard_id] = session
        if shard_id == self.guild_shard:
            await super().on_identify(session, data)  # READY with the guild, GUILD_CREATE
            return
        if data.get("token") != self.token:
            self.record_violation("auth", "IDENTIFY with a token the fake did not issue", "GATEWAY")
        self.gateway_sessions[session.session_id] = session
        self.identify_count += 1
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False},
                "guilds": [],
                "session_id": session.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "geo_ordered_rtc_regions": [],
                "session_type": "normal",
                "shard": [shard_id, count],
            },
        )
        self.notify()
