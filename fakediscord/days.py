"""What Discord does as days pass and as people act around the bot: idle threads archive,
interaction tokens expire, and a moderator takes a permission away, deletes a message, a thread
or a channel, or removes the bot from the server. A mixin of ``FakeDiscord`` (the fake's side)
and ``DaysDriver`` (what a test calls, through the driver).

Time is the fake's clock (``clock.CLOCK``): a test moves it with ``discord.pass_time``; the
sandbox's "+1 day" moves it too. What depends on it is evaluated when the clock moves and again
before each request and interaction (``archive_idle_threads``), so a thread is archived exactly
when Discord would have archived it, whoever looks first.

Discord's documentation, modelled here:

- Threads (topics/threads, "Thread Fields" and "Auto Archive"): a thread stops being active,
  it is archived, after ``auto_archive_duration`` minutes without activity; "activity" is a
  message sent in it, unarchiving it, or changing its auto-archive time. ``archive_timestamp``
  is when its archive status last changed. Sending a message in an archived thread that is not
  locked unarchives it; so does PATCH /channels/{id} with ``archived: false``. Anything else
  that changes it (editing a message, a reaction) is refused with 400 and JSON error code
  50083, "Operation was performed on an archived thread" (topics/opcodes-and-status-codes,
  "JSON Error Codes"). Discord's clients unarchive a thread before they send an interaction
  from it, so a click in an archived thread reaches the bot with the thread open again.
- Interactions (interactions/receiving-and-responding, "Followup Messages"): "Interaction
  tokens are valid for 15 minutes"; after that every webhook endpoint of the token (edit the
  original response, followups, their edits) answers 401 with JSON error code 50027, "Invalid
  Webhook Token".
- Permissions (topics/permissions; topics/opcodes-and-status-codes): without View Channel the
  bot gets 403 50001 "Missing Access" for anything in the channel (its threads too); without
  the permission an action needs, 403 50013 "Missing Permissions". A change of a channel's
  overwrites reaches the bot as CHANNEL_UPDATE.
- Deletions: a deleted message is 404 10008 "Unknown Message" (MESSAGE_DELETE reaches the
  bot); a deleted thread or channel is 404 10003 "Unknown Channel" (THREAD_DELETE /
  CHANNEL_DELETE). A bot removed from a guild gets GUILD_DELETE (without ``unavailable``) and
  404 10004 "Unknown Guild" / 50001 for its channels until it is invited again (GUILD_CREATE).
  A member who leaves a guild: GUILD_MEMBER_REMOVE, 404 10007 "Unknown Member"; a DM to a user
  who shares no guild with the bot is refused, 403 50007 "Cannot send messages to this user";
  a bot opening DMs too fast gets 403 40003 "You are opening direct messages too fast"
  (topics/opcodes-and-status-codes, "JSON Error Codes").
"""

from __future__ import annotations

import copy
import datetime
import heapq
from typing import TYPE_CHECKING, Any

from fakediscord.clock import CLOCK
from fakediscord.errors import RequestError
from fakediscord.model import (
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    VIEW_CHANNEL,
    Channel,
    DriverError,
    Guild,
    User,
)
from fakediscord.parts import Parts

if TYPE_CHECKING:
    from fakediscord.messages import Message
    from fakediscord.model import InteractionRecord

TOKEN_LIFETIME_SECONDS = 15 * 60
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)


def _iso(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).isoformat()


def is_thread(data: dict[str, Any]) -> bool:
    return data.get("type") in THREAD_TYPES


