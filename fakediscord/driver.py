"""The test driver: act as Discord users (slash commands, clicks, selects, modals, messages)
and read what they see. This is what e2e tests use; see tests/README.md.

Every action sends the interaction exactly as Discord would, then waits for the bot's first
response (and, for a deferred one, its first followup or edit). If the bot breaks one of
Discord's rules while answering (too long, too late, answered twice...), the action raises
``DiscordViolation`` at once; anything a user could not do raises ``DriverError``.
"""

from __future__ import annotations

import copy
import io
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image

from fakediscord import limits, server
from fakediscord.days import DaysDriver
from fakediscord.messages import Attachment, Message, Reply
from fakediscord.model import (
    ADMINISTRATOR,
    DM,
    Channel,
    DiscordViolation,
    DriverError,
    Guild,
    StoredFile,
    Upload,
    User,
    Violation,
)
from fakediscord.server import FakeDiscord, InteractionRecord

T = TypeVar("T")
# How long the driver waits for what the bot shows after its first response (a followup, a
# post, a DM). Generous: only a failing test waits it out, and a CI machine at load average 4
# on two cores has taken over 10 s to post what follows a league's round.
DEFAULT_TIMEOUT = 20.0
# How long past Discord's 3 s deadline the driver waits before declaring "did not respond".
DEADLINE_GRACE = 0.25

OptionValue = str | int | float | bool | User | Channel | Upload | bytes | Path | Image.Image


