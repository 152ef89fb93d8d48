"""What a test reads back: a message as a user sees it, and the reply to an interaction.

``Message`` is a snapshot (it does not change when the bot edits the message later; ask the
driver for a fresh one with ``discord.message(old)``). ``Reply`` is a Message plus how the bot
answered the interaction (``response_type``) and, for a modal or autocomplete, what it offered.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from fakediscord import limits
from fakediscord.model import DriverError


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: str | None


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None
    default: bool


@dataclass(frozen=True)
class Select:
    custom_id: str
    type: int
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool
    options: tuple[SelectOption, ...]


@dataclass(frozen=True)
class Attachment:
    id: int
    filename: str
    content_type: str
    size: int
    url: str
    data: bytes = field(repr=False)

    def image(self) -> Image.Image:
        """The attachment opened with Pillow (fully loaded)."""
        image = Image.open(io.BytesIO(self.data))
        image.load()
        return image


def _walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first (action rows, containers, sections, labels)."""
    found: list[dict[str, Any]] = []
    for component in components:
        found.append(component)
        found.extend(_walk_components(component.get("components") or []))
        for key in ("accessory", "component"):
            if component.get(key):
                found.extend(_walk_components([component[key]]))
    return found


def _emoji_text(emoji: dict[str, Any] | None) -> str | None:
    if not emoji:
        return None
    return emoji.get("name")


