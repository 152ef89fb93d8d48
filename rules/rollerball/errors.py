"""The one exception the Rollerball board-game engine raises for an action the rules do not allow."""

from rules.errors import PlayerError


class RollerballBoardError(PlayerError):
    """An illegal action. `str(error)` is a sentence a Discord user understands, saying what is
    allowed; the state the action was applied to is left untouched."""
