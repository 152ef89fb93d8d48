"""Messages: composing a create or edit the way Discord would (limits, attachments and their
``attachment://`` references, mentions), storing it, telling the bot, and who may see it."""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

from fakediscord import limits
from fakediscord.errors import RequestError, form_error, not_found
from fakediscord.interactions import APPLICATION_COMMAND
from fakediscord.model import (
    ATTACH_FILES,
    DM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    InteractionRecord,
    MessageMeta,
    StoredFile,
    User,
)
from fakediscord.parts import Parts
from fakediscord.world import now_iso

if TYPE_CHECKING:
    from fakediscord.sessions import GatewaySession

# Gateway intent bit that lets a bot read other users' message content.
MESSAGE_CONTENT_INTENT = 1 << 15


class Messaging(Parts):
    """A mixin of ``FakeDiscord``: messages and uploaded files."""

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
            stored_file.extra.update(image_size(data))
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

    @staticmethod
    def _draft_filenames(
        draft: list[dict[str, Any]],
        entries: list[dict[str, Any]] | None,
        uploads: dict[int, tuple[str, str, bytes]],
    ) -> set[str]:
        """The file names a message will have: kept attachments and new uploads (named by
        their attachment entry, else by the upload itself)."""
        names = {item["filename"] for item in draft if item.get("filename")}
        named = {
            int(entry["id"]): entry.get("filename")
            for entry in entries or []
            if entry.get("id") is not None and str(entry["id"]).isdigit()
        }
        for item in draft:
            if "filename" in item or item.get("id") is None:
                continue
            index = int(item["id"])
            if index in uploads:
                names.add(named.get(index) or uploads[index][0])
        return names

    def _resolve_components(
        self, components: list[dict[str, Any]], attachments: list[dict[str, Any]], flags: int
    ) -> list[dict[str, Any]]:
        """The components as Discord stores them. With IS_COMPONENTS_V2: each component
        numbered (``id``, in order, skipping ids the bot chose) and each ``attachment://NAME``
        media item resolved to the file's URL, size and type, as the bot reads them back."""
        resolved = copy.deepcopy(components)
        if not flags & limits.FLAG_IS_COMPONENTS_V2:
            return resolved
        by_name = {item["filename"]: item for item in attachments}
        everything = _walk_components(resolved)
        taken = {c["id"] for c in everything if isinstance(c.get("id"), int) and c["id"] > 0}
        next_id = 1
        for component in everything:
            if not component.get("id"):
                while next_id in taken:
                    next_id += 1
                component["id"] = next_id
                taken.add(next_id)
            media_items = [component.get("media"), component.get("file")]
            media_items += [item.get("media") for item in component.get("items") or []]
            for media in media_items:
                if isinstance(media, dict):
                    item = _resolve_media(media, by_name)
                    if item is not None and component.get("type") == limits.FILE:
                        component["name"] = item["filename"]  # as Discord fills them in
                        component["size"] = item["size"]
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
        errors = limits.check_message(
            draft,
            [len(data) for *_, data in uploads.values()],
            attachment_names=self._draft_filenames(draft_attachments, attachment_entries, uploads),
        )
        if errors:
            raise form_error(
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
            "timestamp": (previous or {}).get("timestamp") or now_iso(),
            "edited_timestamp": now_iso() if previous else None,
            "tts": False,
            "mention_everyone": False,
            # a Components V2 message mentions whom its text displays mention
            "mentions": self._mentions(
                "\n".join(
                    [base.get("content") or ""]
                    + [
                        str(c.get("content") or "")
                        for c in _walk_components(base.get("components") or [])
                        if c.get("type") == limits.TEXT_DISPLAY
                    ]
                )
            ),
            "mention_roles": [],
            "attachments": attachments,
            "embeds": self._resolve_embeds(base.get("embeds") or [], attachments),
            "components": self._resolve_components(
                base.get("components") or [], attachments, flags
            ),
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
                self.note_thread_activity(channel_id)
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
            raise not_found("Message", 10008)
        return message

    def channel_or_404(self, channel_id: int) -> dict[str, Any]:
        if channel_id not in self.channels:
            raise not_found("Channel", 10003)
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
        self.require_view(channel_id)
        if channel["type"] == DM:
            self.refuse_dm(int(channel["recipients"][0]["id"]))
            return
        if channel["type"] in (PUBLIC_THREAD, PRIVATE_THREAD):
            self.require_bot_permission(
                channel_id, SEND_MESSAGES_IN_THREADS, "Send Messages in Threads"
            )
            if channel["thread_metadata"].get("locked"):
                raise RequestError(400, {"message": "Thread is locked", "code": 160005})
            # posting in an archived (not locked) thread unarchives it: the route does that
        else:
            self.require_bot_permission(channel_id, SEND_MESSAGES, "Send Messages")
        if uploads:
            self.require_bot_permission(channel_id, ATTACH_FILES, "Attach Files")


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


def image_size(data: bytes) -> dict[str, int]:
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


def _walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first: children, then a section's accessory."""
    found: list[dict[str, Any]] = []
    for component in components:
        found.append(component)
        found.extend(_walk_components(component.get("components") or []))
        if isinstance(component.get("accessory"), dict):
            found.extend(_walk_components([component["accessory"]]))
    return found


def _resolve_media(
    media: dict[str, Any], by_name: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """An unfurled media item as Discord answers it: ``attachment://NAME`` becomes the file's
    URL, with its size, type and attachment id. Returns the attachment it named, if any."""
    url = media.get("url") or ""
    if not url.startswith(limits.ATTACHMENT_SCHEME):
        media.setdefault("proxy_url", url)
        return None
    item = by_name.get(url[len(limits.ATTACHMENT_SCHEME) :])
    if item is None:
        return None
    media.update(
        {
            "url": item["url"],
            "proxy_url": item["url"],
            "content_type": item.get("content_type"),
            "attachment_id": item["id"],
        }
    )
    for key in ("width", "height"):
        if item.get(key) is not None:
            media[key] = item[key]
    return item
