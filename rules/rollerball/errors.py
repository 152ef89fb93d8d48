"""The one exception the Rollerball board-game engine raises for an action the rules do not allow."""


class RollerballBoardError(Exception):
    """An illegal action. `str(error)` is a sentence a Discord user understands, saying what is
    allowed; the state the action was applied to is left untouched."""
