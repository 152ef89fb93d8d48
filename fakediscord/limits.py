"""Discord's payload limits, checked the way Discord checks them.

Each ``check_*`` function takes a JSON payload as the bot sent it and returns a list of
``FieldError`` (empty when Discord would accept it). ``form_body_error`` turns that list into
the body Discord answers with: ``400 {"code": 50035, "message": "Invalid Form Body", "errors":
{...}}``, the errors nested by JSON path with ``_errors`` leaves.

Limits come from Discord's developer documentation (Message, Embed, Component, Interaction and
Application Command resources); each constant names the clause it implements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# Message resource: "content: up to 2000 characters", "up to 10 embeds".
MAX_CONTENT = 2000
MAX_EMBEDS = 10
# Embed limits table.
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER_TEXT = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
# Uploading files: "up to 10 files"; the per-request limit the bot is told in
# interaction.attachment_size_limit (25 MiB for an unboosted guild).
MAX_ATTACHMENTS = 10
MAX_UPLOAD_BYTES = 25 * 1024 * 1024
# Component reference.
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_PLACEHOLDER = 150
MAX_SELECT_OPTION_TEXT = 100
MAX_V2_COMPONENTS = 40
MAX_TEXT_DISPLAY_TOTAL = 4000
# Modals: "title: max 45 characters", "between 1 and 5 components".
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_INPUT_LABEL = 45
MAX_TEXT_INPUT_LENGTH = 4000
MAX_TEXT_INPUT_PLACEHOLDER = 100
MAX_LABEL_DESCRIPTION = 100
# Autocomplete result: "up to 25 choices".
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_STRING_VALUE = 100
# Application command structure.
COMMAND_NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")
MAX_COMMAND_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_COMMAND_TOTAL_CHARS = 4000
MAX_GLOBAL_CHAT_COMMANDS = 100
MAX_USER_OR_MESSAGE_COMMANDS = 5
MAX_STRING_OPTION_LENGTH = 6000

# Message flags the harness needs to understand.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_IS_COMPONENTS_V2 = 1 << 15

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
LABEL = 18
SELECT_TYPES = {STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT}
LINK_BUTTON_STYLE = 5
PREMIUM_BUTTON_STYLE = 6

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER_OPTION = 6
CHANNEL_OPTION = 7
ROLE_OPTION = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


@dataclass(frozen=True)
class FieldError:
    """One rejected field: its JSON path, Discord's error code and message."""

    path: tuple[str | int, ...]
    code: str
    message: str

    def describe(self) -> str:
        where = ".".join(str(part) for part in self.path) or "(body)"
        return f"{where}: {self.message}"


def form_body_error(errors: list[FieldError]) -> dict[str, Any]:
    """Discord's 400 body for invalid fields, errors nested by path."""
    nested: dict[str, Any] = {}
    for error in errors:
        node = nested
        for part in error.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": nested}


def _too_long(path: tuple, limit: int) -> FieldError:
    return FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_length(
    errors: list[FieldError], path: tuple, value: Any, limit: int, *, minimum: int = 0
) -> None:
    if value is None:
        if minimum > 0:
            errors.append(FieldError(path, "BASE_TYPE_REQUIRED", "This field is required"))
        return
    text = str(value)
    if len(text) > limit:
        errors.append(_too_long(path, limit))
    elif len(text) < minimum:
        errors.append(
            FieldError(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {minimum} and {limit} in length.",
            )
        )


# --- messages --------------------------------------------------------------------------


