"""The e2e harness: a fake Discord server (server.py, gateway.py, limits.py), the bot as a
subprocess (botproc.py) and the test driver (driver.py, messages.py). Fixtures are in
tests/e2e/conftest.py; the how-to is tests/README.md."""

from tests.e2e.harness.driver import DiscordDriver
from tests.e2e.harness.messages import Attachment, Button, Message, Reply, Select
from tests.e2e.harness.model import (
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
