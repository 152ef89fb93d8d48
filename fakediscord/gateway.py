"""The fake Discord gateway: one websocket per bot connection, sessions that can be resumed.

Speaks what discord.py 2.7 expects: HELLO, heartbeats and ACKs, IDENTIFY -> READY and a
GUILD_CREATE per guild, RESUME -> replayed events + RESUMED (or INVALID_SESSION), REQUEST_GUILD_MEMBERS
-> GUILD_MEMBERS_CHUNK, and dispatches (INTERACTION_CREATE, MESSAGE_CREATE, ...) with sequence
numbers. Payloads are JSON, compressed with zlib-stream when the bot asks for it (discord.py
does unless zstandard is installed; zstd-stream is refused, because the fake cannot write it).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from fakediscord.model import Guild
from fakediscord.parts import Parts
from fakediscord.sessions import (
    HEARTBEAT,
    HEARTBEAT_ACK,
    HEARTBEAT_INTERVAL_MS,
    HELLO,
    IDENTIFY,
    INVALID_SESSION,
    PRESENCE_UPDATE,
    REQUEST_GUILD_MEMBERS,
    RESUME,
    GatewayConnection,
    GatewaySession,
)


async def handle_gateway(fake: GatewayHooks, request: web.Request) -> web.WebSocketResponse:
    socket = web.WebSocketResponse(max_msg_size=0)
    await socket.prepare(request)
    compress = request.query.get("compress")
    fake.gateway_queries.append(dict(request.query))
    if compress not in (None, "zlib-stream"):
        # Discord would accept zstd-stream; the fake cannot produce it. Say so loudly.
        fake.record_violation(
            "unsupported",
            f"the bot asked for compress={compress}; the fake only speaks zlib-stream",
            route="GATEWAY",
        )
        await socket.close(code=4000, message=b"unsupported compression")
        return socket
    connection = GatewayConnection(socket, compress == "zlib-stream")
    await connection.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
    session: GatewaySession | None = None
    try:
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            op = payload.get("op")
            data = payload.get("d")
            if op == HEARTBEAT:
                await connection.send({"op": HEARTBEAT_ACK})
                fake.heartbeats_received += 1
                if session is not None:
                    session.heartbeats += 1
                fake.notify()
            elif op == IDENTIFY:
                session = GatewaySession(secrets.token_hex(16), int(data.get("intents") or 0))
                session.connection = connection
                await fake.on_identify(session, data)
            elif op == RESUME:
                session = fake.gateway_sessions.get(data.get("session_id"))
                if session is None:
                    await connection.send({"op": INVALID_SESSION, "d": False})
                    continue
                session.connection = connection
                await _replay(session, int(data.get("seq") or 0))
                await session.dispatch("RESUMED", {})
                fake.resume_count += 1
                fake.notify()
            elif op == REQUEST_GUILD_MEMBERS and session is not None:
                await session.dispatch("GUILD_MEMBERS_CHUNK", fake.members_chunk(data))
            elif op == PRESENCE_UPDATE:
                pass  # presence is not modelled
    finally:
        if session is not None and session.connection is connection:
            session.connection = None
        fake.notify()
    return socket


async def _replay(session: GatewaySession, after: int) -> None:
    assert session.connection is not None
    for payload in session.backlog:
        if payload["s"] > after:
            await session.connection.send(payload)


class GatewayHooks(Parts):
    """What the gateway asks of the fake (IDENTIFY, READY, member chunks) and where a dispatch
    goes: a mixin of ``FakeDiscord``; ``ShardedFakeDiscord`` overrides the routing."""

    # --- gateway hooks -------------------------------------------------------------------------

    async def on_identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        """An unsharded bot: READY lists every guild, a GUILD_CREATE follows for each."""
        self.accept_identify(session, data)
        self.session = session
        await self.send_ready(session, list(self.guilds.values()), shard=[0, 1])

    def accept_identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            self.record_violation("auth", "IDENTIFY with a token the fake did not issue", "GATEWAY")
        self.gateway_sessions[session.session_id] = session
        self.identify_count += 1

    async def send_ready(
        self, session: GatewaySession, guilds: list[Guild], *, shard: list[int]
    ) -> None:
        """READY listing ``guilds`` (unavailable, as Discord sends them), then GUILD_CREATE
        for each."""
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
                "session_id": session.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "geo_ordered_rtc_regions": [],
                "session_type": "normal",
                "shard": shard,
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", self.guild_json(guild))
        self.notify()

    def members_chunk(self, data: dict[str, Any]) -> dict[str, Any]:
        """GUILD_MEMBERS_CHUNK for REQUEST_GUILD_MEMBERS (of the requested guild; every
        user is a member of every guild): by ids, or by username prefix."""
        guild = self.guilds.get(int(data.get("guild_id") or 0), self.guild)
        user_ids = data.get("user_ids") or []
        if isinstance(user_ids, str | int):
            user_ids = [user_ids]
        wanted = {int(user_id) for user_id in user_ids}
        prefix = (data.get("query") or "").lower()
        members = [
            self.member_json(self.users[user_id], guild=guild)
            for user_id, member in self.members.items()
            if (user_id in wanted if wanted else member["user"]["username"].startswith(prefix))
        ]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        return {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": data.get("nonce"),
        }

    @property
    def bot_connected(self) -> bool:
        return self.session is not None and self.session.connection is not None

    def connected_sessions(self) -> list[GatewaySession]:
        """The gateway sessions with an open websocket (one here; one per shard sharded)."""
        return [self.session] if self.bot_connected and self.session is not None else []

    def guild_connected(self, guild_id: int | None) -> bool:
        """Whether a session that gets this guild's events (None: DMs) is connected."""
        return self.bot_connected

    def guild_id_of_event(self, event: str, data: dict[str, Any]) -> int | None:
        """The guild a dispatch is about: GUILD_CREATE's id, else the payload's guild_id, else
        its channel's guild; None for a DM."""
        if event == "GUILD_CREATE":
            return int(data["id"])
        if data.get("guild_id"):
            return int(data["guild_id"])
        guild = self.guild_of_channel(int(data.get("channel_id") or 0))
        return guild.id if guild is not None else None

    def sessions_for(self, event: str, data: dict[str, Any]) -> list[GatewaySession]:
        """The sessions a dispatch goes to: the one session of an unsharded bot (connected
        or not: a dropped one replays it on RESUME)."""
        return [self.session] if self.session is not None else []

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        per_session: Callable[[dict[str, Any], GatewaySession], dict[str, Any]] | None = None,
    ) -> None:
        """Send a dispatch to the session(s) that get it; ``per_session`` adapts the payload
        to each (what that session's intents let it see)."""
        for session in self.sessions_for(event, data):
            await session.dispatch(event, per_session(data, session) if per_session else data)
