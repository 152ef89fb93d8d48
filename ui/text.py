"""Text the bot shows: caps that keep every reply inside Discord's limits, and the ways user text
is quoted."""

from __future__ import annotations

MAX_CONTENT = 2000  # Discord's limit for a message's content
MAX_QUOTE = 60  # how much of what a user typed is quoted back in an answer


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """What the user typed, as inline code, cut to `limit` characters so no answer that quotes
    it can outgrow a Discord message."""
    text = text.replace("`", "'").replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"`{text}`"


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """Cut a message to Discord's limit (the last safety net; answers are written to fit)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
