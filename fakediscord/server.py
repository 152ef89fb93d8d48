"""A fake Discord on 127.0.0.1: REST under /api/v10, the gateway websocket, attachment files.

``FakeDiscord`` runs an aiohttp server on a random free port in a background thread with its
own event loop, so tests with any event loop (pytest-asyncio's per-test loops) can drive it.
It holds guilds (``guild`` is the first, the default everywhere; ``add_guild`` adds more) with
users and channels, every message the bot sends, the synced command tree and every
interaction; it answers exactly as Discord would, including Discord's errors, and records each
rule the bot broke as a ``Violation`` that fails the test (see conftest.py).

Only the driver (driver.py) and the conftest talk to this class; game tests use the driver.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime
import json
import re
import secrets
import socket
import threading
import time
import traceback
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import unquote

from aiohttp import web

from fakediscord import limits
from fakediscord.clock import CLOCK
from fakediscord.gateway import GatewaySession, handle_gateway
from fakediscord.model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    BOT_PERMISSIONS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    GUILD_TEXT,
    MEMBER_PERMISSIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    Guild,
    SnowflakeFactory,
    StoredFile,
    User,
    Violation,
)

T = TypeVar("T")

# Discord's deadline for the first response to an interaction ("Interactions must be
# responded to within 3 seconds"), after which it answers 10062 Unknown interaction.
RESPONSE_DEADLINE_SECONDS = 3.0

# Gateway intent bit that lets a bot read other users' message content.
MESSAGE_CONTENT_INTENT = 1 << 15

# discord.py rate-limits its own gateway sends to 110 a minute; the harness's heartbeat
# requests (see FakeDiscord.settle) each cost one, so they are spaced out.
PING_INTERVAL = 0.7
# Without a ping, this much more silence stands in for the round trip.
FALLBACK_SILENCE = 0.005

# Interaction types (Interaction object).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types, and which interaction types may use them.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
CALLBACK_NAMES = {
    CHANNEL_MESSAGE: "message",
    DEFERRED_CHANNEL_MESSAGE: "deferred message",
    DEFERRED_UPDATE_MESSAGE: "deferred update",
    UPDATE_MESSAGE: "update message",
    AUTOCOMPLETE_RESULT: "autocomplete result",
    MODAL: "modal",
}


def _now_iso() -> str:
    return datetime.datetime.fromtimestamp(CLOCK.time(), datetime.UTC).isoformat()


@dataclass
class MessageMeta:
    """What the fake knows about a stored message beyond its JSON."""

    ephemeral_for: int | None = None  # the only user who sees an ephemeral message
    deleted: bool = False
    token: str | None = None  # the interaction token that created it (webhook edits)
    version: int = 0  # bumped on every edit


@dataclass
class InteractionRecord:
    """One interaction the driver sent, and everything the bot did in answer."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    payload: dict[str, Any]
    created: float  # monotonic
    message_id: int | None = None  # the message a component sits on
    from_component: bool = False  # a modal submit whose modal was opened from a component
    response_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    # messages the bot produced after responding: followups, edits and posts in this channel
    activity: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    failed: bool = False  # a violation already failed the test for this interaction
    awaiting: bool = True  # the driver is still waiting for the bot's answer


class RequestError(Exception):
    """Answer the current request with Discord's error (and optionally record a violation)."""

    def __init__(
        self, status: int, body: dict[str, Any], *, violation: str | None = None, note: str = ""
    ) -> None:
        super().__init__(body.get("message"))
        self.status = status
        self.body = body
        self.violation = violation
        self.note = note


def _not_found(what: str, code: int) -> RequestError:
    return RequestError(404, {"message": f"Unknown {what}", "code": code})


def _form_error(errors: list[limits.FieldError]) -> RequestError:
    details = "; ".join(error.describe() for error in errors)
    return RequestError(
        400, limits.form_body_error(errors), violation="invalid_form_body", note=details
    )


