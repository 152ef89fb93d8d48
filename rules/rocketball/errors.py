"""The one exception the Rocketball engine raises for a move the rules do not allow."""

from rules.errors import PlayerError


class RocketballError(PlayerError):
    """An illegal action. `str(error)` is a sentence a Discord user understands; the state the
    action was applied to is left untouched."""
