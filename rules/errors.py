"""The one base class of every mistake a player can make (an illegal move, bad notation, an
order the rules refuse), as avrae's d20 library has `RollError`.

Each game's engine raises its own subclass; the bot shows `str(error)` to the player who caused
it, ephemerally, and changes nothing. Anything that is not a PlayerError is a bug.
"""


class PlayerError(ValueError):
    """A mistake the player can fix: `str(error)` is a sentence written for them."""


MAX_ECHO = 60  # how much of what a player sent a refusal repeats


def cut(text: object, limit: int = MAX_ECHO) -> str:
    """`text` cut to `limit` characters (the last an ellipsis when cut)."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def echoed(text: object, limit: int = MAX_ECHO) -> str:
    """What a player sent, as a refusal repeats it: quoted, and cut to `limit` characters, so
    a refusal stays a sentence however long the word, line or file that caused it."""
    return repr(cut(text, limit))