class FakeDiscord:
    """The fake server. Start it with ``start()``; stop with ``stop()``."""

    def __init__(
        self,
        *,
        guild_name: str = "Ballcourt Test Server",
        first_guild_shard: tuple[int, int] | None = None,
    ) -> None:
        """``first_guild_shard=(k, count)``: the first guild's id routes to shard k of count
        (see ``add_guild``); by default it is wherever the clock puts it."""
        self.ids = SnowflakeFactory()
        self.token = "fake-bot-token"
        self.application_id = self.ids.next()
        self.bot_user = User(self.application_id, "ballcourt", bot=True)
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.owner = self._new_user("owner")
        self.guilds: dict[int, Guild] = {}  # in creation order; the first is ``guild``
        self._new_guild(guild_name, first_guild_shard)
        self.members: dict[int, dict[str, Any]] = {}
        self.member_permissions: dict[int, int] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.closed_dms: set[int] = set()
        self.messages: dict[int, dict[str, Any]] = {}
        self.message_meta: dict[int, MessageMeta] = {}
        self.files: dict[int, StoredFile] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        self.command_syncs: list[tuple[int | None, int]] = []  # (guild id or None, count)
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.violations: list[Violation] = []
        self.errors: list[tuple[str, int, dict[str, Any]]] = []  # every error answered
        self.requests: list[str] = []  # "METHOD path" of every REST call, in order
        self.gateway_sessions: dict[str, GatewaySession] = {}
        self.session: GatewaySession | None = None  # the last to IDENTIFY
        self.recommended_shards = 1  # what GET /gateway/bot answers
        self.identify_count = 0
        self.resume_count = 0
        self.gateway_queries: list[dict[str, str]] = []  # query of each websocket connection
        # REST traffic, to tell when the bot has gone quiet (see settle)
        self.inflight_requests = 0
        self.request_count = 0
        self.last_request_at = 0.0  # monotonic
        self.heartbeats_received = 0
        self.thread_order: list[int] = []  # thread ids in the order they were created
        self._last_ping_at = 0.0
        self._settled_at_count = -1
        self.response_deadline = RESPONSE_DEADLINE_SECONDS
        self.host = "127.0.0.1"
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._changed: asyncio.Event | None = None
        self._setup_app: Callable[[web.Application], None] | None = None
        self._add_member(self.bot_user)
        self._add_member(self.owner)

    # --- lifecycle ---------------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    def start(
        self,
        *,
        port: int = 0,
        setup_app: Callable[[web.Application], None] | None = None,
    ) -> None:
        """Serve on 127.0.0.1 (``port`` 0: a free one). ``setup_app`` may add routes (the
        sandbox's web client) to the same aiohttp application before it starts."""
        self.port = port or _free_port()
        self._setup_app = setup_app
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._start_server())
            except BaseException as error:  # report start-up failure to the caller
                failure.append(error)
                started.set()
                return
            started.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup() if self._runner else asyncio.sleep(0))
            loop.close()

        self._thread = threading.Thread(target=run, name="fake-discord", daemon=True)
        self._thread.start()
        started.wait(10)
        if failure:
            raise failure[0]

    async def _start_server(self) -> None:
        self._changed = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{file_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/api/v10/{path:.*}", self._dispatch_rest)
        if self._setup_app is not None:
            self._setup_app(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        return await handle_gateway(self, request)

    def stop(self) -> None:
        if self._loop is None:
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._loop = None

    def call(self, function: Callable[[], Coroutine[Any, Any, T]]) -> asyncio.Future[T]:
        """Run a coroutine on the server's loop; await the result from any other loop."""
        assert self._loop is not None, "the fake Discord is not running"
        future = asyncio.run_coroutine_threadsafe(function(), self._loop)
        return asyncio.wrap_future(future)

    def call_sync(self, function: Callable[[], T], timeout: float = 10) -> T:
        """Run a plain function on the server's loop (state is only touched there)."""
        assert self._loop is not None, "the fake Discord is not running"

        async def run() -> T:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(timeout)

    def call_sync_coroutine(
        self, function: Callable[[], Coroutine[Any, Any, T]], timeout: float = 10
    ) -> T:
        """Run a coroutine on the server's loop and wait for it from plain (sync) code."""
        assert self._loop is not None, "the fake Discord is not running"
        return asyncio.run_coroutine_threadsafe(function(), self._loop).result(timeout)

    def notify(self) -> None:
        """Wake every waiter: something changed (a response, a message, a violation)."""
        if self._changed is not None:
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait on the server loop until predicate() holds; False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if predicate():
                return True
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            assert self._changed is not None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def ping_bot(self, timeout: float = 2.0) -> bool:
        """Ask the bot for a heartbeat (op 1) on every connected session and wait for each:
        a round trip through the bot's event loop(s), so whatever the bot read before it (an
        HTTP answer) has been handled, in every process of a sharded bot."""
        sessions = self.connected_sessions()
        if not sessions:
            return False
        before = {session.session_id: session.heartbeats for session in sessions}
        for session in sessions:
            assert session.connection is not None
            await session.connection.send({"op": 1, "d": None})
        return await self.wait_until(
            lambda: all(
                session.heartbeats > before[session.session_id] or session.connection is None
                for session in sessions
            ),
            timeout,
        )

    async def settle(self, quiet: float = 0.002, cap: float = 2.0) -> None:
        """Wait until the bot is idle: no REST call in flight or in the last ``quiet``
        seconds, then a heartbeat round trip (or, without one, a longer silence) with no new
        call. A human never clicks a button within milliseconds of its message appearing; the
        driver would, and would race discord.py storing the message's view (or the cog saving
        after it answered). Returns at once if the bot made no call since the last settle;
        gives up after ``cap`` seconds for a bot that is never quiet."""
        if self.request_count == self._settled_at_count:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + cap
        while loop.time() < deadline:
            await self.wait_until(lambda: self.inflight_requests == 0, deadline - loop.time())
            silent_for = time.monotonic() - self.last_request_at
            if silent_for < quiet:
                await asyncio.sleep(quiet - silent_for)
                continue
            marker = self.request_count
            # discord.py allows itself 110 gateway sends a minute, and each ping costs one:
            # ping at most every PING_INTERVAL, else wait out a longer silence instead
            if time.monotonic() - self._last_ping_at >= PING_INTERVAL:
                self._last_ping_at = time.monotonic()
                if not await self.ping_bot(timeout=max(0.0, deadline - loop.time())):
                    return
            else:
                await asyncio.sleep(FALLBACK_SILENCE)
            if self.request_count == marker and self.inflight_requests == 0:
                self._settled_at_count = marker
                return

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
            "joined_at": _now_iso(),
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
            "joined_at": _now_iso(),
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

    # --- violations ----------------------------------------------------------------------------

    def record_violation(
        self,
        kind: str,
        description: str,
        route: str,
        *,
        status: int | None = None,
        body: dict[str, Any] | None = None,
        interaction: InteractionRecord | None = None,
    ) -> Violation:
        violation = Violation(
            kind=kind,
            description=description,
            route=route,
            status=status,
            body=body,
            interaction_id=interaction.id if interaction else None,
            # the test already failed for this interaction: do not report it twice
            consumed=bool(interaction and interaction.failed),
        )
        self.violations.append(violation)
        self.notify()
        return violation

    # --- REST ------------------------------------------------------------------------------------

    async def _dispatch_rest(self, request: web.Request) -> web.Response:
        self.inflight_requests += 1
        self.request_count += 1
        self.last_request_at = time.monotonic()
        try:
            return await self._answer_rest(request)
        finally:
            self.inflight_requests -= 1
            self.last_request_at = time.monotonic()
            self.notify()

    async def _answer_rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        route = f"{request.method} {path}"
        self.requests.append(route)
        handler, params = _match_route(request.method, path)
        try:
            if handler is None:
                raise RequestError(
                    404,
                    {"message": "404: Not Found", "code": 0},
                    violation="unsupported_route",
                    note="the fake Discord does not implement this route; add it to the harness",
                )
            if not path.startswith(("/webhooks/", "/interactions/")):
                auth = request.headers.get("Authorization", "")
                if auth != f"Bot {self.token}":
                    raise RequestError(401, {"message": "401: Unauthorized", "code": 0})
            result = await handler(self, request, **params)
        except RequestError as error:
            self.errors.append((route, error.status, error.body))
            if error.violation:
                self.record_violation(
                    error.violation,
                    error.note or str(error.body.get("message")),
                    route,
                    status=error.status,
                    body=error.body,
                    interaction=self._interaction_for_path(path),
                )
            self.notify()
            return _json_response(error.body, error.status)
        except Exception as error:  # a bug in the fake: fail the test, never hang the bot
            # (a 400, not a 500: discord.py retries 5xx answers for seconds)
            details = "".join(traceback.format_exception(error))
            self.record_violation("harness_error", f"the fake Discord crashed:\n{details}", route)
            return _json_response({"message": f"fake Discord crashed: {error!r}", "code": 0}, 400)
        self.notify()
        if result is None:
            return web.Response(status=204)
        return _json_response(result)

    def _interaction_for_path(self, path: str) -> InteractionRecord | None:
        parts = path.split("/")
        if len(parts) > 3 and parts[1] in ("webhooks", "interactions"):
            return self.interactions_by_token.get(parts[3])
        return None

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        stored = self.files.get(int(request.match_info["file_id"]))
        if stored is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=stored.data, content_type=stored.content_type)

    async def read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, tuple]]:
        """JSON body, or multipart (payload_json + files[n]) as discord.py sends uploads."""
        if not request.can_read_body:
            return {}, {}
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: dict[int, tuple[str, str, bytes]] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                name = part.name or ""
                data = await part.read()
                if name == "payload_json":
                    payload = json.loads(data)
                elif match := re.fullmatch(r"files\[(\d+)\]", name):
                    files[int(match[1])] = (
                        part.filename or f"file{match[1]}",
                        part.headers.get("Content-Type", "application/octet-stream"),
                        bytes(data),
                    )
            return payload, files
        text = await request.text()
        return (json.loads(text) if text else {}), {}

    # --- messages --------------------------------------------------------------------------------

    def _store_files(
        self, entries: list[dict[str, Any]], uploads: dict[int, tuple[str, str, bytes]]
    ) -> list[dict[str, Any]]:
        """Turn attachment entries referring to uploads (by index) into stored files."""
        if sum(len(data) for _, _, data in uploads.values()) > limits.MAX_UPLOAD_BYTES:
            raise RequestError(
                413,
                {"message": "Request entity too large", "code": 40005},
                violation="payload_too_large",
                note=f"uploads total more than {limits.MAX_UPLOAD_BYTES} bytes",
            )
        stored: list[dict[str, Any]] = []
        for entry in entries:
            index = int(entry["id"])
            filename, content_type, data = uploads[index]
            file_id = self.ids.next()
            name = entry.get("filename") or filename
            stored_file = StoredFile(
                id=file_id,
                filename=name,
                content_type=_content_type(name, content_type),
                data=data,
                description=entry.get("description"),
                url=f"http://{self.host}:{self.port}/attachments/{file_id}/{name}",
            )
            stored_file.extra.update(_image_size(data))
            self.files[file_id] = stored_file
            stored.append(stored_file.to_json())
        return stored

    def _attachments_for(
        self,
        payload: dict[str, Any],
        uploads: dict[int, tuple[str, str, bytes]],
        existing: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        if "attachments" not in payload:
            entries = [{"id": index} for index in sorted(uploads)]
            return [*existing, *self._store_files(entries, uploads)]
        kept_ids = {str(item["id"]) for item in existing}
        result: list[dict[str, Any]] = []
        new_entries = []
        for entry in payload.get("attachments") or []:
            if str(entry.get("id")) in kept_ids:
                result.extend(item for item in existing if item["id"] == str(entry["id"]))
            elif entry.get("id") is not None and int(entry["id"]) in uploads:
                new_entries.append(entry)
        return [*result, *self._store_files(new_entries, uploads)]

    def _resolve_embeds(
        self, embeds: list[dict[str, Any]], attachments: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Discord replaces attachment://NAME in embed images with the attachment's URL."""
        by_name = {item["filename"]: item for item in attachments}
        resolved = copy.deepcopy(embeds)
        for embed in resolved:
            embed.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                url = (embed.get(key) or {}).get("url") or ""
                if url.startswith("attachment://") and url[13:] in by_name:
                    item = by_name[url[13:]]
                    embed[key] = {
                        "url": item["url"],
                        "proxy_url": item["url"],
                        "width": item.get("width"),
                        "height": item.get("height"),
                    }
        return resolved

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        found = []
        for user_id in dict.fromkeys(re.findall(r"<@!?(\d+)>", content or "")):
            user = self.users.get(int(user_id))
            if user is not None:
                found.append(user.to_json())
        return found

    def compose_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        uploads: dict[int, tuple[str, str, bytes]],
        *,
        previous: dict[str, Any] | None = None,
        author: User | None = None,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
        error_prefix: tuple = (),
    ) -> dict[str, Any]:
        """The message JSON a create (previous=None) or an edit would produce; raises
        Discord's error if it breaks a limit. Nothing is stored yet."""
        base = copy.deepcopy(previous) if previous else {}
        editable = ("content", "embeds", "components", "flags", "allowed_mentions")
        for key in editable:
            if key in payload and payload[key] is not None:
                base[key] = payload[key]
            elif key in payload and previous is not None:  # explicit null clears
                base[key] = [] if key in ("embeds", "components") else ""
        if payload.get("embed"):
            base["embeds"] = [payload["embed"]]
        flags = int(base.get("flags") or 0)
        if previous is not None:
            # ephemeral, loading and components-v2 flags cannot be removed by an edit
            kept = limits.FLAG_EPHEMERAL | limits.FLAG_LOADING | limits.FLAG_IS_COMPONENTS_V2
            # (a followup that fills a deferred response keeps the defer's ephemerality)
            requested = int(payload.get("flags") or 0) & ~(
                limits.FLAG_LOADING | limits.FLAG_EPHEMERAL
            )
            flags = requested | (int(previous.get("flags") or 0) & kept & ~limits.FLAG_LOADING)
        flags |= extra_flags
        base["flags"] = flags
        attachment_entries = payload.get("attachments")
        draft_attachments = list((previous or {}).get("attachments") or [])
        if attachment_entries is not None:
            keep = {str(entry.get("id")) for entry in attachment_entries}
            draft_attachments = [item for item in draft_attachments if item["id"] in keep]
            draft_attachments += [
                {"id": entry.get("id")}
                for entry in attachment_entries
                if entry.get("id") is not None and int(entry["id"]) in uploads
            ]
        else:
            draft_attachments += [{"id": index} for index in uploads]
        draft = {**base, "attachments": draft_attachments}
        errors = limits.check_message(draft, [len(data) for *_, data in uploads.values()])
        if errors:
            raise _form_error(
                [
                    limits.FieldError((*error_prefix, *error.path), error.code, error.message)
                    for error in errors
                ]
            )
        if limits.is_empty_message(draft):
            raise RequestError(
                400,
                {"message": "Cannot send an empty message", "code": 50006},
                violation="empty_message",
                note="no content, embeds, components or attachments",
            )
        attachments = self._attachments_for(
            payload, uploads, list((previous or {}).get("attachments") or [])
        )
        author = author or self.bot_user
        message = {
            "id": (previous or {}).get("id") or str(self.ids.next()),
            "channel_id": str(channel_id),
            "author": author.to_json(),
            "content": base.get("content") or "",
            "timestamp": (previous or {}).get("timestamp") or _now_iso(),
            "edited_timestamp": _now_iso() if previous else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": self._mentions(base.get("content") or ""),
            "mention_roles": [],
            "attachments": attachments,
            "embeds": self._resolve_embeds(base.get("embeds") or [], attachments),
            "components": copy.deepcopy(base.get("components") or []),
            "pinned": False,
            "type": (previous or {}).get("type", 0),
            "flags": flags,
            "reactions": (previous or {}).get("reactions", []),
        }
        guild_id = self.channels[channel_id].get("guild_id")
        if guild_id:
            message["guild_id"] = guild_id
        if payload.get("message_reference") and not previous:
            message["message_reference"] = payload["message_reference"]
            message["type"] = 19
        if interaction is not None:
            message["webhook_id"] = str(self.application_id)
            message["application_id"] = str(self.application_id)
            if previous is None:
                message["type"] = 20 if interaction.type == APPLICATION_COMMAND else 0
                message["interaction_metadata"] = {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "user": interaction.user.to_json(),
                    "authorizing_integration_owners": self._owners(interaction),
                }
            else:
                for key in ("interaction_metadata", "webhook_id", "application_id"):
                    if key in previous:
                        message[key] = previous[key]
        return message

    async def store_message(
        self,
        message: dict[str, Any],
        *,
        ephemeral_for: int | None = None,
        token: str | None = None,
    ) -> dict[str, Any]:
        """Save a new or edited message, tell the bot over the gateway, wake the driver."""
        message_id = int(message["id"])
        channel_id = int(message["channel_id"])
        is_new = message_id not in self.messages
        self.messages[message_id] = message
        meta = self.message_meta.setdefault(
            message_id, MessageMeta(ephemeral_for=ephemeral_for, token=token)
        )
        meta.version += 1
        if is_new:
            self.channel_messages[channel_id].append(message_id)
            self.channels[channel_id]["last_message_id"] = message["id"]
            parent = self.channels[channel_id]
            if parent["type"] in (PUBLIC_THREAD, PRIVATE_THREAD):
                parent["message_count"] = parent.get("message_count", 0) + 1
        if meta.ephemeral_for is None:
            event = "MESSAGE_CREATE" if is_new else "MESSAGE_UPDATE"
            await self.dispatch(event, message, per_session=self._as_the_bot_receives)
        self._note_activity(message, meta)
        self.notify()
        return message

    def _as_the_bot_receives(
        self, message: dict[str, Any], session: GatewaySession
    ) -> dict[str, Any]:
        """Without the MESSAGE_CONTENT intent (of the session it goes to), a bot gets other
        users' guild messages with content, embeds, attachments and components blanked,
        unless it is mentioned."""
        if int(message["author"]["id"]) == self.bot_user.id or not message.get("guild_id"):
            return message
        intents = session.intents
        mentioned = any(int(user["id"]) == self.bot_user.id for user in message["mentions"])
        if intents & MESSAGE_CONTENT_INTENT or mentioned:
            return message
        return {**message, "content": "", "embeds": [], "attachments": [], "components": []}

    def _note_activity(self, message: dict[str, Any], meta: MessageMeta) -> None:
        """Attribute what the bot just showed (a message created or edited anywhere: the
        channel, a thread, a DM) to each interaction the driver still waits on, once it has
        been responded to: that is the bot's next visible move after a deferred response.
        (The driver runs one interaction at a time, so there is no one else to credit.)"""
        if int(message["author"]["id"]) != self.bot_user.id:
            return
        for record in self.interactions.values():
            if not record.awaiting or record.response_type is None:
                continue
            if meta.ephemeral_for not in (None, record.user.id):
                continue  # someone else's ephemeral message is not this user's reply
            record.activity.append(int(message["id"]))

    def visible_message(self, channel_id: int, message_id: int) -> dict[str, Any]:
        message = self.messages.get(message_id)
        meta = self.message_meta.get(message_id)
        if (
            message is None
            or meta is None
            or meta.deleted
            or meta.ephemeral_for is not None
            or int(message["channel_id"]) != channel_id
        ):
            raise _not_found("Message", 10008)
        return message

    def channel_or_404(self, channel_id: int) -> dict[str, Any]:
        if channel_id not in self.channels:
            raise _not_found("Channel", 10003)
        return self.channels[channel_id]

    def require_bot_permission(self, channel_id: int, permission: int, name: str) -> None:
        if not self.bot_permissions_in(channel_id) & permission:
            raise RequestError(
                403,
                {"message": "Missing Permissions", "code": 50013},
                note=f"the bot lacks {name} in this channel",
            )

    def check_can_post(self, channel_id: int, uploads: dict) -> None:
        channel = self.channel_or_404(channel_id)
        if channel["type"] == DM:
            recipient = int(channel["recipients"][0]["id"])
            if recipient in self.closed_dms:
                raise RequestError(
                    403, {"message": "Cannot send messages to this user", "code": 50007}
                )
            return
        if channel["type"] in (PUBLIC_THREAD, PRIVATE_THREAD):
            self.require_bot_permission(
                channel_id, SEND_MESSAGES_IN_THREADS, "Send Messages in Threads"
            )
            if channel["thread_metadata"].get("locked"):
                raise RequestError(400, {"message": "Thread is locked", "code": 160005})
            if channel["thread_metadata"].get("archived"):
                # posting in an archived (not locked) thread unarchives it, as on Discord
                channel["thread_metadata"]["archived"] = False
        else:
            self.require_bot_permission(channel_id, SEND_MESSAGES, "Send Messages")
        if uploads:
            self.require_bot_permission(channel_id, ATTACH_FILES, "Attach Files")

    # --- interactions --------------------------------------------------------------------------

    def new_interaction(
        self,
        *,
        kind: int,
        user: User,
        channel_id: int,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
        from_component: bool = False,
    ) -> InteractionRecord:
        interaction_id = self.ids.next()
        token = "itoken_" + secrets.token_urlsafe(24)
        channel = copy.deepcopy(self.channels[channel_id])
        guild = self.guild_of_channel(channel_id)
        in_guild = guild is not None
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel_id),
            "channel": channel,
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": limits.MAX_UPLOAD_BYTES,
            "app_permissions": str(self.bot_permissions_in(channel_id)),
            "authorizing_integration_owners": {"0": str(guild.id)}
            if guild is not None
            else {"1": str(user.id)},
            "context": 0 if in_guild else 1,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = "en-US"
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["member"] = self.member_json(user, channel_id)
        else:
            payload["user"] = user.to_json()
        if message is not None:
            payload["message"] = copy.deepcopy(message)
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel_id=channel_id,
            payload=payload,
            created=time.monotonic(),
            message_id=int(message["id"]) if message else None,
            from_component=from_component,
        )
        self.interactions[interaction_id] = record
        self.interactions_by_token[token] = record
        return record

    async def send_interaction(self, record: InteractionRecord) -> None:
        record.created = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", record.payload)

    def allowed_callbacks(self, record: InteractionRecord) -> set[int]:
        """Interaction response types by interaction type (Interactions: Responding)."""
        if record.type == APPLICATION_COMMAND:
            return {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL}
        if record.type == MESSAGE_COMPONENT:
            return {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
            }
        if record.type == AUTOCOMPLETE:
            return {AUTOCOMPLETE_RESULT}
        if record.from_component:
            return {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
            }
        # a modal opened by a slash command: no message to update, but discord.py's defer()
        # acknowledges it with a deferred update, which Discord accepts
        return {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE}

    async def interaction_callback(
        self, request: web.Request, interaction_id: str, token: str
    ) -> dict[str, Any] | None:
        record = self.interactions.get(int(interaction_id))
        if record is None or record.token != token:
            raise RequestError(
                404,
                {"message": "Unknown interaction", "code": 10062},
                violation="unknown_interaction",
                note="no such interaction (wrong id or token)",
            )
        payload, uploads = await self.read_body(request)
        if record.response_type is not None:
            raise RequestError(
                400,
                {"message": "Interaction has already been acknowledged.", "code": 40060},
                violation="already_acknowledged",
                note="a second initial response to the same interaction; use a followup or edit",
            )
        elapsed = time.monotonic() - record.created
        if elapsed > self.response_deadline:
            raise RequestError(
                404,
                {"message": "Unknown interaction", "code": 10062},
                violation="late_response",
                note=f"the first response came {elapsed:.2f} s after the interaction; "
                f"Discord allows {self.response_deadline:.0f} s (defer first when work is slow)",
            )
        callback = payload.get("type")
        if callback not in self.allowed_callbacks(record):
            raise _form_error(
                [
                    limits.FieldError(
                        ("type",),
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        f"Response type {callback} ({CALLBACK_NAMES.get(callback, '?')}) is not "
                        f"valid for interaction type {record.type}",
                    )
                ]
            )
        data = payload.get("data") or {}
        message: dict[str, Any] | None = None
        ephemeral = bool(int(data.get("flags") or 0) & limits.FLAG_EPHEMERAL)
        if callback == CHANNEL_MESSAGE:
            self._check_interaction_uploads(record, uploads)
            message = self.compose_message(
                record.channel_id, data, uploads, interaction=record, error_prefix=("data",)
            )
        elif callback == DEFERRED_CHANNEL_MESSAGE:
            message = self._loading_message(record, ephemeral)
        elif callback == UPDATE_MESSAGE:
            previous = self.messages[record.message_id] if record.message_id else None
            if previous is None or self.message_meta[record.message_id].deleted:
                raise _not_found("Message", 10008)
            self._check_interaction_uploads(record, uploads)
            message = self.compose_message(
                record.channel_id,
                data,
                uploads,
                previous=previous,
                interaction=record,
                error_prefix=("data",),
            )
            ephemeral = bool(message["flags"] & limits.FLAG_EPHEMERAL)
        elif callback == AUTOCOMPLETE_RESULT:
            errors = limits.check_choices(data.get("choices") or [])
            if errors:
                raise _form_error(errors)
        elif callback == MODAL:
            errors = limits.check_modal(data)
            if errors:
                raise _form_error(errors)
        # accepted: record it (the response itself is not "activity" after the response)
        if callback == AUTOCOMPLETE_RESULT:
            record.choices = copy.deepcopy(data.get("choices") or [])
        elif callback == MODAL:
            record.modal = copy.deepcopy(data)
        elif callback == DEFERRED_UPDATE_MESSAGE:
            record.original_message_id = record.message_id
        if message is not None:
            meta = self.message_meta.get(int(message["id"]))
            ephemeral_for = record.user.id if ephemeral else None
            if meta is not None:
                ephemeral_for = meta.ephemeral_for
            record.original_message_id = int(message["id"])
            await self.store_message(
                message,
                ephemeral_for=ephemeral_for,
                token=record.token if meta is None else meta.token,
            )
        record.response_type = callback
        self.notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        result: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": callback == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": ephemeral,
            },
            "resource": {"type": callback},
        }
        if message is not None:
            result["resource"]["message"] = message
        return result

    def _check_interaction_uploads(self, record: InteractionRecord, uploads: dict) -> None:
        # interaction responses may attach files only where the bot may (app_permissions)
        if uploads and self.channels[record.channel_id]["type"] != DM:
            self.require_bot_permission(record.channel_id, ATTACH_FILES, "Attach Files")

    def _loading_message(self, record: InteractionRecord, ephemeral: bool) -> dict[str, Any]:
        """The 'Ballcourt is thinking...' placeholder of a deferred response."""
        flags = limits.FLAG_LOADING | (limits.FLAG_EPHEMERAL if ephemeral else 0)
        message = {
            "id": str(self.ids.next()),
            "channel_id": str(record.channel_id),
            "author": self.bot_user.to_json(),
            "content": "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": 20 if record.type == APPLICATION_COMMAND else 0,
            "flags": flags,
            "webhook_id": str(self.application_id),
            "application_id": str(self.application_id),
            "interaction_metadata": {
                "id": str(record.id),
                "type": record.type,
                "user": record.user.to_json(),
                "authorizing_integration_owners": self._owners(record),
            },
        }
        guild_id = self.channels[record.channel_id].get("guild_id")
        if guild_id:
            message["guild_id"] = guild_id
        return message

    def _owners(self, record: InteractionRecord) -> dict[str, str]:
        """authorizing_integration_owners: the guild installed the app (0), or in a DM the
        user did (1)."""
        guild = self.guild_of_channel(record.channel_id)
        return {"0": str(guild.id)} if guild is not None else {"1": str(record.user.id)}

    def record_for_webhook(self, application_id: str, token: str) -> InteractionRecord:
        record = self.interactions_by_token.get(token)
        if record is None or int(application_id) != self.application_id:
            raise RequestError(
                404,
                {"message": "Unknown Webhook", "code": 10015},
                violation="unknown_webhook",
                note="followup or edit with an unknown interaction token",
            )
        if record.response_type is None:
            raise RequestError(
                404,
                {"message": "Unknown Webhook", "code": 10015},
                violation="followup_before_response",
                note="followup or edit before the interaction was responded to",
            )
        return record

    def webhook_message_id(self, record: InteractionRecord, message_id: str) -> int:
        if message_id == "@original":
            if record.original_message_id is None:
                raise _not_found("Message", 10008)
            return record.original_message_id
        wanted = int(message_id)
        if wanted not in (record.original_message_id, *record.followup_ids):
            raise _not_found("Message", 10008)
        return wanted