@dataclass(frozen=True)
class Message:
    """A message as a Discord user sees it."""

    data: dict[str, Any] = field(repr=False)
    attachments: tuple[Attachment, ...] = ()
    ephemeral_for: int | None = None
    deleted: bool = False

    def __repr__(self) -> str:
        return f"<Message {self.id} content={self.content[:60]!r} embeds={len(self.embeds)}>"

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def author_id(self) -> int:
        return int(self.data["author"]["id"])

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds as Discord JSON dicts: embed["title"], embed["fields"][0]["value"], ..."""
        return self.data.get("embeds") or []

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & limits.FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Still the 'thinking...' placeholder of a deferred response."""
        return bool(self.flags & limits.FLAG_LOADING)

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.data.get("components") or []

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                label=component.get("label"),
                custom_id=component.get("custom_id"),
                style=component.get("style", 1),
                disabled=bool(component.get("disabled")),
                url=component.get("url"),
                emoji=_emoji_text(component.get("emoji")),
            )
            for component in _walk_components(self.components)
            if component.get("type") == limits.BUTTON
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                custom_id=component["custom_id"],
                type=component["type"],
                placeholder=component.get("placeholder"),
                min_values=component.get("min_values", 1),
                max_values=component.get("max_values", 1),
                disabled=bool(component.get("disabled")),
                options=tuple(
                    SelectOption(
                        label=option["label"],
                        value=option["value"],
                        description=option.get("description"),
                        default=bool(option.get("default")),
                    )
                    for option in component.get("options") or []
                ),
            )
            for component in _walk_components(self.components)
            if component.get("type") in limits.SELECT_TYPES
        ]

    @property
    def reactions(self) -> dict[str, int]:
        """Reactions under the message: emoji -> count."""
        return {
            (reaction["emoji"].get("name") or ""): reaction["count"]
            for reaction in self.data.get("reactions") or []
        }

    @property
    def button_labels(self) -> list[str]:
        return [button.label or button.emoji or "" for button in self.buttons]

    def button(self, label_or_custom_id: str) -> Button:
        """The button with this custom_id, or else the one with this label (anywhere in the
        message: rows, containers, section accessories)."""
        for button in self.buttons:
            if button.custom_id == label_or_custom_id:
                return button
        return self.button_labelled(label_or_custom_id)

    def button_labelled(self, label: str) -> Button:
        """The one button with this label (or emoji)."""
        matches = [button for button in self.buttons if label in (button.label, button.emoji)]
        if not matches:
            raise DriverError(f"no button {label!r} on this message; it has {self.button_labels}")
        if len(matches) > 1:
            raise DriverError(
                f"{len(matches)} buttons are labelled {label!r}; use a custom_id: "
                f"{[button.custom_id for button in matches]}"
            )
        return matches[0]

    def button_with_id(self, custom_id: str) -> Button:
        for button in self.buttons:
            if button.custom_id == custom_id:
                return button
        raise DriverError(
            f"no button with custom_id {custom_id!r}; it has "
            f"{[button.custom_id for button in self.buttons]}"
        )

    def select(self, custom_id_or_placeholder: str | None = None) -> Select:
        """The select with this custom_id or placeholder (or the only select)."""
        selects = self.selects
        if custom_id_or_placeholder is None:
            if len(selects) != 1:
                raise DriverError(f"this message has {len(selects)} selects; name one")
            return selects[0]
        for select in selects:
            if custom_id_or_placeholder in (select.custom_id, select.placeholder):
                return select
        raise DriverError(
            f"no select {custom_id_or_placeholder!r} on this message; it has "
            f"{[(s.custom_id, s.placeholder) for s in selects]}"
        )

    @property
    def is_v2(self) -> bool:
        """Sent with the IS_COMPONENTS_V2 flag: everything is in ``components``."""
        return bool(self.flags & limits.FLAG_IS_COMPONENTS_V2)

    @property
    def text_displays(self) -> list[str]:
        """The text of each text display, in reading order (containers and sections too)."""
        return [
            component.get("content") or ""
            for component in _walk_components(self.components)
            if component.get("type") == limits.TEXT_DISPLAY
        ]

    def components_of_type(self, kind: int) -> list[dict[str, Any]]:
        """Every component of this type (limits.CONTAINER, limits.SECTION, ...), at any depth,
        as Discord JSON."""
        return [c for c in _walk_components(self.components) if c.get("type") == kind]

    @property
    def media(self) -> list[Attachment]:
        """The message's files that its components show (thumbnails, gallery items and file
        components), in reading order: the attachments they reference."""
        by_id = {attachment.id: attachment for attachment in self.attachments}
        shown: list[Attachment] = []
        for component in _walk_components(self.components):
            items = [component.get("media"), component.get("file")]
            items += [item.get("media") for item in component.get("items") or []]
            for item in items:
                if isinstance(item, dict) and item.get("attachment_id"):
                    attachment = by_id.get(int(item["attachment_id"]))
                    if attachment is not None:
                        shown.append(attachment)
        return shown

    @property
    def images(self) -> list[Image.Image]:
        """Every image attachment, opened with Pillow."""
        return [
            attachment.image()
            for attachment in self.attachments
            if attachment.content_type.startswith("image/")
        ]

    @property
    def text(self) -> str:
        """Everything a user reads in the message: content, embed titles, descriptions, field
        names and values, footers, authors, and text displays (handy for `in` assertions)."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append(embed.get("title") or "")
            parts.append((embed.get("author") or {}).get("name") or "")
            parts.append(embed.get("description") or "")
            for embed_field in embed.get("fields") or []:
                parts.append(str(embed_field.get("name") or ""))
                parts.append(str(embed_field.get("value") or ""))
            parts.append((embed.get("footer") or {}).get("text") or "")
        for component in _walk_components(self.components):
            if component.get("type") == limits.TEXT_DISPLAY:
                parts.append(component.get("content") or "")
        return "\n".join(part for part in parts if part)


@dataclass(frozen=True, repr=False)
class Reply(Message):
    """The bot's answer to one interaction.

    ``response_type``: 4 message, 5 deferred message (then the first followup/edit is shown
    here), 6 deferred update, 7 update message, 8 autocomplete result, 9 modal. For 4, 5 and 7
    the message fields are the response message; for 6, the first message the bot edited or
    posted afterwards; for 8 ``choices``; for 9 ``modal``. ``followups`` are the further
    messages the bot sent for this interaction before the driver returned.
    """

    response_type: int = 0
    interaction_id: int = 0
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    followups: tuple[Message, ...] = ()

    def __repr__(self) -> str:
        return (
            f"<Reply type={self.response_type} content={self.content[:60]!r} "
            f"embeds={len(self.embeds)} ephemeral={self.ephemeral}>"
        )

    @property
    def modal_title(self) -> str | None:
        return None if self.modal is None else self.modal.get("title")

    @property
    def modal_inputs(self) -> list[dict[str, Any]]:
        """The text inputs (and selects) of a modal, each a component dict; for inputs inside
        a Label, the dict carries the label's text under "label"."""
        if self.modal is None:
            return []
        inputs = []
        for component in self.modal.get("components") or []:
            if component.get("type") == limits.LABEL:
                inner = dict(component.get("component") or {})
                inner.setdefault("label", component.get("label"))
                inputs.append(inner)
            elif component.get("type") == limits.ACTION_ROW:
                inputs.extend(component.get("components") or [])
        return inputs
