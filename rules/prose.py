"""Counting in prose: `plural`, after RoboDanny's cogs/utils/formats.py, so no message writes its
own `'s' if n != 1 else ''` ternary. It lives in rules/ because the engines' event texts count
too (rules imports nothing of ours); the Discord layer has it as `ui.formats.plural`.

    f"{plural(3):team}"          -> "3 teams"
    f"{plural(1):match|matches}" -> "1 match"
    f"{plural(2):match|matches!}" -> "matches"  (the word alone)
    f"{plural(2):has|have!}"      -> "have"
    possessive("Bob's Bruisers")  -> "Bob's Bruisers'" (and "Houston's")
"""

from __future__ import annotations


class plural:
    """A count that words itself in a format spec: `singular` or `singular|plural`, with a
    trailing `!` for the word without the number."""

    def __init__(self, value: float) -> None:
        self.value = value

    def __format__(self, format_spec: str) -> str:
        value = self.value
        bare = format_spec.endswith("!")
        if bare:
            format_spec = format_spec[:-1]
        singular, _, many = format_spec.partition("|")
        many = many or f"{singular}s"
        word = singular if abs(value) == 1 else many
        return word if bare else f"{value} {word}"


def possessive(name: str) -> str:
    """A name's possessive as English writes it: "Houston's", but "Bob's Bruisers'" (no
    "Bruisers's")."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def span(seconds: float) -> str:
    """A length of time as people read it: '2 d 3 h', '5 h 10 min', '12 min'."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"
