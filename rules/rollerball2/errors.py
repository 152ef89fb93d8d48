"""The error a coach sees when an action is not allowed."""


class RollerballError(ValueError):
    """An illegal coach action or setup; the message is written for the Discord user."""
