"""Text the bot shows: caps that keep every reply inside Discord's limits, and the ways user text
is quoted."""

from __future__ import annotations

import re

import discord

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


# Every character that marks text up is escaped wherever it stands. discord.utils.
# escape_markdown escapes a `*` only when another follows, and takes everything from a line's
# first `[` to its last `)` for one link whose inside it leaves as it is: a line naming two
# users' link-like names would keep the markdown typed between them.
_MARKUP = re.compile(r"([\\*_~|`])")
_LINE_START = re.compile(r"^(\s*)([>#+-])", re.MULTILINE)
# What the above and escape_mentions leave: masked links and bare URLs, mentions, channels,
# emoji and timestamps (all start with "<"), numbered lists.
_LINK = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(//)")
_ANGLE = re.compile(r"<")
_BRACKETS = re.compile(r"([\[\]])")
_NUMBERED = re.compile(r"^(\s*\d+)\.", re.MULTILINE)


def shown(text: str) -> str:
    """User text (a name above all) as it must appear in a message: as text, never as markdown,
    a link, a heading, a list, a quote, a spoiler, code, a timestamp, an emoji, a channel or a
    mention. Images draw the name itself; every message shows it through here."""
    text = _MARKUP.sub(r"\\\1", str(text))
    text = _LINE_START.sub(r"\1\\\2", text)
    text = discord.utils.escape_mentions(text)
    text = _BRACKETS.sub(r"\\\1", text)
    text = _LINK.sub(r"\1\\:\2", text)
    text = _ANGLE.sub(r"\\<", text)
    return _NUMBERED.sub(r"\1\\.", text)
