"""A fake Discord on 127.0.0.1: REST under /api/v10, the gateway websocket, attachment files.

``FakeDiscord`` runs an aiohttp server on a random free port in a background thread with its
own event loop, so tests with any event loop (pytest-asyncio's per-test loops) can drive it.
It holds guilds (``guild`` is the first, the default everywhere; ``add_guild`` adds more) with
users and channels, every message the bot sends, the synced command tree and every
interaction; it answers exactly as Discord would, including Discord's errors, and records each
rule the bot broke as a ``Violation`` that fails the test (see conftest.py).

Only the driver (driver.py) and the conftest talk to this class; game tests use the driver.

The class is assembled from mixins, one per concern: ``World`` (world.py: guilds, users,
channels, permissions), ``GatewayHooks`` (gateway.py: IDENTIFY, READY, where a dispatch goes),
``Messaging`` (messaging.py: composing and storing messages and files), ``Interactions``
(interactions.py: the interaction lifecycle and its rules), ``Rest`` (routes.py: the REST
route table and its handlers) and ``Days`` (days.py: threads archiving and tokens expiring on
the fake's clock, a moderator's permission changes and deletions). This module keeps the lifecycle (the server thread, waiting,
settling) and the violations.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from aiohttp import web

from fakediscord import openapi
from fakediscord.days import Days
from fakediscord.discord_bugs import KnownBugs
from fakediscord.errors import RequestError, form_error, not_found
from fakediscord.gateway import GatewayHooks, handle_gateway
from fakediscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CALLBACK_NAMES,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    RESPONSE_DEADLINE_SECONDS,
    UPDATE_MESSAGE,
    InteractionRecord,
    Interactions,
)
from fakediscord.messaging import MESSAGE_CONTENT_INTENT, MessageMeta, Messaging, image_size
from fakediscord.model import (
    SnowflakeFactory,
    User,
    Violation,
)
from fakediscord.ratelimits import RateLimits
from fakediscord.routes import Rest
from fakediscord.world import World

# the names other modules (and older tests) import from here
_image_size = image_size
__all__ = [
    "APPLICATION_COMMAND",
    "AUTOCOMPLETE",
    "AUTOCOMPLETE_RESULT",
    "CALLBACK_NAMES",
    "CHANNEL_MESSAGE",
    "DEFERRED_CHANNEL_MESSAGE",
    "DEFERRED_UPDATE_MESSAGE",
    "MESSAGE_COMPONENT",
    "MESSAGE_CONTENT_INTENT",
    "MODAL",
    "MODAL_SUBMIT",
    "RESPONSE_DEADLINE_SECONDS",
    "UPDATE_MESSAGE",
    "FakeDiscord",
    "InteractionRecord",
    "MessageMeta",
    "RequestError",
    "form_error",
    "not_found",
]

T = TypeVar("T")

# discord.py rate-limits its own gateway sends to 110 a minute; the harness's heartbeat
# requests (see FakeDiscord.settle) each cost one, so they are spaced out.
PING_INTERVAL = 0.7
# Without a ping, this much more silence stands in for the round trip.
FALLBACK_SILENCE = 0.005


class FakeDiscord(World, GatewayHooks, Messaging, Interactions, Rest, Days):
    """The fake server. Start it with ``start()``; stop with ``stop()``."""

    def __init__(
        self,
        *,
        guild_name: str = "Ballcourt Test Server",
        first_guild_shard: tuple[int, int] | None = None,
        spec_check: bool = True,
        rate_limits: bool | None = None,
    ) -> None:
        """``first_guild_shard=(k, count)``: the first guild's id routes to shard k of count
        (see ``add_guild``); by default it is wherever the clock puts it. ``spec_check``:
        check every request against Discord's OpenAPI description (openapi.py; off, with one
        log line, where the description is missing). ``rate_limits``: answer 429 as Discord's
        global and per-route limits would (ratelimits.py; the buckets count what was used
        either way). None: on, as Discord is, unless the environment's FAKEDISCORD_RATE_LIMITS
        is "0"; False only for a benchmark or test that measures something else (speed) and
        says why where it turns them off."""
        # The parts' state, declared (with what it means) in parts.py.
        self.spec_check = openapi.load() if spec_check else None
        self.spec_violations = []
        if rate_limits is None:
            rate_limits = os.environ.get("FAKEDISCORD_RATE_LIMITS", "1") != "0"
        self.rate_limits = RateLimits(enabled=rate_limits)
        self.known_bugs = KnownBugs()
        self.ids = SnowflakeFactory()
        self.token = "fake-bot-token"
        self.application_id = self.ids.next()
        self.bot_user = User(self.application_id, "ballcourt", bot=True)
        self.users = {self.bot_user.id: self.bot_user}
        self.owner = self._new_user("owner")
        self.guilds = {}
        self._new_guild(guild_name, first_guild_shard)
        self.members = {}
        self.member_permissions = {}
        self.channels = {}
        self.channel_messages = {}
        self.dm_channels = {}
        self.closed_dms = set()
        self.messages = {}
        self.message_meta = {}
        self.files = {}
        self.commands = {None: []}
        self.command_syncs = []
        self.interactions = {}
        self.interactions_by_token = {}
        self.violations = []
        self.errors = []
        self.requests = []
        self.requests_cut_off = []
        self.gateway_sessions = {}
        self.session = None
        self.recommended_shards = 1
        self.identify_count = 0
        self.resume_count = 0
        self.gateway_queries = []
        self.inflight_requests = 0
        self.request_count = 0
        self.last_request_at = 0.0
        self.heartbeats_received = 0
        self.thread_order = []
        self.thread_active_at = {}
        self.archive_due = {}
        self.archive_queue = []
        self.removed_from = set()
        self.departed = set()
        self.dms_too_fast = False
        self.response_deadline = RESPONSE_DEADLINE_SECONDS
        self.upload_seconds = 0.0
        self.host = "127.0.0.1"
        self.port = 0
        self._loop = None
        self._thread = None
        # The server's own.
        self._last_ping_at = 0.0
        self._settled_at_count = -1
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


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
