"""The error a coach sees when an action is not allowed."""

from rules.errors import PlayerError


class RollerballError(PlayerError):
    """An illegal coach action or setup; the message is written for the Discord user."""
