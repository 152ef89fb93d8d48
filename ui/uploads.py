"""Reading a file a user attached to a command: one reader, one size limit.

The size is checked before a byte is downloaded (Discord tells it), the bytes are decoded as
UTF-8 (a byte-order mark is dropped, as spreadsheets and Notepad write one), and every refusal
says what was wrong and what to send instead. Nothing here knows what the text is for.
"""

from __future__ import annotations

import discord

from ui.replies import UserError
from ui.text import quote

MAX_UPLOAD_BYTES = 100 * 1024  # a round's forms or a roster are a few KB


def kilobytes(size: int) -> str:
    return f"{size / 1024:.0f} KB"


async def read_upload(
    attachment: discord.Attachment,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    what: str = "file",
    suffixes: tuple[str, ...] = (),
) -> str:
    """The attachment's text, or UserError: over `max_bytes` (refused before it is read), a
    name not ending in one of `suffixes` (when given), or not UTF-8 text. `what` names the
    expected content in the messages ("order forms", "a roster")."""
    name = quote(attachment.filename)
    if attachment.size > max_bytes:
        raise UserError(
            f"{name} is {kilobytes(attachment.size)}: send at most {kilobytes(max_bytes)} "
            f"({what} fit in a few KB). Nothing was read."
        )
    if suffixes and not attachment.filename.lower().endswith(suffixes):
        raise UserError(
            f"{name} is not a {' or '.join(suffixes)} file: send {what} as plain text. "
            "Nothing was read."
        )
    data = await attachment.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(
            f"{name} is not plain text (UTF-8): save {what} as UTF-8 text and send it again. "
            "Nothing was read."
        ) from None