# --- route table -------------------------------------------------------------------------------
# Each handler: async def handler(fake, request, **path_params) -> JSON-able or None (204).


async def get_gateway(fake: FakeDiscord, request: web.Request) -> dict[str, Any]:
    return {
        "url": fake.gateway_url,
        "shards": fake.recommended_shards,
        "session_start_limit": {
            "total": 1000,
            "remaining": 1000,
            "reset_after": 0,
            "max_concurrency": 1,
        },
    }


async def get_me(fake: FakeDiscord, request: web.Request) -> dict[str, Any]:
    return {**fake.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0}


async def get_application(fake: FakeDiscord, request: web.Request) -> dict[str, Any]:
    return fake.application_json()


async def get_user(fake: FakeDiscord, request: web.Request, user_id: str) -> dict[str, Any]:
    user = fake.users.get(int(user_id))
    if user is None:
        raise _not_found("User", 10013)
    return user.to_json()


async def create_dm(fake: FakeDiscord, request: web.Request) -> dict[str, Any]:
    payload, _ = await fake.read_body(request)
    user = fake.users.get(int(payload.get("recipient_id") or 0))
    if user is None or user.bot:
        raise _not_found("User", 10013)
    return fake.channels[fake.dm_channel_for(user)]


def _check_app(fake: FakeDiscord, application_id: str) -> None:
    if int(application_id) != fake.application_id:
        raise RequestError(403, {"message": "Missing Access", "code": 50001})


