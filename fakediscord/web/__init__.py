"""The sandbox's Discord-like web client: static files (static/) and the few aiohttp routes that
serve them, stream what changed, and turn a player's clicks into interactions.

Every action goes through the same ``DiscordDriver`` the e2e tests use, so the bot is held to
Discord's rules here too: a click on a disabled button, a missing required option or an
ephemeral message someone else owns is refused as Discord's client would refuse it, and a rule
the bot breaks (answering late, twice, too long) is shown in the page.

Routes (all on 127.0.0.1, same origin as the fake's REST API and attachments):
  GET  /                         the client (index.html, app.js, style.css under /static/)
  GET  /sandbox/state?user=ID    guild, members, channels and threads, DMs, commands, clock
  GET  /sandbox/messages?channel=ID&user=ID   what that user sees in that channel
  GET  /sandbox/events?user=ID   server-sent events: message, delete, channels, modal, notice
  POST /sandbox/act              {user, channel, action: command|autocomplete|click|select|
                                  modal|message, ...}: one interaction or message
  POST /sandbox/clock            {advance: seconds}
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from fakediscord import limits
from fakediscord.clock import CLOCK
from fakediscord.driver import DiscordDriver
from fakediscord.model import (
    DISCORD_EPOCH_MS,
    DM,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    DiscordViolation,
    DriverError,
    Upload,
    User,
)
from fakediscord.server import FakeDiscord

STATIC = Path(__file__).resolve().parent / "static"
# Events are pushed as they happen; this bounds how long a quiet stream waits between keep-alives.
KEEPALIVE_SECONDS = 15.0
# The browser itself keeps the page on this server: an image or link the bot gives with an
# outside address (an avatar on Discord's CDN, say) is not fetched.
CONTENT_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
)
# An interaction's token, and so its ephemeral replies, live 15 minutes on Discord.
EPHEMERAL_LIFETIME_SECONDS = 15 * 60


@dataclass
class SandboxControls:
    """What the page may ask of the sandbox besides Discord actions."""

    advance_clock: Callable[[float], Awaitable[str]] | None = None
    clock_note: str = ""  # why the clock control is off, if it is


def setup(app: web.Application, fake: FakeDiscord, controls: SandboxControls) -> None:
    """Add the client's routes to the fake Discord's aiohttp application."""
    client = WebClient(fake, controls)
    app.router.add_get("/", client.index)
    app.router.add_static("/static/", STATIC, show_index=False)
    app.router.add_get("/sandbox/state", client.state)
    app.router.add_get("/sandbox/messages", client.messages)
    app.router.add_get("/sandbox/events", client.events)
    app.router.add_post("/sandbox/act", client.act)
    app.router.add_post("/sandbox/clock", client.clock)
    app.on_shutdown.append(client.end_streams)


class WebClient:
    def __init__(self, fake: FakeDiscord, controls: SandboxControls) -> None:
        self.fake = fake
        self.controls = controls
        self._driver: DiscordDriver | None = None
        self._closing = False

    async def end_streams(self, _app: web.Application) -> None:
        """The server is stopping: every open page's event stream ends now. aiohttp waits for
        its handlers to return before it stops, and a stream only looks up when something
        changes or its keep-alive is due, so a stop (Ctrl-C) with a page open waited that
        long."""
        self._closing = True
        self.fake.notify()

    @property
    def driver(self) -> DiscordDriver:
        if self._driver is None:
            general = next(
                self.fake.channel_handle(channel_id)
                for channel_id, data in self.fake.channels.items()
                if data["type"] == GUILD_TEXT
            )
            self._driver = DiscordDriver(self.fake, general)
        return self._driver

    # --- pages and reads ----------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(
            STATIC / "index.html",
            headers={"Cache-Control": "no-cache", "Content-Security-Policy": CONTENT_POLICY},
        )

    def _user(self, request: web.Request, value: Any = None) -> User:
        raw = value if value is not None else request.query.get("user")
        if not raw and request.method == "GET":
            return self._default_user()
        return self._user_by_id(raw)

    def _default_user(self) -> User:
        """Whom a new page acts as: the first member who is not the owner (alice)."""
        for user_id in self.fake.members:
            user = self.fake.users[user_id]
            if not user.bot and user_id != self.fake.guild.owner_id:
                return user
        return self.fake.owner

    def _user_by_id(self, raw: Any) -> User:
        try:
            user = self.fake.users[int(raw)]
        except (TypeError, ValueError, KeyError):
            raise web.HTTPBadRequest(text="unknown user") from None
        if user.bot:
            raise web.HTTPBadRequest(text="the page cannot act as the bot")
        return user

    async def state(self, request: web.Request) -> web.Response:
        user = self._user(request)
        fake = self.fake
        members = [
            {**fake.users[user_id].to_json(), "owner": user_id == fake.guild.owner_id}
            for user_id in fake.members
            if not fake.users[user_id].bot
        ]
        channels = [
            _channel_json(data)
            for data in fake.channels.values()
            if data["type"] in (GUILD_TEXT, PUBLIC_THREAD, PRIVATE_THREAD)
            and (data["type"] != PRIVATE_THREAD or user.id in data.get("members", []))
        ]
        dm = fake.dm_channel_for(user)
        commands = [
            command
            for scope in (None, fake.guild.id)
            for command in fake.commands.get(scope, [])
            if command.get("type", 1) == 1 and self._may_see(command, user)
        ]
        return _json(
            {
                "guild": {"id": str(fake.guild.id), "name": fake.guild.name},
                "me": user.to_json(),
                "bot": fake.bot_user.to_json(),
                "bot_connected": fake.bot_connected,
                "members": members,
                "channels": channels,
                "dm_channel": str(dm),
                "commands": commands,
                "clock": self._clock_json(),
                "notices": self.notices(),
            }
        )

    def _may_see(self, command: dict[str, Any], user: User) -> bool:
        """Discord lists a command only to members with its default_member_permissions (in
        the server; the driver refuses the others as Discord would)."""
        try:
            self.driver._check_may_use(command, user, self.driver.default_channel)
        except DriverError:
            return False
        return True

    def _clock_json(self) -> dict[str, Any]:
        return {
            "now": CLOCK.time(),
            "offset": CLOCK.offset,
            "enabled": self.controls.advance_clock is not None,
            "note": self.controls.clock_note,
        }

    def _visible(self, message_id: int, user: User) -> bool:
        """What a freshly loaded channel shows this user: not deleted messages, and their own
        ephemeral messages only while the interaction lives (15 minutes), as Discord drops
        them from a reloaded client; the live stream shows them as they come."""
        meta = self.fake.message_meta[message_id]
        if meta.deleted or meta.ephemeral_for not in (None, user.id):
            return False
        if meta.ephemeral_for is None:
            return True
        created = ((message_id >> 22) + DISCORD_EPOCH_MS) / 1000
        return CLOCK.time() - created < EPHEMERAL_LIFETIME_SECONDS

    def message_json(self, message_id: int) -> dict[str, Any]:
        data = copy.deepcopy(self.fake.messages[message_id])
        meta = self.fake.message_meta[message_id]
        for item in data.get("attachments") or []:
            item["url"] = _local_path(item.get("url"))
        for embed in data.get("embeds") or []:
            for key in ("image", "thumbnail"):
                if embed.get(key):
                    embed[key]["url"] = _local_path(embed[key].get("url"))
        for media in _component_media(data.get("components") or []):
            media["url"] = _local_path(media.get("url"))
            media.pop("proxy_url", None)
        metadata = data.get("interaction_metadata")
        if metadata:
            data["sandbox_invocation"] = self._invocation(int(metadata["id"]))
        data["sandbox_ephemeral"] = meta.ephemeral_for is not None
        data["sandbox_version"] = meta.version
        return data

    def _invocation(self, interaction_id: int) -> str | None:
        """ "/rocketball challenge" for a slash command's reply (Discord's "used /x" line)."""
        record = self.fake.interactions.get(interaction_id)
        if record is None or record.type != 2:  # APPLICATION_COMMAND
            return None
        data = record.payload["data"]
        words = [data["name"]]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            words.append(options[0]["name"])
            options = options[0].get("options") or []
        return "/" + " ".join(words)

    async def messages(self, request: web.Request) -> web.Response:
        user = self._user(request)
        try:
            channel_id = int(request.query["channel"])
        except (KeyError, ValueError):
            raise web.HTTPBadRequest(text="which channel?") from None
        if channel_id not in self.fake.channels:
            raise web.HTTPNotFound(text="no such channel")
        visible = [
            self.message_json(message_id)
            for message_id in self.fake.channel_messages.get(channel_id, [])
            if self._visible(message_id, user)
        ]
        return _json({"channel": str(channel_id), "messages": visible[-200:]})

    # --- live updates -------------------------------------------------------------------------

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events for one user: every message they can see that was created or
        changed, deletions, the channel list, the clock, and notices."""
        user = self._user(request)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        fake = self.fake
        seen = {
            message_id: (meta.version, meta.deleted)
            for message_id, meta in fake.message_meta.items()
        }
        channels_key = self._channels_key(user)
        status_key = self._status_key()
        await _send(response, "hello", {"ok": True})
        counter = [fake.request_count, len(fake.messages)]

        def changed() -> bool:
            return (
                self._closing
                or [fake.request_count, len(fake.messages)] != counter
                or self._status_key() != status_key
                or self._channels_key(user) != channels_key
                or any(
                    (meta.version, meta.deleted) != seen.get(message_id)
                    for message_id, meta in fake.message_meta.items()
                )
            )

        try:
            while not self._closing:
                if not await fake.wait_until(changed, KEEPALIVE_SECONDS):
                    await _send(response, "ping", {})  # keeps proxies and the browser honest
                    continue
                counter = [fake.request_count, len(fake.messages)]
                for message_id, meta in list(fake.message_meta.items()):
                    state = (meta.version, meta.deleted)
                    if seen.get(message_id) == state:
                        continue
                    seen[message_id] = state
                    if meta.ephemeral_for not in (None, user.id):
                        continue
                    if meta.deleted:
                        await _send(response, "delete", {"id": str(message_id)})
                    else:
                        await _send(response, "message", self.message_json(message_id))
                key = self._channels_key(user)
                if key != channels_key:
                    channels_key = key
                    await _send(response, "channels", {})
                key = self._status_key()
                if key != status_key:
                    status_key = key
                    await _send(
                        response,
                        "status",
                        {
                            "bot_connected": fake.bot_connected,
                            "clock": self._clock_json(),
                            "notices": self.notices(),
                        },
                    )
        except ConnectionResetError:  # the page was closed or switched user
            pass
        return response

    def _channels_key(self, user: User) -> tuple:
        return tuple(
            (
                channel_id,
                data.get("name"),
                bool((data.get("thread_metadata") or {}).get("archived")),
            )
            for channel_id, data in self.fake.channels.items()
            if data["type"] != DM
        )

    def notices(self) -> list[dict[str, str]]:
        """The latest rules the bot broke (as the e2e tests would fail on), for everyone to see:
        the sandbox is also for play-testing the bot."""
        return [
            {"kind": v.kind, "text": f"The bot broke Discord's rules: {v}"}
            for v in self.fake.violations[-5:]
        ]

    def _status_key(self) -> tuple:
        return (self.fake.bot_connected, CLOCK.offset, len(self.fake.violations))

    # --- actions --------------------------------------------------------------------------------

    async def act(self, request: web.Request) -> web.Response:
        """One thing a player does. Answers {ok, response_type, modal, choices} or
        {ok: false, error} with what Discord's client would have said."""
        body = await _local_json(request)
        user = self._user(request, body.get("user"))
        action = body.get("action")
        try:
            if action == "message":
                channel = self._channel(body)
                text = str(body.get("content") or "")
                if not text.strip():
                    raise DriverError("type a message first")
                await self.driver.send_message(channel, text, user=user)
                return _json({"ok": True})
            if action == "autocomplete":
                channel = self._channel(body)
                options = self._options(body, user, skip=body.get("option"))
                choices = await self.driver.autocomplete(
                    body["command"],
                    body["option"],
                    self._typed(body),
                    user=user,
                    channel=channel,
                    options=options,
                )
                return _json({"ok": True, "choices": choices})
            reply = await self._interact(action, body, user)
        except DiscordViolation as violation:
            text = "The bot broke Discord's rules: " + "; ".join(
                str(v) for v in violation.violations
            )
            return _json({"ok": False, "error": text})
        except (DriverError, KeyError, ValueError, TypeError) as error:
            return _json({"ok": False, "error": _player_error(error)})
        return _json(
            {
                "ok": True,
                "interaction": str(reply.interaction_id),
                "response_type": reply.response_type,
                "modal": reply.modal,
            }
        )

    async def _interact(self, action: str | None, body: dict[str, Any], user: User) -> Any:
        driver = self.driver
        if action == "command":
            channel = self._channel(body)
            options = self._options(body, user)
            return await driver.slash(
                body["command"], user=user, channel=channel, options=options, wait_followup=False
            )
        if action == "click":
            return await driver.click(
                int(body["message"]), str(body["custom_id"]), user=user, wait_followup=False
            )
        if action == "select":
            values = [str(value) for value in body.get("values") or []]
            message = self.fake.messages.get(int(body["message"]))
            if message is None:
                raise DriverError("that message is gone")
            picked: list[Any] = [
                self.fake.users.get(int(v), v) if v.isdigit() else v for v in values
            ]
            picked = [
                self.fake.channel_handle(int(v))
                if isinstance(v, str) and v.isdigit() and int(v) in self.fake.channels
                else v
                for v in picked
            ]
            return await driver.select(
                int(body["message"]),
                str(body["custom_id"]),
                picked,
                user=user,
                wait_followup=False,
            )
        if action == "modal":
            opener = self.fake.interactions.get(int(body["interaction"]))
            if opener is None or opener.modal is None or opener.user.id != user.id:
                raise DriverError("that form is no longer open")
            reply = driver._reply(opener)
            values = {str(k): v for k, v in (body.get("values") or {}).items()}
            return await driver.submit_modal(reply, values, user=user, wait_followup=False)
        raise DriverError(f"unknown action {action!r}")

    def _channel(self, body: dict[str, Any]) -> Any:
        try:
            return self.fake.channel_handle(int(body["channel"]))
        except (KeyError, ValueError):
            raise DriverError("no such channel") from None

    def _typed(self, body: dict[str, Any]) -> str:
        """The focused option's partial value: the text typed so far."""
        return str((body.get("options") or {}).get(body["option"], ""))

    def _options(self, body: dict[str, Any], user: User, skip: str | None = None) -> dict[str, Any]:
        """The form's option values turned into what Discord would send, by option type."""
        declared = self._declared_options(str(body["command"]))
        values: dict[str, Any] = {}
        for name, raw in (body.get("options") or {}).items():
            if name == skip or raw in (None, ""):
                continue
            option = declared.get(name)
            if option is None:
                raise DriverError(f"/{body['command']} has no option {name!r}")
            values[name] = self._option_value(option, raw)
        return values

    def _declared_options(self, command: str) -> dict[str, dict[str, Any]]:
        words = command.strip().lstrip("/").split()
        if not words:
            raise DriverError("type a command")
        scopes = [
            *self.fake.commands.get(None, []),
            *self.fake.commands.get(self.fake.guild.id, []),
        ]
        node = next((c for c in reversed(scopes) if c["name"] == words[0]), None)
        if node is None:
            raise DriverError(f"there is no /{words[0]} command")
        for word in words[1:]:
            node = next(
                (o for o in node.get("options") or [] if o["type"] in (1, 2) and o["name"] == word),
                None,
            )
            if node is None:
                raise DriverError(f"/{command} is not a command")
        return {o["name"]: o for o in node.get("options") or [] if o["type"] not in (1, 2)}

    def _option_value(self, option: dict[str, Any], raw: Any) -> Any:
        kind = option["type"]
        if option.get("choices"):
            for choice in option["choices"]:
                if str(raw) in (str(choice["value"]), choice["name"]):
                    return choice["value"]
            raise DriverError(f"pick one of the choices for {option['name']!r}")
        if kind == limits.INTEGER:
            try:
                return int(str(raw))
            except ValueError:
                raise DriverError(f"{option['name']!r} takes a whole number") from None
        if kind == limits.NUMBER:
            try:
                return float(str(raw))
            except ValueError:
                raise DriverError(f"{option['name']!r} takes a number") from None
        if kind == limits.BOOLEAN:
            return str(raw).lower() in ("true", "1", "yes")
        if kind in (limits.USER_OPTION, limits.MENTIONABLE):
            return self._user_by_id(raw)
        if kind == limits.CHANNEL_OPTION:
            return self.fake.channel_handle(int(raw))
        if kind == limits.ATTACHMENT:
            if not isinstance(raw, dict) or "data" not in raw:
                raise DriverError(f"attach a file for {option['name']!r}")
            return Upload(
                str(raw.get("filename") or "upload.bin"),
                base64.b64decode(raw["data"]),
                str(raw.get("content_type") or "application/octet-stream"),
            )
        return str(raw)

    # --- the clock ------------------------------------------------------------------------------

    async def clock(self, request: web.Request) -> web.Response:
        if self.controls.advance_clock is None:
            return _json({"ok": False, "error": self.controls.clock_note})
        body = await _local_json(request)
        try:
            seconds = float(body["advance"])
        except (KeyError, TypeError, ValueError):
            return _json({"ok": False, "error": "advance by how many seconds?"})
        if not 0 < seconds <= 366 * 86400:
            return _json({"ok": False, "error": "advance by a positive time, at most a year"})
        note = await self.controls.advance_clock(seconds)
        self.fake.notify()
        return _json({"ok": True, "clock": self._clock_json(), "note": note})


