"""The fake Discord's gateway as it is for a sharded bot (several bot processes, one shard
each, over one database: docs/operations.md, "Shards").

Each IDENTIFY carries `shard: [id, count]`; a guild's events go only to the session of its
shard, `(guild_id >> 22) % count`, as Discord routes them, and events of no guild (DMs) go to
shard 0. READY for shard k lists the guilds of shard k (maybe none) and a GUILD_CREATE follows
for each. With guilds on several shards (`add_guild(name, shard=(k, count))`), each bot process
gets its own guilds. REST is not sharded: any process may post anywhere, as with Discord.

A handover (`share_guild`): during a rolling re-shard an old and a new process both hold a
guild for a while. Every connected shard's session then holds the guild (those that did not get
GUILD_CREATE for it); its interactions go to the holders in turn (round robin, in shard order)
and its other events to all of them, until `unshare_guild`.
"""

from __future__ import annotations

from typing import Any

from fakediscord.gateway import GatewaySession
from fakediscord.model import Guild
from fakediscord.server import FakeDiscord


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


class ShardedFakeDiscord(FakeDiscord):
    """A FakeDiscord whose gateway sessions are per shard (``shard_sessions``). ``session`` is
    the last session to IDENTIFY; dispatches are routed by guild (``sessions_for``)."""

    def __init__(
        self, *, shard_count: int, first_guild_shard: int | None = None, **options: Any
    ) -> None:
        """``first_guild_shard``: the shard of the first guild (``guild``); by default it is
        wherever the clock puts it."""
        first = None if first_guild_shard is None else (first_guild_shard, shard_count)
        super().__init__(first_guild_shard=first, **options)
        self.shard_count = shard_count
        self.recommended_shards = shard_count
        self.shard_sessions: dict[int, GatewaySession] = {}
        self.identified_shards: list[tuple[int, int]] = []  # (id, count) of every IDENTIFY
        self.ready_guilds: dict[int, list[int]] = {}  # shard -> guild ids of its last READY
        self.shared_guilds: dict[int, list[int]] = {}  # guild id -> shards holding it
        self._turn: dict[int, int] = {}  # guild id -> interactions sent while shared
        # interaction id -> the shard its INTERACTION_CREATE went to (which process got it)
        self.interaction_shards: dict[int, int] = {}

    # --- which shard has what ------------------------------------------------------------------

    def shard_of_guild(self, guild: Guild | int) -> int:
        """The shard Discord routes the guild's events to (without a handover)."""
        return shard_of(guild if isinstance(guild, int) else guild.id, self.shard_count)

    def guilds_on_shard(self, shard_id: int) -> list[Guild]:
        """The guilds whose events Discord routes to ``shard_id``, in creation order."""
        return [guild for guild in self.guilds.values() if self.shard_of_guild(guild) == shard_id]

    def guild_on_shard(self, shard_id: int) -> Guild:
        """The first guild on ``shard_id``; LookupError if it has none (add one with
        ``add_guild(name, shard=(shard_id, shard_count))``)."""
        guilds = self.guilds_on_shard(shard_id)
        if not guilds:
            raise LookupError(f"no guild on shard {shard_id} of {self.shard_count}")
        return guilds[0]

    def holders(self, guild_id: int) -> list[int]:
        """The shards whose sessions hold the guild: its own, or every sharer in a handover."""
        return self.shared_guilds.get(guild_id) or [shard_of(guild_id, self.shard_count)]

    def guilds_held_by(self, shard_id: int) -> list[Guild]:
        return [guild for guild in self.guilds.values() if shard_id in self.holders(guild.id)]

    def shard_connected(self, shard_id: int) -> bool:
        session = self.shard_sessions.get(shard_id)
        return session is not None and session.connection is not None

    @property
    def bot_connected(self) -> bool:
        """Every shard that has identified is connected (so a stopped process is noticed,
        and a started one once it is connected)."""
        return bool(self.shard_sessions) and all(
            session.connection is not None for session in self.shard_sessions.values()
        )

    def connected_sessions(self) -> list[GatewaySession]:
        return [
            self.shard_sessions[shard]
            for shard in sorted(self.shard_sessions)
            if self.shard_connected(shard)
        ]

    def guild_connected(self, guild_id: int | None) -> bool:
        shards = [0] if guild_id is None else self.holders(guild_id)
        return any(self.shard_connected(shard) for shard in shards)

    # --- gateway -------------------------------------------------------------------------------

    async def on_identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        shard_id, count = data.get("shard") or [0, 1]
        self.identified_shards.append((shard_id, count))
        if count != self.shard_count:
            self.record_violation(
                "shards",
                f"IDENTIFY with shard [{shard_id}, {count}]: this bot has {self.shard_count}",
                "GATEWAY",
            )
        self.accept_identify(session, data)
        self.shard_sessions[shard_id] = session
        self.session = session
        guilds = self.guilds_held_by(shard_id)
        self.ready_guilds[shard_id] = [guild.id for guild in guilds]
        await self.send_ready(session, guilds, shard=[shard_id, count])

    def sessions_for(self, event: str, data: dict[str, Any]) -> list[GatewaySession]:
        """The session(s) of the shard(s) holding the event's guild; shard 0 for an event of
        no guild. A shared guild's INTERACTION_CREATE goes to one holder, in turn."""
        guild_id = self.guild_id_of_event(event, data)
        shards = [0] if guild_id is None else self.holders(guild_id)
        if event == "INTERACTION_CREATE":
            if guild_id in self.shared_guilds:
                turn = self._turn[guild_id]
                self._turn[guild_id] = turn + 1
                shards = [shards[turn % len(shards)]]
            self.interaction_shards[int(data["id"])] = shards[0]
        return [self.shard_sessions[shard] for shard in shards if shard in self.shard_sessions]

    # --- handover ------------------------------------------------------------------------------

    def share_guild(self, guild: Guild) -> list[int]:
        """Every connected shard's session holds ``guild`` from now on, as during a rolling
        re-shard: each that did not hold it gets GUILD_CREATE for it; its interactions then go
        to the holders in turn (the first to the lowest shard) and its other events to all.
        Returns the holding shards."""
        if self._loop is None or self._on_server_thread():
            raise RuntimeError(
                "share_guild waits on the fake's loop: start the fake and call it from a test"
            )
        return self.call_sync_coroutine(lambda: self._share(guild))

    async def _share(self, guild: Guild) -> list[int]:
        before = self.holders(guild.id)
        shards = sorted({*before, *(s for s in self.shard_sessions if self.shard_connected(s))})
        self.shared_guilds[guild.id] = shards
        self._turn[guild.id] = 0
        payload = self.guild_json(self.guilds[guild.id])
        for shard in shards:
            if shard not in before:
                await self.shard_sessions[shard].dispatch("GUILD_CREATE", payload)
        self.notify()
        return list(shards)

    def unshare_guild(self, guild: Guild) -> None:
        """Back to Discord's routing: the guild's events go to its own shard only. (The other
        sessions are sent nothing; a bot process would drop the guild with its old session.)"""
        if not self._on_server_thread():
            self.call_sync(lambda: self.unshare_guild(guild))
            return
        self.shared_guilds.pop(guild.id, None)
        self._turn.pop(guild.id, None)
