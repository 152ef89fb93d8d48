"""The REST API under /api/v10: the route table, and one handler per route.

Each handler: ``async def handler(fake, request, **path_params) -> JSON-able or None`` (204).
``Rest`` (a mixin of ``FakeDiscord``) reads each request, finds its handler and answers with
the handler's JSON or Discord's error.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, web

from fakediscord import limits
from fakediscord.errors import RequestError, form_error, not_found
from fakediscord.interactions import BODY_ARRIVED, DEFERRED_CHANNEL_MESSAGE
from fakediscord.model import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
)
from fakediscord.parts import Parts
from fakediscord.world import now_iso

if TYPE_CHECKING:
    from fakediscord.days import Days
    from fakediscord.gateway import GatewayHooks
    from fakediscord.interactions import Interactions
    from fakediscord.messaging import Messaging
    from fakediscord.model import InteractionRecord
    from fakediscord.world import World

    class Fake(World, GatewayHooks, Messaging, Interactions, Days):
        """``FakeDiscord`` as a REST handler reaches it: the other parts it calls on. Named
        here, not imported from server.py, which assembles the parts and imports this one."""


class Rest(Parts):
    """A mixin of ``FakeDiscord``: answers REST requests from the route table."""

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
            if (
                self.spec_check is not None
                and self.spec_check.template_of(request.method, path) is None
            ):
                raise RequestError(
                    404,
                    {"message": "404: Not Found", "code": 0},
                    violation="openapi",
                    note="Discord's OpenAPI description has no such operation",
                )
            if not path.startswith(("/webhooks/", "/interactions/")):
                auth = request.headers.get("Authorization", "")
                if auth != f"Bot {self.token}":
                    raise RequestError(401, {"message": "401: Unauthorized", "code": 0})
            await self.archive_idle_threads()  # what the fake's clock has done meanwhile
            limited = self.rate_limits.admit(request.method, path)
            if limited.status is not None and limited.body is not None:
                raise RequestError(limited.status, limited.body, headers=limited.headers)
            result = await handler(self, request, **params)
        except ConnectionError:
            # The sender went away before its body had all arrived (a process killed mid-upload,
            # a dropped connection): Discord acts on no request it has not wholly received, and
            # the answer has nowhere to go.
            self.requests_cut_off.append(route)
            self.notify()
            return web.Response(status=400)
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
            return _json_response(error.body, error.status, error.headers)
        except Exception as error:  # a bug in the fake: fail the test, never hang the bot
            # (a 400, not a 500: discord.py retries 5xx answers for seconds)
            details = "".join(traceback.format_exception(error))
            self.record_violation("harness_error", f"the fake Discord crashed:\n{details}", route)
            return _json_response({"message": f"fake Discord crashed: {error!r}", "code": 0}, 400)
        self.notify()
        if result is None:
            return web.Response(status=204, headers=limited.headers)
        return _json_response(result, headers=limited.headers)

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

    async def read_body(self, request: web.Request) -> tuple[Any, dict[int, tuple]]:
        """JSON body (an object, or for a command overwrite a list), or multipart
        (payload_json + files[n]) as discord.py sends uploads."""
        if not request.can_read_body:
            return {}, {}
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: dict[int, tuple[str, str, bytes]] = {}
            if self.upload_seconds:  # the files' bytes take that long to come over the link
                await asyncio.sleep(self.upload_seconds)
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue  # a multipart inside the multipart: discord.py sends none
                name = part.name or ""
                data = await part.read()
                if name == "payload_json":
                    payload = _json_body(data)
                elif match := re.fullmatch(r"files\[(\d+)\]", name):
                    files[int(match[1])] = (
                        part.filename or f"file{match[1]}",
                        part.headers.get("Content-Type", "application/octet-stream"),
                        bytes(data),
                    )
            request[BODY_ARRIVED] = time.monotonic()
            self.check_against_spec(request, payload, has_body=True)
            return payload, files
        text = await request.text()
        request[BODY_ARRIVED] = time.monotonic()
        payload = _json_body(text) if text else {}
        self.check_against_spec(request, payload, has_body=bool(text))
        return payload, {}

    def check_against_spec(self, request: web.Request, body: Any, *, has_body: bool) -> None:
        """Refuse (400 50035) a request whose body Discord's OpenAPI description rejects;
        a route it does not describe is refused too (see openapi.py)."""
        if self.spec_check is None:
            return
        path = "/" + request.match_info["path"]
        errors = self.spec_check.check(request.method, path, body, has_body=has_body)
        if not errors:
            return
        self.spec_violations.append((f"{request.method} {path}", errors))
        raise RequestError(
            400,
            limits.form_body_error(
                [
                    limits.FieldError(
                        tuple(error.path.split(".")) if error.path else (),
                        error.code,
                        error.message,
                    )
                    for error in errors
                ]
            ),
            violation="invalid_form_body",
            note="Discord's OpenAPI description rejects the request: "
            + "; ".join(error.describe() for error in errors),
        )


def _json_body(data: str | bytes | bytearray) -> Any:
    """A body that does not parse is answered as Discord answers it (JSON error code 50109,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes);
    discord.py never sends one, so it is the bot's fault when it happens."""
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError) as error:
        raise RequestError(
            400,
            {"message": "The request body contains invalid JSON.", "code": 50109},
            violation="invalid_json",
            note=f"the body does not parse: {error}",
        ) from None


