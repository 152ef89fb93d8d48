"""What each part of ``FakeDiscord`` may use of the others.

``FakeDiscord`` (server.py) is assembled from mixins, one per concern: ``World``, ``GatewayHooks``,
``Messaging``, ``Interactions`` and ``Rest``. Each derives from ``Parts``, which declares the
state ``FakeDiscord.__init__`` sets up and, for the type checker only, the methods one part
calls on another (each is defined once, in the part named beside it). The records it names
stand below every part (model.py, sessions.py), so no part is imported back into this base.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from fakediscord.model import (
    Guild,
    InteractionRecord,
    MessageMeta,
    SnowflakeFactory,
    StoredFile,
    User,
    Violation,
)

if TYPE_CHECKING:
    from fakediscord import openapi
    from fakediscord.discord_bugs import KnownBugs
    from fakediscord.ratelimits import RateLimits
    from fakediscord.sessions import GatewaySession

T = TypeVar("T")


class Parts:
    # Checking requests against Discord's OpenAPI description (None: off), and what it rejected:
    # (request, errors) for each.
    spec_check: openapi.SpecCheck | None
    spec_violations: list[tuple[str, list[openapi.SpecError]]]
    rate_limits: RateLimits  # Discord's global and per-route buckets (ratelimits.py)
    known_bugs: KnownBugs  # Discord's open bugs, each off unless a test turns it on
    ids: SnowflakeFactory
    token: str
    application_id: int
    bot_user: User
    users: dict[int, User]
    owner: User
    guilds: dict[int, Guild]  # in creation order; the first is ``guild``
    members: dict[int, dict[str, Any]]
    member_permissions: dict[int, int]
    channels: dict[int, dict[str, Any]]
    channel_messages: dict[int, list[int]]
    dm_channels: dict[int, int]  # user id -> DM channel id
    closed_dms: set[int]
    messages: dict[int, dict[str, Any]]
    message_meta: dict[int, MessageMeta]
    files: dict[int, StoredFile]
    commands: dict[int | None, list[dict[str, Any]]]
    command_syncs: list[tuple[int | None, int]]  # (guild id or None, count)
    interactions: dict[int, InteractionRecord]
    interactions_by_token: dict[str, InteractionRecord]
    violations: list[Violation]
    errors: list[tuple[str, int, dict[str, Any]]]  # every error answered
    requests: list[str]  # "METHOD path" of every REST call, in order
    requests_cut_off: list[str]  # those whose sender left before the body had arrived
    gateway_sessions: dict[str, GatewaySession]
    session: GatewaySession | None  # the last to IDENTIFY
    recommended_shards: int  # what GET /gateway/bot answers
    identify_count: int
    resume_count: int
    gateway_queries: list[dict[str, str]]  # query of each websocket connection
    # REST traffic, to tell when the bot has gone quiet (see FakeDiscord.settle)
    inflight_requests: int
    request_count: int
    last_request_at: float  # monotonic
    heartbeats_received: int
    thread_order: list[int]  # thread ids in the order they were created
    thread_active_at: dict[int, float]  # thread id -> its last activity, on the fake's clock
    archive_due: dict[int, float]  # open thread id -> when it archives if idle (days.py)
    archive_queue: list[tuple[float, int]]  # a heap of (when, thread id), stale ones included
    removed_from: set[int]  # guilds the bot was removed from (days.py)
    departed: set[tuple[int, int]]  # (guild id, user id): members who left (days.py)
    dms_too_fast: bool  # the bot's DMs are refused with 40003 (days.py)
    response_deadline: float
    # Seconds every upload (a multipart body, which discord.py sends only with files) takes to
    # arrive in full: a slow or congested link between the bot and Discord (0: at once).
    upload_seconds: float
    host: str
    port: int
    _loop: asyncio.AbstractEventLoop | None
    _thread: threading.Thread | None

    if TYPE_CHECKING:
        # World (world.py)
        @property
        def guild(self) -> Guild: ...
        def guild_of_channel(self, channel_id: int) -> Guild | None: ...
        def bot_permissions_in(self, channel_id: int) -> int: ...
        def member_json(
            self, user: User, channel_id: int | None = None, *, guild: Guild | None = None
        ) -> dict[str, Any]: ...
        def guild_json(self, guild: Guild | None = None) -> dict[str, Any]: ...
        def joined_guild_json(self, guild: Guild) -> dict[str, Any]: ...

        # Days (days.py)
        def note_thread_activity(self, channel_id: int) -> None: ...
        def watch_thread(self, channel_id: int) -> None: ...
        def reopen_thread(self, channel_id: int) -> bool: ...
        async def reopen_and_announce(self, channel_id: int) -> None: ...
        def refuse_if_archived(self, channel_id: int) -> None: ...
        async def archive_idle_threads(self) -> None: ...
        def check_token_alive(self, record: InteractionRecord) -> None: ...
        def require_view(self, channel_id: int) -> None: ...
        def shares_a_server(self, user_id: int) -> bool: ...
        def refuse_dm(self, recipient: int) -> None: ...

        # GatewayHooks (gateway.py)
        @property
        def bot_connected(self) -> bool: ...
        async def dispatch(
            self,
            event: str,
            data: dict[str, Any],
            *,
            per_session: Callable[[dict[str, Any], GatewaySession], dict[str, Any]] | None = None,
        ) -> None: ...

        # Messaging (messaging.py)
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
        ) -> dict[str, Any]: ...
        async def store_message(
            self,
            message: dict[str, Any],
            *,
            ephemeral_for: int | None = None,
            token: str | None = None,
        ) -> dict[str, Any]: ...
        def require_bot_permission(self, channel_id: int, permission: int, name: str) -> None: ...

        # Interactions (interactions.py)
        def _owners(self, record: InteractionRecord) -> dict[str, str]: ...

        # Rest (routes.py)
        async def read_body(self, request: web.Request) -> tuple[Any, dict[int, tuple]]: ...

        # FakeDiscord itself (server.py)
        @property
        def gateway_url(self) -> str: ...
        def call_sync(self, function: Callable[[], T], timeout: float = 10) -> T: ...
        def call_sync_coroutine(
            self, function: Callable[[], Coroutine[Any, Any, T]], timeout: float = 10
        ) -> T: ...
        def notify(self) -> None: ...
        def record_violation(
            self,
            kind: str,
            description: str,
            route: str,
            *,
            status: int | None = None,
            body: dict[str, Any] | None = None,
            interaction: InteractionRecord | None = None,
        ) -> Violation: ...