class Days(Parts):
    """A mixin of ``FakeDiscord``: threads archiving, tokens expiring, a moderator's actions."""

    # --- threads ----------------------------------------------------------------------------

    def note_thread_activity(self, channel_id: int) -> None:
        """A message was sent in the thread (or it was unarchived, or its auto-archive time
        changed): its idle time starts again."""
        if is_thread(self.channels.get(channel_id) or {}):
            self.thread_active_at[channel_id] = CLOCK.time()
            self.watch_thread(channel_id)

    def watch_thread(self, channel_id: int) -> None:
        """Queue the open thread's archiving: its last activity (now, for a thread the fake has
        not seen active, such as one read back from the sandbox's saved world) plus its
        ``auto_archive_duration``. Call it whenever either changes or the thread reopens.

        The queue is ordered by that moment, so finding the threads that are due looks at
        those alone, however many threads there are (a walk over every channel was paid on
        every request). A thread's earlier places in the queue are left behind and skipped
        when they come up (``archive_due`` holds its current one); when they outnumber the
        threads watched, the queue is rebuilt from ``archive_due``, so it stays proportional
        to the threads."""
        data = self.channels.get(channel_id) or {}
        if not is_thread(data) or data["thread_metadata"].get("archived"):
            return
        since = self.thread_active_at.setdefault(channel_id, CLOCK.time())
        due = since + int(data["thread_metadata"]["auto_archive_duration"]) * 60
        self.archive_due[channel_id] = due
        heapq.heappush(self.archive_queue, (due, channel_id))
        if len(self.archive_queue) > 2 * len(self.archive_due) + 64:
            self.archive_queue = [(when, thread) for thread, when in self.archive_due.items()]
            heapq.heapify(self.archive_queue)

    def _archive_idle(self) -> list[dict[str, Any]]:
        """Archive the threads whose idle time is over, earliest first; each is archived at
        the moment it was due (its ``archive_timestamp``), whenever the fake looks."""
        now = CLOCK.time()
        queue = self.archive_queue
        archived = []
        while queue and queue[0][0] <= now:
            due, channel_id = heapq.heappop(queue)
            if self.archive_due.get(channel_id) != due:
                continue  # active since: its current place is later in the queue
            del self.archive_due[channel_id]
            data = self.channels.get(channel_id) or {}
            if not is_thread(data) or data["thread_metadata"].get("archived"):
                continue  # deleted, or archived by a moderator meanwhile
            data["thread_metadata"]["archived"] = True
            data["thread_metadata"]["archive_timestamp"] = _iso(due)
            archived.append(data)
        return archived

    async def archive_idle_threads(self) -> None:
        """Archive every thread idle for its auto_archive_duration on the fake's clock, and
        tell the bot (THREAD_UPDATE), as Discord does when it archives one."""
        for data in self._archive_idle():
            await self.dispatch("THREAD_UPDATE", copy.deepcopy(data))

    async def archive_thread(self, channel_id: int) -> bool:
        """A moderator archives a thread (Modify Channel with ``archived: true``, which Manage
        Threads allows on any thread: topics/threads, "Thread Fields"), as Discord's idle timer
        would: the bot is told (THREAD_UPDATE). True if it was open."""
        data = self.channels.get(channel_id) or {}
        if not is_thread(data) or data["thread_metadata"].get("archived"):
            return False
        data["thread_metadata"]["archived"] = True
        data["thread_metadata"]["archive_timestamp"] = _iso(CLOCK.time())
        await self.dispatch("THREAD_UPDATE", copy.deepcopy(data))
        return True

    def reopen_thread(self, channel_id: int) -> bool:
        """Unarchive the thread if it is archived and not locked (a message sent in it, or a
        client about to send an interaction from it); True if it was archived."""
        data = self.channels.get(channel_id) or {}
        if not is_thread(data):
            return False
        metadata = data["thread_metadata"]
        if not metadata.get("archived") or metadata.get("locked"):
            return False
        metadata["archived"] = False
        metadata["archive_timestamp"] = _iso(CLOCK.time())
        self.note_thread_activity(channel_id)
        return True

    async def reopen_and_announce(self, channel_id: int) -> None:
        if self.reopen_thread(channel_id):
            await self.dispatch("THREAD_UPDATE", copy.deepcopy(self.channels[channel_id]))

    def refuse_if_archived(self, channel_id: int) -> None:
        """An edit (or a reaction) in an archived thread: 400 50083."""
        data = self.channels.get(channel_id) or {}
        if is_thread(data) and data["thread_metadata"].get("archived"):
            raise RequestError(
                400,
                {"message": "Operation was performed on an archived thread", "code": 50083},
            )

    async def before_interaction(self, record: InteractionRecord) -> None:
        """What a Discord client does before it sends an interaction: threads idle for long
        enough are archived, and the one the interaction comes from is opened again. Someone
        who left the server can no longer use anything in it."""
        guild = self.guild_of_channel(record.channel_id)
        if guild is not None and (guild.id, record.user.id) in self.departed:
            record.awaiting = False
            raise DriverError(f"{record.user.name} left that server")
        await self.archive_idle_threads()
        if self.reopen_thread(record.channel_id):
            data = self.channels[record.channel_id]
            await self.dispatch("THREAD_UPDATE", copy.deepcopy(data))
            record.payload["channel"] = copy.deepcopy(data)

    # --- interaction tokens --------------------------------------------------------------------

    def check_token_alive(self, record: InteractionRecord) -> None:
        """An interaction's token 15 minutes after it was issued: 401 50027."""
        if CLOCK.time() - record.issued_at >= TOKEN_LIFETIME_SECONDS:
            raise RequestError(401, {"message": "Invalid Webhook Token", "code": 50027})

    # --- permissions and deletions --------------------------------------------------------------

    def require_view(self, channel_id: int) -> None:
        """Without View Channel (on the channel, or a thread's parent): 403 50001."""
        data = self.channels.get(channel_id) or {}
        if data.get("guild_id") and int(data["guild_id"]) in self.removed_from:
            raise RequestError(403, {"message": "Missing Access", "code": 50001})
        if data.get("guild_id") and not self.bot_permissions_in(channel_id) & VIEW_CHANNEL:
            raise RequestError(403, {"message": "Missing Access", "code": 50001})

    async def set_bot_overwrite(self, channel_id: int, *, deny: int, allow: int = 0) -> None:
        """The bot's role's overwrite in a text channel (its threads inherit it) becomes
        `deny`/`allow`; the bot hears CHANNEL_UPDATE."""
        data = self.channels[channel_id]
        guild = self.guilds[int(data["guild_id"])]
        others = [
            o
            for o in data.get("permission_overwrites") or []
            if int(o["id"]) not in (guild.bot_role_id, self.application_id)
        ]
        if deny or allow:
            others.append(
                {"id": str(guild.bot_role_id), "type": 0, "allow": str(allow), "deny": str(deny)}
            )
        data["permission_overwrites"] = others
        await self.dispatch("CHANNEL_UPDATE", copy.deepcopy(data))

    async def moderator_deletes_message(self, message_id: int) -> None:
        message = self.messages[message_id]
        self.message_meta[message_id].deleted = True
        event = {"id": message["id"], "channel_id": message["channel_id"]}
        if message.get("guild_id"):
            event["guild_id"] = message["guild_id"]
        await self.dispatch("MESSAGE_DELETE", event)

    async def moderator_deletes_channel(self, channel_id: int) -> None:
        """A thread or a text channel (and its threads) is deleted."""
        data = self.channels.pop(channel_id)
        event = {key: data.get(key) for key in ("id", "guild_id", "parent_id", "type")}
        if is_thread(data):
            await self.dispatch("THREAD_DELETE", event)
            return
        for thread_id in [
            i for i, d in self.channels.items() if d.get("parent_id") == str(channel_id)
        ]:
            self.channels.pop(thread_id)
        await self.dispatch("CHANNEL_DELETE", copy.deepcopy(data))

    def refuse_dm(self, recipient: int) -> None:
        """A DM the bot sends: 403 50007 if the user closed their DMs or shares no server with
        the bot; 403 40003 while Discord finds the bot opens DMs too fast (a test's switch)."""
        if recipient in self.closed_dms or not self.shares_a_server(recipient):
            raise RequestError(403, {"message": "Cannot send messages to this user", "code": 50007})
        if self.dms_too_fast:
            raise RequestError(
                403, {"message": "You are opening direct messages too fast.", "code": 40003}
            )

    def shares_a_server(self, user_id: int) -> bool:
        """Whether the user and the bot are both in some server: without one, Discord refuses
        the bot's DMs (50007) unless the user installed the app."""
        return any(
            guild_id not in self.removed_from and (guild_id, user_id) not in self.departed
            for guild_id in self.guilds
        )

    async def member_leaves(self, guild: Guild, user: User) -> None:
        """A member leaves (or is kicked from) a server: GUILD_MEMBER_REMOVE; fetching them
        there is 404 10007."""
        self.departed.add((guild.id, user.id))
        await self.dispatch(
            "GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": user.to_json()}
        )

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked: GUILD_DELETE without `unavailable`; its channels refuse it."""
        self.removed_from.add(guild.id)
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    async def invite_bot_again(self, guild: Guild) -> None:
        self.removed_from.discard(guild.id)
        await self.dispatch("GUILD_CREATE", self.joined_guild_json(guild))


class DaysDriver:
    """What a test does to make time pass or to act as a moderator (a mixin of
    ``DiscordDriver``; every call returns once the bot has been told)."""

    fake: Days  # the FakeDiscord it drives, as far as this mixin reaches

    if TYPE_CHECKING:

        def message(self, message: Message | int) -> Message: ...  # DiscordDriver's

    def pass_time(self, seconds: float) -> None:
        """Move the fake's clock forward: threads idle for their auto_archive_duration are
        archived (the bot gets THREAD_UPDATE) and interaction tokens older than 15 minutes
        expire. The bot's own wall clock does not move (its timers are made due through its
        database, tests/e2e/stored.py); the e2e conftest puts the clock back after each module."""
        if seconds <= 0:
            raise ValueError("time only moves forward")

        async def move() -> None:
            CLOCK.offset += seconds
            await self.fake.archive_idle_threads()

        self.fake.call_sync_coroutine(move)

    def thread_archived(self, thread: Channel) -> bool:
        def read() -> bool:
            data = self.fake.channels.get(thread.id)
            return bool(data and data["thread_metadata"].get("archived"))

        return self.fake.call_sync(read)

    def ephemerals(self, user: User) -> list[Message]:
        """The ephemeral messages `user` was shown (responses and followups), oldest first."""

        def read() -> list[int]:
            return [
                message_id
                for message_id, meta in self.fake.message_meta.items()
                if meta.ephemeral_for == user.id and not meta.deleted
            ]

        return [self.message(message_id) for message_id in sorted(self.fake.call_sync(read))]

    def deny_bot(self, channel: Channel, permissions: int) -> None:
        """A moderator takes `permissions` (bits from fakediscord.model) from the bot's role in
        a text channel and its threads; `deny_bot(channel, 0)` gives them back."""
        channel_id = channel.parent_id or channel.id
        self.fake.call_sync_coroutine(
            lambda: self.fake.set_bot_overwrite(channel_id, deny=permissions)
        )

    def delete_message(self, message: Message | int) -> None:
        """A moderator deletes a message (the bot gets MESSAGE_DELETE; then 10008)."""
        message_id = message if isinstance(message, int) else message.id
        self.fake.call_sync_coroutine(lambda: self.fake.moderator_deletes_message(message_id))

    def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes a thread or a text channel (then 10003)."""
        self.fake.call_sync_coroutine(lambda: self.fake.moderator_deletes_channel(channel.id))

    def dms_too_fast(self, refused: bool = True) -> None:
        """While on, every DM the bot sends is refused with 403 40003 ("You are opening
        direct messages too fast")."""

        def switch() -> None:
            self.fake.dms_too_fast = refused

        self.fake.call_sync(switch)

    def member_leaves(self, guild: Guild, user: User) -> None:
        """A member leaves the server: GUILD_MEMBER_REMOVE; they can no longer act there, and
        the bot's DMs to them fail (50007) unless they share another server with it."""
        self.fake.call_sync_coroutine(lambda: self.fake.member_leaves(guild, user))

    def remove_bot(self, guild: Guild) -> None:
        """The bot is removed from the server (GUILD_DELETE); `invite_bot` brings it back."""
        self.fake.call_sync_coroutine(lambda: self.fake.remove_bot(guild))

    def invite_bot(self, guild: Guild) -> None:
        self.fake.call_sync_coroutine(lambda: self.fake.invite_bot_again(guild))
