"""Text the bot shows: caps that keep every reply inside Discord's limits, and the one way user
text is shown (`shown`: as text; the bot's own markdown around it is `Markup`)."""

from __future__ import annotations

import re

import discord

from rules.errors import MAX_ECHO, cut
from rules.names import given_name

MAX_CONTENT = 2000  # Discord's limit for a message's content
MAX_QUOTE = MAX_ECHO  # how much of what a user typed is quoted back in an answer


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """What the user typed, as inline code, cut to `limit` characters so no answer that quotes
    it can outgrow a Discord message."""
    text = cut(text, limit).replace("`", "'").replace("\n", " ")
    return f"`{text}`"


FENCE = "```"  # a code block's opening or closing line


class Markup(str):
    """Text the bot wrote with its own markdown (a bold heading, a command in backticks, a
    timestamp) around user text already shown: `shown` returns it as it is. Made only by the
    bot's code, never from what a user typed; an f-string of it is a plain str again, so text
    composed around a shown name is wrapped in Markup where it is written."""


def packed(lines: list[str], limit: int = MAX_CONTENT) -> list[str]:
    """Lines packed into as few messages as possible, each line shown (`shown`: Markup as it
    is, anything else as text), each message at most `limit`
    characters (Discord's 2,000 for a message's content by default), never cutting a line (a
    line longer than the limit is cut at the limit). A ``` code block open at a cut is closed
    at the end of one message and reopened at the start of the next, so a table still reads
    as one in each; a message of nothing but blank lines and fences is not sent."""
    messages: list[str] = []
    current: list[str] = []
    size = 0
    in_code = False
    for raw in lines:
        line = shown(raw)[: limit - 8]
        reserve = len(FENCE) + 1 if in_code or line.startswith(FENCE) else 0
        if current and size + len(line) + 1 + reserve > limit:
            if in_code:
                current.append(FENCE)
            messages.append("\n".join(current))
            current, size = ([FENCE], len(FENCE) + 1) if in_code else ([], 0)
        current.append(line)
        size += len(line) + 1
        if line.startswith(FENCE):
            in_code = not in_code
    if current and any(x.strip() and x != FENCE for x in current):
        if in_code:
            current.append(FENCE)
        messages.append("\n".join(current))
    return messages


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """Cut a message to Discord's limit (the last safety net; answers are written to fit)."""
    return cut(text, limit)


# Every character that marks text up is escaped wherever it stands. discord.utils.
# escape_markdown escapes a `*` only when another follows, and takes everything from a line's
# first `[` to its last `)` for one link whose inside it leaves as it is: a line naming two
# users' link-like names would keep the markdown typed between them.
_MARKUP = re.compile(r"([\\*_~|`])")
_LINE_START = re.compile(r"^([^\S\n]*)([>#+-])", re.MULTILINE)
# What the above and escape_mentions leave: masked links and bare URLs, mentions, channels,
# emoji and timestamps (all start with "<"), numbered lists.
# Every pattern here is linear in the text (the escape runs on the event loop, over uploads of
# up to 100 KB): none repeats a part that can end where the next try starts. A bare link is
# defused at its "://" whatever the scheme before it (matching the scheme, a run of letters,
# retried the whole run from each of its letters); a line's leading blanks never span a line
# break (`\s*` after `^` did, retrying every blank line to the end of the text).
_LINK = re.compile(r":(?=//)")
_ANGLE = re.compile(r"<")
_BRACKETS = re.compile(r"([\[\]])")
_NUMBERED = re.compile(r"^([^\S\n]*\d+)\.", re.MULTILINE)
# Letters, digits and spaces alone mark nothing up: most names, shown on every card.
_PLAIN = re.compile(r"(?:[^\W_]| )*")


def shown(text: str) -> str:
    """User text (a name above all) as it must appear in a message: as text, never as markdown,
    a link, a heading, a list, a quote, a spoiler, code, a timestamp, an emoji, a channel or a
    mention. Images draw the name itself; every message shows it through here. What it returns
    is `Markup` (typed str, so a list of shown lines is a list[str]), and Markup (the bot's
    own, or text already shown) is returned as it is: showing twice shows once."""
    if isinstance(text, Markup):
        return text
    if _PLAIN.fullmatch(text := str(text)):
        return Markup(text)
    text = _MARKUP.sub(r"\\\1", text)
    text = _LINE_START.sub(r"\1\\\2", text)
    text = discord.utils.escape_mentions(text)
    text = _BRACKETS.sub(r"\\\1", text)
    text = _LINK.sub(r"\\:", text)
    text = _ANGLE.sub(r"\\<", text)
    return Markup(_NUMBERED.sub(r"\1\\.", text))


def bold(text: str) -> Markup:
    """A bold heading, its text shown."""
    return Markup(f"**{shown(text)}**")


def item(text: str) -> Markup:
    """A list item: the bot's bullet, the text shown."""
    return Markup(f"- {shown(text)}")


def display_name(user: discord.abc.User) -> str:
    """A member's name as every message and image shows it: their display name in the server,
    cleaned by the rule of every name (rules.names: no bidirectional overrides or zero-width
    characters, which would turn the text around it); a name of nothing visible becomes
    their username. Messages still show it through `shown`."""
    return given_name(user.display_name, given_name(user.name, f"user {user.id}"))