async def get_gateway(fake: Fake, request: web.Request) -> dict[str, Any]:
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


async def get_me(fake: Fake, request: web.Request) -> dict[str, Any]:
    return {**fake.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0}


async def get_application(fake: Fake, request: web.Request) -> dict[str, Any]:
    return fake.application_json()


async def get_user(fake: Fake, request: web.Request, user_id: str) -> dict[str, Any]:
    user = fake.users.get(int(user_id))
    if user is None:
        raise not_found("User", 10013)
    return user.to_json()


async def create_dm(fake: Fake, request: web.Request) -> dict[str, Any]:
    payload, _ = await fake.read_body(request)
    user = fake.users.get(int(payload.get("recipient_id") or 0))
    if user is None or user.bot:
        raise not_found("User", 10013)
    return fake.channels[fake.dm_channel_for(user)]


def _check_app(fake: Fake, application_id: str) -> None:
    if int(application_id) != fake.application_id:
        raise RequestError(403, {"message": "Missing Access", "code": 50001})


def _check_guild(fake: Fake, guild_id: str) -> int:
    """Any of the fake's guilds; another is one the bot is not in (403 Missing Access)."""
    if int(guild_id) not in fake.guilds:
        raise RequestError(403, {"message": "Missing Access", "code": 50001})
    return int(guild_id)


async def _overwrite_commands(
    fake: Fake, request: web.Request, scope: int | None
) -> list[dict[str, Any]]:
    payload, _ = await fake.read_body(request)
    commands = payload if isinstance(payload, list) else []
    errors = limits.check_command_tree(commands, is_global=scope is None)
    if errors:
        raise form_error(errors)
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
    fake: Fake, request: web.Request, application_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return await _overwrite_commands(fake, request, None)