async def _local_json(request: web.Request) -> dict[str, Any]:
    """The body of an action from this page only: JSON (another site's page cannot send that
    to 127.0.0.1 without a CORS preflight, which this server never grants) to a local Host
    name (no DNS rebinding)."""
    if request.host.split(":")[0] not in ("127.0.0.1", "localhost"):
        raise web.HTTPForbidden(text="the sandbox answers its own page only")
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text="send JSON")
    body = await request.json()
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="send a JSON object")
    return body


def _channel_json(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": data["id"],
        "name": data.get("name"),
        "type": data["type"],
        "parent_id": data.get("parent_id"),
        "archived": bool((data.get("thread_metadata") or {}).get("archived")),
        "position": data.get("position", 0),
    }


def _component_media(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every media item of a Components V2 message (thumbnails, gallery items, files)."""
    found: list[dict[str, Any]] = []
    for component in components:
        for key in ("media", "file"):
            if isinstance(component.get(key), dict):
                found.append(component[key])
        found.extend(
            item["media"]
            for item in component.get("items") or []
            if isinstance(item.get("media"), dict)
        )
        children = list(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            children.append(component["accessory"])
        found.extend(_component_media(children))
    return found


def _local_path(url: str | None) -> str | None:
    """Attachment URLs as paths on this server (the page never names a host)."""
    if not url or "/attachments/" not in url:
        return url
    return url[url.index("/attachments/") :]


def _player_error(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"missing {error.args[0]!r}"
    return str(error)


def _json(body: Any, status: int = 200) -> web.Response:
    return web.Response(text=json.dumps(body), status=status, content_type="application/json")


async def _send(response: web.StreamResponse, event: str, data: Any) -> None:
    await response.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
