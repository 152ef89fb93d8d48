"""The UI toolkit every game's Discord code uses: replies and error reporting, text caps and
escaping, permission checks, the rules pages."""

from ui.client import channel_by_id
from ui.permissions import (
    PERMISSION_NAMES,
    PermissionMissing,
    missing_permissions_text,
    require_bot_permissions,
)
from ui.replies import (
    BUSY,
    STALE,
    UNEXPECTED_ERROR,
    LookupFailed,
    LookupOption,
    UserError,
    interaction_expired,
    report_error,
    send_ephemeral,
    user_message_for,
)
from ui.text import (
    MAX_CONTENT,
    MAX_QUOTE,
    Markup,
    bold,
    display_name,
    fit,
    item,
    packed,
    quote,
    shown,
)

__all__ = [
    "BUSY",
    "MAX_CONTENT",
    "MAX_QUOTE",
    "PERMISSION_NAMES",
    "STALE",
    "UNEXPECTED_ERROR",
    "LookupFailed",
    "LookupOption",
    "Markup",
    "PermissionMissing",
    "UserError",
    "bold",
    "channel_by_id",
    "display_name",
    "fit",
    "interaction_expired",
    "item",
    "missing_permissions_text",
    "packed",
    "quote",
    "report_error",
    "require_bot_permissions",
    "send_ephemeral",
    "shown",
    "user_message_for",
]