async def put_guild_commands(
    fake: Fake, request: web.Request, application_id: str, guild_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return await _overwrite_commands(fake, request, _check_guild(fake, guild_id))


async def get_global_commands(
    fake: Fake, request: web.Request, application_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return copy.deepcopy(fake.commands.get(None, []))


async def get_guild_commands(
    fake: Fake, request: web.Request, application_id: str, guild_id: str
) -> list[dict[str, Any]]:
    _check_app(fake, application_id)
    return copy.deepcopy(fake.commands.get(_check_guild(fake, guild_id), []))


async def get_guild(fake: Fake, request: web.Request, guild_id: str) -> dict[str, Any]:
    data = fake.guild_json(fake.guilds[_check_guild(fake, guild_id)])
    for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
        data.pop(key, None)
    return data


async def get_guild_channels(
    fake: Fake, request: web.Request, guild_id: str
) -> list[dict[str, Any]]:
    return fake.guild_json(fake.guilds[_check_guild(fake, guild_id)])["channels"]


async def get_guild_roles(fake: Fake, request: web.Request, guild_id: str) -> list[dict[str, Any]]:
    return fake.roles_json(fake.guilds[_check_guild(fake, guild_id)])


async def get_member(
    fake: Fake, request: web.Request, guild_id: str, user_id: str
) -> dict[str, Any]:
    guild = fake.guilds[_check_guild(fake, guild_id)]
    if int(user_id) not in fake.members or (guild.id, int(user_id)) in fake.departed:
        raise not_found("Member", 10007)
    return fake.member_json(fake.users[int(user_id)], guild=guild)


async def list_members(fake: Fake, request: web.Request, guild_id: str) -> list[dict[str, Any]]:
    guild = fake.guilds[_check_guild(fake, guild_id)]
    return [fake.member_json(fake.users[user_id], guild=guild) for user_id in fake.members]


async def get_channel(fake: Fake, request: web.Request, channel_id: str) -> dict[str, Any]:
    data = fake.channel_or_404(int(channel_id))
    fake.require_view(int(channel_id))
    return copy.deepcopy(data)


async def edit_channel(fake: Fake, request: web.Request, channel_id: str) -> dict[str, Any]:
    channel = fake.channel_or_404(int(channel_id))
    payload, _ = await fake.read_body(request)
    if channel["type"] in (PUBLIC_THREAD, PRIVATE_THREAD):
        metadata = channel["thread_metadata"]
        was_archived = metadata.get("archived")
        if payload.get("archived") is False and was_archived:
            fake.reopen_thread(int(channel_id))
        elif payload.get("archived") is True and not was_archived:
            metadata["archive_timestamp"] = now_iso()
        for key in ("archived", "locked", "auto_archive_duration", "invitable"):
            if key in payload:
                metadata[key] = payload[key]
        if "auto_archive_duration" in payload or (was_archived and not metadata["archived"]):
            # unarchiving, or changing its auto-archive time, is activity (days.py): its idle
            # time starts again, at its new length
            fake.note_thread_activity(int(channel_id))
    if "name" in payload:
        errors: list[limits.FieldError] = []
        limits._check_length(errors, ("name",), payload["name"], 100, minimum=1)
        if errors:
            raise form_error(errors)
        channel["name"] = payload["name"]
    event = (
        "THREAD_UPDATE" if channel["type"] in (PUBLIC_THREAD, PRIVATE_THREAD) else "CHANNEL_UPDATE"
    )
    await fake.dispatch(event, copy.deepcopy(channel))
    return copy.deepcopy(channel)


async def delete_channel(fake: Fake, request: web.Request, channel_id: str) -> dict[str, Any]:
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


async def list_messages(fake: Fake, request: web.Request, channel_id: str) -> list[dict[str, Any]]:
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
    fake: Fake, request: web.Request, channel_id: str, message_id: str
) -> dict[str, Any]:
    return copy.deepcopy(fake.visible_message(int(channel_id), int(message_id)))


async def create_message(fake: Fake, request: web.Request, channel_id: str) -> dict[str, Any]:
    payload, uploads = await fake.read_body(request)
    fake.check_can_post(int(channel_id), uploads)
    await fake.reopen_and_announce(int(channel_id))  # a message reopens an archived thread
    message = fake.compose_message(int(channel_id), payload, uploads)
    return await fake.store_message(message)


async def edit_message(
    fake: Fake, request: web.Request, channel_id: str, message_id: str
) -> dict[str, Any]:
    fake.require_view(int(channel_id))
    previous = fake.visible_message(int(channel_id), int(message_id))
    fake.refuse_if_archived(int(channel_id))
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
    fake.known_bugs.check_channel_edit(payload, uploads)
    message = fake.compose_message(int(channel_id), payload, uploads, previous=previous)
    return await fake.store_message(message)


async def delete_message(
    fake: Fake, request: web.Request, channel_id: str, message_id: str
) -> None:
    message = fake.visible_message(int(channel_id), int(message_id))
    fake.message_meta[int(message_id)].deleted = True
    data = {"id": message["id"], "channel_id": message["channel_id"]}
    if message.get("guild_id"):
        data["guild_id"] = message["guild_id"]
    await fake.dispatch("MESSAGE_DELETE", data)


async def trigger_typing(fake: Fake, request: web.Request, channel_id: str) -> None:
    fake.channel_or_404(int(channel_id))


def _reaction_list(message: dict[str, Any]) -> list[dict[str, Any]]:
    return message.setdefault("reactions", [])


async def add_reaction(
    fake: Fake, request: web.Request, channel_id: str, message_id: str, emoji: str
) -> None:
    message = fake.visible_message(int(channel_id), int(message_id))
    fake.refuse_if_archived(int(channel_id))
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
    fake: Fake, request: web.Request, channel_id: str, message_id: str, emoji: str
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
    fake: Fake, request: web.Request, channel_id: str, message_id: str
) -> None:
    fake.visible_message(int(channel_id), int(message_id))["reactions"] = []


