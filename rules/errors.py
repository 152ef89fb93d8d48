"""The one base class of every mistake a player can make (an illegal move, bad notation, an
order the rules refuse), as avrae's d20 library has `RollError`.

Each game's engine raises its own subclass; the bot shows `str(error)` to the player who caused
it, ephemerally, and changes nothing. Anything that is not a PlayerError is a bug.
"""


class PlayerError(ValueError):
    """A mistake the player can fix: `str(error)` is a sentence written for them."""
