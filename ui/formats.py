"""Counting and listing in prose: `plural` and `human_join`, after RoboDanny's
cogs/utils/formats.py, so no message writes its own `'s' if n != 1 else ''` ternary. `plural` is
defined in rules/prose.py (the engines count in their event texts too) and used from here.

    f"{plural(3):team}"          -> "3 teams"
    f"{plural(1):match|matches}" -> "1 match"
    f"{plural(2):match|matches!}" -> "matches"  (the word alone)
    possessive("Bob's Bruisers")  -> "Bob's Bruisers'"
    human_join(["a", "b", "c"])  -> "a, b or c"
    timestamp(moment, "R")       -> "<t:1795839856:R>" (each reader's own time zone)
    due(moment)                  -> "<t:1795839856:R> (<t:1795839856:f>)": "in 2 days (Sunday 18:00)"
    span(3 * 3600 + 600)         -> "3 h 10 min"
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import discord

from rules.prose import plural, possessive, span
from ui.text import Markup

__all__ = ["due", "human_join", "plural", "possessive", "span", "timestamp"]


def timestamp(moment: float, style: discord.utils.TimestampStyle = "f") -> str:
    """A moment (seconds since the epoch) as a Discord timestamp: every reader sees it in their
    own time zone, and "R" counts down to it."""
    return discord.utils.format_dt(dt.datetime.fromtimestamp(moment, dt.UTC), style)


def due(moment: float) -> Markup:
    """When something is due, as a countdown and the moment: "in 2 days (Sunday 18:00)"."""
    return Markup(f"{timestamp(moment, 'R')} ({timestamp(moment, 'f')})")


def human_join(items: Sequence[str], delimiter: str = ", ", final: str = "or") -> str:
    """ "a", "a or b", "a, b or c" (`final` "and" for a list of everything)."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} {final} {items[1]}"
    return delimiter.join(items[:-1]) + f" {final} {items[-1]}"