def embed_size(embed: dict[str, Any]) -> int:
    """Characters that count towards the 6000 total (Embed limits: title, description,
    field names and values, footer text, author name)."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for field in embed.get("fields") or []:
        total += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def check_embeds(embeds: list[dict[str, Any]], prefix: tuple = ()) -> list[FieldError]:
    """Embed limits: per-field lengths, 25 fields, 10 embeds, 6000 characters in all."""
    errors: list[FieldError] = []
    if len(embeds) > MAX_EMBEDS:
        errors.append(_too_long((*prefix, "embeds"), MAX_EMBEDS))
    for index, embed in enumerate(embeds):
        path = (*prefix, "embeds", index)
        _check_length(errors, (*path, "title"), embed.get("title"), MAX_EMBED_TITLE)
        _check_length(
            errors, (*path, "description"), embed.get("description"), MAX_EMBED_DESCRIPTION
        )
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            errors.append(_too_long((*path, "fields"), MAX_EMBED_FIELDS))
        for field_index, field in enumerate(fields):
            field_path = (*path, "fields", field_index)
            _check_length(
                errors, (*field_path, "name"), field.get("name"), MAX_FIELD_NAME, minimum=1
            )
            _check_length(
                errors, (*field_path, "value"), field.get("value"), MAX_FIELD_VALUE, minimum=1
            )
        footer = embed.get("footer")
        if footer:
            _check_length(errors, (*path, "footer", "text"), footer.get("text"), MAX_FOOTER_TEXT)
        author = embed.get("author")
        if author:
            _check_length(errors, (*path, "author", "name"), author.get("name"), MAX_AUTHOR_NAME)
    if sum(embed_size(embed) for embed in embeds) > MAX_EMBED_TOTAL:
        errors.append(
            FieldError(
                (*prefix, "embeds"),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            )
        )
    return errors


def _check_custom_id(
    errors: list[FieldError], path: tuple, custom_id: Any, seen: dict[str, tuple]
) -> None:
    _check_length(errors, (*path, "custom_id"), custom_id, MAX_CUSTOM_ID, minimum=1)
    if custom_id is None:
        return
    if custom_id in seen:
        errors.append(
            FieldError(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                f"Component custom id cannot be duplicated ({custom_id!r})",
            )
        )
    seen[custom_id] = path


def _check_button(errors: list[FieldError], path: tuple, button: dict, seen: dict) -> None:
    style = button.get("style")
    if style == LINK_BUTTON_STYLE:
        if not button.get("url"):
            errors.append(
                FieldError((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
            )
        if button.get("custom_id") is not None:
            errors.append(
                FieldError(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom id",
                )
            )
    elif style != PREMIUM_BUTTON_STYLE:
        _check_custom_id(errors, path, button.get("custom_id"), seen)
    _check_length(errors, (*path, "label"), button.get("label"), MAX_BUTTON_LABEL)
    if style != PREMIUM_BUTTON_STYLE and not button.get("label") and not button.get("emoji"):
        errors.append(
            FieldError(
                (*path, "label"),
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )
        )


def _check_select(errors: list[FieldError], path: tuple, select: dict, seen: dict) -> None:
    _check_custom_id(errors, path, select.get("custom_id"), seen)
    _check_length(errors, (*path, "placeholder"), select.get("placeholder"), MAX_SELECT_PLACEHOLDER)
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not 0 <= min_values <= 25:
        errors.append(
            FieldError((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
        )
    if not 1 <= max_values <= 25:
        errors.append(
            FieldError((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
        )
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        errors.append(
            FieldError(
                (*path, "options"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
            )
        )
    if max_values > max(len(options), 1):
        errors.append(
            FieldError(
                (*path, "max_values"),
                "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                "max_values is larger than the number of options",
            )
        )
    values_seen: set[str] = set()
    for index, option in enumerate(options):
        option_path = (*path, "options", index)
        for key in ("label", "value"):
            _check_length(
                errors, (*option_path, key), option.get(key), MAX_SELECT_OPTION_TEXT, minimum=1
            )
        _check_length(
            errors, (*option_path, "description"), option.get("description"), MAX_SELECT_OPTION_TEXT
        )
        value = option.get("value")
        if value in values_seen:
            errors.append(
                FieldError(
                    (*option_path, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    f"Select option value is duplicated ({value!r})",
                )
            )
        values_seen.add(value)


def _check_action_row(errors: list[FieldError], path: tuple, row: dict, seen: dict) -> None:
    children = row.get("components") or []
    if not children:
        errors.append(
            FieldError(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        )
    kinds = {child.get("type") for child in children}
    if kinds & SELECT_TYPES and len(children) > 1:
        errors.append(
            FieldError(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu must be alone in its action row",
            )
        )
    if len(children) > MAX_BUTTONS_PER_ROW:
        errors.append(_too_long((*path, "components"), MAX_BUTTONS_PER_ROW))
    for index, child in enumerate(children):
        child_path = (*path, "components", index)
        if child.get("type") == BUTTON:
            _check_button(errors, child_path, child, seen)
        elif child.get("type") in SELECT_TYPES:
            _check_select(errors, child_path, child, seen)
        else:
            errors.append(
                FieldError(
                    (*child_path, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {child.get('type')} is not allowed in a message action row",
                )
            )


# Components V2 layout (Component reference: "Component types", each component's "Allowed in"):
# what may stand at the top of a message, inside a container, beside a section's text.
V2_TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
V2_IN_CONTAINER = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR}
V2_SECTION_ACCESSORIES = {BUTTON, THUMBNAIL}
MAX_SECTION_TEXTS = 3  # Section: "one to three text components"
MAX_GALLERY_ITEMS = 10  # Media Gallery: "1 to 10 media gallery items"
MAX_MEDIA_DESCRIPTION = 1024  # Thumbnail and gallery item: "alt text ... max 1024 characters"
SEPARATOR_SPACINGS = (1, 2)  # Separator: 1 small padding, 2 large padding
MAX_COLOR = 0xFFFFFF
MAX_COMPONENT_ID = 2**31 - 1  # component id: a 32-bit integer, unique in the message
ATTACHMENT_SCHEME = "attachment://"


@dataclass
class _V2Walk:
    """What a Components V2 check carries through the tree."""

    seen: dict[str, tuple]  # custom_id -> where
    ids: dict[int, tuple]  # component id -> where
    attachment_names: set[str] | None  # the message's files (None: references not checked)
    count: int = 0
    text: int = 0


def _union_error(path: tuple, kind: Any, allowed: set[int], where: str) -> FieldError:
    return FieldError(
        (*path, "type"),
        "UNION_TYPE_CHOICES",
        f"Component type {kind} is not allowed {where} (allowed: {sorted(allowed)})",
    )


def _bad_length(path: tuple, minimum: int, maximum: int) -> FieldError:
    return FieldError(
        path, "BASE_TYPE_BAD_LENGTH", f"Must be between {minimum} and {maximum} in length."
    )


def _check_media(
    errors: list[FieldError], path: tuple, media: Any, walk: _V2Walk, *, only_attachment: bool
) -> None:
    """An unfurled media item: an http(s) address or ``attachment://NAME`` naming a file of the
    message (the File component takes attachment references only)."""
    url = media.get("url") if isinstance(media, dict) else None
    if not url:
        errors.append(FieldError((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
        return
    url_path = (*path, "url")
    if url.startswith(ATTACHMENT_SCHEME):
        name = url[len(ATTACHMENT_SCHEME) :]
        if walk.attachment_names is not None and name not in walk.attachment_names:
            errors.append(
                FieldError(
                    url_path,
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    f"{url} names no file of this message "
                    f"(it has {sorted(walk.attachment_names) or 'none'})",
                )
            )
        return
    if only_attachment:
        errors.append(
            FieldError(
                url_path,
                "UNFURLED_MEDIA_ITEM_INVALID_SCHEME",
                "A file component only takes attachment://<filename> references",
            )
        )
    elif not url.startswith(("https://", "http://")):
        errors.append(
            FieldError(
                url_path, "URL_TYPE_INVALID_SCHEME", "Scheme must be one of ('http', 'https')."
            )
        )


def _check_v2(
    errors: list[FieldError],
    path: tuple,
    component: Any,
    walk: _V2Walk,
    allowed: set[int],
    where: str,
) -> None:
    """One Components V2 component and its children: its type allowed where it stands, its
    own fields, every component and text display counted towards the message's totals."""
    if not isinstance(component, dict):
        errors.append(FieldError(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used"))
        return
    walk.count += 1
    kind = component.get("type")
    if kind not in allowed:
        errors.append(_union_error(path, kind, allowed, where))
        return
    component_id = component.get("id")
    if component_id:  # 0 or absent: Discord numbers it
        if not isinstance(component_id, int) or not 0 < component_id <= MAX_COMPONENT_ID:
            errors.append(
                FieldError((*path, "id"), "NUMBER_TYPE_MAX", "Must be a 32-bit positive integer.")
            )
        elif component_id in walk.ids:
            errors.append(
                FieldError(
                    (*path, "id"),
                    "COMPONENT_ID_DUPLICATED",
                    f"Component id {component_id} is already used in this message",
                )
            )
        else:
            walk.ids[component_id] = path
    children = component.get("components")
    if kind == ACTION_ROW:
        walk.count += len(children or [])
        _check_action_row(errors, path, component, walk.seen)
    elif kind == BUTTON:
        _check_button(errors, path, component, walk.seen)
    elif kind == TEXT_DISPLAY:
        content = component.get("content")
        _check_length(errors, (*path, "content"), content, MAX_TEXT_DISPLAY_TOTAL, minimum=1)
        walk.text += len(content or "") if isinstance(content, str) else 0
    elif kind == CONTAINER:
        if not children:
            errors.append(_bad_length((*path, "components"), 1, MAX_V2_COMPONENTS))
        color = component.get("accent_color")
        if color is not None and not (isinstance(color, int) and 0 <= color <= MAX_COLOR):
            errors.append(
                FieldError(
                    (*path, "accent_color"),
                    "NUMBER_TYPE_MAX",
                    f"Must be between 0 and {MAX_COLOR}.",
                )
            )
        for index, child in enumerate(children or []):
            _check_v2(
                errors,
                (*path, "components", index),
                child,
                walk,
                V2_IN_CONTAINER,
                "in a container",
            )
    elif kind == SECTION:
        if not 1 <= len(children or []) <= MAX_SECTION_TEXTS:
            errors.append(_bad_length((*path, "components"), 1, MAX_SECTION_TEXTS))
        for index, child in enumerate(children or []):
            _check_v2(
                errors,
                (*path, "components", index),
                child,
                walk,
                {TEXT_DISPLAY},
                "in a section's text",
            )
        accessory = component.get("accessory")
        if not accessory:
            errors.append(
                FieldError((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
            )
        else:
            _check_v2(
                errors,
                (*path, "accessory"),
                accessory,
                walk,
                V2_SECTION_ACCESSORIES,
                "as a section's accessory",
            )
    elif kind == THUMBNAIL:
        _check_media(errors, (*path, "media"), component.get("media"), walk, only_attachment=False)
        _check_length(
            errors, (*path, "description"), component.get("description"), MAX_MEDIA_DESCRIPTION
        )
    elif kind == MEDIA_GALLERY:
        items = component.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            errors.append(_bad_length((*path, "items"), 1, MAX_GALLERY_ITEMS))
        for index, item in enumerate(items):
            item_path = (*path, "items", index)
            item = item if isinstance(item, dict) else {}
            _check_media(
                errors, (*item_path, "media"), item.get("media"), walk, only_attachment=False
            )
            _check_length(
                errors, (*item_path, "description"), item.get("description"), MAX_MEDIA_DESCRIPTION
            )
    elif kind == FILE:
        _check_media(errors, (*path, "file"), component.get("file"), walk, only_attachment=True)
    elif kind == SEPARATOR:
        spacing = component.get("spacing", 1)
        if spacing not in SEPARATOR_SPACINGS:
            errors.append(
                FieldError((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
            )


def check_components(
    components: list[dict[str, Any]],
    flags: int,
    prefix: tuple = (),
    *,
    attachment_names: set[str] | None = None,
) -> list[FieldError]:
    """Message components: 5 action rows of at most 5 buttons or one select, custom ids of
    1-100 characters unique in the message, select options 1-25, labels 80. With the
    IS_COMPONENTS_V2 flag (Component reference): at most 40 components counted at every depth
    and 4000 characters of text display in all; the nesting Discord allows (a container holds
    rows, text, sections, galleries, files and separators; a section 1-3 text displays and a
    button or thumbnail beside them); 1-10 gallery items; media given as http(s) or as
    ``attachment://NAME`` naming one of ``attachment_names`` (when given); component ids
    unique."""
    errors: list[FieldError] = []
    seen: dict[str, tuple] = {}
    if flags & FLAG_IS_COMPONENTS_V2:
        walk = _V2Walk(seen=seen, ids={}, attachment_names=attachment_names)
        for index, component in enumerate(components):
            _check_v2(
                errors,
                (*prefix, "components", index),
                component,
                walk,
                V2_TOP_LEVEL,
                "at the top of a message",
            )
        if walk.count > MAX_V2_COMPONENTS:
            errors.append(_too_long((*prefix, "components"), MAX_V2_COMPONENTS))
        if walk.text > MAX_TEXT_DISPLAY_TOTAL:
            errors.append(
                FieldError(
                    (*prefix, "components"),
                    "MESSAGE_TEXT_DISPLAY_TOTAL_TOO_LONG",
                    f"The text displays of a message must be {MAX_TEXT_DISPLAY_TOTAL} "
                    f"or fewer characters in all ({walk.text})",
                )
            )
        return errors
    if len(components) > MAX_ACTION_ROWS:
        errors.append(_too_long((*prefix, "components"), MAX_ACTION_ROWS))
    for index, row in enumerate(components):
        path = (*prefix, "components", index)
        if row.get("type") != ACTION_ROW:
            errors.append(
                FieldError(
                    (*path, "type"),
                    "UNION_TYPE_CHOICES",
                    "Top-level message components must be action rows "
                    "(set the IS_COMPONENTS_V2 flag for layout components)",
                )
            )
            continue
        _check_action_row(errors, path, row, seen)
    return errors


def check_message(
    message: dict[str, Any],
    file_sizes: list[int],
    prefix: tuple = (),
    *,
    attachment_names: set[str] | None = None,
) -> list[FieldError]:
    """A message as it will be stored (after an edit is merged): content, embeds,
    components and attachment count. Upload size is checked separately (it is a 413).
    ``attachment_names``: the message's files, for ``attachment://`` references in
    components (None: not checked)."""
    errors: list[FieldError] = []
    flags = int(message.get("flags") or 0)
    content = message.get("content") or ""
    embeds = message.get("embeds") or []
    components = message.get("components") or []
    attachments = message.get("attachments") or []
    if flags & FLAG_IS_COMPONENTS_V2:
        if content:
            errors.append(
                FieldError(
                    (*prefix, "content"),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            )
        for key in ("embeds", "sticker_ids", "poll"):
            if message.get(key):
                errors.append(
                    FieldError(
                        (*prefix, key),
                        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        f"The '{key}' field cannot be used when using "
                        "MessageFlags.IS_COMPONENTS_V2",
                    )
                )
    if len(content) > MAX_CONTENT:
        errors.append(_too_long((*prefix, "content"), MAX_CONTENT))
    errors.extend(check_embeds(embeds, prefix))
    errors.extend(check_components(components, flags, prefix, attachment_names=attachment_names))
    if len(attachments) > MAX_ATTACHMENTS or len(file_sizes) > MAX_ATTACHMENTS:
        errors.append(_too_long((*prefix, "attachments"), MAX_ATTACHMENTS))
    return errors


def is_empty_message(message: dict[str, Any]) -> bool:
    """Discord refuses a message with nothing to show (50006 Cannot send an empty message)."""
    return not (
        message.get("content")
        or message.get("embeds")
        or message.get("components")
        or message.get("attachments")
        or message.get("sticker_ids")
        or message.get("poll")
    )


# --- modals and autocomplete ---------------------------------------------------------


def _check_text_input(errors: list[FieldError], path: tuple, text_input: dict, seen: dict) -> None:
    _check_custom_id(errors, path, text_input.get("custom_id"), seen)
    if "label" in text_input:  # legacy text input in an action row carries its own label
        _check_length(
            errors, (*path, "label"), text_input.get("label"), MAX_TEXT_INPUT_LABEL, minimum=1
        )
    if text_input.get("style") not in (1, 2):
        errors.append(FieldError((*path, "style"), "BASE_TYPE_CHOICES", "Value must be 1 or 2."))
    minimum = text_input.get("min_length")
    maximum = text_input.get("max_length")
    if minimum is not None and not 0 <= minimum <= MAX_TEXT_INPUT_LENGTH:
        errors.append(
            FieldError((*path, "min_length"), "NUMBER_TYPE_MAX", "Must be between 0 and 4000.")
        )
    if maximum is not None and not 1 <= maximum <= MAX_TEXT_INPUT_LENGTH:
        errors.append(
            FieldError((*path, "max_length"), "NUMBER_TYPE_MAX", "Must be between 1 and 4000.")
        )
    _check_length(
        errors, (*path, "placeholder"), text_input.get("placeholder"), MAX_TEXT_INPUT_PLACEHOLDER
    )
    _check_length(errors, (*path, "value"), text_input.get("value"), MAX_TEXT_INPUT_LENGTH)


def check_modal(modal: dict[str, Any], prefix: tuple = ("data",)) -> list[FieldError]:
    """Modal: title 1-45, custom id 1-100, 1-5 top-level components, each an action row
    holding one text input, a label wrapping a text input or select, or a text display."""
    errors: list[FieldError] = []
    seen: dict[str, tuple] = {}
    _check_length(errors, (*prefix, "title"), modal.get("title"), MAX_MODAL_TITLE, minimum=1)
    _check_length(errors, (*prefix, "custom_id"), modal.get("custom_id"), MAX_CUSTOM_ID, minimum=1)
    components = modal.get("components") or []
    if not 1 <= len(components) <= MAX_MODAL_COMPONENTS:
        errors.append(
            FieldError(
                (*prefix, "components"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_MODAL_COMPONENTS} in length.",
            )
        )
    for index, component in enumerate(components):
        path = (*prefix, "components", index)
        kind = component.get("type")
        if kind == ACTION_ROW:
            children = component.get("components") or []
            if len(children) != 1 or children[0].get("type") != TEXT_INPUT:
                errors.append(
                    FieldError(
                        (*path, "components"),
                        "MODAL_ACTION_ROW_INVALID",
                        "An action row in a modal must hold exactly one text input",
                    )
                )
            for child_index, child in enumerate(children):
                if child.get("type") == TEXT_INPUT:
                    _check_text_input(errors, (*path, "components", child_index), child, seen)
        elif kind == LABEL:
            _check_length(
                errors, (*path, "label"), component.get("label"), MAX_TEXT_INPUT_LABEL, minimum=1
            )
            _check_length(
                errors, (*path, "description"), component.get("description"), MAX_LABEL_DESCRIPTION
            )
            inner = component.get("component") or {}
            if inner.get("type") == TEXT_INPUT:
                _check_text_input(errors, (*path, "component"), inner, seen)
            elif inner.get("type") in SELECT_TYPES:
                _check_select(errors, (*path, "component"), inner, seen)
            else:
                _check_custom_id(errors, (*path, "component"), inner.get("custom_id"), seen)
        elif kind != TEXT_DISPLAY:
            errors.append(
                FieldError(
                    (*path, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {kind} is not allowed at the top of a modal",
                )
            )
    return errors


def check_choices(choices: list[dict[str, Any]], prefix: tuple = ("data",)) -> list[FieldError]:
    """Autocomplete result: at most 25 choices, names 1-100, string values at most 100."""
    errors: list[FieldError] = []
    if len(choices) > MAX_CHOICES:
        errors.append(_too_long((*prefix, "choices"), MAX_CHOICES))
    for index, choice in enumerate(choices):
        path = (*prefix, "choices", index)
        _check_length(errors, (*path, "name"), choice.get("name"), MAX_CHOICE_NAME, minimum=1)
        if isinstance(choice.get("value"), str):
            _check_length(errors, (*path, "value"), choice.get("value"), MAX_CHOICE_STRING_VALUE)
    return errors


# --- application commands --------------------------------------------------------------


def _check_name(errors: list[FieldError], path: tuple, name: Any, *, chat_input: bool) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.append(
            FieldError(
                (*path, "name"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 32 in length.",
            )
        )
        return
    if chat_input and (not COMMAND_NAME_PATTERN.match(name) or name != name.lower()):
        errors.append(
            FieldError(
                (*path, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid ({name!r}: lowercase letters, digits, - and _ only)",
            )
        )


def _check_description(errors: list[FieldError], path: tuple, description: Any) -> None:
    _check_length(errors, (*path, "description"), description, MAX_COMMAND_DESCRIPTION, minimum=1)


def _text_size(node: dict[str, Any]) -> int:
    """Characters counted towards the 4000 limit: names, descriptions, choice names and
    values, including every localisation."""
    total = len(node.get("name") or "") + len(node.get("description") or "")
    for key in ("name_localizations", "description_localizations"):
        total += sum(len(text) for text in (node.get(key) or {}).values())
    for choice in node.get("choices") or []:
        total += len(choice.get("name") or "") + len(str(choice.get("value")))
        total += sum(len(text) for text in (choice.get("name_localizations") or {}).values())
    for option in node.get("options") or []:
        total += _text_size(option)
    return total


def _check_options(
    errors: list[FieldError], path: tuple, options: list[dict[str, Any]], depth: int
) -> None:
    if len(options) > MAX_OPTIONS:
        errors.append(_too_long((*path, "options"), MAX_OPTIONS))
    kinds = [option.get("type") for option in options]
    nested = [kind in (SUB_COMMAND, SUB_COMMAND_GROUP) for kind in kinds]
    if any(nested) and not all(nested):
        errors.append(
            FieldError(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-commands and sub-command groups cannot be mixed with other option types",
            )
        )
    names_seen: set[str | None] = set()  # a missing name is refused, and seen
    seen_optional = False
    for index, option in enumerate(options):
        option_path = (*path, "options", index)
        kind = option.get("type")
        _check_name(errors, option_path, option.get("name"), chat_input=True)
        _check_description(errors, option_path, option.get("description"))
        if option.get("name") in names_seen:
            errors.append(
                FieldError(
                    (*option_path, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    f"Option name {option.get('name')!r} is already used",
                )
            )
        names_seen.add(option.get("name"))
        if kind == SUB_COMMAND_GROUP and depth > 0:
            errors.append(
                FieldError(
                    (*option_path, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A sub-command group can only sit at the top of a command",
                )
            )
        if kind == SUB_COMMAND and depth > 1:
            errors.append(
                FieldError(
                    (*option_path, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-commands cannot be nested that deep",
                )
            )
        if kind == SUB_COMMAND_GROUP:
            children = option.get("options") or []
            if any(child.get("type") != SUB_COMMAND for child in children):
                errors.append(
                    FieldError(
                        (*option_path, "options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "A sub-command group may only hold sub-commands",
                    )
                )
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(errors, option_path, option.get("options") or [], depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(
                    FieldError(
                        (*option_path, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            errors.append(_too_long((*option_path, "choices"), MAX_CHOICES))
        for choice_index, choice in enumerate(choices):
            choice_path = (*option_path, "choices", choice_index)
            _check_length(
                errors, (*choice_path, "name"), choice.get("name"), MAX_CHOICE_NAME, minimum=1
            )
            if isinstance(choice.get("value"), str):
                _check_length(
                    errors, (*choice_path, "value"), choice.get("value"), MAX_CHOICE_STRING_VALUE
                )
        if choices and kind not in (STRING, INTEGER, NUMBER):
            errors.append(
                FieldError(
                    (*option_path, "choices"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                    "Only string, integer and number options can have choices",
                )
            )
        if option.get("autocomplete") and (choices or kind not in (STRING, INTEGER, NUMBER)):
            errors.append(
                FieldError(
                    (*option_path, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete needs a string, integer or number option without choices",
                )
            )
        for key in ("min_length", "max_length"):
            if key in option and not 0 <= option[key] <= MAX_STRING_OPTION_LENGTH:
                errors.append(
                    FieldError(
                        (*option_path, key), "NUMBER_TYPE_MAX", "Must be between 0 and 6000."
                    )
                )


def check_command_tree(commands: list[dict[str, Any]], *, is_global: bool) -> list[FieldError]:
    """Bulk overwrite of application commands: names (1-32, lowercase, ^[-_\\w]{1,32}$),
    descriptions 1-100 (empty for user and message commands), at most 25 options, choices
    and sub-commands per level, required options first, 4000 characters per command,
    unique names, at most 100 global chat-input and 5 user / 5 message commands."""
    errors: list[FieldError] = []
    seen: set[tuple[int, str | None]] = set()  # (type, name); a missing name is refused
    counts = {1: 0, 2: 0, 3: 0}
    for index, command in enumerate(commands):
        path: tuple = (index,)
        kind = command.get("type", 1)
        counts[kind] = counts.get(kind, 0) + 1
        _check_name(errors, path, command.get("name"), chat_input=kind == 1)
        if (kind, command.get("name")) in seen:
            errors.append(
                FieldError(
                    (*path, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command name {command.get('name')!r} is already used",
                )
            )
        seen.add((kind, command.get("name")))
        if kind == 1:
            _check_description(errors, path, command.get("description"))
            _check_options(errors, path, command.get("options") or [], depth=0)
        elif command.get("description"):
            errors.append(
                FieldError(
                    (*path, "description"),
                    "APPLICATION_COMMAND_DESCRIPTION_INVALID",
                    "User and message commands cannot have a description",
                )
            )
        if _text_size(command) > MAX_COMMAND_TOTAL_CHARS:
            errors.append(
                FieldError(
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_TOTAL_CHARS})",
                )
            )
    if is_global and counts[1] > MAX_GLOBAL_CHAT_COMMANDS:
        errors.append(_too_long((), MAX_GLOBAL_CHAT_COMMANDS))
    for kind in (2, 3):
        if counts[kind] > MAX_USER_OR_MESSAGE_COMMANDS:
            errors.append(
                FieldError(
                    (),
                    "APPLICATION_COMMANDS_TYPE_LIMIT",
                    f"Maximum number of application commands of type {kind} reached (5)",
                )
            )
    return errors
