"""A gateway session and its websocket (the opcodes they speak: Discord's "Gateway Opcodes"
table), apart from the gateway's handler (gateway.py) so that every part of the fake can name
a session without importing that part."""

from __future__ import annotations

import json
import logging
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

log = logging.getLogger("fakediscord.gateway")

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

HEARTBEAT_INTERVAL_MS = 41_250


class GatewayConnection:
    """One open websocket; compresses as a single zlib stream when asked (zlib-stream)."""

    def __init__(self, socket: web.WebSocketResponse, compress: bool) -> None:
        self.socket = socket
        self._compressor = zlib.compressobj() if compress else None

    async def send(self, payload: dict[str, Any]) -> None:
        if self.socket.closed:
            return
        text = json.dumps(payload, separators=(",", ":"))
        try:
            if self._compressor is None:
                await self.socket.send_str(text)
                return
            data = self._compressor.compress(text.encode())
            await self.socket.send_bytes(data + self._compressor.flush(zlib.Z_SYNC_FLUSH))
        except (ConnectionError, RuntimeError):
            # the bot went away mid-send; the event stays in the backlog for a RESUME
            log.debug("gateway send failed; the connection is closing")


@dataclass
class GatewaySession:
    """A logical session (survives a dropped socket until RESUME); events keep their seq."""

    session_id: str
    intents: int
    sequence: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None
    heartbeats: int = 0  # heartbeats the bot sent on this session (FakeDiscord.ping_bot)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.sequence += 1
        payload = {"op": DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.backlog.append(payload)
        del self.backlog[:-500]  # enough to resume; a real gateway keeps a bounded buffer too
        if self.connection is not None:
            await self.connection.send(payload)
