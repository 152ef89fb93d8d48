"""Interactions: what the driver sends, and the rules for the bot's answers (the 3-second
deadline, one initial response, the response types each interaction allows, followups and edits
through the interaction's webhook)."""

from __future__ import annotations

import copy
import secrets
import time
from typing import Any

from aiohttp import web

from fakediscord import limits
from fakediscord.errors import RequestError, form_error, not_found
from fakediscord.model import (
    ATTACH_FILES,
    DM,
    InteractionRecord,
    User,
)
from fakediscord.parts import Parts
from fakediscord.world import now_iso

# Discord's deadline for the first response to an interaction ("Interactions must be
# responded to within 3 seconds"), after which it answers 10062 Unknown interaction.
RESPONSE_DEADLINE_SECONDS = 3.0
# When a request's body had arrived in full (time.monotonic(), set by Rest.read_body): Discord
# has a response only once all of it is there, so an upload still on its way at 3 s is late.
BODY_ARRIVED = web.RequestKey("body_arrived", float)


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


class Interactions(Parts):
    """A mixin of ``FakeDiscord``: interactions and their responses."""

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
        # the deadline is Discord's from when the answer has arrived (all of its body: an
        # upload takes as long as its bytes take over the link), whatever the fake then spends
        # checking it (compiling the route's OpenAPI validator on first use)
        record = self.interactions.get(int(interaction_id))
        if record is None or record.token != token:
            raise RequestError(
                404,
                {"message": "Unknown interaction", "code": 10062},
                violation="unknown_interaction",
                note="no such interaction (wrong id or token)",
            )
        payload, uploads = await self.read_body(request)
        arrived = request.get(BODY_ARRIVED, time.monotonic())
        if record.response_type is not None:
            raise RequestError(
                400,
                {"message": "Interaction has already been acknowledged.", "code": 40060},
                violation="already_acknowledged",
                note="a second initial response to the same interaction; use a followup or edit",
            )
        elapsed = arrived - record.created
        if elapsed > self.response_deadline:
            raise RequestError(
                404,
                {"message": "Unknown interaction", "code": 10062},
                violation="late_response",
                note=f"the first response came {elapsed:.2f} s after the interaction; "
                f"Discord allows {self.response_deadline:.0f} s (defer first when work is slow)",
            )
        callback: Any = payload.get("type")  # whatever the bot sent, checked here
        if callback not in self.allowed_callbacks(record):
            raise form_error(
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
            message_id = record.message_id
            previous = self.messages[message_id] if message_id else None
            if not message_id or previous is None or self.message_meta[message_id].deleted:
                raise not_found("Message", 10008)
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
                raise form_error(errors)
        elif callback == MODAL:
            errors = limits.check_modal(data)
            if errors:
                raise form_error(errors)
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
        record.responded = arrived
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
            "timestamp": now_iso(),
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
        self.check_token_alive(record)
        return record

    def webhook_message_id(self, record: InteractionRecord, message_id: str) -> int:
        if message_id == "@original":
            if record.original_message_id is None:
                raise not_found("Message", 10008)
            return record.original_message_id
        wanted = int(message_id)
        if wanted not in (record.original_message_id, *record.followup_ids):
            raise not_found("Message", 10008)
        return wanted
