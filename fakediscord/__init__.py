"""The e2e harness: a fake Discord server (server.py, gateway.py, limits.py), the bot as a
subprocess (botproc.py) and the test driver (driver.py, messages.py). Fixtures are in
tests/e2e/conftest.py; the how-to is tests/README.md."""

from fakediscord.driver import DiscordDriver
from fakediscord.messages import Attachment, Button, Message, Reply, Select
from fakediscord.model import (
    Channel,
    DiscordViolation,
    DriverError,
    Upload,
    User,
    Violation,
)

__all__ = [
    "Attachment",
    "Button",
    "Channel",
    "DiscordDriver",
    "DiscordViolation",
    "DriverError",
    "Message",
    "Reply",
    "Select",
    "Upload",
    "User",
    "Violation",
]