async def _create_thread(
    fake: Fake,
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
        raise form_error(errors)
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
            "archive_timestamp": now_iso(),
            "locked": False,
            "invitable": bool(payload.get("invitable", True)),
            "create_timestamp": now_iso(),
        },
        "member": {
            "id": str(thread_id),
            "user_id": str(fake.application_id),
            "join_timestamp": now_iso(),
            "flags": 0,
        },
        "members": [fake.application_id],
    }
    fake.channels[thread_id] = thread
    fake.thread_order.append(thread_id)
    fake.note_thread_activity(thread_id)
    fake.channel_messages[thread_id] = []
    visible = {key: value for key, value in thread.items() if key != "members"}
    await fake.dispatch("THREAD_CREATE", {**copy.deepcopy(visible), "newly_created": True})
    return copy.deepcopy(visible)


async def start_thread(fake: Fake, request: web.Request, channel_id: str) -> dict[str, Any]:
    payload, _ = await fake.read_body(request)
    return await _create_thread(fake, int(channel_id), payload)


async def start_thread_from_message(
    fake: Fake, request: web.Request, channel_id: str, message_id: str
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
    fake: Fake, request: web.Request, channel_id: str, user_id: str
) -> None:
    thread = fake.channel_or_404(int(channel_id))
    if "members" not in thread:
        raise RequestError(
            400, {"message": "Cannot execute action on this channel type", "code": 50024}
        )
    member_id = fake.application_id if user_id == "@me" else int(user_id)
    if member_id not in fake.members:
        raise not_found("Member", 10007)
    if member_id not in thread["members"]:
        thread["members"].append(member_id)
        thread["member_count"] = len(thread["members"])


async def remove_thread_member(
    fake: Fake, request: web.Request, channel_id: str, user_id: str
) -> None:
    thread = fake.channel_or_404(int(channel_id))
    member_id = fake.application_id if user_id == "@me" else int(user_id)
    if member_id in thread.get("members", []):
        thread["members"].remove(member_id)
        thread["member_count"] = len(thread["members"])


async def list_thread_members(
    fake: Fake, request: web.Request, channel_id: str
) -> list[dict[str, Any]]:
    thread = fake.channel_or_404(int(channel_id))
    return [
        {"id": thread["id"], "user_id": str(uid), "join_timestamp": now_iso(), "flags": 0}
        for uid in thread.get("members", [])
    ]


async def interaction_callback(
    fake: Fake, request: web.Request, interaction_id: str, token: str
) -> dict[str, Any] | None:
    return await fake.interaction_callback(request, interaction_id, token)


async def create_followup(
    fake: Fake, request: web.Request, application_id: str, token: str
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
        # loading message, and keeps the ephemerality chosen at defer time (Receiving and
        # Responding, "Create Followup Message": it acts as an edit of the original response
        # and the ephemeral flag is ignored), so a private answer there is public.
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
    fake: Fake, request: web.Request, application_id: str, token: str, message_id: str
) -> dict[str, Any]:
    record = fake.record_for_webhook(application_id, token)
    return copy.deepcopy(fake.messages[fake.webhook_message_id(record, message_id)])


async def edit_webhook_message(
    fake: Fake, request: web.Request, application_id: str, token: str, message_id: str
) -> dict[str, Any]:
    record = fake.record_for_webhook(application_id, token)
    target = fake.webhook_message_id(record, message_id)
    if fake.message_meta[target].deleted:
        raise not_found("Message", 10008)
    if fake.message_meta[target].ephemeral_for is None:
        fake.refuse_if_archived(int(fake.messages[target]["channel_id"]))
    payload, uploads = await fake.read_body(request)
    if uploads:
        fake._check_interaction_uploads(record, uploads)
    fake.known_bugs.check_interaction_edit(payload, uploads)
    message = fake.compose_message(
        record.channel_id,
        payload,
        uploads,
        previous=fake.messages[target],
        interaction=record,
    )
    return copy.deepcopy(await fake.store_message(message))


async def delete_webhook_message(
    fake: Fake, request: web.Request, application_id: str, token: str, message_id: str
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


def _json_response(
    body: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py parses JSON only when Content-Type is exactly "application/json" (no charset)
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )
