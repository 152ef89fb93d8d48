"""Plain records shared by the fake Discord server and the test driver.

``User``, ``Channel`` and ``Guild`` are handles a test holds (alice, #general); the server keeps
the full JSON Discord would send. ``Violation`` is one thing the bot did that Discord would
have refused; ``Upload`` is a file a test user attaches to a slash command.
``InteractionRecord`` and ``MessageMeta`` are what the server keeps of an interaction and of a
message beyond its JSON: every part of the server names them, so they stand below all parts.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord.clock import CLOCK

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits the harness reasons about (Discord's permission table).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
# What an ordinary member (and the bot's own role) may do in the test guild.
MEMBER_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


class SnowflakeFactory:
    """Real-looking snowflakes (timestamp in the top bits) so discord.py's created_at works."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0

    def next(self) -> int:
        with self._lock:
            milliseconds = int(CLOCK.time() * 1000) - DISCORD_EPOCH_MS
            # strictly increasing even within one millisecond (ids order messages)
            self._last = max(self._last + 1, milliseconds << 22)
            return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose guild would be routed to shard ``shard_id`` of ``shard_count``:
        Discord's rule is ``(guild_id >> 22) % shard_count``, so the timestamp part is moved
        up by at most ``shard_count - 1`` milliseconds. Still unique and increasing."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
        with self._lock:
            milliseconds = int(CLOCK.time() * 1000) - DISCORD_EPOCH_MS
            candidate = max(self._last + 1, milliseconds << 22)
            timestamp = candidate >> 22
            if timestamp % shard_count != shard_id:
                timestamp += (shard_id - timestamp) % shard_count
                candidate = timestamp << 22
            self._last = candidate
            return candidate


@dataclass(frozen=True)
class User:
    """A Discord user as a test sees it."""

    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(frozen=True)
class Channel:
    """A channel (guild text channel, thread or DM) as a test sees it."""

    id: int
    name: str
    type: int
    guild_id: int | None = None
    parent_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM


@dataclass(frozen=True)
class Guild:
    """A guild (server) as a test sees it. Its @everyone role has the guild's id; the bot's
    managed role is ``bot_role_id`` (each guild has its own)."""

    id: int
    name: str
    owner_id: int
    bot_role_id: int = 0

    @property
    def everyone_role_id(self) -> int:
        return self.id


@dataclass(frozen=True)
class Upload:
    """A file a test user attaches to a slash command's attachment option."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"

    @classmethod
    def from_path(cls, path: str | Path, content_type: str | None = None) -> Upload:
        path = Path(path)
        guessed = {".png": "image/png", ".gif": "image/gif", ".txt": "text/plain"}.get(
            path.suffix.lower(), "application/octet-stream"
        )
        return cls(path.name, path.read_bytes(), content_type or guessed)


@dataclass
class Violation:
    """Something the bot did that Discord would have refused (or a user would have seen fail).

    ``code`` and ``body`` are what the fake answered, exactly as Discord would.
    """

    kind: str
    description: str
    route: str
    status: int | None = None
    body: dict[str, Any] | None = None
    interaction_id: int | None = None
    consumed: bool = False

    @property
    def code(self) -> int | None:
        return None if self.body is None else self.body.get("code")

    def __str__(self) -> str:
        where = f" [{self.route}]" if self.route else ""
        status = f" -> HTTP {self.status} code {self.code}" if self.status else ""
        return f"{self.kind}{where}{status}: {self.description}"


class DiscordViolation(AssertionError):
    """Raised in a test when the bot broke one of Discord's rules; fails the test."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        lines = "\n".join(f"  - {violation}" for violation in violations)
        super().__init__(f"The bot broke Discord's rules:\n{lines}")

    @property
    def kinds(self) -> list[str]:
        return [violation.kind for violation in self.violations]

    @property
    def codes(self) -> list[int | None]:
        return [violation.code for violation in self.violations]


class DriverError(Exception):
    """The test asked for something a Discord user cannot do (a bug in the test, or a
    bot that does not offer what the test expects: no such command, button or option)."""


@dataclass
class StoredFile:
    """An uploaded attachment the fake serves back at its URL."""

    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None
    url: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description:
            payload["description"] = self.description
        payload.update(self.extra)
        return payload


@dataclass
class MessageMeta:
    """What the fake knows about a stored message beyond its JSON."""

    ephemeral_for: int | None = None  # the only user who sees an ephemeral message
    deleted: bool = False
    token: str | None = None  # the interaction token that created it (webhook edits)
    version: int = 0  # bumped on every edit


@dataclass
class InteractionRecord:
    """One interaction the driver sent, and everything the bot did in answer."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    payload: dict[str, Any]
    created: float  # monotonic
    message_id: int | None = None  # the message a component sits on
    from_component: bool = False  # a modal submit whose modal was opened from a component
    response_type: int | None = None
    responded: float | None = None  # monotonic: when the first response had arrived in full
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    # messages the bot produced after responding: followups, edits and posts in this channel
    activity: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    failed: bool = False  # a violation already failed the test for this interaction
    awaiting: bool = True  # the driver is still waiting for the bot's answer
    # when Discord issued it, on the fake's clock: its token lasts 15 minutes (days.py)
    issued_at: float = field(default_factory=CLOCK.time)