def _check_guild(fake: FakeDiscord, guild_id: str) -> int:
    """Any of the fake's guilds; another is one the bot is not in (403 Missing Access)."""
    if int(guild_id) not in fake.guilds:
        raise RequestError(403, {"message": "Missing Access", "code": 50001})
    return int(guild_id)


async def _overwrite_commands(
    fake: FakeDiscord, request: web.Request, scope: int | None
) -> list[dict[str, Any]]:
    payload, _ = await fake.read_body(request)
    commands = payload if isinstance(payload, list) else []
    errors = limits.check_command_tree(commands, is_global=scope is None)
    if errors:
        raise _form_error(errors)
    previous = {(c.get("type", 1), c["name"]): c["id"] for c in fake.commands.get(scope, [])}
    stored = []
    for command in commands:
        command = copy.deepcopy(command)
        kind = command.setdefault("type", 1)
        # Discord keeps a command's id when a bulk overwrite keeps its name
        command["id"] = previous.get((kind, command["name"])) or str(fake.ids.next())
        command["application_id"] = str(fake.application_id)
        command["version"] = str(fake.ids.next())
        command.setdefault("default_member_permissions", None)
        command.setdefault("nsfw", False)
        command.setdefault("description", "")
        if scope is not None:
            command["guild_id"] = str(scope)
        stored.append(command)
    fake.commands[scope] = stored
    fake.command_syncs.append((scope, len(stored)))
    return copy.deepcopy(stored)


async def put_global_commands(
    fake: FakeDiscord, request: web.Request, application_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return await _overwrite_commands(fake, request, None)


async def put_guild_commands(
    fake: FakeDiscord, request: web.Request, application_id: str, guild_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return await _overwrite_commands(fake, request, _check_guild(fake, guild_id))


async def get_global_commands(
    fake: FakeDiscord, request: web.Request, application_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return copy.deepcopy(fake.commands.get(None, []))


async def get_guild_commands(
    fake: FakeDiscord, request: web.Request, application_id: str, guild_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return copy.deepcopy(fake.commands.get(_check_guild(fake, guild_id), []))


async def get_guild(fake: FakeDiscord, request: web.Request, guild_id: str) -> dict[str, Any]:
    data = fake.guild_json(fake.guilds[_check_guild(fake, guild_id)])
    for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
        data.pop(key, None)
    return data


async def get_guild_channels(
    fake: FakeDiscord, request: web.Request, guild_id: str
) -> list[dict[str, Any]]:
    return fake.guild_json(fake.guilds[_check_guild(fake, guild_id)])["channels"]


async def get_guild_roles(
    fake: FakeDiscord, request: web.Request, guild_id: str
) -> list[dict[str, Any]]:
    return fake.roles_json(fake.guilds[_check_guild(fake, guild_id)])


async def get_member(
    fake: FakeDiscord, request: web.Request, guild_id: str, user_id: str
) -> dict[str, Any]:
    guild = fake.guilds[_check_guild(fake, guild_id)]
    if int(user_id) not in fake.members:
        raise _not_found("Member", 10007)
    return fake.member_json(fake.users[int(user_id)], guild=guild)


async def list_members(
    fake: FakeDiscord, request: web.Request, guild_id: str
) -> list[dict[str, Any]]:
    guild = fake.guilds[_check_guild(fake, guild_id)]
    return [fake.member_json(fake.users[user_id], guild=guild) for user_id in fake.members]


async def get_channel(fake: FakeDiscord, request: web.Request, channel_id: str) -> dict[str, Any]:
    return copy.deepcopy(fake.channel_or_404(int(channel_id)))


async def edit_channel(fake: FakeDiscord, request: web.Request, channel_id: str) -> dict[str, Any]:
    channel = fake.channel_or_404(int(channel_id))
    payload, _ = await fake.read_body(request)
    if channel["type"] in (PUBLIC_THREAD, PRIVATE_THREAD):
        for key in ("archived", "locked", "auto_archive_duration", "invitable"):
            if key in payload:
                channel["thread_metadata"][key] = payload[key]
    if "name" in payload:
        errors: list[limits.FieldError] = []
        limits._check_length(errors, ("name",), payload["name"], 100, minimum=1)
        if errors:
            raise _form_error(errors)
        channel["name"] = payload["name"]
    event = (
        "THREAD_UPDATE" if channel["type"] in (PUBLIC_THREAD, PRIVATE_THREAD) else "CHANNEL_UPDATE"
    )
    await fake.dispatch(event, copy.deepcopy(channel))
    return copy.deepcopy(channel)


async def delete_channel(
    fake: FakeDiscord, request: web.Request, channel_id: str
) -> dict[str, Any]:
    channel = fake.channel_or_404(int(channel_id))
    if channel["type"] in (PUBLIC_THREAD, PRIVATE_THREAD):
        del fake.channels[int(channel_id)]
        await fake.dispatch(
            "THREAD_DELETE",
            {
                "id": channel["id"],
                "guild_id": channel["guild_id"],
                "parent_id": channel["parent_id"],
                "type": channel["type"],
            },
        )
        return channel
    raise RequestError(403, {"message": "Missing Permissions", "code": 50013})


async def list_messages(
    fake: FakeDiscord, request: web.Request, channel_id: str
) -> list[dict[str, Any]]:
    fake.channel_or_404(int(channel_id))
    limit = min(int(request.query.get("limit", 50)), 100)
    visible = [
        fake.messages[mid]
        for mid in fake.channel_messages[int(channel_id)]
        if not fake.message_meta[mid].deleted and fake.message_meta[mid].ephemeral_for is None
    ]
    if "before" in request.query:
        visible = [m for m in visible if int(m["id"]) < int(request.query["before"])]
    if "after" in request.query:
        visible = [m for m in visible if int(m["id"]) > int(request.query["after"])]
        return copy.deepcopy(visible[:limit][::-1])
    return copy.deepcopy(visible[::-1][:limit])  # newest first, as Discord answers


async def get_message(
    fake: FakeDiscord, request: web.Request, channel_id: str, message_id: str
) -> dict[str, Any]:
    return copy.deepcopy(fake.visible_message(int(channel_id), int(message_id)))


async def create_message(
    fake: FakeDiscord, request: web.Request, channel_id: str
) -> dict[str, Any]:
    payload, uploads = await fake.read_body(request)
    fake.check_can_post(int(channel_id), uploads)
    message = fake.compose_message(int(channel_id), payload, uploads)
    return await fake.store_message(message)


async def edit_message(
    fake: FakeDiscord, request: web.Request, channel_id: str, message_id: str
) -> dict[str, Any]:
    previous = fake.visible_message(int(channel_id), int(message_id))
    if int(previous["author"]["id"]) != fake.bot_user.id:
        raise RequestError(
            403,
            {"message": "Cannot edit a message authored by another user", "code": 50005},
            violation="forbidden_edit",
            note="the bot tried to edit a user's message",
        )
    payload, uploads = await fake.read_body(request)
    if uploads:
        fake.require_bot_permission(int(channel_id), ATTACH_FILES, "Attach Files")
    message = fake.compose_message(int(channel_id), payload, uploads, previous=previous)
    return await fake.store_message(message)


async def delete_message(
    fake: FakeDiscord, request: web.Request, channel_id: str, message_id: str
) -> None:
    message = fake.visible_message(int(channel_id), int(message_id))
    fake.message_meta[int(message_id)].deleted = True
    data = {"id": message["id"], "channel_id": message["channel_id"]}
    if message.get("guild_id"):
        data["guild_id"] = message["guild_id"]
    await fake.dispatch("MESSAGE_DELETE", data)


async def trigger_typing(fake: FakeDiscord, request: web.Request, channel_id: str) -> None:
    fake.channel_or_404(int(channel_id))


def _reaction_list(message: dict[str, Any]) -> list[dict[str, Any]]:
    return message.setdefault("reactions", [])


async def add_reaction(
    fake: FakeDiscord, request: web.Request, channel_id: str, message_id: str, emoji: str
) -> None:
    message = fake.visible_message(int(channel_id), int(message_id))
    name = unquote(emoji)
    for reaction in _reaction_list(message):
        if reaction["emoji"]["name"] == name:
            if not reaction["me"]:
                reaction["me"] = True
                reaction["count"] += 1
            return
    _reaction_list(message).append(
        {"emoji": {"id": None, "name": name}, "count": 1, "me": True, "burst_colors": []}
    )


async def remove_own_reaction(
    fake: FakeDiscord, request: web.Request, channel_id: str, message_id: str, emoji: str
) -> None:
    message = fake.visible_message(int(channel_id), int(message_id))
    name = unquote(emoji)
    for reaction in list(_reaction_list(message)):
        if reaction["emoji"]["name"] == name and reaction["me"]:
            reaction["me"] = False
            reaction["count"] -= 1
            if reaction["count"] == 0:
                _reaction_list(message).remove(reaction)


async def clear_reactions(
    fake: FakeDiscord, request: web.Request, channel_id: str, message_id: str
) -> None:
    fake.visible_message(int(channel_id), int(message_id))["reactions"] = []


async def _create_thread(
    fake: FakeDiscord,
    parent_id: int,
    payload: dict[str, Any],
    *,
    thread_id: int | None = None,
) -> dict[str, Any]:
    parent = fake.channel_or_404(parent_id)
    if parent["type"] != GUILD_TEXT:
        raise RequestError(
            400, {"message": "Cannot execute action on this channel type", "code": 50024}
        )
    kind = int(payload.get("type") or PUBLIC_THREAD)
    needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
    fake.require_bot_permission(parent_id, needed, "Create Threads")
    errors: list[limits.FieldError] = []
    limits._check_length(errors, ("name",), payload.get("name"), 100, minimum=1)
    if errors:
        raise _form_error(errors)
    thread_id = thread_id or fake.ids.next()
    if thread_id in fake.channels:
        raise RequestError(
            400, {"message": "A thread has already been created for this message", "code": 160004}
        )
    thread = {
        "id": str(thread_id),
        "type": kind,
        "guild_id": parent["guild_id"],  # a thread is in its parent's guild
        "parent_id": str(parent_id),
        "owner_id": str(fake.application_id),
        "name": payload["name"],
        "last_message_id": None,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "rate_limit_per_user": int(payload.get("rate_limit_per_user") or 0),
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": int(payload.get("auto_archive_duration") or 4320),
            "archive_timestamp": _now_iso(),
            "locked": False,
            "invitable": bool(payload.get("invitable", True)),
            "create_timestamp": _now_iso(),
        },
        "member": {
            "id": str(thread_id),
            "user_id": str(fake.application_id),
            "join_timestamp": _now_iso(),
            "flags": 0,
        },
        "members": [fake.application_id],
    }
    fake.channels[thread_id] = thread
    fake.thread_order.append(thread_id)
    fake.channel_messages[thread_id] = []
    visible = {key: value for key, value in thread.items() if key != "members"}
    await fake.dispatch("THREAD_CREATE", {**copy.deepcopy(visible), "newly_created": True})
    return copy.deepcopy(visible)


async def start_thread(fake: FakeDiscord, request: web.Request, channel_id: str) -> dict[str, Any]:
    payload, _ = await fake.read_body(request)
    return await _create_thread(fake, int(channel_id), payload)


async def start_thread_from_message(
    fake: FakeDiscord, request: web.Request, channel_id: str, message_id: str
) -> dict[str, Any]:
    payload, _ = await fake.read_body(request)
    message = fake.visible_message(int(channel_id), int(message_id))
    # a thread started from a message has the message's id (Discord's rule)
    thread = await _create_thread(
        fake, int(channel_id), {**payload, "type": PUBLIC_THREAD}, thread_id=int(message_id)
    )
    message["thread"] = thread
    return thread


async def add_thread_member(
    fake: FakeDiscord, request: web.Request, channel_id: str, user_id: str
) -> None:
    thread = fake.channel_or_404(int(channel_id))
    if "members" not in thread:
        raise RequestError(
            400, {"message": "Cannot execute action on this channel type", "code": 50024}
        )
    member_id = fake.application_id if user_id == "@me" else int(user_id)
    if member_id not in fake.members:
        raise _not_found("Member", 10007)
    if member_id not in thread["members"]:
        thread["members"].append(member_id)
        thread["member_count"] = len(thread["members"])


async def remove_thread_member(
    fake: FakeDiscord, request: web.Request, channel_id: str, user_id: str
) -> None:
    thread = fake.channel_or_404(int(channel_id))
    member_id = fake.application_id if user_id == "@me" else int(user_id)
    if member_id in thread.get("members", []):
        thread["members"].remove(member_id)
        thread["member_count"] = len(thread["members"])


async def list_thread_members(
    fake: FakeDiscord, request: web.Request, channel_id: str
) -> list[dict[str, Any]]:
    thread = fake.channel_or_404(int(channel_id))
    return [
        {"id": thread["id"], "user_id": str(uid), "join_timestamp": _now_iso(), "flags": 0}
        for uid in thread.get("members", [])
    ]


async def interaction_callback(
    fake: FakeDiscord, request: web.Request, interaction_id: str, token: str
) -> dict[str, Any] | None:
    return await fake.interaction_callback(request, interaction_id, token)


async def create_followup(
    fake: FakeDiscord, request: web.Request, application_id: str, token: str
) -> dict[str, Any] | None:
    record = fake.record_for_webhook(application_id, token)
    payload, uploads = await fake.read_body(request)
    if uploads:
        fake._check_interaction_uploads(record, uploads)
    original = fake.messages.get(record.original_message_id or 0)
    if (
        record.response_type == DEFERRED_CHANNEL_MESSAGE
        and original is not None
        and original["flags"] & limits.FLAG_LOADING
    ):
        # Discord: the first followup after a deferred ("thinking") response replaces the
        # loading message, and keeps the ephemerality chosen at defer time.
        message = fake.compose_message(
            record.channel_id, payload, uploads, previous=original, interaction=record
        )
        message["edited_timestamp"] = None
        stored = await fake.store_message(message)
    else:
        ephemeral = bool(int(payload.get("flags") or 0) & limits.FLAG_EPHEMERAL)
        message = fake.compose_message(record.channel_id, payload, uploads, interaction=record)
        record.followup_ids.append(int(message["id"]))
        stored = await fake.store_message(
            message, ephemeral_for=record.user.id if ephemeral else None, token=record.token
        )
    return copy.deepcopy(stored) if request.query.get("wait") in ("true", "1", "True") else None


async def get_webhook_message(
    fake: FakeDiscord, request: web.Request, application_id: str, token: str, message_id: str
) -> dict[str, Any]:
    record = fake.record_for_webhook(application_id, token)
    return copy.deepcopy(fake.messages[fake.webhook_message_id(record, message_id)])


async def edit_webhook_message(
    fake: FakeDiscord, request: web.Request, application_id: str, token: str, message_id: str
) -> dict[str, Any]:
    record = fake.record_for_webhook(application_id, token)
    target = fake.webhook_message_id(record, message_id)
    if fake.message_meta[target].deleted:
        raise _not_found("Message", 10008)
    payload, uploads = await fake.read_body(request)
    if uploads:
        fake._check_interaction_uploads(record, uploads)
    message = fake.compose_message(
        record.channel_id,
        payload,
        uploads,
        previous=fake.messages[target],
        interaction=record,
    )
    return copy.deepcopy(await fake.store_message(message))


async def delete_webhook_message(
    fake: FakeDiscord, request: web.Request, application_id: str, token: str, message_id: str
) -> None:
    record = fake.record_for_webhook(application_id, token)
    target = fake.webhook_message_id(record, message_id)
    fake.message_meta[target].deleted = True
    message = fake.messages[target]
    if fake.message_meta[target].ephemeral_for is None:
        await fake.dispatch(
            "MESSAGE_DELETE", {"id": message["id"], "channel_id": message["channel_id"]}
        )


_ID = r"(?P<{}>\d+)"
ROUTES: list[tuple[str, str, Callable[..., Any]]] = [
    ("GET", r"/gateway", get_gateway),
    ("GET", r"/gateway/bot", get_gateway),
    ("GET", r"/users/@me", get_me),
    ("GET", r"/oauth2/applications/@me", get_application),
    ("GET", r"/applications/@me", get_application),
    ("POST", r"/users/@me/channels", create_dm),
    ("GET", rf"/users/{_ID.format('user_id')}", get_user),
    ("PUT", rf"/applications/{_ID.format('application_id')}/commands", put_global_commands),
    ("GET", rf"/applications/{_ID.format('application_id')}/commands", get_global_commands),
    (
        "PUT",
        rf"/applications/{_ID.format('application_id')}/guilds/{_ID.format('guild_id')}/commands",
        put_guild_commands,
    ),
    (
        "GET",
        rf"/applications/{_ID.format('application_id')}/guilds/{_ID.format('guild_id')}/commands",
        get_guild_commands,
    ),
    ("GET", rf"/guilds/{_ID.format('guild_id')}", get_guild),
    ("GET", rf"/guilds/{_ID.format('guild_id')}/channels", get_guild_channels),
    ("GET", rf"/guilds/{_ID.format('guild_id')}/roles", get_guild_roles),
    ("GET", rf"/guilds/{_ID.format('guild_id')}/members", list_members),
    ("GET", rf"/guilds/{_ID.format('guild_id')}/members/{_ID.format('user_id')}", get_member),
    ("GET", rf"/channels/{_ID.format('channel_id')}", get_channel),
    ("PATCH", rf"/channels/{_ID.format('channel_id')}", edit_channel),
    ("DELETE", rf"/channels/{_ID.format('channel_id')}", delete_channel),
    ("GET", rf"/channels/{_ID.format('channel_id')}/messages", list_messages),
    ("POST", rf"/channels/{_ID.format('channel_id')}/messages", create_message),
    (
        "GET",
        rf"/channels/{_ID.format('channel_id')}/messages/{_ID.format('message_id')}",
        get_message,
    ),
    (
        "PATCH",
        rf"/channels/{_ID.format('channel_id')}/messages/{_ID.format('message_id')}",
        edit_message,
    ),
    (
        "DELETE",
        rf"/channels/{_ID.format('channel_id')}/messages/{_ID.format('message_id')}",
        delete_message,
    ),
    ("POST", rf"/channels/{_ID.format('channel_id')}/typing", trigger_typing),
    (
        "PUT",
        rf"/channels/{_ID.format('channel_id')}/messages/{_ID.format('message_id')}"
        r"/reactions/(?P<emoji>[^/]+)/@me",
        add_reaction,
    ),
    (
        "DELETE",
        rf"/channels/{_ID.format('channel_id')}/messages/{_ID.format('message_id')}"
        r"/reactions/(?P<emoji>[^/]+)/@me",
        remove_own_reaction,
    ),
    (
        "DELETE",
        rf"/channels/{_ID.format('channel_id')}/messages/{_ID.format('message_id')}/reactions",
        clear_reactions,
    ),
    ("POST", rf"/channels/{_ID.format('channel_id')}/threads", start_thread),
    (
        "POST",
        rf"/channels/{_ID.format('channel_id')}/messages/{_ID.format('message_id')}/threads",
        start_thread_from_message,
    ),
    (
        "PUT",
        rf"/channels/{_ID.format('channel_id')}/thread-members/(?P<user_id>\d+|@me)",
        add_thread_member,
    ),
    (
        "DELETE",
        rf"/channels/{_ID.format('channel_id')}/thread-members/(?P<user_id>\d+|@me)",
        remove_thread_member,
    ),
    ("GET", rf"/channels/{_ID.format('channel_id')}/thread-members", list_thread_members),
    (
        "POST",
        rf"/interactions/{_ID.format('interaction_id')}/(?P<token>[^/]+)/callback",
        interaction_callback,
    ),
    ("POST", rf"/webhooks/{_ID.format('application_id')}/(?P<token>[^/]+)", create_followup),
    (
        "GET",
        rf"/webhooks/{_ID.format('application_id')}/(?P<token>[^/]+)/messages/"
        r"(?P<message_id>@original|\d+)",
        get_webhook_message,
    ),
    (
        "PATCH",
        rf"/webhooks/{_ID.format('application_id')}/(?P<token>[^/]+)/messages/"
        r"(?P<message_id>@original|\d+)",
        edit_webhook_message,
    ),
    (
        "DELETE",
        rf"/webhooks/{_ID.format('application_id')}/(?P<token>[^/]+)/messages/"
        r"(?P<message_id>@original|\d+)",
        delete_webhook_message,
    ),
]
_COMPILED = [(method, re.compile(pattern + "$"), handler) for method, pattern, handler in ROUTES]


def _match_route(method: str, path: str) -> tuple[Callable[..., Any] | None, dict[str, str]]:
    for route_method, pattern, handler in _COMPILED:
        if route_method == method and (match := pattern.match(path)):
            return handler, match.groupdict()
    return None, {}


def _json_response(body: Any, status: int = 200) -> web.Response:
    # discord.py parses JSON only when Content-Type is exactly "application/json" (no charset)
    return web.Response(
        body=json.dumps(body).encode(), status=status, content_type="application/json"
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _content_type(filename: str, declared: str) -> str:
    if declared and declared != "application/octet-stream":
        return declared
    suffix = filename.rsplit(".", 1)[-1].lower()
    return {
        "png": "image/png",
        "gif": "image/gif",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "webp": "image/webp",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json",
    }.get(suffix, declared or "application/octet-stream")


def _image_size(data: bytes) -> dict[str, int]:
    """Width and height for PNG and GIF files, as Discord reports them for images."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return {
            "width": int.from_bytes(data[16:20], "big"),
            "height": int.from_bytes(data[20:24], "big"),
        }
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return {
            "width": int.from_bytes(data[6:8], "little"),
            "height": int.from_bytes(data[8:10], "little"),
        }
    return {}