class DiscordDriver(DaysDriver):
    """Drives the fake Discord as its users. One per test module (fixture ``discord``)."""

    fake: FakeDiscord

    def __init__(self, fake: FakeDiscord, default_channel: Channel) -> None:
        self.fake = fake
        self.default_channel = default_channel
        self._last_interaction_id = 0
        self._threads_before_last_interaction = 0

    # --- people and places -------------------------------------------------------------------

    @property
    def guild_id(self) -> int:
        """The first guild's id (``fake.guilds`` has every guild)."""
        return self.fake.guild.id

    @property
    def bot_user(self) -> User:
        return self.fake.bot_user

    def add_channel(self, name: str, *, deny_bot: int = 0, guild: Guild | None = None) -> Channel:
        """A new text channel in ``guild`` (default the first); tell the bot with a
        CHANNEL_CREATE. ``deny_bot`` takes permission bits (fakediscord.model.SEND_MESSAGES,
        ...) the bot lacks there."""

        async def create() -> Channel:
            channel = self.fake.add_channel(name, deny_bot=deny_bot, guild=guild)
            await self.fake.dispatch(
                "CHANNEL_CREATE", copy.deepcopy(self.fake.channels[channel.id])
            )
            return channel

        return self.fake.call_sync_coroutine(create)

    def add_user(self, name: str, *, permissions: int | None = None) -> User:
        """A new member of every guild (GUILD_MEMBER_ADD is sent for each; the bot sees it only
        with the members intent, but interactions carry the member anyway). ``permissions``:
        bits from fakediscord.model (e.g. ADMINISTRATOR); default an ordinary member."""

        async def create() -> User:
            if permissions is None:
                user = self.fake.add_user(name)
            else:
                user = self.fake.add_user(name, permissions=permissions)
            for guild in list(self.fake.guilds.values()):
                member = self.fake.member_json(user, guild=guild)
                await self.fake.dispatch("GUILD_MEMBER_ADD", {**member, "guild_id": str(guild.id)})
            return user

        return self.fake.call_sync_coroutine(create)

    def open_dm(self, user: User) -> Channel:
        """The user's DM channel with the bot (where they can run slash commands too)."""
        return self.fake.call_sync(lambda: self.fake.channel_handle(self.fake.dm_channel_for(user)))

    def close_dms(self, user: User) -> None:
        """The user blocks DMs from server members: the bot's DMs get 403 50007."""
        self.fake.call_sync(lambda: self.fake.closed_dms.add(user.id))

    def commands(self, *, guild: bool | None = None) -> list[dict[str, Any]]:
        """The synced command tree as Discord stores it (global + guild unless told)."""

        def read() -> list[dict[str, Any]]:
            scopes = {None: [None, self.guild_id], True: [self.guild_id], False: [None]}[guild]
            return copy.deepcopy(
                [command for scope in scopes for command in self.fake.commands.get(scope, [])]
            )

        return self.fake.call_sync(read)

    # --- interactions --------------------------------------------------------------------------

    async def slash(
        self,
        command: str,
        *,
        user: User,
        channel: Channel | None = None,
        options: dict[str, OptionValue] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        wait_followup: bool = True,
        settle: bool = True,
        **option_values: OptionValue,
    ) -> Reply:
        """Run ``/command`` ("rocketball challenge" for a subcommand) as ``user`` in
        ``channel`` (default #general). Options by name as keywords, or in ``options``
        (for names that are not Python identifiers). ``settle=False`` sends it without first
        waiting for the bot to be idle: many users acting at the same moment (benchmarks)."""
        channel = channel or self.default_channel
        values = {**(options or {}), **option_values}

        async def build() -> InteractionRecord:
            data = self._command_data(command, values, user, channel, focused=None)
            return self.fake.new_interaction(
                kind=server.APPLICATION_COMMAND, user=user, channel_id=channel.id, data=data
            )

        return await self._run(build, timeout=timeout, wait_followup=wait_followup, settle=settle)

    async def autocomplete(
        self,
        command: str,
        option: str,
        typed: str,
        *,
        user: User,
        channel: Channel | None = None,
        options: dict[str, OptionValue] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        **option_values: OptionValue,
    ) -> list[dict[str, Any]]:
        """What the bot suggests while ``user`` types ``typed`` into ``option`` of
        ``/command`` (other options already filled in as keywords). Returns the choices,
        each {"name": ..., "value": ...}."""
        channel = channel or self.default_channel
        values = {**(options or {}), **option_values, option: typed}

        async def build() -> InteractionRecord:
            data = self._command_data(command, values, user, channel, focused=option)
            return self.fake.new_interaction(
                kind=server.AUTOCOMPLETE, user=user, channel_id=channel.id, data=data
            )

        reply = await self._run(build, timeout=timeout, wait_followup=False)
        return list(reply.choices or [])

    async def click(
        self,
        message: Message | int,
        button: str | None = None,
        *,
        user: User,
        label: str | None = None,
        custom_id: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        wait_followup: bool = True,
        settle: bool = True,
        as_read: bool = False,
    ) -> Reply:
        """``user`` clicks the button with this custom_id or label on the message (as it is
        now, not as it was when the test read it), wherever it sits: in an action row, a
        container's row or beside a section's text. ``label=`` or ``custom_id=`` name it
        unambiguously. ``settle=False``: as for ``slash``. ``as_read=True``: on ``message``
        as the test read it, as several users clicking one card at once each click the card
        their client shows, though the bot may have edited it before the last click is sent
        (Discord delivers such a click with the message as it was)."""
        given = [value for value in (button, label, custom_id) if value is not None]
        if len(given) != 1:
            raise DriverError("name the button once: its label or custom_id")
        if as_read and not isinstance(message, Message):
            raise DriverError("as_read needs the message as the test read it, not its id")

        async def build() -> InteractionRecord:
            if as_read and isinstance(message, Message):
                current = message
            else:
                current = self._message_for_user(message, user)
            if label is not None:
                target = current.button_labelled(label)
            elif custom_id is not None:
                target = current.button_with_id(custom_id)
            else:
                target = current.button(given[0])
            button_name = given[0]
            if target.disabled:
                raise DriverError(f"the button {button_name!r} is disabled; a user cannot click it")
            if target.custom_id is None:
                raise DriverError(
                    f"the button {button_name!r} is a link ({target.url}), not an action"
                )
            data = {"custom_id": target.custom_id, "component_type": limits.BUTTON}
            return self.fake.new_interaction(
                kind=server.MESSAGE_COMPONENT,
                user=user,
                channel_id=current.channel_id,
                data=data,
                message=current.data,
            )

        return await self._run(build, timeout=timeout, wait_followup=wait_followup, settle=settle)

    async def select(
        self,
        message: Message | int,
        select: str | None,
        values: Iterable[str | User | Channel],
        *,
        user: User,
        timeout: float = DEFAULT_TIMEOUT,
        wait_followup: bool = True,
        settle: bool = True,
    ) -> Reply:
        """``user`` picks ``values`` (option values or labels; users or channels for those
        selects) in the select with this custom_id or placeholder (None: the only one).
        ``settle=False``: as for ``slash``."""

        async def build() -> InteractionRecord:
            current = self._message_for_user(message, user)
            target = current.select(select)
            if target.disabled:
                raise DriverError(f"the select {select!r} is disabled")
            chosen = list(values)
            if not target.min_values <= len(chosen) <= target.max_values:
                raise DriverError(
                    f"the select takes {target.min_values}-{target.max_values} values, "
                    f"not {len(chosen)}"
                )
            data: dict[str, Any] = {"custom_id": target.custom_id, "component_type": target.type}
            data["values"], resolved = self._select_values(target.type, target.options, chosen)
            if resolved:
                data["resolved"] = resolved
            return self.fake.new_interaction(
                kind=server.MESSAGE_COMPONENT,
                user=user,
                channel_id=current.channel_id,
                data=data,
                message=current.data,
            )

        return await self._run(build, timeout=timeout, wait_followup=wait_followup, settle=settle)

    async def submit_modal(
        self,
        modal_reply: Reply,
        values: dict[str, str | list[str]],
        *,
        user: User | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        wait_followup: bool = True,
    ) -> Reply:
        """Fill in and submit the modal the bot opened (``modal_reply.response_type == 9``).
        ``values`` maps each input's custom_id or label to the text typed (a list of values
        for a select in a modal). ``user`` defaults to whoever opened the modal."""
        modal = modal_reply.modal
        if modal is None:
            raise DriverError(
                f"the bot did not open a modal (response type {modal_reply.response_type})"
            )

        async def build() -> InteractionRecord:
            opener = self.fake.interactions[modal_reply.interaction_id]
            submitter = user or opener.user
            components = self._modal_answers(modal, values)
            data = {"custom_id": modal["custom_id"], "components": components}
            message = None
            if opener.message_id is not None:
                message = self.fake.messages[opener.message_id]
            return self.fake.new_interaction(
                kind=server.MODAL_SUBMIT,
                user=submitter,
                channel_id=opener.channel_id,
                data=data,
                message=message,
                from_component=opener.type == server.MESSAGE_COMPONENT,
            )

        return await self._run(build, timeout=timeout, wait_followup=wait_followup)

    async def send_message(self, channel: Channel, content: str, *, user: User) -> Message:
        """``user`` types a message in the channel (the bot gets MESSAGE_CREATE; it reads
        the content only with the message-content intent, as on Discord)."""

        async def post() -> Message:
            await self.fake.reopen_and_announce(channel.id)  # a message reopens a thread
            payload = {"content": content}
            message = self.fake.compose_message(channel.id, payload, {}, author=user)
            if message.get("guild_id"):
                member = self.fake.member_json(user, guild=self.fake.guild_of_channel(channel.id))
                member.pop("user", None)
                message["member"] = member
            await self.fake.store_message(message)
            return self._snapshot(int(message["id"]))

        return await self.fake.call(post)

    # --- reading --------------------------------------------------------------------------------

    def channel_messages(self, channel: Channel | None = None) -> list[Message]:
        """The messages everyone sees in a channel (not ephemeral ones), oldest first."""
        channel = channel or self.default_channel

        def read() -> list[Message]:
            return [
                self._snapshot(message_id)
                for message_id in self.fake.channel_messages.get(channel.id, [])
                if not self.fake.message_meta[message_id].deleted
                and self.fake.message_meta[message_id].ephemeral_for is None
            ]

        return self.fake.call_sync(read)

    def last_message(self, channel: Channel | None = None) -> Message:
        messages = self.channel_messages(channel)
        if not messages:
            raise DriverError("the channel has no messages")
        return messages[-1]

    async def whole(
        self,
        reply: Reply,
        until: Callable[[Reply], bool] | None = None,
        timeout: float = 10.0,
    ) -> Reply:
        """`reply` again with every message the bot has sent for its interaction: the driver
        returns at an answer's first message, and on a busy machine the rest (a team sheet's
        menus) come after. Waits for the bot to be idle and, first, when given, for
        `until(reply)` to hold: a bot whose event loop is held between two sends looks idle in
        between."""

        async def run() -> Reply:
            record = self.fake.interactions[reply.interaction_id]
            if until is not None:
                wanted: Callable[[Reply], bool] = until
                if not await self.fake.wait_until(lambda: wanted(self._reply(record)), timeout):
                    raise DriverError(f"the answer was not complete within {timeout} s")
            await self.fake.settle()
            return self._reply(record)

        return await self.fake.call(run)

    def message(self, message: Message | int) -> Message:
        """The message as it is now (after the bot's edits)."""
        message_id = message if isinstance(message, int) else message.id
        return self.fake.call_sync(lambda: self._snapshot(message_id))

    def dm_channel(self, user: User) -> Channel | None:
        """The bot's DM channel with this user, if the bot opened one."""

        def read() -> Channel | None:
            channel_id = self.fake.dm_channels.get(user.id)
            return None if channel_id is None else self.fake.channel_handle(channel_id)

        return self.fake.call_sync(read)

    def dm_messages(self, user: User) -> list[Message]:
        channel = self.dm_channel(user)
        return [] if channel is None else self.channel_messages(channel)

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        """Threads the bot created (under ``parent`` if given), oldest first."""

        def read() -> list[Channel]:
            return [
                self.fake.channel_handle(int(data["id"]))
                for data in self.fake.channels.values()
                if data["type"] in (11, 12)
                and (parent is None or int(data["parent_id"]) == parent.id)
            ]

        return self.fake.call_sync(read)

    def thread_members(self, thread: Channel) -> list[int]:
        return self.fake.call_sync(lambda: list(self.fake.channels[thread.id].get("members", [])))

    async def wait_for_message(
        self,
        channel: Channel | None = None,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        since: Message | int | None = None,
    ) -> Message:
        """The first message in the channel, newer than the last interaction the driver sent
        (or than ``since``), for which predicate(message) holds (as the message is now)."""
        channel = channel or self.default_channel
        return await self._wait_for(
            lambda: channel.id, predicate, timeout, since, f"#{channel.name}"
        )

    async def wait_for_dm(
        self,
        user: User,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        since: Message | int | None = None,
    ) -> Message:
        """Like wait_for_message, in the bot's DMs with ``user`` (opened or not yet)."""
        return await self._wait_for(
            lambda: self.fake.dm_channels.get(user.id),
            predicate,
            timeout,
            since,
            f"DMs of {user.name}",
        )

    async def wait_for_thread(
        self,
        parent: Channel | None = None,
        predicate: Callable[[Channel], bool] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Channel:
        """The first thread created (under ``parent``, default #general) since the last
        interaction the driver sent, for which predicate(thread) holds."""
        parent = parent or self.default_channel
        floor = self._threads_before_last_interaction

        def find() -> Channel | None:
            for thread_id in self.fake.thread_order[floor:]:
                data = self.fake.channels.get(thread_id)
                if data is None or int(data["parent_id"]) != parent.id:
                    continue
                thread = self.fake.channel_handle(thread_id)
                if predicate is None or predicate(thread):
                    return thread
            return None

        thread = await self._poll(find, timeout)
        if thread is None:
            self.fake.call_sync(lambda: self._raise_violations(None))
            raise TimeoutError(f"no new thread under #{parent.name} within {timeout} s")
        return thread

    async def wait_for_edit(
        self,
        message: Message,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """The message once the bot has changed it from the snapshot the test holds (and
        predicate(message) holds): for games that edit a message in place."""

        def changed() -> Message | None:
            current = self._snapshot(message.id)
            if current.data != message.data and (predicate is None or predicate(current)):
                return current
            return None

        current = await self._poll(changed, timeout)
        if current is None:
            self.fake.call_sync(lambda: self._raise_violations(None))
            raise TimeoutError(f"the message {message.id} was not edited within {timeout} s")
        return current

    async def _poll(self, find: Callable[[], T | None], timeout: float) -> T | None:
        """Run `find` on the fake's loop until it returns something, the bot breaks a rule
        (the caller then raises the violation), or `timeout` runs out (None)."""

        async def wait() -> T | None:
            found: list[T] = []

            def check() -> bool:
                item = find()
                if item is not None:
                    found.append(item)
                return bool(found) or any(not v.consumed for v in self.fake.violations)

            await self.fake.wait_until(check, timeout)
            return found[0] if found else None

        return await self.fake.call(wait)

    async def _wait_for(
        self,
        channel_id: Callable[[], int | None],
        predicate: Callable[[Message], bool] | None,
        timeout: float,
        since: Message | int | None,
        where: str,
    ) -> Message:
        if since is None:
            floor = self._last_interaction_id
        else:
            floor = since if isinstance(since, int) else since.id

        def find() -> Message | None:
            for message_id in self.fake.channel_messages.get(channel_id() or 0, []):
                meta = self.fake.message_meta[message_id]
                if message_id <= floor or meta.deleted or meta.ephemeral_for is not None:
                    continue
                snapshot = self._snapshot(message_id)
                if predicate is None or predicate(snapshot):
                    return snapshot
            return None

        message = await self._poll(find, timeout)
        if message is None:
            self.fake.call_sync(lambda: self._raise_violations(None))
            raise TimeoutError(f"no matching message in {where} within {timeout} s")
        return message

    # --- strictness ------------------------------------------------------------------------------

    def violations(self) -> list[Violation]:
        """Rules the bot broke that no test has looked at yet."""
        return self.fake.call_sync(lambda: [v for v in self.fake.violations if not v.consumed])

    def take_violations(self) -> list[Violation]:
        """Return the unseen violations and mark them seen (they no longer fail the test)."""

        def take() -> list[Violation]:
            taken = [v for v in self.fake.violations if not v.consumed]
            for violation in taken:
                violation.consumed = True
            return taken

        return self.fake.call_sync(take)

    async def wait_for_violation(self, timeout: float = 5.0) -> list[Violation]:
        """Wait for the bot to break a rule (for tests of the harness, or of a bot that must
        be shown to fail); return the unseen violations and mark them seen."""

        async def wait() -> list[Violation]:
            await self.fake.wait_until(
                lambda: any(not v.consumed for v in self.fake.violations), timeout
            )
            taken = [v for v in self.fake.violations if not v.consumed]
            for violation in taken:
                violation.consumed = True
            return taken

        taken = await self.fake.call(wait)
        if not taken:
            raise AssertionError(f"the bot broke no rule within {timeout} s")
        return taken

    async def drop_gateway(self, code: int = 4000, timeout: float = 10.0) -> None:
        """Close the bot's websocket as Discord does now and then, and wait until the bot has
        RESUMEd its session (discord.py reconnects by itself)."""

        async def drop() -> bool:
            resumes = self.fake.resume_count
            session = self.fake.session
            if session is None or session.connection is None:
                raise DriverError("the bot is not connected")
            await session.connection.socket.close(code=code, message=b"fake: reconnect")
            return await self.fake.wait_until(
                lambda: self.fake.resume_count > resumes and self.fake.bot_connected, timeout
            )

        if not await self.fake.call(drop):
            raise TimeoutError(f"the bot did not resume within {timeout} s")

    # --- internals -------------------------------------------------------------------------------

    async def _run(
        self,
        build: Callable[[], Any],
        *,
        timeout: float,
        wait_followup: bool,
        settle: bool = True,
    ) -> Reply:
        if not self.fake.connected_sessions():
            raise DriverError("the bot is not connected to the fake Discord")

        async def run() -> Reply:
            if settle:
                await self.fake.settle()
            record = await build()
            # sharded: the process that gets this channel's events must be connected
            guild = self.fake.guild_of_channel(record.channel_id)
            if not self.fake.guild_connected(guild.id if guild else None):
                record.awaiting = False
                raise DriverError("the bot is not connected to the fake Discord")
            self._last_interaction_id = record.id
            self._threads_before_last_interaction = len(self.fake.thread_order)
            await self.fake.before_interaction(record)
            await self.fake.send_interaction(record)
            try:
                return await self._await_reply(record, timeout, wait_followup)
            finally:
                record.awaiting = False

        return await self.fake.call(run)

    async def _await_reply(
        self, record: InteractionRecord, timeout: float, wait_followup: bool
    ) -> Reply:
        """Runs on the fake's loop: wait for the response, then (deferred) its first sequel."""
        fake = self.fake

        def broke_rules() -> bool:
            return any(v.interaction_id == record.id and not v.consumed for v in fake.violations)

        await fake.wait_until(
            lambda: record.response_type is not None or broke_rules(),
            fake.response_deadline + DEADLINE_GRACE,
        )
        if record.response_type is None and not broke_rules():
            fake.record_violation(
                "no_response",
                f"the bot did not respond within {fake.response_deadline:.0f} s; the user "
                "sees 'The application did not respond'",
                route="INTERACTION",
                interaction=record,
            )
        self._raise_violations(record)
        deferred = record.response_type in (
            server.DEFERRED_CHANNEL_MESSAGE,
            server.DEFERRED_UPDATE_MESSAGE,
        )
        if deferred and wait_followup:
            arrived = await fake.wait_until(
                lambda: self._sequel_arrived(record) or broke_rules(), timeout
            )
            self._raise_violations(record)
            if not arrived and record.response_type == server.DEFERRED_UPDATE_MESSAGE:
                # legal (a silent acknowledgement), but it cost the test the whole timeout
                warnings.warn(
                    f"the bot deferred an update and showed nothing within {timeout} s; if "
                    "that is intended, pass wait_followup=False to skip the wait",
                    stacklevel=1,
                )
            if not arrived and record.response_type == server.DEFERRED_CHANNEL_MESSAGE:
                fake.record_violation(
                    "deferred_without_followup",
                    f"the bot deferred but sent nothing within {timeout} s; the user sees "
                    "'Ballcourt is thinking...' until it fails",
                    route="INTERACTION",
                    interaction=record,
                )
                self._raise_violations(record)
        return self._reply(record)

    def _sequel_arrived(self, record: InteractionRecord) -> bool:
        """Whether a deferred interaction has shown what it deferred: for a command ("thinking"),
        its own loading message replaced (by an edit or the first followup) or a followup of its
        own, never another message the bot happens to post meanwhile (a previous test's match
        finishing in the same channel); for a component, the bot's next visible message."""
        if record.response_type != server.DEFERRED_CHANNEL_MESSAGE:
            return bool(record.activity)
        original = self.fake.messages.get(record.original_message_id or 0)
        loading = original is None or bool(original["flags"] & limits.FLAG_LOADING)
        return not loading or bool(record.followup_ids)

    def _raise_violations(self, record: InteractionRecord | None) -> None:
        """Raise every unseen violation (of this interaction, or all if None)."""
        pending = [
            v
            for v in self.fake.violations
            if not v.consumed and (record is None or v.interaction_id in (record.id, None))
        ]
        if not pending:
            return
        for violation in pending:
            violation.consumed = True
        if record is not None:
            record.failed = True
        raise DiscordViolation(pending)

    def _reply(self, record: InteractionRecord) -> Reply:
        main_id: int | None = None
        if record.response_type in (server.CHANNEL_MESSAGE, server.UPDATE_MESSAGE):
            main_id = record.original_message_id
        elif record.response_type == server.DEFERRED_CHANNEL_MESSAGE:
            original = self.fake.messages.get(record.original_message_id or 0)
            if original is not None and not original["flags"] & limits.FLAG_LOADING:
                main_id = record.original_message_id
            elif record.followup_ids:
                main_id = record.followup_ids[0]
            else:
                main_id = record.original_message_id
        elif record.response_type == server.DEFERRED_UPDATE_MESSAGE:
            main_id = record.activity[0] if record.activity else record.message_id
        # what it showed while the driver waited, and its followups since (`whole`)
        followups = tuple(
            self._snapshot(message_id)
            for message_id in dict.fromkeys([*record.activity, *record.followup_ids])
            if message_id != main_id
        )
        if main_id is not None:
            base = self._snapshot(main_id)
            data, attachments = base.data, base.attachments
            ephemeral_for, deleted = base.ephemeral_for, base.deleted
        else:
            data = {"id": "0", "channel_id": str(record.channel_id), "author": {"id": "0"}}
            attachments, ephemeral_for, deleted = (), None, False
        return Reply(
            data=data,
            attachments=attachments,
            ephemeral_for=ephemeral_for,
            deleted=deleted,
            response_type=record.response_type or 0,
            interaction_id=record.id,
            modal=copy.deepcopy(record.modal),
            choices=copy.deepcopy(record.choices),
            followups=followups,
        )

    def _snapshot(self, message_id: int) -> Message:
        data = self.fake.messages.get(message_id)
        if data is None:
            raise DriverError(f"no message {message_id}")
        meta = self.fake.message_meta[message_id]
        attachments = []
        for item in data.get("attachments") or []:
            stored = self.fake.files[int(item["id"])]
            attachments.append(
                Attachment(
                    id=stored.id,
                    filename=stored.filename,
                    content_type=stored.content_type,
                    size=len(stored.data),
                    url=stored.url,
                    data=stored.data,
                )
            )
        return Message(
            data=copy.deepcopy(data),
            attachments=tuple(attachments),
            ephemeral_for=meta.ephemeral_for,
            deleted=meta.deleted,
        )

    def _message_for_user(self, message: Message | int, user: User) -> Message:
        current = self._snapshot(message if isinstance(message, int) else message.id)
        if current.deleted:
            raise DriverError("that message was deleted")
        if current.ephemeral_for is not None and current.ephemeral_for != user.id:
            raise DriverError(f"{user.name} cannot see that ephemeral message")
        if current.loading:
            raise DriverError("that message is still 'thinking' (a deferred response)")
        return current

    # command data ------------------------------------------------------------------------------

    def _visible_commands(self, channel: Channel) -> list[dict[str, Any]]:
        commands = list(self.fake.commands.get(None, []))
        if channel.type != DM:
            commands += self.fake.commands.get(channel.guild_id or self.guild_id, [])
        return commands

    def _command_data(
        self,
        command: str,
        values: dict[str, Any],
        user: User,
        channel: Channel,
        focused: str | None,
    ) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        if not words:
            raise DriverError("empty command")
        matches = [
            c
            for c in self._visible_commands(channel)
            if c["name"] == words[0] and c.get("type", 1) == 1
        ]
        if not matches:
            names = sorted(c["name"] for c in self._visible_commands(channel))
            raise DriverError(f"no /{words[0]} command is synced here; Discord shows {names}")
        top = matches[-1]  # a guild command shadows a global one of the same name
        self._check_may_use(top, user, channel)
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        node = top
        container = data
        for word in words[1:]:
            children = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
            child = next((o for o in children if o["name"] == word), None)
            if child is None:
                raise DriverError(
                    f"/{top['name']} has no subcommand {word!r}; it has "
                    f"{[o['name'] for o in children]}"
                )
            entry = {"name": child["name"], "type": child["type"], "options": []}
            container.setdefault("options", []).append(entry)
            container, node = entry, child
        if any(o["type"] in (1, 2) for o in node.get("options") or []):
            raise DriverError(
                f"/{command} needs a subcommand: {[o['name'] for o in node.get('options') or []]}"
            )
        options = node.get("options") or []
        known = {o["name"]: o for o in options}
        for name in values:
            if name not in known:
                raise DriverError(f"/{command} has no option {name!r}; it has {list(known)}")
        filled = []
        for option in options:
            name = option["name"]
            if name not in values:
                if option.get("required") and focused is None:
                    raise DriverError(f"/{command} needs the option {name!r}")
                continue
            if name == focused:
                if not option.get("autocomplete"):
                    raise DriverError(f"the option {name!r} of /{command} has no autocomplete")
                filled.append(
                    {"name": name, "type": option["type"], "value": values[name], "focused": True}
                )
                continue
            filled.append(
                {
                    "name": name,
                    "type": option["type"],
                    "value": self._option_value(option, values[name], resolved, channel),
                }
            )
        container.setdefault("options", []).extend(filled)
        if not container["options"]:
            container.pop("options")
        if resolved:
            data["resolved"] = resolved
        return data

    def _check_may_use(self, command: dict[str, Any], user: User, channel: Channel) -> None:
        """Discord hides a command from members without its default_member_permissions and
        outside its contexts (0 guild, 1 bot DM, 2 private channel)."""
        if channel.type == DM:
            contexts = command.get("contexts")
            if (contexts is not None and 1 not in contexts) or command.get(
                "dm_permission"
            ) is False:
                raise DriverError(f"/{command['name']} is not available in DMs")
            return
        if command.get("contexts") is not None and 0 not in command["contexts"]:
            raise DriverError(f"/{command['name']} is not available in servers")
        required = command.get("default_member_permissions")
        if required is None:
            return
        granted = self.fake.member_permissions_in(user, channel.id)
        if granted & ADMINISTRATOR:
            return
        if int(required) == 0 or granted & int(required) != int(required):
            raise DriverError(
                f"{user.name} cannot see /{command['name']}: it needs permissions {required}"
            )

    def _option_value(
        self,
        option: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        channel: Channel,
    ) -> Any:
        kind = option["type"]
        name = option["name"]
        choices = option.get("choices") or []
        if choices:
            for choice in choices:
                if value in (choice["value"], choice["name"]):
                    return choice["value"]
            raise DriverError(
                f"{value!r} is not a choice of {name!r}: "
                f"{[(c['name'], c['value']) for c in choices]}"
            )
        if kind == limits.STRING:
            if not isinstance(value, str):
                raise DriverError(f"option {name!r} takes text, not {value!r}")
            if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
                raise DriverError(f"option {name!r}: Discord will not send {len(value)} characters")
            return value
        if kind in (limits.INTEGER, limits.NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise DriverError(f"option {name!r} takes a number, not {value!r}")
            if kind == limits.INTEGER and not isinstance(value, int):
                raise DriverError(f"option {name!r} takes a whole number, not {value!r}")
            if "min_value" in option and value < option["min_value"]:
                raise DriverError(f"option {name!r} must be at least {option['min_value']}")
            if "max_value" in option and value > option["max_value"]:
                raise DriverError(f"option {name!r} must be at most {option['max_value']}")
            return value
        if kind == limits.BOOLEAN:
            if not isinstance(value, bool):
                raise DriverError(f"option {name!r} takes True or False")
            return value
        if kind in (limits.USER_OPTION, limits.MENTIONABLE) and isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.to_json()
            if channel.type != DM and value.id in self.fake.members:
                member = self.fake.member_json(value, channel.id)
                member.pop("user", None)
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if kind == limits.CHANNEL_OPTION and isinstance(value, Channel):
            data = self.fake.channels[value.id]
            allowed = option.get("channel_types")
            if allowed and data["type"] not in allowed:
                raise DriverError(f"option {name!r} takes channels of types {allowed}")
            entry = {
                "id": str(value.id),
                "name": data.get("name"),
                "type": data["type"],
                "permissions": str(self.fake.bot_permissions_in(value.id)),
            }
            for key in ("parent_id", "thread_metadata", "guild_id"):
                if key in data:
                    entry[key] = copy.deepcopy(data[key])
            resolved.setdefault("channels", {})[str(value.id)] = entry
            return str(value.id)
        if kind == limits.ROLE_OPTION and isinstance(value, int):
            guild = self.fake.guild_of_channel(channel.id)
            roles = {int(role["id"]): role for role in self.fake.roles_json(guild)}
            if value not in roles:
                raise DriverError(f"no role {value}")
            resolved.setdefault("roles", {})[str(value)] = roles[value]
            return str(value)
        if kind == limits.ATTACHMENT:
            stored = self._upload(value)
            resolved.setdefault("attachments", {})[str(stored.id)] = stored.to_json()
            return str(stored.id)
        raise DriverError(f"option {name!r} (type {kind}) cannot take {value!r}")

    def _upload(self, value: Any) -> StoredFile:
        """A file the user attaches; the fake serves it at its URL for the bot to download."""
        if isinstance(value, Path):
            value = Upload.from_path(value)
        elif isinstance(value, bytes):
            value = Upload("upload.bin", value)
        elif isinstance(value, Image.Image):
            buffer = io.BytesIO()
            value.save(buffer, format="PNG")
            value = Upload("upload.png", buffer.getvalue(), "image/png")
        if not isinstance(value, Upload):
            raise DriverError(
                f"an attachment option takes an Upload, bytes, Path or image, not {value!r}"
            )
        file_id = self.fake.ids.next()
        stored = StoredFile(
            id=file_id,
            filename=value.filename,
            content_type=value.content_type,
            data=value.data,
            url=f"http://{self.fake.host}:{self.fake.port}/attachments/{file_id}/{value.filename}",
        )
        stored.extra.update(server._image_size(value.data))
        stored.extra["ephemeral"] = True  # as Discord marks a slash command's attachment
        self.fake.files[file_id] = stored
        return stored

    def _select_values(
        self, kind: int, options: tuple, chosen: list[Any]
    ) -> tuple[list[str], dict[str, dict[str, Any]]]:
        resolved: dict[str, dict[str, Any]] = {}
        if kind == limits.STRING_SELECT:
            values = []
            for item in chosen:
                option = next((o for o in options if item in (o.value, o.label)), None)
                if option is None:
                    raise DriverError(
                        f"{item!r} is not an option: {[(o.label, o.value) for o in options]}"
                    )
                values.append(option.value)
            return values, resolved
        values = []
        for item in chosen:
            if isinstance(item, User) and kind in (limits.USER_SELECT, limits.MENTIONABLE_SELECT):
                resolved.setdefault("users", {})[str(item.id)] = item.to_json()
                if item.id in self.fake.members:
                    member = self.fake.member_json(item)
                    member.pop("user", None)
                    resolved.setdefault("members", {})[str(item.id)] = member
                values.append(str(item.id))
            elif isinstance(item, Channel) and kind == limits.CHANNEL_SELECT:
                data = self.fake.channels[item.id]
                resolved.setdefault("channels", {})[str(item.id)] = {
                    "id": str(item.id),
                    "name": data.get("name"),
                    "type": data["type"],
                    "permissions": str(self.fake.bot_permissions_in(item.id)),
                }
                values.append(str(item.id))
            else:
                raise DriverError(f"{item!r} cannot be picked in a select of type {kind}")
        return values, resolved

    def _modal_answers(
        self, modal: dict[str, Any], values: dict[str, str | list[str]]
    ) -> list[dict[str, Any]]:
        """The modal's components as Discord echoes them on submit, with the typed values."""
        used: set[str] = set()

        def answer(component: dict[str, Any], label: str | None) -> dict[str, Any]:
            custom_id = component.get("custom_id")
            key = next(
                (k for k in (custom_id, label, component.get("label")) if k and k in values),
                None,
            )
            if key is not None:
                used.add(key)
            if component.get("type") == limits.TEXT_INPUT:
                text = (
                    values.get(key, component.get("value") or "")
                    if key
                    else component.get("value") or ""
                )
                if not isinstance(text, str):
                    raise DriverError(f"the text input {custom_id!r} takes text")
                if component.get("required", True) and not text:
                    raise DriverError(f"the modal's input {label or custom_id!r} is required")
                minimum = component.get("min_length", 0)
                maximum = component.get("max_length", limits.MAX_TEXT_INPUT_LENGTH)
                if text and not minimum <= len(text) <= maximum:
                    raise DriverError(
                        f"the input {label or custom_id!r} takes {minimum}-{maximum} characters"
                    )
                return {"type": limits.TEXT_INPUT, "custom_id": custom_id, "value": text}
            picked = values.get(key, []) if key else []
            return {
                "type": component.get("type"),
                "custom_id": custom_id,
                "values": list(picked) if not isinstance(picked, str) else [picked],
            }

        result = []
        for component in modal.get("components") or []:
            if component.get("type") == limits.ACTION_ROW:
                result.append(
                    {
                        "type": limits.ACTION_ROW,
                        "components": [
                            answer(child, child.get("label"))
                            for child in component.get("components") or []
                        ],
                    }
                )
            elif component.get("type") == limits.LABEL:
                result.append(
                    {
                        "type": limits.LABEL,
                        "component": answer(
                            component.get("component") or {}, component.get("label")
                        ),
                    }
                )
        unknown = set(values) - used
        if unknown:
            raise DriverError(f"the modal has no inputs {sorted(unknown)}")
        return result
