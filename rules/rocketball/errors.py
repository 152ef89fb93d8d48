"""The one exception the Rocketball engine raises for a move the rules do not allow."""


class RocketballError(Exception):
    """An illegal action. `str(error)` is a sentence a Discord user understands; the state the
    action was applied to is left untouched."""
